//! Bot runtimes: where a bot runs and how one line goes in and one line comes out.
//! Async (tokio); nothing here knows the rules of mahjong.
//!
//! Every runtime gives a [`Bot`]: send one line, get one line back within a timeout, stop
//! for sure. The match loop only sees this trait. The runtimes: hardened Docker containers
//! ([`docker`]: started from a bot image it names and checks for, never builds), local
//! processes ([`process`]), built-ins in process ([`builtin`]), batched bots ([`batch`]), and
//! the game side of remote bots over WebSocket ([`remote`], and riichi.dev's dialect,
//! [`riichi_dev`]). Building the images is the `mjai-sim-images` crate's; the author's side
//! of a remote bot (`mjai-sim connect`) the `mjai-sim-connect` crate's.

#![warn(missing_docs)]

use std::time::Duration;

use futures_util::future::BoxFuture;

use mjai_sim_engine::event::Event;
use mjai_sim_engine::game::WallIds;

/// What the referee tells a seat before a decision line ([`Bot::offer`]).
#[derive(Debug, Clone, Copy)]
pub struct Offer<'a> {
    /// The engine's legal answers for this seat, canonical mjai actions.
    pub legal: &'a [Event],
    /// The physical tile ids of the kyoku in play (riichi.dev's observation numbers every
    /// tile as its server does; issue 53); `None` where the table has none (scripted tests).
    pub wall: Option<&'a WallIds>,
    /// This request's number in the game: one counter over every seat's decisions, from 1
    /// (riichi.dev's `request_id`; a seat sees gaps).
    pub request_id: u64,
}

impl<'a> Offer<'a> {
    /// An offer of `legal` alone (no wall ids, request 0): in-process bots and tests.
    pub fn legal(legal: &'a [Event]) -> Offer<'a> {
        Offer { legal, wall: None, request_id: 0 }
    }
}

/// A running bot for one seat.
pub trait Bot: Send {
    /// Writes `line` (one JSON array, no newline) and waits for one answer line, at most
    /// `timeout`. The answer is returned without its newline.
    fn exchange<'a>(&'a mut self, line: &'a str, timeout: Duration) -> BoxFuture<'a, Result<String, BotError>>;

    /// The answers the referee will accept to the next line: the engine's legal set for this
    /// seat, canonical mjai actions. Called before each decision line only (informational
    /// lines — `start_game`, `end_kyoku`, `end_game` — get none, and their answer is `none`).
    /// External bots compute their own options from the events and ignore this; in-process
    /// built-ins decide from it, as Mortal's arena hands its agents their legal actions, so
    /// the seat rules exist once, in the engine.
    ///
    /// No default: a bot that wraps another (`--keep-bots`' kept bot) must pass it on, or
    /// the built-in inside answers `none` to every decision (a chombo each hand; that was
    /// the `--keep-bots` bug of issue 42). External bots implement it as nothing.
    ///
    /// The [`Offer`] also carries what riichi.dev's seats need beyond the legal set.
    fn offer(&mut self, offer: &Offer<'_>);

    /// Stops the bot for sure (kills one that ignores SIGTERM) and frees what it holds
    /// (its container is removed). Idempotent.
    fn stop(&mut self) -> BoxFuture<'_, ()>;

    /// The last lines (at most 20) the bot wrote to stderr, oldest first; empty for bots
    /// without stderr (built-ins). After an exchange failed because the bot ended
    /// ([`BotError::Crashed`], [`BotError::Closed`]) they include everything it wrote
    /// before ending (the runtime drains its stderr first). No default, for the same reason
    /// as [`Bot::offer`]: a wrapper passes it on.
    fn stderr_tail(&self) -> Vec<String>;

    /// How long a line may wait before it is written, beyond its timeout: zero for a bot
    /// of its own (the default); a seat of a batched bot ([`batch::BatchSeat`]) waits for
    /// its cycle, and its time limit runs from the moment the cycle is written. The match
    /// loop bounds an exchange by the timeout plus this. A wrapper passes it on.
    fn queue_allowance(&self) -> Duration {
        Duration::ZERO
    }
}

/// Why a bot gave no usable answer line. The match layer turns each into a chombo.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum BotError {
    /// No full line within the timeout (seconds).
    #[error("no answer within {0:.1} s")]
    Timeout(f64),
    /// The bot's process ended.
    #[error("bot exited ({0})")]
    Crashed(String),
    /// The answer line exceeded the limit (bytes).
    #[error("answer line longer than {0} bytes")]
    Oversized(usize),
    /// The bot closed its stdout without exiting.
    #[error("bot closed its output")]
    Closed,
    /// The answer is not UTF-8.
    #[error("answer is not valid UTF-8")]
    InvalidUtf8,
    /// Any other transport failure, with its cause.
    #[error("transport error: {0}")]
    Transport(String),
    /// A riichi.dev dialect seat whose connection dropped or never came: the request is
    /// played by its default action (riichi.dev's rule, no penalty), recorded as
    /// `disconnected`, apart from timeouts. The text says which seat and how to connect.
    #[error("{0}")]
    Disconnected(String),
    /// The host (or the referee itself) could not start this seat's bot: the Docker daemon
    /// gone, the image missing, no GPU runtime for `--gpus`, a process that cannot be
    /// spawned. Nothing of the bot ran, so it is not the bot's fault: the match loop stops
    /// the game ([`crate::arena::match_loop::MatchError::Host`]) instead of charging a
    /// chombo, and nothing is recorded as a result.
    #[error("the host cannot start the bot: {0}")]
    Host(String),
}

impl BotError {
    /// The `error_type` written to `errors.json` (mjai.app names: timeout, runtime, ...).
    pub fn kind(&self) -> &'static str {
        match self {
            BotError::Timeout(_) => "timeout",
            BotError::Crashed(_) => "crashed",
            BotError::Oversized(_) => "oversized",
            BotError::Closed => "closed",
            BotError::InvalidUtf8 => "invalid_utf8",
            BotError::Transport(_) => "runtime",
            BotError::Disconnected(_) => "disconnected",
            BotError::Host(_) => "host",
        }
    }
}

pub mod accept;
pub mod backoff;
pub mod batch;
pub mod bounded;
pub mod builtin;
pub mod cancel;
pub mod docker;
pub mod launcher;
pub mod line;
pub mod manifest;
pub mod missing_module;
pub mod process;
pub mod remote;
pub mod riichi_dev;
pub mod stderr_log;
pub mod stderr_tail;
pub mod submission;
pub mod submission_tar;
