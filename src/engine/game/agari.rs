//! Shape checks the referee needs on every turn: is a concealed part complete, and which
//! kinds complete it. Counts per tile kind; melds only shorten the concealed part.
//!
//! Kept apart from `hand::shanten` on purpose: these are exact yes/no answers (standard
//! form, chiitoitsu, kokushi) used for legality and furiten, while `hand` scores.

use crate::engine::tile::KINDS;

/// True when the counts (3n+2 tiles) form four-sets-and-a-pair, chiitoitsu (seven distinct
/// pairs, 14 tiles) or kokushi musou (14 tiles).
pub fn is_agari(c: &[u8; KINDS]) -> bool {
    let total: u8 = c.iter().sum();
    if total % 3 != 2 {
        return false;
    }
    if total == 14 && (is_chiitoitsu(c) || is_kokushi(c)) {
        return true;
    }
    let mut c = *c;
    for pair in 0..KINDS {
        if c[pair] >= 2 {
            c[pair] -= 2;
            let ok = sets_only(&mut c.clone());
            c[pair] += 2;
            if ok {
                return true;
            }
        }
    }
    false
}

/// Bitmask of kinds that complete a 3n+1 concealed part. A kind the part already holds
/// four of is not a wait (Tenhou: no tenpai on a fifth tile).
pub fn waits(c: &[u8; KINDS]) -> u64 {
    let mut out = 0u64;
    let mut c = *c;
    for k in 0..KINDS {
        if c[k] >= 4 {
            continue;
        }
        c[k] += 1;
        if is_agari(&c) {
            out |= 1 << k;
        }
        c[k] -= 1;
    }
    out
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

fn is_chiitoitsu(c: &[u8; KINDS]) -> bool {
    c.iter().filter(|&&n| n == 2).count() == 7
}

fn is_kokushi(c: &[u8; KINDS]) -> bool {
    (0..KINDS).filter(|&k| is_yaochuu_kind(k)).all(|k| c[k] >= 1) && is_kokushi_shape(c)
}

fn sets_only(c: &mut [u8; KINDS]) -> bool {
    let Some(k) = c.iter().position(|&n| n > 0) else { return true };
    if c[k] >= 3 {
        c[k] -= 3;
        let ok = sets_only(c);
        c[k] += 3;
        if ok {
            return true;
        }
    }
    if k < 27 && k % 9 <= 6 && c[k + 1] > 0 && c[k + 2] > 0 {
        c[k] -= 1;
        c[k + 1] -= 1;
        c[k + 2] -= 1;
        let ok = sets_only(c);
        c[k] += 1;
        c[k + 1] += 1;
        c[k + 2] += 1;
        return ok;
    }
    false
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
