//! `mjai-sim tournament [OPTIONS] BOT BOT BOT BOT [BOT...]`: many games between N bots in
//! duplicate sets (or one-vs-three), `--jobs` at a time, results in `DIR/tournament.sqlite`,
//! resumable with `--resume DIR`; standings in `DIR/standings.json` and `DIR/standings.md`.
//! `--sets 0`: a league, played until stopped ([`super::local_run`], `--db`:
//! [`super::tournament_db`]).
//!
//! Exit status: 0 when every game was played; 1 when the tournament could not start (bad
//! submission, Docker unreachable, bad options) or stopped on an error (disk full, locked
//! database: what was recorded is kept); 2 when some games failed twice (listed on stderr);
//! 130 after Ctrl-C or SIGTERM (continue with `--resume DIR`).

use std::path::{Path, PathBuf};

use anyhow::{bail, Context};

use crate::arena::shutdown::Shutdown;

use super::local_run::{self, Local};
use super::numbers::Seconds;
use super::play::{game_id, parse_seed};
use super::rules_arg::{RulesArg, RulesFlag};
use super::runtime_args::RuntimeArgs;
use super::standings::{standings_of, write_standings};
use crate::arena::launch::{LaunchSettings, RuntimeKind, Transport};
use crate::arena::MatchOptions;
use crate::engine::game::Rules;
use crate::runtime::submission::SubmissionLimits;
use crate::tournament::config::TournamentConfig;
use crate::tournament::entrants::{self, Entrant};
use crate::tournament::runner::RunEnd;
use crate::tournament::schedule::{self, Format, ScheduledGame};
use crate::tournament::store::{Store, DB_FILE};

/// Arguments of `mjai-sim tournament`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The bots: NAME=BOT or BOT (named after its file stem), BOT being a .zip, a folder
    /// holding bot.py, or builtin:NAME. With --format 1v3: CHALLENGER CHAMPION.
    #[arg(value_name = "BOT")]
    pub bots: Vec<String>,
    /// Duplicate sets to play (4 hanchans each, one wall seed, seats rotated); 0: an
    /// open-ended league, played until stopped (bots added and retired with `mjai-sim league`).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub sets: u64,
    /// Wall seed base NONCE[,KEY]: set i plays (NONCE + i, KEY) [default: random NONCE].
    #[arg(long, value_name = "NONCE[,KEY]", value_parser = parse_seed)]
    pub seed: Option<[u64; 2]>,
    /// `duplicate` (4 or more bots) or `1v3` (CHALLENGER against three CHAMPION copies).
    #[arg(long, value_enum, default_value_t = FormatArg::Duplicate)]
    pub format: FormatArg,
    /// Games played at once [default: 2 per CPU with submissions, 1 per CPU for built-ins].
    #[arg(long, value_name = "J")]
    pub jobs: Option<usize>,
    /// Keep bots running between games (each game starts with start_game); after any
    /// error in a game its bots start fresh.
    #[arg(long)]
    pub keep_bots: bool,
    /// Don't write each game's folder games/<index>/ (results still go to the database).
    #[arg(long)]
    pub no_logs: bool,
    /// Don't write game.html (the viewer page) in each game's folder.
    #[arg(long)]
    pub no_html: bool,
    /// Tournament folder [default: logs/<tournament id>/].
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// Continue the tournament in DIR (after Ctrl-C, SIGTERM, a crash or kill -9).
    #[arg(long, value_name = "DIR", conflicts_with_all = ["bots", "dir", "sets", "seed", "format", "db"])]
    pub resume: Option<PathBuf>,
    /// Keep the tournament in this database (postgres://USER:PASS@HOST:PORT/NAME, or
    /// sqlite:PATH) so that `mjai-sim worker` processes on any host play it; this command
    /// plays with its own --jobs (0: only create it and watch) and returns when every game
    /// is done. DIR then only receives standings.json and standings.md.
    #[arg(long, value_name = "URL")]
    pub db: Option<String>,
    /// With --db: seconds a claimed game stays this process's without a heartbeat.
    #[arg(long, value_name = "SECS", default_value = "30")]
    pub lease: Seconds,
    /// With --db: seconds to keep retrying while the database is unreachable (finished
    /// games wait meanwhile) before giving up with exit status 1.
    #[arg(long, value_name = "SECS", default_value = "300")]
    pub db_patience: Seconds,
    /// Uma by rank in pt, four numbers.
    #[arg(long, value_name = "U1,U2,U3,U4", value_parser = parse_uma, default_value = "90,45,0,-135")]
    pub uma: [f64; 4],
    /// Print standings as JSON on stdout (the table goes to stderr; no progress bar).
    #[arg(long)]
    pub json: bool,
    /// Seconds a bot has for one decision.
    #[arg(long, value_name = "SECS", default_value = "2")]
    pub timeout: Seconds,
    /// Seconds a bot has for a line beginning with start_game or start_kyoku.
    #[arg(long, value_name = "SECS", default_value = "20")]
    pub start_timeout: Seconds,
    /// Restarts after which a game is abandoned (then failed, retried once).
    #[arg(long, value_name = "N", default_value_t = 32)]
    pub max_restarts: u32,
    /// Longest one game may take, in seconds; past it the game fails (retried once).
    #[arg(long, value_name = "SECS", default_value = "3600")]
    pub game_timeout: Seconds,
    /// Rule preset of every game.
    #[command(flatten)]
    pub rules: RulesFlag,
    /// Where and how submissions run.
    #[command(flatten)]
    pub runtime: RuntimeArgs,
}

