//! How a kyoku ended: its `hora`s (each with the hand as the log shows it, to score with the
//! engine's evaluator) or its `ryukyoku` with why it was drawn.

use crate::event::{DrawReason, Event, Seat};
use crate::hand::{evaluate_with, Extra, HandScore, NoWin, Riichi, WinContext};
use crate::rules::Players;
use crate::tile::Tile;

use super::table::Table;

/// One `hora` of the log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hora {
    /// Index of the event in the log.
    pub index: usize,
    /// The winner.
    pub actor: Seat,
    /// Seat that dealt in (the winner itself for a tsumo).
    pub target: Seat,
    /// The winning tile, when logged.
    pub pai: Option<Tile>,
    /// Score changes per seat, honba and riichi sticks included, when logged.
    pub deltas: Option<[i32; 4]>,
    /// Ura indicators as logged (empty when none).
    pub ura_markers: Vec<Tile>,
    /// Riichi sticks on the table before this `hora` (the first winner of a double ron
    /// takes them; 0 for the second).
    pub kyotaku: u8,
    /// The hand won, as the log shows it (see [`Table::win_context`]); the error says why
    /// the log shows no such win.
    pub win: Result<WinContext, NoWin>,
    /// Pao: the seat liable for a daisangen or daisuushii and that yakuman, if the winner's
    /// calls made one (it applies only when the hand scores that yakuman: see
    /// [`Hora::liable`]).
    pub pao: Option<(Seat, &'static str)>,
    /// What a three-player table adds to the hand's scoring (the winner's kita, the 1m->9m
    /// dora; [`Table::extra`]).
    pub extra: Extra,
}

impl Hora {
    /// True for a tsumo.
    pub fn is_tsumo(&self) -> bool {
        self.actor == self.target
    }

    /// The winner's own delta (0 when the log has none or the winner is not a seat).
    pub fn gain(&self) -> i32 {
        self.deltas.and_then(|d| d.get(usize::from(self.actor)).copied()).unwrap_or(0)
    }

    /// The engine's score of the hand (Tenhou rules: yaku with han, fu, points before honba
    /// and kyotaku); errors when the hand does not score or the log shows no such win.
    pub fn score(&self) -> Result<HandScore, NoWin> {
        self.win.as_ref().map_err(Clone::clone).and_then(|w| evaluate_with(w, &self.extra))
    }

    /// The seat liable under pao for `score` (this hand's), when its yakuman is in it.
    pub fn liable(&self, score: &HandScore) -> Option<Seat> {
        self.pao.filter(|(_, y)| score.yaku.iter().any(|(n, _)| n == y)).map(|(p, _)| p)
    }
}

/// One `ryukyoku` of the log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ryukyoku {
    /// Index of the event in the log.
    pub index: usize,
    /// The seat that declared kyuushu kyuuhai, or a chombo's offender, when logged.
    pub actor: Option<Seat>,
    /// Score changes per seat, when logged.
    pub deltas: Option<[i32; 4]>,
    /// Why the hand was drawn: the logged `reason`, else inferred from the table
    /// ([`inferred_reason`]; mjai.app's logs carry none).
    pub reason: DrawReason,
    /// True when `reason` is the logged one.
    pub logged: bool,
    /// The seat whose `tsumo` came right before (mjai.app logs the next draw before a
    /// four-riichi abort).
    pub after_tsumo: Option<Seat>,
}

/// What ended a kyoku; a double ron is two [`Ending::Hora`]s.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ending {
    /// A win.
    Hora(Hora),
    /// A drawn hand, a chombo included ([`DrawReason::Chombo`]).
    Ryukyoku(Ryukyoku),
}

/// Why a `ryukyoku` logged now, without `reason`, ended the hand, by the engine's order:
/// after a discard that passed, four winds (the same wind as each seat's one discard, no
/// call), then four kans by more than one seat, then all
/// four in riichi, then the live wall empty (exhaustive), else triple ron; after a `tsumo`,
/// four riichi (mjai.app draws the next tile before that abort) else kyuushu kyuuhai.
pub fn inferred_reason(t: &Table) -> DrawReason {
    // Four riichi and four winds are four-player aborts only.
    let four = t.start.players == Players::Four;
    let all_riichi = four && t.seats.iter().all(|s| s.riichi != Riichi::None || s.reach_pending);
    if matches!(t.last, Some(Event::Tsumo { .. })) {
        return if all_riichi { DrawReason::FourRiichi } else { DrawReason::KyuushuKyuuhai };
    }
    let after_discard = matches!(t.last, Some(Event::Dahai { .. } | Event::ReachAccepted { .. }));
    let first = t.seats[0].river.first().map(|d| d.pai.kind());
    let four_winds = four
        && t.uninterrupted
        && first.is_some_and(|k| (27..=30).contains(&k))
        && t.seats.iter().all(|s| s.river.len() == 1 && s.river[0].pai.kind() == first.unwrap_or_default());
    if four_winds {
        DrawReason::FourWinds
    } else if t.kan_makers.len() == 4 && t.kan_makers.iter().any(|&m| m != t.kan_makers[0]) {
        DrawReason::FourKans
    } else if all_riichi {
        DrawReason::FourRiichi
    } else if after_discard && t.draws >= t.live_tiles() {
        DrawReason::Exhaustive
    } else {
        DrawReason::TripleRon
    }
}
