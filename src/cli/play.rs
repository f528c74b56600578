//! `mjai-sim [OPTIONS] BOT BOT BOT BOT`: play one hanchan (the default command); three bots
//! with a three-player preset (`--rules riichi-dev-3p`) play sanma.
//!
//! Shows one progress line per hand on stderr, writes the output folder as the game goes,
//! and prints the final table (or, with `--json`, the summary as JSON on stdout).
//! Exit status: 0 when the game completed (chombos included); 1 when it could not start or
//! the host could not start its bots mid-game (`host_fault`: nothing recorded); 2 when it
//! was abandoned after too many restarts; 3 when a built-in bot took a chombo (an internal
//! error: the referee's bug, never a result); 130 after SIGINT (Ctrl-C), 143 after
//! SIGTERM (see `super::shutdown`).

use std::path::PathBuf;

use anyhow::{bail, Context};

use super::clock_arg::ClockFlags;
use super::message_format::{emit, emit_error, emit_result, MessageFormatFlag};
use super::numbers::Seconds;
use super::rules_arg::RulesFlag;
use super::runtime_args::RuntimeArgs;
use super::shutdown::Shutdown;
use super::start_args::{ResolvedStart, StartArgs};
use crate::arena::game_run::{run_game, GameSpec};
use crate::arena::launch::BotSpec;
use crate::arena::logs::stderr_path_in;
use crate::arena::match_loop::MatchEnding;
use crate::arena::observer::Fanout;
use crate::arena::progress::HandLines;
use crate::arena::{scoreboard, MatchOptions};
use crate::engine::game::Players;
use crate::messages::results::GameResult;
use crate::messages::{CodedError, CommandResult, ErrorCode, GameLines, Message};

/// Arguments of the default command (play one game).
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The four bots, seat 0 (first dealer) to seat 3; three with a three-player preset
    /// (--rules riichi-dev-3p or tenhou-3p). Each one of: a .zip or a folder holding
    /// bot.py (an mjai.app bot, run in a container); builtin:NAME (tsumogiri, random,
    /// rulebase); remote:NAME (an mjai.app bot on another machine, joining with `mjai-sim
    /// connect`; needs --listen); riichilab:NAME (a riichi.dev bot over its WebSocket
    /// dialect; needs --listen; the URL and token are printed at the start).
    #[arg(value_name = "BOT")]
    pub bots: Vec<BotSpec>,
    /// Output folder [default: logs/<game id>/].
    #[arg(long, value_name = "DIR")]
    pub logs_dir: Option<PathBuf>,
    /// Wall seed, `SEED` or `SEED,KEY` (as in the log's start_game) [default: random].
    #[arg(long, value_name = "SEED[,KEY]", value_parser = parse_seed)]
    pub seed: Option<[u64; 2]>,
    /// Each seat's clock: `--clock`, `--timeout`, `--time-bank`.
    #[command(flatten)]
    pub clock: ClockFlags,
    /// Seconds a bot has for a line beginning with start_game or start_kyoku (model loading).
    #[arg(long, value_name = "SECS", default_value = "20")]
    pub start_timeout: Seconds,
    /// Where and how submissions run.
    #[command(flatten)]
    pub runtime: RuntimeArgs,
    /// Rule preset.
    #[command(flatten)]
    pub rules: RulesFlag,
    /// Print the summary as JSON on stdout (the table goes to stderr).
    #[arg(long, conflicts_with = "message_format")]
    pub json: bool,
    /// What stdout carries: human text, or JSON messages (hands, the result, errors).
    #[command(flatten)]
    pub messages: MessageFormatFlag,
    /// Restarts (one per chombo) after which the game is abandoned.
    #[arg(long, value_name = "N", default_value_t = 32)]
    pub max_restarts: u32,
    /// Longest a whole game may take, in seconds; past it the game ends as failed (exit 2).
    #[arg(long, value_name = "SECS", default_value = "3600")]
    pub game_timeout: Seconds,
    /// Where the game starts (--from LOG@HAND, or --start/--scores/--honba/--kyotaku).
    #[command(flatten)]
    pub start: StartArgs,
    /// Do not write game.html (the viewer page) beside the logs.
    #[arg(long)]
    pub no_html: bool,
    /// Where remote:NAME seats listen for `mjai-sim connect` (port 0: any free port).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:0")]
    pub listen: std::net::SocketAddr,
}

