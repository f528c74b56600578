//! Author tokens: 32 random bytes from the operating system's generator, shown once as 64
//! hex digits and stored only as their sha256. A token has 256 bits of entropy, so its
//! hash cannot be reversed by guessing: no salt or slow key derivation is needed (those
//! protect low-entropy passwords).

use rand::TryRngCore;

/// Bytes of randomness in a token.
pub const TOKEN_BYTES: usize = 32;

/// A new token, as the author will send it (`Authorization: Bearer TOKEN`): 64 hex digits.
/// Errors: the operating system's random generator failed.
pub fn new_token() -> std::io::Result<String> {
    let mut bytes = [0u8; TOKEN_BYTES];
    rand::rngs::OsRng.try_fill_bytes(&mut bytes).map_err(std::io::Error::other)?;
    Ok(hex::encode(bytes))
}

/// The stored form of a token: its sha256, hex.
pub fn token_hash(token: &str) -> String {
    mjai_sim_tournament::store::sha256_hex(token.as_bytes())
}

/// Whether `text` has a token's shape (64 lowercase hex digits): anything else is refused
/// before the store is asked.
pub fn looks_like_token(text: &str) -> bool {
    text.len() == TOKEN_BYTES * 2 && text.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_64_hex_digits_and_differ() {
        let (a, b) = (new_token().unwrap(), new_token().unwrap());
        assert!(looks_like_token(&a) && looks_like_token(&b));
        assert_ne!(a, b);
        assert_eq!(token_hash(&a).len(), 64);
        assert_ne!(token_hash(&a), a);
        assert!(!looks_like_token("abc"));
        assert!(!looks_like_token(&"G".repeat(64)));
    }
}
