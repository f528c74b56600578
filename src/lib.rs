//! mjai-sim: a referee for riichi mahjong games between mjai bots.
//!
//! - [`engine`]: the rules (pure, synchronous): tiles, hand evaluation, mjai events, game.
//! - [`bots`]: built-in bots (pure deciders over mjai events).
//! - [`runtime`]: where bots run (Docker containers, local processes, in-process built-ins).
//! - [`arena`]: the match loop tying a game to four bots, with logs and summary.
//! - [`cli`]: the command line.

pub mod arena;
pub mod bots;
pub mod cli;
pub mod engine;
pub mod runtime;