/// `SEED` or `SEED,KEY` (KEY defaults to 0).
pub(super) fn parse_seed(text: &str) -> Result<[u64; 2], String> {
    let mut parts = text.split(',').map(|p| p.trim().parse::<u64>());
    let err = || format!("`{text}` is not SEED or SEED,KEY (unsigned integers), e.g. --seed 42 or --seed 10000,2000");
    let seed = parts.next().ok_or_else(err)?.map_err(|_| err())?;
    let key = parts.next().transpose().map_err(|_| err())?.unwrap_or(0);
    if parts.next().is_some() {
        return Err(err());
    }
    Ok([seed, key])
}

/// Why `given` BOT arguments cannot play under rules for `players` (preset `preset`), as one
/// line naming the fix; `None` when they can (four, or three with a three-player preset).
pub(super) fn seat_count_error(given: usize, players: Players, preset: &str) -> Option<String> {
    const FORMS: &str = "a .zip, a folder with bot.py, builtin:NAME, remote:NAME or riichilab:NAME";
    match (given, players) {
        (n, p) if n == p.count() => None,
        (3, Players::Four) => Some(format!(
            "3 BOT arguments given but --rules {preset} seats 4: a three-player game needs a three-player preset, e.g. --rules riichi-dev-3p"
        )),
        (4, Players::Three) => Some(format!(
            "4 BOT arguments given but --rules {preset} is three-player (sanma): give 3 bots, or a four-player preset"
        )),
        (n, Players::Three) => Some(format!(
            "{n} BOT argument(s) given, 3 needed for --rules {preset}: mjai-sim --rules {preset} BOT BOT BOT ({FORMS})"
        )),
        (n, Players::Four) => Some(format!(
            "{n} BOT argument(s) given, 4 needed: mjai-sim [OPTIONS] BOT BOT BOT BOT ({FORMS}; 3 with --rules riichi-dev-3p)"
        )),
    }
}

/// Runs the game; returns the exit code.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let rules = args.rules.rules();
    if let Some(why) = seat_count_error(args.bots.len(), rules.players, rules.name()) {
        bail!(CodedError::new(ErrorCode::BadOption, why));
    }
    let options = MatchOptions {
        clock: args.clock.clock(),
        start_timeout: args.start_timeout.duration(),
        max_restarts: args.max_restarts,
        game_timeout: args.game_timeout.duration(),
    };
    let start = args.start.resolve(args.seed, rules)?;
    let seed = start.seed.unwrap_or_else(|| [rand::random::<u32>() as u64, 0]);
    let dir = args.logs_dir.clone().unwrap_or_else(|| PathBuf::from("logs").join(crate::arena::run_id::game_id(seed)));
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(play(args, options, seed, start, dir))
}

