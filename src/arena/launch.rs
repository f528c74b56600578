//! From the command line's BOT arguments to running bots: which runtime starts a seat.
//!
//! A BOT is `builtin:NAME` (a built-in bot, in process), a `.zip` or a folder holding
//! `bot.py` (run in Docker, or as a local process with `--runtime process`).

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

use futures_util::future::BoxFuture;

use super::Launcher;
use crate::engine::event::Seat;
use crate::runtime::{Bot, BotError};

/// One seat's bot as given on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BotSpec {
    /// `builtin:NAME`.
    Builtin(String),
    /// A `.zip` or a folder with `bot.py`.
    Submission(PathBuf),
}

impl FromStr for BotSpec {
    type Err = String;

    /// Never fails on a path (intake checks it later, with a precise message); refuses an
    /// empty argument or `builtin:` without a name.
    fn from_str(s: &str) -> Result<BotSpec, String> {
        if s.is_empty() {
            return Err("empty BOT; give a .zip, a folder with bot.py, or builtin:NAME".into());
        }
        match s.strip_prefix("builtin:") {
            Some("") => Err("`builtin:` needs a name, e.g. builtin:tsumogiri".into()),
            Some(name) => Ok(BotSpec::Builtin(name.to_string())),
            None => Ok(BotSpec::Submission(PathBuf::from(s))),
        }
    }
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotSpec::Builtin(name) => write!(f, "builtin:{name}"),
            BotSpec::Submission(path) => write!(f, "{}", path.display()),
        }
    }
}

/// Where submissions run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum RuntimeKind {
    /// One hardened container per seat (the default).
    Docker,
    /// A local `python3 -u bot.py SEAT` process: fast, NOT sandboxed; for bot authors.
    Process,
}

/// How lines reach a bot in Docker.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Transport {
    /// The bot's stdin and stdout (fastest).
    Stdio,
    /// mjai.app's in-container HTTP relay (one POST per line).
    Http,
}

/// Everything needed to start the four seats.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LaunchSettings {
    /// Runtime of submissions.
    pub runtime: RuntimeKind,
    /// Transport in Docker.
    pub transport: Transport,
    /// Bot image; `None` for the default image.
    pub image: Option<String>,
    /// Largest accepted submission, in bytes.
    pub max_submission_bytes: u64,
    /// Where each seat's stderr goes (`player_logs.{seat}.stderr.txt`).
    pub stderr_paths: [PathBuf; 4],
}

/// Checks the four submissions (intake) and returns a launcher for them. Errors (one line
/// naming the seat, the cause and the fix) come before any bot starts.
pub async fn build_launcher(specs: &[BotSpec; 4], settings: &LaunchSettings) -> anyhow::Result<FnLauncher> {
    let _ = settings;
    anyhow::bail!("seat 0 ({}): the runtimes are not merged into this build yet (issue 4)", specs[0])
}

/// Starts one seat's bot; the boxed async function a [`FnLauncher`] calls.
pub type LaunchFn = Box<dyn Fn(Seat) -> BoxFuture<'static, Result<Box<dyn Bot>, BotError>> + Send + Sync>;

/// A [`Launcher`] made of one launch function per seat.
pub struct FnLauncher {
    seats: [LaunchFn; 4],
}

impl FnLauncher {
    /// The launcher calling `seats[seat]` to start `seat`.
    pub fn new(seats: [LaunchFn; 4]) -> FnLauncher {
        FnLauncher { seats }
    }
}

impl Launcher for FnLauncher {
    fn launch(&self, seat: Seat) -> BoxFuture<'_, Result<Box<dyn Bot>, BotError>> {
        match self.seats.get(usize::from(seat)) {
            Some(f) => f(seat),
            None => Box::pin(async move { Err(BotError::Transport(format!("no seat {seat}"))) }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bot_specs_parse() {
        assert_eq!("builtin:tsumogiri".parse::<BotSpec>(), Ok(BotSpec::Builtin("tsumogiri".into())));
        assert_eq!("bots/a.zip".parse::<BotSpec>(), Ok(BotSpec::Submission("bots/a.zip".into())));
        assert!("builtin:".parse::<BotSpec>().unwrap_err().contains("needs a name"));
        assert!("".parse::<BotSpec>().is_err());
        assert_eq!(BotSpec::Builtin("rulebase".into()).to_string(), "builtin:rulebase");
    }
}
