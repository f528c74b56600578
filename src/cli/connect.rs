//! `mjai-sim connect URL --token TOKEN BOT`: plays a remote seat from this machine (the
//! bridge, [`crate::runtime::remote::bridge`]). Prints one line per game on stdout; exits 0
//! when the game side says there are no more games, 1 on a refused token or a game side
//! gone for longer than `--reconnect-for`.

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context;

use super::numbers::Seconds;
use crate::runtime::process::ProcessOptions;
use crate::runtime::remote::bridge::{game_line, run_bridge, BridgeBot, BridgeOptions};
use crate::runtime::submission::{Submission, SubmissionLimits};

/// Arguments of `connect`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The URL the game printed: ws://HOST:PORT/remote/NAME.
    #[arg(value_name = "URL")]
    pub url: String,
    /// The seat's token the game printed (sent in the Authorization header).
    #[arg(long, value_name = "TOKEN")]
    pub token: String,
    /// The bot: a .zip or a folder holding bot.py (run as python3 -u bot.py SEAT); or give
    /// `-- COMMAND ARGS` to run any program (the seat is appended to ARGS).
    #[arg(value_name = "BOT", required_unless_present = "command")]
    pub bot: Option<PathBuf>,
    /// A program speaking mjai lines on stdio, after `--`.
    #[arg(last = true, value_name = "COMMAND")]
    pub command: Vec<OsString>,
    /// Where the bot's stderr goes (appended).
    #[arg(long, value_name = "FILE", default_value = "mjai-sim-connect.stderr.txt")]
    pub bot_stderr: PathBuf,
    /// Seconds without a connection to the game after which the bridge gives up.
    #[arg(long, value_name = "SECS", default_value = "60")]
    pub reconnect_for: Seconds,
    /// Python interpreter for bot.py.
    #[arg(long, value_name = "PATH", default_value = "python3")]
    pub python: PathBuf,
}

/// Runs the bridge; returns the exit code.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let bot = match (&args.bot, args.command.split_first()) {
        (Some(path), None) => {
            let sub = Submission::load(path, &SubmissionLimits::default()).map_err(|e| anyhow::anyhow!("{e}"))?;
            BridgeBot::Submission(Arc::new(sub))
        }
        (None, Some((program, rest))) => BridgeBot::Command { program: program.clone(), args: rest.to_vec() },
        _ => anyhow::bail!("give either BOT (a .zip or a folder with bot.py) or `-- COMMAND ARGS`, not both"),
    };
    let options = BridgeOptions {
        url: args.url,
        token: args.token,
        bot,
        stderr_log: args.bot_stderr,
        reconnect_for: args.reconnect_for.duration(),
        process: ProcessOptions { python: args.python, ..ProcessOptions::default() },
    };
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    let mut on_game = |control: &crate::runtime::remote::control::Control| {
        if let Some(line) = game_line(control) {
            println!("{line}");
        }
    };
    runtime.block_on(run_bridge(&options, &mut on_game))?;
    Ok(0)
}
