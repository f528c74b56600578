//! `mjai-sim check BOT`: a smoke test of one submission before it plays.
//!
//! Runs intake (the same checks as a game), starts the bot as seat 0, sends
//! `start_game` (expects `none`), then the first `start_kyoku` and its draw (expects a legal
//! action, checked by the rules engine), and reports each step with its time. On failure
//! it shows the end of the bot's stderr. Exit status 0 when every step passed, 1 otherwise,
//! 130 after SIGINT and 143 after SIGTERM (the bot stopped, its container removed).

use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::Context;

use super::numbers::Seconds;
use super::runtime_args::RuntimeArgs;
use super::shutdown::Shutdown;
use crate::arena::launch::{build_launcher, BotSpec, SeatLauncher};
use crate::arena::relay::start_game_line;
use crate::arena::seats::GRACE;
use crate::arena::Launcher;
use crate::engine::event::{batch_line, Event};
use crate::engine::game::{Game, GameConfig, StartState};
use crate::runtime::bounded::{self, within};
use crate::runtime::{Bot, BotError};

/// Arguments of `check`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The submission: a .zip or a folder holding bot.py (or builtin:NAME).
    #[arg(value_name = "BOT")]
    pub bot: BotSpec,
    /// Where and how the submission runs.
    #[command(flatten)]
    pub runtime: RuntimeArgs,
    /// Seconds allowed for each of the two answers (both lines begin a game or hand, so
    /// a game would allow the start timeout).
    #[arg(long, value_name = "SECS", default_value = "20")]
    pub start_timeout: Seconds,
    /// Wall seed of the test hand.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Runs `check`; returns the exit code.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(check(args))
}

/// Prints one step's outcome: `ok   what  (12.3 ms)` or `FAIL what: why`.
fn step(ok: bool, what: &str, took: Duration, detail: &str) {
    let mark = if ok { "ok  " } else { "FAIL" };
    println!("{mark} {what:<28} {:>9.1} ms  {detail}", took.as_secs_f64() * 1000.0);
}

async fn check(args: Args) -> anyhow::Result<i32> {
    let shutdown = Shutdown::install()?;
    let tmp = tempfile::tempdir().context("cannot create a temporary folder")?;
    let stderr_paths = std::array::from_fn(|seat| tmp.path().join(format!("player_logs.{seat}.stderr.txt")));
    let settings = args.runtime.settings(stderr_paths);
    let timeout = args.start_timeout.duration();
    let started = Instant::now();
    let specs = [args.bot.clone(), args.bot.clone(), args.bot.clone(), args.bot.clone()];
    let launcher = build_launcher(&specs, &settings, None).await?; // bounded: Docker client timeouts.
    step(true, "intake", started.elapsed(), &args.bot.to_string());
    if let Some(guard) = launcher.guard() {
        eprintln!("mjai-sim: containers are labelled mjai-sim.game={}", guard.game());
    }

    let mut bot: Option<Box<dyn Bot>> = None;
    let passed = tokio::select! {
        passed = start_and_exchange(&launcher, &mut bot, args.seed, timeout) => Some(passed),
        _ = shutdown.stopped() => None,
    };
    if let Some(bot) = bot.as_mut() {
        bounded::stop(bot.as_mut()).await;
    }
    if let Some(guard) = launcher.guard() {
        guard.shutdown().await; // bounded: Docker client timeouts, CREATE_WAIT.
    }
    match passed {
        None => {
            eprintln!("mjai-sim: interrupted; the bot was stopped");
            Ok(shutdown.exit_code().unwrap_or(130))
        }
        Some(false) => {
            show_stderr(&settings.stderr_paths[0]);
            Ok(1)
        }
        Some(true) => {
            println!("the submission is ready to play");
            Ok(0)
        }
    }
}

/// Starts the bot as seat 0 into `slot` (so the caller can stop it whatever happens), then
/// runs the two test exchanges; prints each step, returns true when all passed.
async fn start_and_exchange(
    launcher: &SeatLauncher,
    slot: &mut Option<Box<dyn Bot>>,
    seed: u64,
    timeout: Duration,
) -> bool {
    let started = Instant::now();
    let launched = within(timeout + GRACE, "starting the bot", launcher.launch(0)).await;
    match launched.unwrap_or(Err(BotError::Timeout(timeout.as_secs_f64()))) {
        Ok(bot) => {
            step(true, "start the bot", started.elapsed(), "");
            exchanges(slot.insert(bot).as_mut(), seed, timeout).await // bounded: each exchange().
        }
        Err(e) => {
            step(false, "start the bot", started.elapsed(), &e.to_string());
            false
        }
    }
}

/// One exchange, cut off [`GRACE`] after `timeout` as in a game.
async fn exchange(bot: &mut dyn Bot, line: &str, timeout: Duration) -> Result<String, BotError> {
    let answer = within(timeout + GRACE, "an exchange", bot.exchange(line, timeout)).await;
    answer.unwrap_or(Err(BotError::Timeout(timeout.as_secs_f64())))
}

/// The two test exchanges; prints each step, returns true when both passed.
async fn exchanges(bot: &mut dyn Bot, seed: u64, timeout: Duration) -> bool {
    let names = ["0", "1", "2", "3"].map(String::from);
    let game = Game::new(GameConfig { seed: [seed, 0], names, start: StartState::default() });
    let log = game.log();

    let started = Instant::now();
    let answer = exchange(bot, &start_game_line(log, 0, crate::engine::game::Players::Four), timeout).await; // bounded: within().
    let took = started.elapsed();
    match answer.as_deref().map(serde_json::from_str::<Event>) {
        Ok(Ok(Event::None)) => step(true, "start_game -> none", took, ""),
        Ok(Ok(other)) => {
            step(true, "start_game -> none", took, &format!("warning: answered {} (ignored)", other.to_json()))
        }
        Ok(Err(e)) => {
            step(false, "start_game -> none", took, &format!("unparsable answer: {e}"));
            return false;
        }
        Err(e) => {
            step(false, "start_game -> none", took, &e.to_string());
            return false;
        }
    }

    let first: Vec<Event> = log[1..].iter().map(|e| e.masked_for(0)).collect();
    let started = Instant::now();
    let answer = exchange(bot, &batch_line(&first), timeout).await; // bounded: within().
    let took = started.elapsed();
    match answer {
        Ok(line) => match game.validate(0, &line) {
            Ok(action) => {
                step(true, "start_kyoku+tsumo -> action", took, &action.to_json());
                true
            }
            Err(why) => {
                step(false, "start_kyoku+tsumo -> action", took, &format!("illegal answer ({why}): {line}"));
                false
            }
        },
        Err(e) => {
            step(false, "start_kyoku+tsumo -> action", took, &e.to_string());
            false
        }
    }
}

/// Prints the last 20 lines of the bot's stderr, if any.
fn show_stderr(path: &Path) {
    let Ok(text) = std::fs::read_to_string(path) else { return };
    let lines: Vec<&str> = text.lines().collect();
    if lines.is_empty() {
        return;
    }
    println!("--- end of the bot's stderr ---");
    for l in &lines[lines.len().saturating_sub(20)..] {
        println!("{l}");
    }
}
