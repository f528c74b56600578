//! Fu of a standard-form reading under Tenhou rules.
//!
//! 20 base; +10 closed ron; +2 tsumo (not with pinfu); sets: open triplet 2, closed 4,
//! open kan 8, closed kan 16, doubled for terminals and honors; pair: 2 for a dragon, 2 for
//! the seat wind, 2 for the round wind (Tenhou: a double-wind pair is 4); wait: kanchan,
//! penchan, tanki 2. Rounded up to 10. Pinfu tsumo is 20; an open hand with no fu is 30.
//! Chiitoitsu is always 25 (not computed here).

use super::agari::{SetKind, Shape, Wait};
use super::facts::Facts;

/// Fu of chiitoitsu (fixed, no rounding).
pub(crate) const CHIITOITSU_FU: u8 = 25;

/// Fu after rounding for one reading; `pinfu` says whether the reading scores pinfu.
pub(crate) fn standard(f: &Facts, s: &Shape, pinfu: bool) -> u8 {
    if pinfu && f.tsumo {
        return 20;
    }
    let mut fu: u32 = 20;
    if f.menzen && !f.tsumo {
        fu += 10;
    }
    if f.tsumo {
        fu += 2;
    }
    for set in &s.sets {
        let base = match (set.kind, set.closed) {
            (SetKind::Shuntsu, _) => 0,
            (SetKind::Koutsu, false) => 2,
            (SetKind::Koutsu, true) => 4,
            (SetKind::Kantsu, false) => 8,
            (SetKind::Kantsu, true) => 16,
        };
        fu += if set.has_yaochuu() { base * 2 } else { base };
    }
    if s.pair >= 31 {
        fu += 2;
    }
    if s.pair == f.jikaze {
        fu += 2;
    }
    if s.pair == f.bakaze {
        fu += 2;
    }
    if matches!(s.wait, Wait::Kanchan | Wait::Penchan | Wait::Tanki) {
        fu += 2;
    }
    let rounded = fu.div_ceil(10) * 10;
    if rounded == 20 {
        30 // open hand without fu (open pinfu shape) on ron
    } else {
        rounded as u8
    }
}