/// `--format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FormatArg {
    /// Duplicate sets between 4 or more bots.
    Duplicate,
    /// Mortal's one-vs-three.
    #[value(name = "1v3")]
    OneVsThree,
}

fn parse_uma(text: &str) -> Result<[f64; 4], String> {
    let values: Result<Vec<f64>, _> = text.split(',').map(|p| p.trim().parse::<f64>()).collect();
    match values {
        Ok(v) if v.len() == 4 && v.iter().all(|x| x.is_finite()) => Ok([v[0], v[1], v[2], v[3]]),
        _ => Err(format!("`{text}` is not four numbers, e.g. --uma 90,45,0,-135")),
    }
}

/// Runs the tournament; returns the exit code.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(run_async(args))
}

/// A tournament ready to play: its folder, store and settings.
struct Prepared {
    dir: PathBuf,
    store: Store,
    config: TournamentConfig,
}

async fn run_async(args: Args) -> anyhow::Result<i32> {
    if let Some(db) = &args.db {
        return super::tournament_db::run(&args, db).await;
    }
    let (prepared, loaded) = match &args.resume {
        Some(dir) => resume(dir).await?,
        None => create(&args).await?,
    };
    let Prepared { dir, store, config } = prepared;
    let shutdown = Shutdown::install()?;
    let local = Local {
        dir: &dir,
        store: &store,
        config: &config,
        jobs: args.jobs,
        lease: args.lease.duration(),
        json: args.json,
    };
    let end = local_run::play(&local, loaded, &shutdown).await?;
    let names: Vec<String> = store.bots().await?.into_iter().map(|b| b.name).collect();
    let hint = format!("continue with `mjai-sim tournament --resume {}`", dir.display());
    finish(&store, &dir, &names, &config, args.json, end, &shutdown, &hint).await
}

/// The end of a tournament command: writes and prints the standings (`--json`: JSON on
/// stdout, the table on stderr), reports games that failed for good, closes the store, and
/// returns the exit status: 0 done, 2 some games failed, 128 + the signal when interrupted
/// (after printing `interrupted; HINT`).
#[allow(clippy::too_many_arguments)]
pub(super) async fn finish(
    store: &Store,
    dir: &Path,
    names: &[String],
    config: &TournamentConfig,
    json: bool,
    end: RunEnd,
    shutdown: &Shutdown,
    hint: &str,
) -> anyhow::Result<i32> {
    let standings = standings_of(store, names, config).await?;
    write_standings(dir, &standings)?;
    let table = standings.to_markdown();
    if json {
        eprint!("{table}");
        println!("{}", serde_json::to_string_pretty(&standings)?);
    } else {
        print!("{table}");
    }
    let failed = store.failed().await?;
    store.close().await;
    for f in &failed {
        eprintln!("mjai-sim: game {} failed {} times: {}", f.index, f.attempts, f.error);
    }
    Ok(match end {
        RunEnd::Interrupted => {
            eprintln!("mjai-sim: interrupted; {hint}");
            shutdown.exit_code().unwrap_or(130)
        }
        RunEnd::Finished if !failed.is_empty() => 2,
        RunEnd::Finished => 0,
    })
}

