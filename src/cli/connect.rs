//! `mjai-sim connect URL --token TOKEN BOT`: plays a remote seat from this machine. Two
//! wires, told by the URL's path: `/ws/ranked` or `/ws/validate` speak riichi.dev's dialect
//! ([`crate::connect::riichi_dev`]: any server of that dialect, riichi.dev's or
//! mjai-sim's own), any other path mjai-sim's bridge protocol
//! ([`crate::connect::bridge`]: the URL a game or the grading server printed).
//! Prints one line on stdout on connecting, per game, per verdict and per lost connection;
//! exits 0 when a game's side says there are no more games (or the ranked games asked for
//! are played, or validation passed), 1 on a final refusal (with the server's message), a
//! failed validation or a side gone for longer than `--reconnect-for`.
//!
//! On the bridge protocol the first SIGTERM drains (`--drain`: Ctrl-C too): the server is
//! told, seats the bridge in no new game, the game in play is finished, then the bridge
//! exits 0; a second signal stops at once.

use std::ffi::OsString;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;

use super::numbers::SecondsOrZero;
use crate::connect::bridge::{is_game_url, run_bridge, BridgeBot, BridgeOptions};
use crate::connect::riichi_dev::{endpoint, run_client, Outcome};
use crate::runtime::process::ProcessOptions;
use crate::runtime::submission::{Submission, SubmissionLimits};

/// The variable `connect` reads the token from when neither `--token` nor `--token-file`
/// is given.
pub const TOKEN_VAR: &str = "MJAI_SIM_TOKEN";

/// Longest token file read, in bytes.
const TOKEN_FILE_MAX: u64 = 4096;

/// Arguments of `connect`.
#[derive(Debug, clap::Args)]
#[command(after_help = "URLs (ws:// or wss://):
  ws://HOST:PORT/remote/NAME          one game or tournament (the URL and token it printed)
  ws://HOST/api/bots/NAME/connect     a grading server: your remote bot (your author token)
  ws://HOST/ws/validate, /ws/ranked   riichi.dev's dialect (mjai-sim serve, or riichi.dev): the bot token

The token: --token-file FILE or the MJAI_SIM_TOKEN variable keep it out of `ps`; --token TOKEN works too.")]
pub struct Args {
    /// Where to play: the URL a game printed (ws://HOST:PORT/remote/NAME), a grading
    /// server's (ws://HOST/api/bots/NAME/connect), or a riichi.dev-dialect endpoint
    /// (ws://HOST/ws/ranked for ranked games, ws://HOST/ws/validate for one validation
    /// game); wss:// works for each.
    #[arg(value_name = "URL")]
    pub url: String,
    /// The token (sent in the Authorization header): the one the game printed, your author
    /// token (a server), or the bot token (riichi.dev's dialect). Visible in `ps`: prefer
    /// --token-file or MJAI_SIM_TOKEN.
    #[arg(long, value_name = "TOKEN", conflicts_with = "token_file")]
    pub token: Option<String>,
    /// A file holding the token (its first line).
    #[arg(long, value_name = "FILE")]
    pub token_file: Option<PathBuf>,
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
    /// Seconds without a connection after which the bridge gives up (0: never). Default: 60
    /// for a game's URL (/remote/NAME), never for a server's (a restart is not the end).
    #[arg(long, value_name = "SECS")]
    pub reconnect_for: Option<SecondsOrZero>,
    /// On a /ws/ranked URL: stop after this many games (0: keep queueing for the next game
    /// until interrupted).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub games: u32,
    /// Python interpreter for bot.py.
    #[arg(long, value_name = "PATH", default_value = "python3")]
    pub python: PathBuf,
    /// Make Ctrl-C (SIGINT) drain as SIGTERM does: finish the game in play, take no new
    /// seat, then exit 0 (a second signal stops at once). Without it Ctrl-C stops at once.
    #[arg(long)]
    pub drain: bool,
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
    let token = token_of(args.token, args.token_file.as_deref(), std::env::var(TOKEN_VAR).ok())?;
    let reconnect_for = match args.reconnect_for.map(SecondsOrZero::duration) {
        Some(d) if d.is_zero() => None,
        Some(d) => Some(d),
        None if is_game_url(&args.url) => Some(GAME_RECONNECT_FOR),
        None => None,
    };
    let options = BridgeOptions {
        url: args.url,
        token,
        bot,
        stderr_log: args.bot_stderr,
        reconnect_for,
        process: ProcessOptions { python: args.python, ..ProcessOptions::default() },
    };
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    let mut report = |line: String| println!("{line}");
    if endpoint(&options.url).is_some() {
        let outcome = runtime.block_on(run_client(&options, args.games, &mut report))?;
        return Ok(match outcome {
            Outcome::Verdict { passed: false, .. } => 1,
            _ => 0,
        });
    }
    let drain = runtime.block_on(async { drain_on_signals(args.drain) })?;
    runtime.block_on(run_bridge(&options, &mut report, drain))?;
    Ok(0)
}

