//! Small shape facts the referee needs besides `hand::shanten`/`hand::waits`: the
//! kokushi shape (only kokushi may rob an ankan, under `Rules::kokushi_robs_ankan`) and the
//! yaochuu count (kyuushu kyuuhai).

use crate::tile::KINDS;

/// True when every tile held is a terminal or honor (a kokushi musou shape).
pub fn is_kokushi_shape(c: &[u8; KINDS]) -> bool {
    c.iter().enumerate().all(|(k, &n)| n == 0 || is_yaochuu_kind(k))
}

/// Number of distinct terminal and honor kinds held (kyuushu kyuuhai needs 9).
pub fn yaochuu_kinds(c: &[u8; KINDS]) -> usize {
    (0..KINDS).filter(|&k| is_yaochuu_kind(k) && c[k] > 0).count()
}

fn is_yaochuu_kind(k: usize) -> bool {
    k >= 27 || k.is_multiple_of(9) || k % 9 == 8
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tile::{parse_compact, to_counts};

    fn counts(s: &str) -> [u8; KINDS] {
        to_counts(&parse_compact(s).unwrap())
    }

    #[test]
    fn kokushi_shape_and_yaochuu_kinds() {
        assert!(is_kokushi_shape(&counts("19m19p19s2345677z")));
        assert!(!is_kokushi_shape(&counts("19m19p19s234567z2m")));
        assert_eq!(yaochuu_kinds(&counts("19m19p19s1234z5m5m")), 10);
        assert_eq!(yaochuu_kinds(&counts("11m234567p2345s")), 1);
    }
}
