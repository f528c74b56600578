//! `mjai-sim [OPTIONS] BOT BOT BOT BOT`: play one hanchan (the default command).
//!
//! Shows one progress line per hand on stderr, writes the output folder as the game goes,
//! and prints the final table (or, with `--json`, the summary as JSON on stdout).
//! Exit status: 0 when the game completed (chombos included); 1 when it could not start;
//! 2 when it was abandoned after too many restarts; 130 after Ctrl-C.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Context};

use super::runtime_args::RuntimeArgs;
use crate::arena::launch::{build_launcher, BotSpec};
use crate::arena::logs::{stderr_path_in, LogDir};
use crate::arena::match_loop::Ending;
use crate::arena::observer::Fanout;
use crate::arena::progress::Progress;
use crate::arena::summary::Summary;
use crate::arena::{play_match, scoreboard, MatchOptions};
use crate::engine::game::{Game, GameConfig, StartState};

/// Arguments of the default command (play one game).
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The four bots, seat 0 (first dealer) to seat 3: a .zip or a folder holding bot.py,
    /// or builtin:NAME (e.g. builtin:tsumogiri).
    #[arg(value_name = "BOT")]
    pub bots: Vec<BotSpec>,
    /// Output folder [default: logs/<game id>/].
    #[arg(long, value_name = "DIR")]
    pub logs_dir: Option<PathBuf>,
    /// Wall seed, `SEED` or `SEED,KEY` (as in the log's start_game) [default: random].
    #[arg(long, value_name = "SEED[,KEY]", value_parser = parse_seed)]
    pub seed: Option<[u64; 2]>,
    /// Seconds a bot has for one decision.
    #[arg(long, value_name = "SECS", default_value_t = 2.0)]
    pub timeout: f64,
    /// Seconds a bot has for a line beginning with start_game or start_kyoku (model loading).
    #[arg(long, value_name = "SECS", default_value_t = 20.0)]
    pub start_timeout: f64,
    /// Where and how submissions run.
    #[command(flatten)]
    pub runtime: RuntimeArgs,
    /// Print the summary as JSON on stdout (the table goes to stderr).
    #[arg(long)]
    pub json: bool,
    /// Restarts (one per chombo) after which the game is abandoned.
    #[arg(long, value_name = "N", default_value_t = 32)]
    pub max_restarts: u32,
}

/// `SEED` or `SEED,KEY` (KEY defaults to 0).
fn parse_seed(text: &str) -> Result<[u64; 2], String> {
    let mut parts = text.split(',').map(|p| p.trim().parse::<u64>());
    let err = || format!("`{text}` is not SEED or SEED,KEY (unsigned integers), e.g. --seed 42 or --seed 10000,2000");
    let seed = parts.next().ok_or_else(err)?.map_err(|_| err())?;
    let key = parts.next().transpose().map_err(|_| err())?.unwrap_or(0);
    if parts.next().is_some() {
        return Err(err());
    }
    Ok([seed, key])
}

/// A positive, finite number of seconds.
fn seconds(value: f64, flag: &str) -> anyhow::Result<Duration> {
    if !(value.is_finite() && value > 0.0 && value < 86_400.0) {
        bail!("{flag} {value}: give a number of seconds above 0 (e.g. {flag} 2.5)");
    }
    Ok(Duration::from_secs_f64(value))
}

/// Runs the game; returns the exit code.
pub fn run(args: Args) -> anyhow::Result<i32> {
    if args.bots.len() != 4 {
        bail!(
            "{} BOT argument(s) given, 4 needed: mjai-sim [OPTIONS] BOT BOT BOT BOT (a .zip, a folder with bot.py, or builtin:NAME)",
            args.bots.len()
        );
    }
    let options = MatchOptions {
        timeout: seconds(args.timeout, "--timeout")?,
        start_timeout: seconds(args.start_timeout, "--start-timeout")?,
        max_restarts: args.max_restarts,
    };
    let seed = args.seed.unwrap_or_else(|| [rand::random::<u32>() as u64, 0]);
    let dir = args.logs_dir.clone().unwrap_or_else(|| PathBuf::from("logs").join(game_id(seed)));
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(play(args, options, seed, dir))
}

