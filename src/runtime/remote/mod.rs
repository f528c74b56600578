//! Remote bots: a seat whose bot runs on its author's machine, reached over a WebSocket
//! (issue 29).
//!
//! The game side holds a [`hub::RemoteHub`]: bridges connect to it (through
//! [`listen::RemoteListener`], or through any server that accepted and authenticated the
//! WebSocket itself and calls [`hub::RemoteHub::attach`]), and the arena takes a connection
//! for a seat with [`hub::RemoteHub::start_bot`], which gives a [`hub::RemoteBot`]: one more
//! [`crate::Bot`], so masking, timeouts, chombos and restarts are the match loop's,
//! as for a container.
//!
//! The author's side (`mjai-sim connect`: it starts the bot as a local process and relays
//! its stdio) is the `mjai-sim-connect` crate's. The wire protocol (mjai lines plus a few
//! control messages, [`control::Control`], shared by both sides) is in docs/protocol.md,
//! "Remote bots".
//!
//! Every wait is bounded: the request head ([`HEADER_TIMEOUT`]), each write
//! ([`WRITE_TIMEOUT`]), silence on a connection ([`IDLE_TIMEOUT`], pinged every
//! [`PING_INTERVAL`]), the close ([`CLOSE_TIMEOUT`]), a bot's start (the game's start
//! timeout) and each decision (the game's timeout).

use std::time::Duration;

pub mod conn;
pub mod control;
pub mod hub;
pub mod listen;
pub mod token;

/// Largest WebSocket message (and frame) either side accepts, in bytes: 1 MiB, the answer
/// line limit of the other runtimes. A bigger one closes the connection.
pub const MAX_MESSAGE_BYTES: usize = crate::line::DEFAULT_LINE_LIMIT;

// riichi.dev's refusals (`riichilab:NAME` seats; src/runtime/riichi_dev): here beside the
// listeners that send them.

/// The close code of a connection refused for its token (none, malformed, unknown): RFC
/// 6455's policy violation, as riichi.dev's server closes it.
pub const BAD_TOKEN_CLOSE: u16 = 1008;

/// The close code of a second connection of a bot that is connected already: RFC 6455's
/// "try again later", as riichi.dev's server closes it.
pub const ALREADY_CONNECTED_CLOSE: u16 = 1013;

/// Answers a dialect handshake that is refused as riichi.dev's server does: the upgrade,
/// then at once a close frame with `code` ([`BAD_TOKEN_CLOSE`], [`ALREADY_CONNECTED_CLOSE`])
/// and `reason` (one line; cut to the 123 bytes a close frame holds), written within
/// [`CLOSE_TIMEOUT`]. Nothing of the game is sent.
pub fn refuse(ws: axum::extract::ws::WebSocketUpgrade, code: u16, reason: &str) -> axum::response::Response {
    use axum::extract::ws::{CloseFrame, Message};
    let mut reason = reason.to_string();
    while reason.len() > 123 {
        reason.pop();
    }
    limited(ws).on_upgrade(move |mut socket| async move {
        let close = Message::Close(Some(CloseFrame { code, reason: reason.into() }));
        let _ = crate::bounded::within(CLOSE_TIMEOUT, "refusing a connection", socket.send(close)).await;
    })
}

/// `ws` with the message limits every remote connection has, whoever accepts it (the
/// one-game listener, the grading server): messages and frames of at most
/// [`MAX_MESSAGE_BYTES`], a write buffer of four of them.
pub fn limited(ws: axum::extract::ws::WebSocketUpgrade) -> axum::extract::ws::WebSocketUpgrade {
    ws.max_message_size(MAX_MESSAGE_BYTES)
        .max_frame_size(MAX_MESSAGE_BYTES)
        .max_write_buffer_size(4 * MAX_MESSAGE_BYTES)
}

/// Longest wait for an HTTP request head (the WebSocket handshake) on the game side.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(5);

/// Longest wait for one message to be written to the peer; a peer that does not read is
/// disconnected after it.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(5);

/// The game side pings every connection this often.
pub const PING_INTERVAL: Duration = Duration::from_secs(10);

/// A connection on which nothing arrived (not even a pong) for this long is closed, on
/// either side.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(30);

/// Longest wait for the close handshake.
pub const CLOSE_TIMEOUT: Duration = Duration::from_secs(2);

/// Messages a bridge may send that nobody asked for (late answers) before the connection
/// is closed as a flood.
pub const MAX_UNREAD: usize = 4;

/// The path of riichi.dev's dialect for ranked games ([`crate::riichi_dev`]), which
/// the one-game listener serves too.
pub const RANKED_PATH: &str = "/ws/ranked";

/// The refusal of a second connection of a dialect bot that has one (riichi.dev's words).
pub const ALREADY_CONNECTED: &str = "This bot is already connected to a game";

/// Connections waiting for a seat per remote bot name; more are refused.
pub const MAX_IDLE_PER_NAME: usize = 4;

/// Open connections per client address on the game side's listener; more are refused
/// (HTTP 429).
pub const MAX_CONNECTIONS_PER_ADDRESS: usize = 8;
