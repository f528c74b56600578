//! The state of one kyoku: the table ([`Kyoku`]: round, sticks, scores in points, the wall
//! and how far it is drawn, the seats, the kan dora waiting), where it waits ([`Phase`]) and
//! how it ended ([`Outcome`]). What the kyoku does is in the files beside this one: the deal,
//! draws and scoring (`kyoku/mod.rs`), `turn`, `claims`, `kita` and `settle`.

use super::super::player::Player;
use super::super::wall::Wall;
use crate::event::Seat;
use crate::rules::{Rules, MAX_SEATS};
use crate::tile::Tile;

/// Where the kyoku waits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// `seat` must act on its turn; `after_call` after chi/pon (discard only).
    Turn { seat: Seat, after_call: bool },
    /// `seat` discarded `tile`; other seats may claim it.
    Discarded { seat: Seat, tile: Tile },
    /// `seat` declared a kakan with `tile`; others may rob it (chankan).
    Kakan { seat: Seat, tile: Tile },
    /// `seat` declared an ankan of `tile`'s kind; only kokushi tenpai may rob it (Tenhou).
    Ankan { seat: Seat, tile: Tile },
    /// `seat` set a North aside (`kita`, three-player); others may ron it (not chankan).
    Kita { seat: Seat, tile: Tile },
    /// The kyoku has ended; see [`Kyoku::outcome`].
    Over,
}

/// How a kyoku ended, for the hanchan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// One or two wins; `dealer_won` when the dealer is among the winners.
    Hora { dealer_won: bool },
    /// Exhaustive draw (nagashi mangan included); `dealer_tenpai` keeps the deal.
    Exhaustive { dealer_tenpai: bool },
    /// Abortive draw (kyuushu kyuuhai, four winds, four riichi, four kans, triple ron).
    Abortive,
    /// Chombo: the deal moves on with honba 0.
    Chombo,
}

/// A kyoku in progress.
#[derive(Debug, Clone)]
pub struct Kyoku {
    /// Round wind.
    pub bakaze: Tile,
    /// Honba sticks.
    pub honba: u8,
    /// Riichi sticks on the table (points: 1000 each).
    pub kyotaku: u8,
    /// Dealer seat.
    pub oya: Seat,
    /// Scores in points.
    pub scores: [i32; MAX_SEATS],
    /// This kyoku's tiles.
    pub wall: Wall,
    /// Tiles drawn from the live wall.
    pub live_drawn: usize,
    /// Rinshan tiles drawn (= kans made).
    pub rinshan_drawn: usize,
    /// Dora indicators shown.
    pub dora_shown: usize,
    /// The seats ([`MAX_SEATS`]; at a three-player table seat 3 is [`Player::absent`]).
    pub players: [Player; MAX_SEATS],
    /// Current decision point.
    pub phase: Phase,
    /// No call (ankan included) has been made yet this kyoku.
    pub uninterrupted: bool,
    /// Seats that made kans, in order.
    pub kan_makers: Vec<Seat>,
    /// A daiminkan or kakan waits for its dora: shown when its maker discards, right
    /// before the `dahai` (after the seat has decided, so a bot acting on the rinshan tsumo
    /// never sees it first; a rinshan kaihou win does not count it). Tenhou and Mortal.
    pub dora_at_discard: bool,
    /// A kan followed by a kakan: the first kan's dora is shown before the rinshan tsumo
    /// (once the kakan was not robbed; or before a chankan's `hora` under
    /// [`crate::rules::WaitingKanDora::RiichiEnv`]).
    pub dora_at_tsumo: bool,
    /// The current turn began with a rinshan draw.
    pub rinshan_turn: bool,
    /// That rinshan draw replaced a North set aside by kita (three-player).
    pub kita_turn: bool,
    /// Set when the kyoku is over.
    pub outcome: Option<Outcome>,
    /// Rule switches.
    pub rules: Rules,
}
