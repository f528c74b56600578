//! The [`Agent`] trait: a pure decider over mjai events.

use crate::engine::event::Event;

/// A bot that decides from mjai events, with no I/O.
///
/// Mirrors the protocol exactly: each call carries the events since the previous call (as
/// one batch line carries them, masked for the seat: others' tiles are `?`), and the agent
/// returns its one action for the last of them, `Event::None` to pass or acknowledge.
pub trait Agent: Send {
    /// Takes the new events (never empty) and returns one action.
    fn react(&mut self, events: &[Event]) -> Event;
}