async fn play(args: Args, options: MatchOptions, seed: [u64; 2], dir: PathBuf) -> anyhow::Result<i32> {
    let settings = args.runtime.settings(std::array::from_fn(|seat| stderr_path_in(&dir, seat as u8)));
    let specs: [BotSpec; 4] = std::array::from_fn(|i| args.bots[i].clone());
    let launcher = build_launcher(&specs, &settings).await?;
    let mut logs = LogDir::create(&dir).context("cannot create the logs folder (choose another with --logs-dir)")?;
    let names = ["0", "1", "2", "3"].map(String::from);
    let mut game = Game::new(GameConfig { seed, names, start: StartState::default() });

    // Ctrl-C: the match loop stops every bot and returns; a second Ctrl-C exits at once.
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            eprintln!("mjai-sim: stopping the bots (Ctrl-C again to quit at once; then run `mjai-sim cleanup`)");
            stop_tx.send_replace(true);
            if tokio::signal::ctrl_c().await.is_ok() {
                std::process::exit(130);
            }
        }
    });
    eprintln!("mjai-sim: seed {},{}; logs in {}", seed[0], seed[1], dir.display());
    if let Some(guard) = launcher.guard() {
        eprintln!("mjai-sim: containers are labelled mjai-sim.game={}", guard.game());
    }
    let mut progress = Progress::new(std::io::stderr());
    let report = {
        let mut observers = Fanout(vec![&mut logs, &mut progress]);
        play_match(&mut game, &launcher, &options, &mut observers, stop_rx).await
    };
    if let Some(guard) = launcher.guard() {
        guard.shutdown().await;
    }
    let report = report?;
    let summary = Summary::new(game.log(), &report, specs.each_ref().map(|b| b.to_string()));
    logs.write_summary(&summary)?;

    let table = scoreboard::render(&summary);
    if args.json {
        eprint!("{table}");
        println!("{}", serde_json::to_string_pretty(&summary)?);
    } else {
        print!("{table}");
    }
    Ok(match report.ending {
        Ending::Completed => 0,
        Ending::RestartLimit(n) => {
            eprintln!(
                "mjai-sim: game abandoned after {n} restarts (--max-restarts); causes in {}",
                dir.join("errors.json").display()
            );
            2
        }
        Ending::Interrupted => {
            eprintln!("mjai-sim: interrupted; bots stopped, logs so far in {}", dir.display());
            130
        }
    })
}

/// `YYYYMMDD-HHMMSS-SEED` in UTC: sortable, unique enough per machine.
fn game_id(seed: [u64; 2]) -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    let (y, m, d) = civil_date(secs / 86_400);
    let s = secs % 86_400;
    format!("{y:04}{m:02}{d:02}-{:02}{:02}{:02}-{}", s / 3600, s / 60 % 60, s % 60, seed[0])
}

/// Year, month, day of a count of days since 1970-01-01 (proleptic Gregorian).
fn civil_date(days: u64) -> (u64, u64, u64) {
    let (mut year, mut rest) = (1970, days);
    loop {
        let len = if is_leap(year) { 366 } else { 365 };
        if rest < len {
            break;
        }
        rest -= len;
        year += 1;
    }
    let feb = if is_leap(year) { 29 } else { 28 };
    let months = [31, feb, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    let mut month = 1;
    for len in months {
        if rest < len {
            break;
        }
        rest -= len;
        month += 1;
    }
    (year, month, rest + 1)
}

fn is_leap(y: u64) -> bool {
    (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_parse() {
        assert_eq!(parse_seed("42"), Ok([42, 0]));
        assert_eq!(parse_seed("10000,2000"), Ok([10000, 2000]));
        assert!(parse_seed("1,2,3").is_err());
        assert!(parse_seed("x").unwrap_err().contains("--seed 42"));
    }

    #[test]
    fn civil_dates() {
        assert_eq!(civil_date(0), (1970, 1, 1));
        assert_eq!(civil_date(59), (1970, 3, 1));
        assert_eq!(civil_date(11_016), (2000, 2, 29));
        assert_eq!(civil_date(20_780), (2026, 11, 23));
    }

    #[test]
    fn timeouts_must_be_positive() {
        assert!(seconds(0.0, "--timeout").unwrap_err().to_string().contains("above 0"));
        assert!(seconds(f64::NAN, "--timeout").is_err());
        assert_eq!(seconds(2.5, "--timeout").unwrap(), Duration::from_millis(2500));
    }
}
