//! Shanten, waits and ukeire (issue 2).
//!
//! Standard form: the replacement number from the per-group tables in
//! [`super::shanten_table`] combined by [`super::shanten_combo`], minus one. Chiitoitsu and kokushi by direct counting. All
//! three respect the four-tile limit of each kind, so a hand whose only completion is a
//! fifth copy of a kind it holds four of is not tenpai (Tenhou).

use super::shanten_combo::replacement;
use crate::engine::tile::KINDS;

/// What [`shanten`] returns for input outside its contract.
pub(crate) const INVALID: i8 = i8::MAX;

/// Terminal and honor kinds (1m 9m 1p 9p 1s 9s E S W N P F C).
const YAOCHU: [usize; 13] = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];

/// One discard candidate of a `3k+2` concealed part, as returned by
/// [`super::discard_choices`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DiscardChoice {
    /// Kind discarded (`0..34`).
    pub discard: u8,
    /// Shanten of the remaining `3k+1` tiles.
    pub shanten: i8,
    /// Kinds whose draw would lower that shanten (bit `k` for kind `k`).
    pub ukeire_kinds: u64,
    /// Tiles of those kinds not yet visible (sum of `4 - visible[k]`).
    pub ukeire_tiles: u32,
}

/// Tile count of a valid concealed part: each count `<= 4`, `1..=14` tiles, not `3k`.
fn valid_total(counts: &[u8; KINDS]) -> Option<usize> {
    let mut n = 0usize;
    for &c in counts {
        if c > 4 {
            return None;
        }
        n += c as usize;
    }
    (n > 0 && n <= 14 && !n.is_multiple_of(3)).then_some(n)
}

/// See [`super::shanten`].
pub(crate) fn shanten(counts: &[u8; KINDS], melds: u8) -> i8 {
    let Some(n) = valid_total(counts) else { return INVALID };
    let s = standard(counts, n / 3);
    if melds == 0 && n >= 13 && s > 0 {
        s.min(chiitoitsu(counts)).min(kokushi(counts))
    } else {
        s
    }
}

/// Standard form (`k` mentsu and a pair) shanten of a valid concealed part.
fn standard(counts: &[u8; KINDS], k: usize) -> i8 {
    replacement(counts, k) as i8 - 1
}

/// Chiitoitsu shanten of 13 or 14 tiles. Tenhou: seven *different* pairs, so a quad is
/// one pair and a missing kind costs an extra tile.
fn chiitoitsu(counts: &[u8; KINDS]) -> i8 {
    let pairs = counts.iter().filter(|&&c| c >= 2).count() as i8;
    let kinds = counts.iter().filter(|&&c| c >= 1).count() as i8;
    6 - pairs + (7 - kinds).max(0)
}

/// Kokushi shanten of 13 or 14 tiles: thirteen yaochuu kinds plus one more of any of them.
fn kokushi(counts: &[u8; KINDS]) -> i8 {
    let kinds = YAOCHU.iter().filter(|&&k| counts[k] >= 1).count() as i8;
    let pair = YAOCHU.iter().any(|&k| counts[k] >= 2);
    13 - kinds - i8::from(pair)
}

/// See [`super::waits`]. Only kinds that can complete the hand are tried: a standard-form
/// winning tile shares a mentsu or the pair with held tiles, so it lies within two of a held
/// kind of its suit; chiitoitsu waits on a held kind; kokushi on a yaochuu kind.
pub(crate) fn waits(counts: &[u8; KINDS], melds: u8) -> u64 {
    let Some(n) = valid_total(counts) else { return 0 };
    if n % 3 != 1 || shanten(counts, melds) != 0 {
        return 0;
    }
    let mut candidates = 0u64;
    for k in (0..KINDS).filter(|&k| counts[k] > 0) {
        if k >= 27 {
            candidates |= 1 << k;
        } else {
            let suit = k / 9 * 9;
            (k.saturating_sub(2).max(suit)..=(k + 2).min(suit + 8)).for_each(|t| candidates |= 1 << t);
        }
    }
    if melds == 0 && n == 13 {
        candidates |= YAOCHU.iter().fold(0, |m, &k| m | 1 << k);
    }
    let mut c = *counts;
    let mut mask = 0u64;
    for k in (0..KINDS).filter(|&k| candidates & (1 << k) != 0 && counts[k] < 4) {
        c[k] += 1;
        if shanten(&c, melds) == -1 {
            mask |= 1 << k;
        }
        c[k] -= 1;
    }
    mask
}

/// See [`super::ukeire`].
pub(crate) fn ukeire(counts: &[u8; KINDS], melds: u8, visible: &[u8; KINDS]) -> (u64, u32) {
    match valid_total(counts) {
        Some(n) if n % 3 == 1 => lowering(counts, melds, shanten(counts, melds), visible),
        _ => (0, 0),
    }
}

/// Kinds whose draw takes a valid `3k+1` part below shanten `base`, and their unseen tiles.
fn lowering(counts: &[u8; KINDS], melds: u8, base: i8, visible: &[u8; KINDS]) -> (u64, u32) {
    let mut c = *counts;
    let (mut mask, mut tiles) = (0u64, 0u32);
    for k in 0..KINDS {
        if c[k] >= 4 {
            continue;
        }
        c[k] += 1;
        if shanten(&c, melds) < base {
            mask |= 1 << k;
            tiles += u32::from(4u8.saturating_sub(visible[k]));
        }
        c[k] -= 1;
    }
    (mask, tiles)
}

/// See [`super::discard_choices`].
pub(crate) fn discard_choices(counts: &[u8; KINDS], melds: u8, visible: &[u8; KINDS]) -> Vec<DiscardChoice> {
    if valid_total(counts).is_none_or(|n| n % 3 != 2) {
        return Vec::new();
    }
    let mut c = *counts;
    let mut out = Vec::new();
    for k in 0..KINDS {
        if c[k] == 0 {
            continue;
        }
        c[k] -= 1;
        let s = shanten(&c, melds);
        let (ukeire_kinds, ukeire_tiles) = lowering(&c, melds, s, visible);
        out.push(DiscardChoice { discard: k as u8, shanten: s, ukeire_kinds, ukeire_tiles });
        c[k] += 1;
    }
    out
}

#[cfg(test)]
#[path = "shanten_tests.rs"]
mod tests;
