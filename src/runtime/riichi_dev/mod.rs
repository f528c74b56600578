//! riichi.dev's WebSocket dialect (`riichilab:NAME` seats; issue 37): bots written for
//! riichi.dev play here unchanged.
//!
//! A bot connects to `/ws/ranked` (or `/ws/validate` on the grading server) with
//! `Authorization: Bearer TOKEN`; the server sends `start_game {id}`, then every masked
//! mjai event as its own message, and a `request_action` (request id, `possible_actions`,
//! RiichiEnv's `observation`, the clock) whenever the bot must act; the bot answers one
//! mjai action echoing the `request_id`; the server acks it (`action_ack`). The messages
//! are in docs/protocol.md, "riichi.dev's dialect".
//!
//! - [`wire`], [`select`], [`observe`], [`observation_048`]: the pure part (the messages as
//!   JSON, `possible_actions` and a reply matched as RiichiEnv matches it, the
//!   `observation` built by `riichienv-core` from the seat's events), the
//!   `mjai-sim-riichi-dev` crate's modules, re-exported here under their old paths.
//! - [`seat`]: the server's side of a connection, a [`crate::Bot`] of the match loop.
//!
//! The bot's side (`mjai-sim connect` to a `/ws/...` URL: an mjai.app bot played over the
//! dialect) is the `mjai-sim-connect` crate's.

use std::time::Duration;

pub use mjai_sim_riichi_dev::{observation_048, observe, select, wire};
pub mod seat;

/// The path a bot connects to for ranked (league) games (defined beside the listeners that
/// serve it, [`crate::remote`]).
pub use super::remote::{refuse, ALREADY_CONNECTED, ALREADY_CONNECTED_CLOSE, BAD_TOKEN_CLOSE, RANKED_PATH};

/// The path a bot connects to for its validation game.
pub const VALIDATE_PATH: &str = "/ws/validate";

/// What ends the hub's name of a bot's validation connection ([`validation_slot`]).
pub const VALIDATION_SLOT_SUFFIX: &str = "/validate";

/// The hub's name of bot `name`'s validation connection (`NAME/validate`: `/` is in no bot
/// name), apart from its ranked ones, so that a league game of an older active version
/// never takes the connection that came to validate the new one.
pub fn validation_slot(name: &str) -> String {
    format!("{name}{VALIDATION_SLOT_SUFFIX}")
}

/// The grace of every request: 3 s (riichi.dev).
pub const GRACE: Duration = Duration::from_secs(3);

/// The bank each seat gets at each hand's start: 15 s (riichi.dev).
pub const BANK: Duration = Duration::from_secs(15);

/// Longest wait to queue an `action_ack`.
pub const ACK_WRITE: Duration = Duration::from_secs(1);
