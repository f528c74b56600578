//! Tokens of remote seats: random, compared in constant time, read from the
//! `Authorization: Bearer TOKEN` header (never from a URL).

use axum::http::HeaderMap;
use rand::Rng;

/// A fresh random token: 32 lowercase hex digits (128 bits).
pub fn random_token() -> String {
    let bytes: [u8; 16] = rand::rng().random();
    hex::encode(bytes)
}

/// The token of an `Authorization: Bearer TOKEN` header, if there is exactly one such header.
pub fn bearer(headers: &HeaderMap) -> Option<&str> {
    let mut values = headers.get_all(axum::http::header::AUTHORIZATION).iter();
    let value = values.next()?;
    if values.next().is_some() {
        return None;
    }
    let token = value.to_str().ok()?.strip_prefix("Bearer ")?.trim();
    (!token.is_empty()).then_some(token)
}

/// True when `given` equals `expected`, in time independent of where they differ.
pub fn same_token(given: &str, expected: &str) -> bool {
    let (a, b) = (given.as_bytes(), expected.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bearer_tokens_are_read_from_one_header_only() {
        let mut h = HeaderMap::new();
        assert_eq!(bearer(&h), None);
        h.insert("authorization", "Bearer abc".parse().unwrap());
        assert_eq!(bearer(&h), Some("abc"));
        h.append("authorization", "Bearer def".parse().unwrap());
        assert_eq!(bearer(&h), None, "two headers are refused");
        let mut basic = HeaderMap::new();
        basic.insert("authorization", "Basic abc".parse().unwrap());
        assert_eq!(bearer(&basic), None);
    }

    #[test]
    fn tokens_compare_exactly() {
        let t = random_token();
        assert_eq!(t.len(), 32);
        assert!(same_token(&t, &t.clone()));
        assert!(!same_token(&t, &t[..31]));
        assert!(!same_token("abcd", "abce"));
        assert_ne!(random_token(), t);
    }
}