/// The bridge's signals: the first SIGTERM (or, with `--drain`, SIGINT) drains (the token
/// fires: the game in play is finished, no new seat taken); a second signal, or SIGINT
/// without `--drain`, exits at once with 128 + its number. Must run inside the runtime.
fn drain_on_signals(sigint_drains: bool) -> anyhow::Result<crate::arena::cancel::CancelToken> {
    use tokio::signal::unix::{signal, SignalKind};
    let mut int = signal(SignalKind::interrupt()).context("cannot handle SIGINT")?;
    let mut term = signal(SignalKind::terminate()).context("cannot handle SIGTERM")?;
    let drain = crate::arena::cancel::Cancel::new();
    let token = drain.token();
    tokio::spawn(async move {
        loop {
            let signo = tokio::select! {
                _ = int.recv() => libc::SIGINT,
                _ = term.recv() => libc::SIGTERM,
            };
            let drains = signo == libc::SIGTERM || sigint_drains;
            if drain.is_cancelled() || !drains {
                std::process::exit(128 + signo);
            }
            drain.cancel();
            // said after the drain began: stderr may be a pipe nobody reads any more
            let _ = writeln!(
                std::io::stderr(),
                "mjai-sim: draining: the game in play ends first (a second signal stops at once)"
            );
        }
    });
    Ok(token)
}

/// How long the bridge tries to reach a game's URL without a connection.
const GAME_RECONNECT_FOR: Duration = Duration::from_secs(60);

/// The token: `--token`, else the first line of `--token-file`, else `MJAI_SIM_TOKEN`
/// (`env`). Errors (one line): none given, the file cannot be read, or it is empty.
fn token_of(flag: Option<String>, file: Option<&Path>, env: Option<String>) -> anyhow::Result<String> {
    let token = match (flag, file) {
        (Some(token), _) => token,
        (None, Some(path)) => {
            let mut text = String::new();
            std::fs::File::open(path)
                .and_then(|f| f.take(TOKEN_FILE_MAX).read_to_string(&mut text))
                .with_context(|| format!("cannot read the token file {}", path.display()))?;
            text.lines().next().unwrap_or_default().to_string()
        }
        (None, None) => env.unwrap_or_default(),
    };
    let token = token.trim().to_string();
    if token.is_empty() {
        anyhow::bail!("no token: give --token-file FILE, set {TOKEN_VAR}, or give --token TOKEN");
    }
    Ok(token)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_comes_from_the_flag_the_file_or_the_environment() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("token");
        std::fs::write(&file, "  from-file \nsecond line\n").unwrap();
        let env = Some("from-env".to_string());
        assert_eq!(token_of(Some("flag".into()), None, env.clone()).unwrap(), "flag");
        assert_eq!(token_of(None, Some(&file), env.clone()).unwrap(), "from-file");
        assert_eq!(token_of(None, None, env).unwrap(), "from-env");
        let e = token_of(None, None, None).unwrap_err().to_string();
        assert!(e.contains("--token-file") && e.contains(TOKEN_VAR), "{e}");
        std::fs::write(&file, "\n").unwrap();
        assert!(token_of(None, Some(&file), None).is_err());
        let e = token_of(None, Some(&dir.path().join("missing")), None).unwrap_err().to_string();
        assert!(e.contains("cannot read the token file"), "{e}");
    }
}
