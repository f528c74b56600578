//! Ratings, statistics and standings: pure arithmetic over results, no I/O (the
//! tournament's standings, league aggregates and records call it, and so does the Python
//! extension's in-process arena).
//!
//! - [`ratings`]: Weng-Lin (through `skillratings`) and mjai.app's pairwise Elo, fed game
//!   by game in schedule order.
//! - [`bootstrap`]: seeded percentile bootstrap intervals over duplicate sets.
//! - [`timing`]: decision times as a compact log-bucket histogram.
//! - [`record`]: one finished game as the standings see it, read off its log.
//! - [`standings`]: the standings of a tournament from its records (`standings.json`).

#![warn(missing_docs)]

pub mod bootstrap;
pub mod ratings;
pub mod record;
pub mod standings;
pub mod timing;
