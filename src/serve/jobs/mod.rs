//! The server's background jobs: what runs on its own rather than answering a request,
//! each started by [`Started::run`](crate::Started::run) and stopped by the server's cancellation.
//! - [`validation`]: validation games of uploaded versions (queued by the upload and
//!   connect handlers, and at start for those a stop cut off);
//! - [`league_loop`]: the league played here (`--jobs`), heard by [`league_observer`]
//!   (its events logged and counted for `/metrics`);
//! - [`credentials`]: open connections hung up once the token that opened them is not
//!   valid any more;
//! - [`finals`]: seasons' finals played here (or left to the workers) and their standings
//!   frozen;
//! - [`retention`]: finished games' traces deleted after `--trace-days`;
//! - [`local`]: the threads they run on (games are futures that are not `Send`).

pub mod credentials;
pub mod finals;
pub mod league_loop;
pub mod league_observer;
pub mod local;
pub mod retention;
pub mod validation;
