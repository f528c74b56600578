//! Reading mjai logs: one pass over a game's events that yields, per kyoku, what the log
//! shows ([`KyokuLog`]: the tehais as dealt, each seat's draws, discards, calls, riichi and
//! ippatsu, dora and ura indicators, kans, scores before and after, and how the hand ended,
//! each `hora` ready to be scored and each `ryukyoku` with its [`crate::event::DrawReason`],
//! logged or inferred), built on [`Table`], the incremental form (feed events one at a
//! time, read the state) that also follows one seat's masked view.
//!
//! The one place where a log is followed hand by hand: the tenhou.net/6 export, the
//! tournament's per-seat statistics, `summary.json`, the game viewer and the built-in bots'
//! `PlayerState` use it. Pure: no I/O.

mod ending;
mod kyoku;
mod seat;
mod table;
#[cfg(test)]
mod tests;

pub use ending::{inferred_reason, Ending, Hora, Ryukyoku};
pub use kyoku::{read, Closing, GameLog, KyokuLog, Problem};
pub use seat::{Action, Discard, SeatState};
pub use table::{KyokuStart, Table};
