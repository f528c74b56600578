//! Shape checks the referee needs on every turn: is a concealed part complete, and which
//! kinds complete it. Counts per tile kind; melds only shorten the concealed part.
//!
//! Thin referee-facing wrappers over the table-driven `hand::shanten` / `hand::waits` (the
//! meld count is implied by the tile count), plus the kokushi and kyuushu shape checks.

use crate::engine::hand;
use crate::engine::tile::KINDS;

/// True when the counts (3n+2 tiles) form four-sets-and-a-pair, chiitoitsu (seven distinct
/// pairs, 14 tiles) or kokushi musou (14 tiles). Uses the table-driven [`hand::shanten`].
pub fn is_agari(c: &[u8; KINDS]) -> bool {
    let total: u8 = c.iter().sum();
    total % 3 == 2 && total <= 14 && hand::shanten(c, (14 - total) / 3) == -1
}

/// Bitmask of kinds that complete a 3n+1 concealed part. A kind the part already holds
/// four of is not a wait (Tenhou: no tenpai on a fifth tile). Uses [`hand::waits`].
pub fn waits(c: &[u8; KINDS]) -> u64 {
    let total: u8 = c.iter().sum();
    if total % 3 != 1 || total > 13 {
        return 0;
    }
    hand::waits(c, (13 - total) / 3)
}

/// True when the counts are thirteen-orphans tenpai or complete (used for chankan on ankan).
pub fn is_kokushi_shape(c: &[u8; KINDS]) -> bool {
    c.iter().enumerate().all(|(k, &n)| n == 0 || is_yaochuu_kind(k))
}

/// Number of distinct terminal and honor kinds held (kyuushu kyuuhai needs 9).
pub fn yaochuu_kinds(c: &[u8; KINDS]) -> usize {
    (0..KINDS).filter(|&k| is_yaochuu_kind(k) && c[k] > 0).count()
}

fn is_yaochuu_kind(k: usize) -> bool {
    k >= 27 || k % 9 == 0 || k % 9 == 8
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::tile::{parse_compact, to_counts};

    fn counts(s: &str) -> [u8; KINDS] {
        to_counts(&parse_compact(s).unwrap())
    }

    #[test]
    fn complete_shapes() {
        assert!(is_agari(&counts("123m456p789s11122z")));
        assert!(!is_agari(&counts("1122334455667z")));
        assert!(is_agari(&counts("11223344556677z")));
        assert!(is_agari(&counts("19m19p19s12345677z")));
        assert!(!is_agari(&counts("123m456p789s1123z")));
        assert!(is_agari(&counts("22m")));
    }

    #[test]
    fn waits_of_classic_shapes() {
        // 1112345678999m: junsei chuuren waits on all nine.
        assert_eq!(waits(&counts("1112345678999m")), 0x1ff);
        // 23m: 1m and 4m.
        assert_eq!(waits(&counts("23m456p789s11122z")), 0b1001);
        // Holding four 1m cannot wait on a fifth: no tenpai.
        assert_eq!(waits(&counts("1111m")), 0);
        assert_eq!(waits(&counts("1112m")), 0b110);
        assert_eq!(yaochuu_kinds(&counts("19m19p19s1234z5m5m")), 10);
    }
}
