//! The rules as the match loop sees them.
//!
//! [`RefereedGame`] is exactly the referee surface of the engine's [`Game`] (see
//! `src/engine/game/mod.rs`): the loop is written against this trait so that it can be
//! tested with a scripted table in microseconds, and so that nothing in the loop depends on
//! how the engine stores its state.

use mjai_sim_engine::event::{Event, Seat};
use mjai_sim_engine::game::{Decision, Game, Illegal, Players, WallIds, MAX_SEATS};

/// A game the match loop can referee. Same contract as the methods of [`Game`] with the
/// same names.
pub trait RefereedGame {
    /// The full unmasked event log so far (`start_game` first).
    fn log(&self) -> &[Event];
    /// Seats that must answer now; empty once the game is over.
    fn pending(&self) -> &[Decision];
    /// Checks one raw answer line from `seat`; returns the canonical action or the reason
    /// it is refused.
    fn validate(&self, seat: Seat, line: &str) -> Result<Event, Illegal>;
    /// Applies one validated answer per pending seat and advances to the next decision.
    fn apply(&mut self, answers: &[(Seat, Event)]) -> Result<(), Illegal>;
    /// Ends the current kyoku as a chombo by `offenders` (each pays a mangan).
    fn chombo(&mut self, offenders: &[Seat]);
    /// True after `end_game` was logged.
    fn is_over(&self) -> bool;
    /// Current scores in points ([`MAX_SEATS`] entries; seats from `players().count()` on
    /// are empty).
    fn scores(&self) -> [i32; MAX_SEATS];
    /// The table size: which seats are asked and how events are written on the wire.
    fn players(&self) -> Players;
    /// The physical tile ids of the current kyoku's wall (riichi.dev's observation;
    /// [`Game::wall_ids`]); `None` for a table without a wall (scripted tests).
    fn wall_ids(&self) -> Option<&WallIds> {
        None
    }
}

impl RefereedGame for Game {
    fn log(&self) -> &[Event] {
        Game::log(self)
    }
    fn pending(&self) -> &[Decision] {
        Game::pending(self)
    }
    fn validate(&self, seat: Seat, line: &str) -> Result<Event, Illegal> {
        Game::validate(self, seat, line)
    }
    fn apply(&mut self, answers: &[(Seat, Event)]) -> Result<(), Illegal> {
        Game::apply(self, answers)
    }
    fn chombo(&mut self, offenders: &[Seat]) {
        Game::chombo(self, offenders)
    }
    fn is_over(&self) -> bool {
        Game::is_over(self)
    }
    fn scores(&self) -> [i32; MAX_SEATS] {
        Game::scores(self)
    }
    fn players(&self) -> Players {
        self.rules().players
    }
    fn wall_ids(&self) -> Option<&WallIds> {
        Some(Game::wall_ids(self))
    }
}
