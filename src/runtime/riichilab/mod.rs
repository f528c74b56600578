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
//! - [`wire`]: the messages as JSON (pure).
//! - [`select`]: `possible_actions` from the engine's legal set, and a reply matched
//!   against it as RiichiEnv's `select_action_from_mjai` does (pure).
//! - [`observe`]: the `observation`, built by `riichienv-core` from the seat's events.
//! - [`seat`]: the server's side of a connection, a [`crate::runtime::Bot`] of the match loop.
//! - [`client`]: the bot's side (`mjai-sim connect` to a `/ws/...` URL): an mjai.app bot
//!   played over the dialect.

use std::time::Duration;

pub mod client;
pub mod observation_048;
pub mod observe;
#[cfg(test)]
mod observe_tests;
pub mod seat;
pub mod select;
pub mod wire;

/// The path a bot connects to for ranked (league) games (defined beside the listeners that
/// serve it, [`crate::runtime::remote`]).
pub use super::remote::{ALREADY_CONNECTED, RANKED_PATH};

/// The path a bot connects to for its validation game.
pub const VALIDATE_PATH: &str = "/ws/validate";

/// The close code of a connection refused for its token (none, malformed, unknown): RFC
/// 6455's policy violation, as riichi.dev's server closes it.
pub const BAD_TOKEN_CLOSE: u16 = 1008;

/// The close code of a second connection of a bot that is connected already: RFC 6455's
/// "try again later", as riichi.dev's server closes it.
pub const ALREADY_CONNECTED_CLOSE: u16 = 1013;

/// Answers a dialect handshake that is refused as riichi.dev's server does: the upgrade,
/// then at once a close frame with `code` ([`BAD_TOKEN_CLOSE`], [`ALREADY_CONNECTED_CLOSE`])
/// and `reason` (one line; cut to the 123 bytes a close frame holds), written within
/// [`super::remote::CLOSE_TIMEOUT`]. Nothing of the game is sent.
pub fn refuse(ws: axum::extract::ws::WebSocketUpgrade, code: u16, reason: &str) -> axum::response::Response {
    use axum::extract::ws::{CloseFrame, Message};
    let mut reason = reason.to_string();
    while reason.len() > 123 {
        reason.pop();
    }
    super::remote::limited(ws).on_upgrade(move |mut socket| async move {
        let close = Message::Close(Some(CloseFrame { code, reason: reason.into() }));
        let _ =
            crate::runtime::bounded::within(super::remote::CLOSE_TIMEOUT, "refusing a connection", socket.send(close))
                .await;
    })
}

/// The grace of every request: 3 s (riichi.dev).
pub const GRACE: Duration = Duration::from_secs(3);

/// The bank each seat gets at each hand's start: 15 s (riichi.dev).
pub const BANK: Duration = Duration::from_secs(15);

/// Longest wait to queue an `action_ack`.
pub const ACK_WRITE: Duration = Duration::from_secs(1);
