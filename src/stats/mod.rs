//! Ratings and statistics: pure arithmetic over results, no I/O and nothing of a game
//! (the tournament's standings, league aggregates and records call it).
//!
//! - [`ratings`]: Weng-Lin (through `skillratings`) and mjai.app's pairwise Elo, fed game
//!   by game in schedule order.
//! - [`bootstrap`]: seeded percentile bootstrap intervals over duplicate sets.
//! - [`timing`]: decision times as a compact log-bucket histogram.

#![warn(missing_docs)]

pub mod bootstrap;
pub mod ratings;
pub mod timing;