/// A new tournament: checks every bot (intake) before anything is written, then creates
/// the folder, the database, the bots and the schedule.
async fn create(args: &Args) -> anyhow::Result<(Prepared, Vec<crate::tournament::pool::LoadedBot>)> {
    let (config, entrants, games) = plan(args)?;
    let (loaded, rows) = entrants::load(&entrants, &limits(&config))?;
    let tid = game_id(config.seed);
    let dir = args.dir.clone().unwrap_or_else(|| PathBuf::from("logs").join(&tid));
    let db = dir.join(DB_FILE);
    if db.exists() {
        bail!(
            "{} already holds a tournament; continue it with --resume {} or choose another --dir",
            db.display(),
            dir.display()
        );
    }
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create the tournament folder {}", dir.display()))?;
    let store = Store::open(&db).await?;
    let store = store.create(&tid, &serde_json::to_string(&config)?, &rows, &games).await?;
    Ok((Prepared { dir, store, config }, loaded))
}

/// A new tournament's options, bots (parsed, not yet loaded) and schedule, from the
/// arguments (`--sets 0`: a league, no game scheduled up front). Errors: too few bots,
/// `--sets 0` with `--format 1v3`, a malformed BOT.
pub(super) fn plan(args: &Args) -> anyhow::Result<(TournamentConfig, Vec<Entrant>, Vec<ScheduledGame>)> {
    let format = match args.format {
        FormatArg::Duplicate => Format::Duplicate,
        FormatArg::OneVsThree => Format::OneVsThree,
    };
    match format {
        Format::Duplicate if args.bots.len() < 4 => bail!(
            "{} BOT argument(s) given, at least 4 needed: mjai-sim tournament [OPTIONS] BOT BOT BOT BOT [BOT...]",
            args.bots.len()
        ),
        Format::OneVsThree if args.bots.len() != 2 => {
            bail!("--format 1v3 takes two BOTs, CHALLENGER CHAMPION ({} given)", args.bots.len())
        }
        _ => {}
    }
    if args.sets == 0 && format == Format::OneVsThree {
        bail!("--sets 0 (an open-ended league) needs --format duplicate: one-vs-three has no bots to choose between");
    }
    let mut entrants: Vec<Entrant> = args
        .bots
        .iter()
        .map(String::as_str)
        .map(entrants::parse)
        .collect::<Result<_, _>>()
        .map_err(|e| anyhow::anyhow!(e))?;
    entrants::unique_names(&mut entrants);
    let config = TournamentConfig {
        format,
        bots: entrants.iter().map(|e| e.spec.to_string()).collect(),
        sets: args.sets,
        seed: args.seed.unwrap_or_else(|| [rand::random::<u32>() as u64, 0]),
        uma: args.uma,
        timeout: args.timeout.duration().as_secs_f64(),
        start_timeout: args.start_timeout.duration().as_secs_f64(),
        max_restarts: args.max_restarts,
        game_timeout: args.game_timeout.duration().as_secs_f64(),
        rules: value_name(args.rules.preset),
        resources: args.runtime.resources(),
        runtime: value_name(args.runtime.runtime),
        transport: value_name(args.runtime.transport),
        image: args.runtime.image.clone(),
        max_submission_mb: args.runtime.max_submission_mb.get(),
        keep_bots: args.keep_bots,
        logs: !args.no_logs,
        no_html: args.no_html,
    };
    let games = match format {
        Format::Duplicate => schedule::duplicate(entrants.len(), config.sets, config.seed),
        Format::OneVsThree => schedule::one_vs_three(config.sets, config.seed),
    };
    Ok((config, entrants, games))
}

