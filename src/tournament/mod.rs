//! Tournaments: many games between N bots (issue 12), above the arena's one game.
//!
//! - [`record`]: one finished game as the standings see it ([`record::GameRecord`]), with
//!   per-seat statistics read off its log by the engine's reader ([`mjai_sim_engine::log`]);
//!   the type and its reading live in [`mjai_sim_stats::record`], [`record::FromGame`] here.
//! - [`standings`]: standings, confidence intervals, head-to-head and ratings from records,
//!   re-exported from [`mjai_sim_stats::standings`] (pure: the Python arena computes the
//!   same; `tally.rs` there: one bot's totals; their text, [`crate::pages::standings_text`]).
//! - [`schedule`]: duplicate sets, seat rotation, bot selection, one-vs-three; its state
//!   extended one set at a time for leagues ([`schedule::Scheduler`]).
//! - [`entrants`]: `NAME=BOT` arguments, intake once per tournament, sha256.
//! - [`leaderboard`]: what a league's pages and read API show (grading server), shaped from
//!   the bots' per-bot aggregates folded game by game ([`leaderboard::aggregate`]) and their
//!   versions ([`leaderboard::shape`]).
//! - [`config`]: a tournament's options, stored so that `--resume` replays them.
//! - [`store`]: the results store (`tournament.sqlite`, sqlx).
//! - [`pool`]: seats of a game: fresh bots started ahead, or kept between games.
//! - [`inproc`]: built-in-only games without folders, on the self-play path.
//! - [`hand_publisher`]: a game's finished hands as they end, for watching it one hand behind.
//! - [`runner`]: plays the scheduled games in parallel into the store.
//! - [`observer`]: what a run tells whoever drives it (the CLI's progress bar, a server).
//! - [`session`]: the library API over all of it: create, resume, open, play, watch, add and
//!   retire bots, standings (the command line and the grading server are thin over it).

#![warn(missing_docs)]

pub mod config;
pub mod entrants;
pub mod fixtures;
pub mod hand_publisher;
pub mod inproc;
pub mod leaderboard;
pub mod observer;
pub mod pool;
pub mod record;
pub mod runner;
pub mod schedule;
pub mod session;
pub mod standings;
pub mod store;
pub mod submission_cache;

#[cfg(test)]
mod record_tests;
#[cfg(test)]
mod standings_tests;
