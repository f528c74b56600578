//! Reference logs (`tests/data/`): the one log reader, replays of Mortal and mjai.app games, chombo replays, converted logs through `verify`, walls against Mortal, the tenhou.net/6 export, tournament records from logs.
//!
//! One binary (`cargo test --test logs`), a module per former test file; shared helpers in
//! the support modules below. Where a new test goes: tests/README.md.

#[path = "../reference_support/mod.rs"]
mod reference_support;

mod export_tenhou6;
mod log_reader;
mod replay_chombo;
mod replay_mortal;
mod tournament_logs;
mod verify_converted;
mod walls_mortal;
