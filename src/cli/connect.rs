//! `mjai-sim connect URL --token TOKEN BOT`: plays a remote seat from this machine. Two
//! wires, told by the URL's path: `/ws/ranked` or `/ws/validate` speak riichi.dev's dialect
//! ([`crate::runtime::riichilab::client`]: any server of that dialect, riichi.dev's or
//! mjai-sim's own), any other path mjai-sim's bridge protocol
//! ([`crate::runtime::remote::bridge`]: the URL a game or the grading server printed).
//! Prints one line per game on stdout; exits 0 when the game side says there are no more
//! games (or the ranked games asked for are played, or validation passed), 1 on a refused
//! token, a failed validation or a game side gone for longer than `--reconnect-for`.

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context;

use super::numbers::Seconds;
use crate::runtime::process::ProcessOptions;
use crate::runtime::remote::bridge::{game_line, run_bridge, BridgeBot, BridgeOptions};
use crate::runtime::riichilab::client::{endpoint, run_client, Outcome};
use crate::runtime::submission::{Submission, SubmissionLimits};

/// Arguments of `connect`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The URL to play on: ws://HOST:PORT/remote/NAME as a game or the grading server
    /// printed (mjai-sim's bridge), or a riichi.dev-dialect endpoint ws://HOST/ws/ranked
    /// (ranked games) or ws://HOST/ws/validate (one validation game).
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
    /// On a /ws/ranked URL: stop after this many games (0: keep queueing for the next game
    /// until interrupted).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub games: u32,
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
    if endpoint(&options.url).is_some() {
        let mut report = |line: String| println!("{line}");
        let outcome = runtime.block_on(run_client(&options, args.games, &mut report))?;
        return Ok(match outcome {
            Outcome::Verdict { passed: false, .. } => 1,
            _ => 0,
        });
    }
    let mut on_game = |control: &crate::runtime::remote::control::Control| {
        if let Some(line) = game_line(control) {
            println!("{line}");
        }
    };
    runtime.block_on(run_bridge(&options, &mut on_game))?;
    Ok(0)
}
