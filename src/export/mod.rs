//! Exports of a finished game's mjai log to other formats. Pure functions of the log (and,
//! optionally, the game's `errors.json` entries): no files, no clock, no async.
//!
//! - [`tenhou6`]: the tenhou.net/6 JSON game that Tenhou's viewer and mjai-reviewer read.

pub mod tenhou6;
