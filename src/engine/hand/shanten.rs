//! Shanten, waits and ukeire (issue 2).
//!
//! Standard form: the replacement number from the per-group tables in
//! [`super::shanten_table`] combined by [`super::shanten_combo`], minus one. Chiitoitsu
//! and kokushi by counting pairs and kinds. All three respect the four-tile limit of each kind, so a hand whose only completion is a
//! fifth copy of a kind it holds four of is not tenpai (Tenhou).

use super::shanten_combo::{group_class, replacement_of};
use crate::tile::KINDS;

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
    let Some(tiles) = valid_total(counts) else { return INVALID };
    let classes = [0, 1, 2, 3].map(|g| group_class(counts, g));
    let standard = replacement_of(&classes, tiles / 3) as i8 - 1;
    if melds == 0 && tiles >= 13 && standard > 0 {
        // Two plain counting passes: faster here than building PairStats.
        let pairs = counts.iter().filter(|&&c| c >= 2).count() as i8;
        let kinds = counts.iter().filter(|&&c| c >= 1).count() as i8;
        let yaochu_kinds = YAOCHU.iter().filter(|&&k| counts[k] >= 1).count() as i8;
        let yaochu_pair = YAOCHU.iter().any(|&k| counts[k] >= 2);
        let chiitoitsu = 6 - pairs + (7 - kinds).max(0);
        let kokushi = 13 - yaochu_kinds - i8::from(yaochu_pair);
        standard.min(chiitoitsu).min(kokushi)
    } else {
        standard
    }
}

/// Pair and kind counts behind chiitoitsu and kokushi.
#[derive(Clone, Copy)]
struct PairStats {
    /// Kinds held at least twice / at least once (chiitoitsu).
    pairs: i8,
    kinds: i8,
    /// The same over yaochuu kinds (kokushi).
    yaochu_pairs: i8,
    yaochu_kinds: i8,
}

impl PairStats {
    fn of(counts: &[u8; KINDS]) -> PairStats {
        let mut s = PairStats { pairs: 0, kinds: 0, yaochu_pairs: 0, yaochu_kinds: 0 };
        for (k, &c) in counts.iter().enumerate() {
            (0..c.min(2)).for_each(|low| s.step(k, low, 1));
        }
        s
    }

    /// Bookkeeping for the count of `kind` moving between `low` and `low + 1` (up when
    /// `sign` is 1, down when -1); `low` of 2 or more changes nothing.
    fn step(&mut self, kind: usize, low: u8, sign: i8) {
        let (kind_delta, pair_delta) = match low {
            0 => (sign, 0),
            1 => (0, sign),
            _ => (0, 0),
        };
        self.kinds += kind_delta;
        self.pairs += pair_delta;
        if is_yaochu(kind) {
            self.yaochu_kinds += kind_delta;
            self.yaochu_pairs += pair_delta;
        }
    }

    /// Minimum of chiitoitsu (Tenhou: seven *different* pairs, so a quad is one pair and a
    /// missing kind costs a tile) and kokushi shanten, for 13 or 14 tiles.
    fn shanten(&self) -> i8 {
        let chiitoitsu = 6 - self.pairs + (7 - self.kinds).max(0);
        let kokushi = 13 - self.yaochu_kinds - i8::from(self.yaochu_pairs > 0);
        chiitoitsu.min(kokushi)
    }
}

/// A valid concealed part with everything [`shanten`] needs, updated one tile at a time so
/// that ukeire and discard scans redo only the changed group.
struct Shape {
    counts: [u8; KINDS],
    tiles: usize,
    melds: u8,
    /// Distance class per group (man, pin, sou, honors).
    classes: [usize; 4],
    stats: PairStats,
}

fn group(kind: usize) -> usize {
    (kind / 9).min(3)
}

fn is_yaochu(kind: usize) -> bool {
    kind >= 27 || matches!(kind % 9, 0 | 8)
}

impl Shape {
    fn new(counts: &[u8; KINDS], melds: u8) -> Option<Shape> {
        let tiles = valid_total(counts)?;
        Some(Shape {
            counts: *counts,
            tiles,
            melds,
            classes: [0, 1, 2, 3].map(|g| group_class(counts, g)),
            stats: PairStats::of(counts),
        })
    }