/// An existing tournament: its stored options and the bots it was created with (from their
/// paths); a bot whose submission changed (sha256) is refused.
async fn resume(dir: &Path) -> anyhow::Result<(Prepared, Vec<crate::tournament::pool::LoadedBot>)> {
    let db = dir.join(DB_FILE);
    if !db.exists() {
        bail!("{}: no tournament here (no {DB_FILE}); start one without --resume", dir.display());
    }
    let store = Store::open(&db).await?;
    let Some((_, config_text)) = store.meta().await? else {
        bail!("{}: the tournament was never created; start a new one", db.display());
    };
    let config: TournamentConfig = serde_json::from_str(&config_text)
        .map_err(|e| anyhow::anyhow!("{}: unreadable tournament options ({e})", db.display()))?;
    let mut stored = store.bots().await?;
    // a league's bots added later (`league add`) are loaded from the database by the runner
    stored.truncate(config.bots.len());
    let entrants: Vec<Entrant> = stored
        .iter()
        .map(|r| Ok(Entrant { name: r.name.clone(), spec: r.spec.parse().map_err(|e: String| anyhow::anyhow!(e))? }))
        .collect::<anyhow::Result<_>>()?;
    let (loaded, rows) = entrants::load(&entrants, &limits(&config))?;
    for (old, new) in stored.iter().zip(&rows) {
        if old.sha256 != new.sha256 {
            bail!(
                "bot {} ({}) changed since the tournament began (sha256 {}… now {}…); restore it or start a new tournament",
                old.name,
                old.spec,
                &old.sha256[..12.min(old.sha256.len())],
                &new.sha256[..12]
            );
        }
    }
    let requeued = store.requeue_running().await?;
    if requeued > 0 {
        eprintln!("mjai-sim: {requeued} game(s) cut off before will be played again from their start");
    }
    Ok((Prepared { dir: dir.to_path_buf(), store, config }, loaded))
}

pub(super) fn limits(config: &TournamentConfig) -> SubmissionLimits {
    SubmissionLimits {
        max_archive_bytes: config.max_submission_mb.saturating_mul(1024 * 1024),
        ..SubmissionLimits::default()
    }
}

fn value_name<T: clap::ValueEnum>(v: T) -> String {
    v.to_possible_value().map(|p| p.get_name().to_string()).unwrap_or_default()
}

pub(super) fn launch_settings(config: &TournamentConfig) -> anyhow::Result<LaunchSettings> {
    let runtime = <RuntimeKind as clap::ValueEnum>::from_str(&config.runtime, true).map_err(anyhow::Error::msg)?;
    let transport = <Transport as clap::ValueEnum>::from_str(&config.transport, true).map_err(anyhow::Error::msg)?;
    Ok(LaunchSettings {
        runtime,
        transport,
        image: config.image.clone(),
        max_submission_bytes: config.max_submission_mb.saturating_mul(1024 * 1024),
        stderr_paths: std::array::from_fn(|_| PathBuf::from("/dev/null")),
        resources: config.resources.clone(),
    })
}

/// Games at once by default: one per CPU for built-in bots (the engine is CPU-bound); two
/// per CPU with submissions (a game mostly waits on its bots' answers and container starts).
pub(super) fn default_jobs(has_submissions: bool) -> usize {
    let cpus = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    if has_submissions {
        cpus * 2
    } else {
        cpus
    }
}

/// A time limit read back from a stored tournament's config (checked like the option was).
pub(super) fn stored_seconds(value: f64, field: &str) -> anyhow::Result<std::time::Duration> {
    value
        .to_string()
        .parse::<Seconds>()
        .map(Seconds::duration)
        .map_err(|e| anyhow::anyhow!("the stored tournament's {field} is damaged: {e}"))
}

/// The time limits and restart cap a stored tournament's games play under.
pub(super) fn stored_match_options(config: &TournamentConfig) -> anyhow::Result<MatchOptions> {
    Ok(MatchOptions {
        timeout: stored_seconds(config.timeout, "timeout")?,
        start_timeout: stored_seconds(config.start_timeout, "start_timeout")?,
        max_restarts: config.max_restarts,
        game_timeout: match config.game_timeout {
            0.0 => crate::arena::DEFAULT_GAME_TIMEOUT,
            secs => stored_seconds(secs, "game_timeout")?,
        },
    })
}

/// The rule preset a stored tournament plays under (empty: made before presets, Tenhou).
pub(super) fn stored_rules(name: &str) -> anyhow::Result<Rules> {
    if name.is_empty() {
        return Ok(Rules::tenhou());
    }
    let preset = <RulesArg as clap::ValueEnum>::from_str(name, true).map_err(anyhow::Error::msg)?;
    Ok(preset.rules())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uma_parses_four_numbers() {
        assert_eq!(parse_uma("90,45,0,-135"), Ok([90.0, 45.0, 0.0, -135.0]));
        assert!(parse_uma("1,2,3").unwrap_err().contains("--uma"));
        assert!(parse_uma("1,2,3,x").is_err());
    }
}
