//! Exports of a finished game's mjai log to other formats. Pure functions of the log (and,
//! optionally, the game's `errors.json` entries): no files, no clock, no async.
//!
//! - [`dataset`]: Parquet tables of decisions and riichi waits (`mjai-sim dataset`); its
//!   `files` and `writer` read logs and write the file, the only I/O under `export`.
//! - [`tenhou6`]: the tenhou.net/6 JSON game that Tenhou's viewer and mjai-reviewer read.

#![warn(missing_docs)]

pub mod dataset;
pub mod tenhou6;
