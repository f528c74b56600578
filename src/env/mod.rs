//! mjai-sim's training environment: N tables of the engine's own games, stepped from
//! outside (pure and synchronous; no I/O, no async).
//!
//! - [`VecEnv`]: the tables; [`VecEnv::reset`] / [`VecEnv::step`] return a [`Batch`] of the
//!   learner decisions now pending (table, seat, legal mask, features), the rewards and the
//!   games that ended; each row's events and legal answers as mjai events through
//!   [`VecEnv::events`] and [`VecEnv::legal`]; with [`EnvConfig::riichi_dev`], riichi.dev's
//!   observation of each row through [`VecEnv::riichi_dev_observation`] ([`riichi_dev`]).
//! - [`EnvConfig`], [`Learners`]: rules preset, tables, series seed, which seats are decided
//!   from outside and which built-in bots play the others, uma, hand rewards.
//! - [`action_space`]: the one fixed action space (four- and three-player) and the map
//!   between its indices and a decision's legal mjai answers.
//! - [`features`]: the feature encoder (planes over the 34 tile kinds).
//! - [`reward`]: placement points (uma) and hand deltas.
//!
//! A table plays its games as `mjai-sim selfplay` does (`mjai_sim_bots::selfplay`): table
//! `t`'s `k`-th game is game number `t + k × tables` of the series, wall seed
//! `[seed, game]`, and with the same answers its log is `selfplay`'s, event for event.
//! [`EnvConfig::games`] replaces that endless series with a fixed list of games (a
//! tournament's schedule: wall seeds, learner seats and bots per game), after which each
//! table stops.

#![warn(missing_docs)]

pub mod action_space;
mod config;
pub mod features;
pub mod reward;
pub mod riichi_dev;
#[cfg(test)]
mod riichi_dev_tests;
mod table;
#[cfg(test)]
mod tests;
mod vec_env;

pub use action_space::NUM_ACTIONS;
pub use config::{EnvConfig, EnvError, GameSpec, Learners};
pub use features::Encoder;
pub use table::GameEnd;
pub use vec_env::{Action, Batch, VecEnv};