async fn play(
    args: Args,
    options: MatchOptions,
    seed: [u64; 2],
    start: ResolvedStart,
    dir: PathBuf,
) -> anyhow::Result<i32> {
    let settings = args.runtime.settings(std::array::from_fn(|seat| stderr_path_in(&dir, seat as u8)));
    let remote = crate::arena::remote_seats::listen_for(&args.bots, args.listen, options.start_timeout).await?;
    let spec = GameSpec {
        bots: args.bots.clone(),
        names: ["0", "1", "2", "3"].map(String::from),
        seed,
        start: start.start,
        rules: args.rules.rules(),
        options,
        settings,
        dir: dir.clone(),
        from_log: start.from_log,
        remote: remote.as_ref().map(|r| r.seats.clone()),
        validation: false,
    };
    if let Some(note) = &start.note {
        eprintln!("mjai-sim: {note}");
    }

    // SIGINT or SIGTERM: the match loop stops every bot and returns; a second one exits at once.
    let shutdown = Shutdown::install()?;
    for (name, command) in remote.iter().flat_map(|r| &r.commands) {
        let seat = spec
            .bots
            .iter()
            .position(|b| matches!(b, BotSpec::Remote(n) | BotSpec::RiichiDev(n) if n == name))
            .unwrap_or_default();
        eprintln!("mjai-sim: seat {seat} ({}): {command}", spec.bots[seat]);
    }
    let json = args.messages.json();
    let mut progress = HandLines::new(std::io::stderr());
    let mut lines = GameLines::new(std::io::stdout());
    let mut observers = Fanout(vec![&mut progress]);
    if json {
        observers.0.push(&mut lines);
    }
    let outcome = run_game(&spec, &mut observers, shutdown.stop(), |launcher| {
        eprintln!("mjai-sim: seed {},{}; logs in {}", seed[0], seed[1], dir.display());
        if let Some(guard) = launcher.guard() {
            eprintln!("mjai-sim: containers are labelled mjai-sim.game={}", guard.game());
        }
        if json {
            emit(&Message::GameStarted {
                seed,
                logs_dir: dir.display().to_string(),
                bots: spec.bots.iter().map(|b| b.to_string()).collect(),
                containers_label: launcher.guard().map(|g| g.game().to_string()),
            });
        }
    })
    .await;
    if let Some(remote) = &remote {
        remote.seats.hub.close_all().await; // bounded: inside.
    }
    let outcome = outcome?;
    let summary = outcome.summary;
    let report = outcome.report;
    if !args.no_html {
        if let Err(e) = crate::arena::game_html::write_game_html(&dir) {
            eprintln!("mjai-sim: no game.html: {e:#}");
        }
    }

    let table = scoreboard::render(&summary);
    if json {
        emit_result(CommandResult::Play(GameResult::new(dir.display().to_string(), &summary)));
    } else if args.json {
        eprint!("{table}");
        println!("{}", serde_json::to_string_pretty(&summary)?);
    } else {
        print!("{table}");
    }
    if let Some(fault) = &outcome.builtin_fault {
        let line = format!("{fault}; logs in {}", dir.display());
        eprintln!("mjai-sim: {line}");
        if json {
            emit_error(ErrorCode::Internal, &line);
        }
        return Ok(3);
    }
    let (code, line, exit) = match &report.ending {
        MatchEnding::Completed => return Ok(0),
        MatchEnding::RestartLimit(n) => (
            ErrorCode::RestartLimit,
            format!(
                "game abandoned after {n} restarts (--max-restarts); causes in {}",
                dir.join("errors.json").display()
            ),
            2,
        ),
        MatchEnding::Failed(reason) => {
            (ErrorCode::GameFailed, format!("game failed: {reason}; bots stopped, logs so far in {}", dir.display()), 2)
        }
        MatchEnding::Interrupted => (
            ErrorCode::Interrupted,
            format!("interrupted; bots stopped, logs so far in {}", dir.display()),
            shutdown.exit_code().unwrap_or(130),
        ),
    };
    eprintln!("mjai-sim: {line}");
    if json {
        emit_error(code, &line);
    }
    Ok(exit)
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
    fn three_bots_need_a_three_player_preset_and_four_a_four_player_one() {
        assert_eq!(seat_count_error(4, Players::Four, "tenhou"), None);
        assert_eq!(seat_count_error(3, Players::Three, "riichi-dev-3p"), None);
        let three = seat_count_error(3, Players::Four, "tenhou").unwrap();
        assert!(three.contains("--rules riichi-dev-3p"), "{three}");
        let four = seat_count_error(4, Players::Three, "tenhou-3p").unwrap();
        assert!(four.contains("give 3 bots"), "{four}");
        assert!(seat_count_error(2, Players::Three, "tenhou-3p").unwrap().contains("3 needed"));
        assert!(seat_count_error(5, Players::Four, "tenhou").unwrap().contains("4 needed"));
    }
}
