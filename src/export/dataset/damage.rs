//! Why a log gives no rows: the first event where it is damaged or cut.

use std::fmt;

use mjai_sim_engine::event::Event;
use mjai_sim_engine::log::GameLog;

/// A log that cannot be turned into rows: the event where it goes wrong, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Damaged {
    /// 0-based index of the event (the log's line number minus one).
    pub index: usize,
    /// What is wrong, one line.
    pub message: String,
}

impl fmt::Display for Damaged {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "event {} (line {}): {}", self.index, self.index + 1, self.message)
    }
}

impl std::error::Error for Damaged {}

/// Checks what the log reader found: the log begins with `start_game`, every hand event is
/// inside a kyoku, no kyoku contradicts itself, and the log ends with `end_game` or after
/// an `end_kyoku` (a log cut inside a kyoku is damaged).
pub fn check(log: &[Event], read: &GameLog) -> Result<(), Damaged> {
    if !matches!(log.first(), Some(Event::StartGame { .. })) {
        return Err(Damaged { index: 0, message: "the log does not begin with start_game".into() });
    }
    if let Some(&index) = read.outside.first() {
        return Err(Damaged { index, message: "a hand event outside any kyoku".into() });
    }
    if let Some(p) = read.kyokus.iter().flat_map(|k| &k.problems).next() {
        return Err(Damaged { index: p.index, message: p.message.clone() });
    }
    match log.last() {
        Some(Event::EndGame | Event::EndKyoku) => Ok(()),
        _ => Err(Damaged {
            index: log.len() - 1,
            message: "the log ends inside a kyoku (cut short?): it must end with end_kyoku or end_game".into(),
        }),
    }
}
