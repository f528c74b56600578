//! The rules engine: tiles, hand evaluation, mjai events and the game state machine.
//! Pure and synchronous: no I/O, no async, no clock. Everything here is testable in
//! microseconds and deterministic.
//!
//! The crate `mjai-sim-engine` (this directory), which `mjai-sim` re-exports as
//! `mjai_sim::engine`: a tool or a bot can depend on the referee alone, without the
//! runtime's async, database, Docker and CLI crates (`tests/layering/engine_crate.rs` checks the
//! dependency tree). Its dependencies: serde, serde_json, thiserror, and sha3 with rand 0.8
//! and rand_chacha 0.3 for walls dealt as mjai.app deals them.

#![warn(missing_docs)]

pub mod event;
pub mod game;
pub mod hand;
pub mod log;
pub mod ranking;
pub mod rules;
pub mod tile;
