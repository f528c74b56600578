//! The [`Agent`] trait: a pure decider over mjai events and the engine's legal answers.

use mjai_sim_engine::event::Event;

/// A bot that decides from mjai events, with no I/O.
///
/// Mirrors the protocol: each call carries the events since the previous call (as one batch
/// line carries them, masked for the seat: others' tiles are `?`). The referee also hands the
/// agent its legal answers, as Mortal's arena hands its agents a mask: the seat rules exist
/// once, in the engine, and an agent only chooses.
pub trait Agent: Send {
    /// Takes the new events (never empty) and `legal`, the engine's legal answers for this
    /// seat now (canonical mjai actions; `Event::None` among them when the seat may pass;
    /// empty for an informational batch — `start_game`, `end_kyoku`, `end_game` — whose
    /// answer is `none`). Returns one action; anything outside `legal` is a chombo.
    fn react(&mut self, events: &[Event], legal: &[Event]) -> Event;
}
