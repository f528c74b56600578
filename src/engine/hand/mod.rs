//! Exact evaluation of riichi hands under Tenhou rules: shanten, waits, agari
//! decomposition, yaku, fu and points. Pure functions on plain data, no I/O.
//!
//! The public API is this module's re-exports; submodules are implementation.

mod agari;
mod facts;
mod fu;
mod input;
mod karaten;
mod meld;
mod points;
mod score;
mod shanten;
mod shanten_combo;
mod shanten_table;
mod win;
mod yaku;
mod yakuman;

pub use karaten::karaten;
pub use meld::{Meld, MeldKind};
pub use points::{base_points, payment};
pub use score::Extra;
pub use shanten::DiscardChoice;
pub use win::{HandScore, NoWin, Payment, Riichi, WinContext};

use super::tile::KINDS;

/// Shanten of a concealed part given as counts per tile kind (`1..=14` tiles in all) with
/// `melds` calls already made (each call removes three tiles from the concealed part).
/// Minimum over the standard form, chiitoitsu and kokushi (the latter two only with no
/// melds). `-1` means a complete hand (14-tile form), `0` tenpai. The number of mentsu
/// needed follows from the tile count (`tiles / 3`); `melds` only decides whether chiitoitsu
/// and kokushi count (and they need 13 or 14 concealed tiles).
///
/// Every form respects the four-tile limit: a hand whose only completion would be a fifth
/// copy of a kind it holds four of is not tenpai (Tenhou). Chiitoitsu needs seven different
/// pairs (Tenhou: a quad is one pair). Input outside the contract (a count above 4, no
/// tiles, more than 14, or a multiple of 3) returns `i8::MAX`; it never panics.
/// About 50 ns of CPU time per call (random 14-tile hands) after a one-time table build of
/// 0.15-0.35 s on the first call (`cargo bench --bench shanten`).
pub fn shanten(counts: &[u8; KINDS], melds: u8) -> i8 {
    shanten::shanten(counts, melds)
}

/// Tile kinds that complete a tenpai concealed part of `3k+1` tiles (bit `k` set for kind
/// `k`). Counts the kind even when all four are visible (Tenhou: such a wait is still tenpai
/// unless the hand itself holds all four of it).
///
/// Returns 0 for a hand that is not tenpai or is not a valid `3k+1` part.
pub fn waits(counts: &[u8; KINDS], melds: u8) -> u64 {
    shanten::waits(counts, melds)
}

/// Ukeire of a `3k+1` concealed part: `(kinds, tiles)` where bit `k` of `kinds` is set when
/// drawing kind `k` lowers [`shanten`] (kinds the hand holds four of excluded), and `tiles`
/// sums `4 - visible[k]` over those kinds (saturating at 0). `visible` counts every tile the
/// player can see per kind, the hand itself included. Returns `(0, 0)` for anything but a
/// valid `3k+1` part.
pub fn ukeire(counts: &[u8; KINDS], melds: u8, visible: &[u8; KINDS]) -> (u64, u32) {
    shanten::ukeire(counts, melds, visible)
}

/// For a `3k+2` concealed part: one [`DiscardChoice`] per kind held (in kind order), giving
/// the shanten after discarding one tile of that kind and the [`ukeire`] of what remains.
/// `visible` is as for [`ukeire`] and is used unchanged (the discard stays visible in the
/// river). Empty for anything but a valid `3k+2` part. Built for the rulebase bot: lowest
/// shanten first, most `ukeire_tiles` as tie-break.
pub fn discard_choices(counts: &[u8; KINDS], melds: u8, visible: &[u8; KINDS]) -> Vec<DiscardChoice> {
    shanten::discard_choices(counts, melds, visible)
}

/// Scores a win: the best-scoring decomposition under Tenhou rules (red fives on).
///
/// Tries every standard-form reading (with each possible place of the winning tile),
/// chiitoitsu and kokushi, and keeps the highest points, then the highest han (a real
/// yakuman beats an equal-point kazoe). Yakuman exclude regular yaku and dora; different
/// yakuman stack, pattern variants do not (Tenhou). Honba and kyotaku are not included:
/// see [`Payment::deltas`].
///
/// Errors: [`NoWin::NotAgari`] when no reading completes the hand; [`NoWin::NoYaku`] when
/// one does but only dora would score; [`NoWin::Invalid`] (one-line message naming the cause)
/// for a wrong tile count, more than four of a tile, two red fives of a suit, `?` tiles, a
/// call that is not a legal set, winds outside 27..=30, or contradictory flags (riichi with
/// an open call, ippatsu without riichi, rinshan without a kan or by ron, chankan by tsumo,
/// first_draw by ron or after a call).
pub fn evaluate(ctx: &WinContext) -> Result<HandScore, NoWin> {
    score::evaluate(ctx, &Extra::default())
}

/// Like [`evaluate`], with a three-player table's additions ([`Extra`]): 1m indicates 9m,
/// and each North set aside by kita is one han of `"nukidora"` (RiichiEnv
/// `hand_evaluator_3p.rs`, `ID_NUKIDORA`; Tenhou sanma: 抜きドラ) and counts as dora or ura
/// dora once per indicator pointing to North. Nukidora, like any dora, is no yaku. Same
/// errors as [`evaluate`].
pub fn evaluate_with(ctx: &WinContext, extra: &Extra) -> Result<HandScore, NoWin> {
    score::evaluate(ctx, extra)
}