    /// Same value as [`shanten`] on the current counts.
    fn shanten(&self) -> i8 {
        let standard = replacement_of(&self.classes, self.tiles / 3) as i8 - 1;
        if self.melds == 0 && self.tiles >= 13 && standard > 0 {
            standard.min(self.stats.shanten())
        } else {
            standard
        }
    }

    /// Adds a tile of `kind`; the caller keeps the part valid (count below 4, `3k+1` tiles).
    fn add(&mut self, kind: usize) {
        let old = self.counts[kind];
        self.counts[kind] += 1;
        self.tiles += 1;
        self.count_change(kind, old, 1);
    }

    /// Removes a held tile of `kind`.
    fn remove(&mut self, kind: usize) {
        self.counts[kind] -= 1;
        self.tiles -= 1;
        self.count_change(kind, self.counts[kind], -1);
    }

    /// Bookkeeping after the count of `kind` moved between `low` and `low + 1`.
    fn count_change(&mut self, kind: usize, low: u8, sign: i8) {
        self.stats.step(kind, low, sign);
        self.classes[group(kind)] = group_class(&self.counts, group(kind));
    }

    /// Kinds whose draw takes this `3k+1` part below shanten `base`, and their unseen tiles.
    fn lowering(&mut self, base: i8, visible: &[u8; KINDS]) -> (u64, u32) {
        let (mut mask, mut tiles) = (0u64, 0u32);
        for (k, &seen) in visible.iter().enumerate() {
            if self.counts[k] >= 4 {
                continue;
            }
            self.add(k);
            if self.shanten() < base {
                mask |= 1 << k;
                tiles += u32::from(4u8.saturating_sub(seen));
            }
            self.remove(k);
        }
        (mask, tiles)
    }
}

/// See [`super::waits`]. Only kinds that can complete the hand are tried: a standard-form
/// winning tile shares a mentsu or the pair with held tiles, so it lies within two of a held
/// kind of its suit; chiitoitsu waits on a held kind; kokushi on a yaochuu kind.
pub(crate) fn waits(counts: &[u8; KINDS], melds: u8) -> u64 {
    let Some(mut shape) = Shape::new(counts, melds) else { return 0 };
    if shape.tiles % 3 != 1 || shape.shanten() != 0 {
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
    if melds == 0 && shape.tiles == 13 {
        candidates |= YAOCHU.iter().fold(0, |m, &k| m | 1 << k);
    }
    let mut mask = 0u64;
    for k in (0..KINDS).filter(|&k| candidates & (1 << k) != 0 && counts[k] < 4) {
        shape.add(k);
        if shape.shanten() == -1 {
            mask |= 1 << k;
        }
        shape.remove(k);
    }
    mask
}

/// See [`super::ukeire`].
pub(crate) fn ukeire(counts: &[u8; KINDS], melds: u8, visible: &[u8; KINDS]) -> (u64, u32) {
    match Shape::new(counts, melds) {
        Some(mut shape) if shape.tiles % 3 == 1 => {
            let base = shape.shanten();
            shape.lowering(base, visible)
        }
        _ => (0, 0),
    }
}

/// See [`super::discard_choices`].
pub(crate) fn discard_choices(counts: &[u8; KINDS], melds: u8, visible: &[u8; KINDS]) -> Vec<DiscardChoice> {
    let Some(mut shape) = Shape::new(counts, melds).filter(|s| s.tiles % 3 == 2) else { return Vec::new() };
    let mut out = Vec::new();
    for k in (0..KINDS).filter(|&k| counts[k] > 0) {
        shape.remove(k);
        let s = shape.shanten();
        let (ukeire_kinds, ukeire_tiles) = shape.lowering(s, visible);
        out.push(DiscardChoice { discard: k as u8, shanten: s, ukeire_kinds, ukeire_tiles });
        shape.add(k);
    }
    out
}

#[cfg(test)]
#[path = "shanten_tests.rs"]
mod tests;
