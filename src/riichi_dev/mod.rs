//! riichi.dev's WebSocket dialect, the pure part (no I/O, no async): what the referee's
//! dialect seats (`mjai_sim_runtime::riichi_dev`, which keeps the connections) and the training environment (`mjai_sim_env::EnvConfig::riichi_dev`) share.
//!
//! - [`wire`]: the dialect's messages as JSON: each masked event as its own message, the
//!   requests, acks and replies.
//! - [`select`]: `possible_actions` from the engine's legal set, and a reply matched
//!   against it as RiichiEnv's `select_action_from_mjai` does.
//! - [`observe`]: [`SeatView`], one seat's RiichiEnv state fed the seat's events, and the
//!   `observation` of a request built from it.
//! - [`observation_048`]: the form the observation is written in (riichienv 0.4.8's).
//!
//! The messages are in docs/protocol.md, "riichi.dev's dialect".

#![warn(missing_docs)]

pub mod observation_048;
pub mod observe;
#[cfg(test)]
mod observe_tests;
pub mod select;
pub mod wire;

pub use observe::SeatView;
