//! The game: a seeded wall, the kyoku state machine and the hanchan around it, under
//! Tenhou rules. Pure and deterministic: the same [`GameConfig`] and the same answers give
//! the same log, bit for bit.
//!
//! The referee loop is: look at [`Game::pending`]; ask each listed seat (a bot, over
//! whatever transport); check each raw answer with [`Game::validate`]; hand the answers to
//! [`Game::apply`]; repeat until [`Game::is_over`]. [`Game::log`] grows with the unmasked
//! event stream (`start_game` .. `end_game`), which is `mjai_log.json`.

use super::event::{Event, Seat};
use super::tile::Tile;

/// Where a game starts: East 1 with 25000 each by default; any later state to resume after a
/// chombo or to replay a situation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StartState {
    /// Round wind tile: E, S or W.
    pub bakaze: Tile,
    /// Hand number 1..=4 (the dealer is seat `kyoku - 1`).
    pub kyoku: u8,
    /// Honba sticks.
    pub honba: u8,
    /// Riichi sticks on the table.
    pub kyotaku: u8,
    /// Scores in points.
    pub scores: [i32; 4],
}

impl Default for StartState {
    fn default() -> Self {
        StartState { bakaze: Tile::from_kind(27).unwrap(), kyoku: 1, honba: 0, kyotaku: 0, scores: [25000; 4] }
    }
}

/// Game setup.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameConfig {
    /// Wall seed: `[seed, key]` as written in `start_game.seed`. The wall of every kyoku is a
    /// pure function of these and the kyoku's position in the game.
    pub seed: [u64; 2],
    /// Player names, seat order.
    pub names: [String; 4],
    /// Starting state.
    pub start: StartState,
}

/// One seat that must answer now, with every answer that is legal (`none` included when the
/// seat may pass).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    /// The seat to ask.
    pub seat: Seat,
    /// Legal answers in canonical form.
    pub legal: Vec<Event>,
}

/// Why a bot's answer is refused. The message is one line, for `errors.json`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Illegal(pub String);

/// A game in progress.
#[derive(Debug, Clone)]
pub struct Game {
    _private: (),
}

impl Game {
    /// Starts a game: logs `start_game`, the first `start_kyoku` and the first tsumo.
    pub fn new(config: GameConfig) -> Game {
        let _ = config;
        unimplemented!("issue 3")
    }

    /// The full unmasked event log so far.
    pub fn log(&self) -> &[Event] {
        unimplemented!("issue 3")
    }

    /// Seats that must answer now (empty once the game is over). Only seats with a real
    /// choice are listed; when several may claim one discard, all are listed.
    pub fn pending(&self) -> &[Decision] {
        unimplemented!("issue 3")
    }

    /// Checks one raw answer line from `seat` against the pending decision; returns the
    /// canonical action or a precise reason (unparsable JSON, wrong actor, tile not in hand,
    /// wrong tsumogiri flag, kuikae, ...).
    pub fn validate(&self, seat: Seat, line: &str) -> Result<Event, Illegal> {
        let _ = (seat, line);
        unimplemented!("issue 3")
    }

    /// Applies one validated answer per pending seat (in any order) and advances the game to
    /// the next decision, through kyoku ends (`end_kyoku`, next `start_kyoku`) and the game
    /// end (`end_game`). Errors when an answer is missing or not legal.
    pub fn apply(&mut self, answers: &[(Seat, Event)]) -> Result<(), Illegal> {
        let _ = answers;
        unimplemented!("issue 3")
    }

    /// Chombo by `offenders` at the current moment: ends the kyoku with
    /// `{"type":"ryukyoku","deltas":..,"reason":"error"}`, each offender paying a mangan
    /// (dealer: 4000 to each other seat; otherwise 4000 to the dealer, 2000 to the others),
    /// riichi sticks stay on the table, then the deal moves on with honba 0 (or the game
    /// ends if that passes the last hand or a score is below 0).
    pub fn chombo(&mut self, offenders: &[Seat]) {
        let _ = offenders;
        unimplemented!("issue 3")
    }

    /// True after `end_game` was logged.
    pub fn is_over(&self) -> bool {
        unimplemented!("issue 3")
    }

    /// Current scores in points.
    pub fn scores(&self) -> [i32; 4] {
        unimplemented!("issue 3")
    }
}
