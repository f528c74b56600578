//! The author's side of a remote bot (`mjai-sim connect URL --token TOKEN BOT`): a bot on
//! its author's machine, run as a local process (the runtime's [`ProcessBot`]), played on a
//! remote server over a WebSocket. Two wires, told apart by the URL's path:
//!
//! - [`bridge`]: mjai-sim's own (a game's or tournament's `/remote/NAME`, the grading
//!   server's `/api/bots/NAME/connect`): mjai lines plus the control messages of
//!   `mjai_sim_runtime::remote::control`, docs/protocol.md, "Remote bots".
//! - [`riichi_dev`]: riichi.dev's dialect (`/ws/ranked`, `/ws/validate`), on riichi.dev itself
//!   or on mjai-sim's own server; docs/protocol.md, "riichi.dev's dialect".
//!
//! Both open their connection through [`dial`] (the token, final refusals told from passing
//! outages, the backoff). `wss://` URLs need the `tls` feature (on by default: rustls with
//! Mozilla's roots and `SSL_CERT_FILE`, in `tls.rs`); without it they are refused with a
//! one-line error naming the fix (`dial::WITHOUT_TLS`) and `ws://` works as ever. The servers' sides
//! of both wires are the runtime's (`mjai_sim_runtime::remote`, `mjai_sim_runtime::riichi_dev`).
//!
//! [`ProcessBot`]: mjai_sim_runtime::process::ProcessBot

#![warn(missing_docs)]

pub mod bridge;
pub mod dial;
pub mod riichi_dev;
#[cfg(feature = "tls")]
pub mod tls;
