//! The rules engine: tiles, hand evaluation, mjai events and the game state machine.
//! Pure and synchronous: no I/O, no async, no clock. Everything here is testable in
//! microseconds and deterministic.

pub mod event;
pub mod game;
pub mod hand;
pub mod tile;
