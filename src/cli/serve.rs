//! `mjai-sim serve [OPTIONS] [BOT...]`: the grading server ([`crate::serve`]) over a league
//! in the store, `mjai-sim serve author add|list|revoke|rotate` ([`super::serve_author`])
//! and `mjai-sim serve backup PATH` ([`super::serve_backup`]).
//!
//! Default store: the SQLite file `mjai-sim-serve.sqlite` in the current folder, played
//! by this process with `--jobs` games at once. With `--db postgres://...` the league is
//! played by `mjai-sim worker`s (`--jobs` defaults to 0 then) and any number of `serve`
//! processes may serve it. BOTs are house bots (NAME=BOT or BOT, a .zip or builtin:NAME),
//! added to the league when missing. The league is created on the first start with these
//! options; later starts keep its stored options.
//!
//! Exit status: 0 never (it serves until stopped); 1 on a start error or a play-loop
//! failure (one line); 130/143 after SIGINT/SIGTERM (listener closed, games in play given
//! back, validation games cut off and run again at the next start).

use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::{bail, Context};

use super::cache_args::CacheArgs;
use super::db_secret::{first_line, with_password_file};
use super::game_limits::GameLimits;
use super::matching_arg::MatchingFlag;
use super::numbers::Seconds;
use super::play::parse_seed;
use super::rules_arg::RulesFlag;
use super::runtime_args::RuntimeArgs;
use super::serve_author::{self, AuthorCommand};
use super::serve_backup::{self, BackupArgs};
use super::serve_season::{self, SeasonCommand};
use super::serve_suspend;
use super::serve_void;
use super::shutdown::Shutdown;
use crate::arena::launch::RuntimeKind;
use crate::engine::game::Rules;
use crate::serve::house::HouseBot;
use crate::serve::settings::check_league_name;
use crate::serve::token::looks_like_token;
use crate::serve::{LeagueSettings, ServeSettings};
use crate::tournament::config::TournamentConfig;
use crate::tournament::standings::default_uma;
use crate::tournament::store::{SuspensionPolicy, UploadLimits};

/// The default store of `serve`: a SQLite file in the current folder.
pub use super::serve_author::DEFAULT_DB;

/// Arguments of `mjai-sim serve`.
#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
    /// `author add|list|revoke|rotate`, `backup PATH`.
    #[command(subcommand)]
    pub command: Option<ServeCommand>,
    /// House bots: NAME=BOT or BOT (a .zip, or builtin:NAME), owned by the operator.
    #[arg(value_name = "BOT")]
    pub bots: Vec<String>,
    /// The store: a SQLite file (sqlite:PATH or PATH) or postgres://USER:PASS@HOST:PORT/NAME
    /// (a postgres:// URL without a password takes the first line of the file named by
    /// MJAI_SIM_DB_PASSWORD_FILE, e.g. a Docker secret).
    #[arg(long, value_name = "URL", default_value = DEFAULT_DB, env = "MJAI_SIM_DB")]
    pub db: String,
    /// A file whose first line is the token of the author `admin` (added as an admin at
    /// start, or given this token when present): a Docker secret in a stack.
    #[arg(long, value_name = "FILE", env = "MJAI_SIM_ADMIN_TOKEN_FILE")]
    pub admin_token_file: Option<PathBuf>,
    /// Address to listen on.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8470", env = "MJAI_SIM_LISTEN")]
    pub listen: SocketAddr,
    /// League games played at once by this process [default: 2 with SQLite, 0 with PostgreSQL].
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
    /// A league this server hosts, NAME[:PRESET] (its tournament id, and the rules preset
    /// it is created with; --rules when none is given). Repeat it for several leagues at
    /// one address (`--league 4p:tenhou --league 3p:riichi-dev-3p`): the first is the
    /// default league, whose paths are `/` and `/api/...`; each is also at `/leagues/NAME/`
    /// and `/api/leagues/NAME/`. Authors, tokens and --jobs (each league's) are shared.
    #[arg(long = "league", value_name = "NAME[:PRESET]", default_value = "league")]
    pub leagues: Vec<String>,
    /// Bots (names) one author may have validating or active at once.
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub max_bots: u64,
    /// Uploads one author may make per hour.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub uploads_per_hour: u64,
    /// Requests per minute from one IP address (then 429).
    #[arg(long, value_name = "N", default_value_t = 600)]
    pub rate_per_ip: u32,
    /// Requests per minute with one token (then 429).
    #[arg(long, value_name = "N", default_value_t = 300)]
    pub rate_per_token: u32,
    /// Seconds a client has to send a request's headers (also idle keep-alive connections).
    #[arg(long, value_name = "SECS", default_value = "10")]
    pub header_timeout: Seconds,
    /// Seconds one request may take, upload included (then 408).
    #[arg(long, value_name = "SECS", default_value = "600")]
    pub request_timeout: Seconds,
    /// Largest unpacked size of an uploaded zip, in MiB (more: refused as a zip bomb).
    #[arg(long, value_name = "MIB", default_value_t = 2048)]
    pub max_unpacked_mb: u64,
    /// Validation games at once.
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub max_validations: usize,
    /// Open connections one remote bot may have at once (`mjai-sim connect` to
    /// /api/bots/NAME/connect); each plays one game at a time.
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..))]
    pub max_connections: u16,
    /// Mark the login cookie `Secure` (browsers then send it over HTTPS only): give it when
    /// the server is reached through a TLS terminator. Without it, a login whose request
    /// says `X-Forwarded-Proto: https` gets a `Secure` cookie all the same.
    #[arg(long)]
    pub secure_cookie: bool,
    /// The built-in bot an upload's validation opponents are (in the seats it does not hold).
    #[arg(long, value_name = "NAME", default_value = "rulebase")]
    pub validation_opponent: String,
    /// Wall seed base NONCE[,KEY] of a new league [default: random].
    #[arg(long, value_name = "NONCE[,KEY]", value_parser = parse_seed)]
    pub seed: Option<[u64; 2]>,
    /// Time and restart limits of each game.
    #[command(flatten)]
    pub limits: GameLimits,
    /// How a league picks each set's bots.
    #[command(flatten)]
    pub matching: MatchingFlag,
    /// League games scheduled per hour at most, across every process playing the league
    /// (one set of 4 every 4 × 3600 / N seconds; of 3 every 3 × 3600 / N in a three-player
    /// league) [default: unpaced, as fast as games play].
    /// Stored with the league: the last server started sets it.
    #[arg(long, value_name = "GAMES_PER_HOUR")]
    pub pace: Option<u32>,
    /// Chombos that suspend an uploaded version: when its league games in the last
    /// --suspend-window hold this many, it leaves the league (status `suspended`, its author
    /// told why) until a new version is uploaded; 0: never. Stored with the league: the
    /// last server started sets it.
    #[arg(long, value_name = "N", default_value_t = SuspensionPolicy::DEFAULT.after)]
    pub suspend_after: u32,
    /// League games (a version's latest) whose chombos --suspend-after counts; 0: never.
    #[arg(long, value_name = "M", default_value_t = SuspensionPolicy::DEFAULT.window)]
    pub suspend_window: u32,
    /// Seconds a claimed game stays this process's without a heartbeat.
    #[arg(long, value_name = "SECS", default_value = "30")]
    pub lease: Seconds,
    /// Seconds to ride out an unreachable database before giving up.
    #[arg(long, value_name = "SECS", default_value = "300")]
    pub db_patience: Seconds,
    /// Days a finished game's trace (every line each seat was sent and answered) is kept
    /// for disputes; 0: kept for good.
    #[arg(long, value_name = "DAYS", default_value_t = 90)]
    pub trace_days: u32,
    /// This host's submission cache (validation and league games read zips through it).
    #[command(flatten)]
    pub cache: CacheArgs,
    /// Where games are played until stored [default: a folder under the system's temporary folder].
    #[arg(long, value_name = "DIR")]
    pub work_dir: Option<PathBuf>,
    /// Rule preset of a league given no `:PRESET` (used when the league is created): a
    /// three-player preset (`riichi-dev-3p`, `tenhou-3p`, `tenhou-3p-east`) makes a
    /// three-player league. A league is one mode: give one `--league NAME:PRESET` per mode.
    #[command(flatten)]
    pub rules: RulesFlag,
    /// Where and how submissions run; --max-submission-mb is the upload cap.
    #[command(flatten)]
    pub runtime: RuntimeArgs,
}

/// `serve author ...`, `serve backup ...`.
#[derive(Debug, clap::Subcommand)]
pub enum ServeCommand {
    /// Manage authors.
    #[command(subcommand)]
    Author(AuthorCommand),
    /// Void recorded games (by id, bot version, time or engine version): they stay listed,
    /// marked, and leave every standing and rating, which are folded again without them.
    Void(serve_void::VoidArgs),
    /// A league's seasons: `open NAME --freeze TIME`, `freeze NAME`, `final NAME --top N
    /// --sets K`, `show NAME`.
    #[command(subcommand)]
    Season(SeasonCommand),
    /// Copy a SQLite store into a new file while the server runs (PostgreSQL: pg_dump).
    Backup(BackupArgs),
    /// Take a bot's version out of its league, with a reason its author reads.
    Suspend(serve_suspend::SuspendArgs),
    /// Bring a suspended version back into its league.
    Unsuspend(serve_suspend::UnsuspendArgs),
}

/// Runs `serve` or `serve author ...`; returns the exit code.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    match args.command {
        Some(ServeCommand::Author(a)) => runtime.block_on(serve_author::run(a)),
        Some(ServeCommand::Void(a)) => runtime.block_on(serve_void::run(a)),
        Some(ServeCommand::Season(a)) => runtime.block_on(serve_season::run(a)),
        Some(ServeCommand::Backup(a)) => runtime.block_on(serve_backup::run(a)),
        Some(ServeCommand::Suspend(a)) => runtime.block_on(serve_suspend::suspend(a)),
        Some(ServeCommand::Unsuspend(a)) => runtime.block_on(serve_suspend::unsuspend(a)),
        None => runtime.block_on(serve(args)),
    }
}

/// Each `--league NAME[:PRESET]`: its name and options (the preset's rules, else
/// --rules'). Errors: an unknown preset (the message lists them).
fn leagues(args: &Args) -> anyhow::Result<Vec<LeagueSettings>> {
    let mut out = Vec::with_capacity(args.leagues.len());
    for arg in &args.leagues {
        let (name, rules) = match arg.split_once(':') {
            None => (arg.as_str(), args.rules.rules()),
            Some((name, preset)) => match Rules::any_preset(preset) {
                Some(rules) => (name, rules),
                None => bail!(
                    "--league {arg}: no rules preset {preset:?}; presets: {}, {}",
                    Rules::PRESETS.join(", "),
                    Rules::PRESETS_3P.join(", ")
                ),
            },
        };
        check_league_name(name).map_err(|e| anyhow::anyhow!("--league {arg}: {e}"))?;
        let mut new_league = new_league(args);
        new_league.rules = rules;
        new_league.uma = default_uma(rules.players);
        out.push(LeagueSettings { name: name.to_string(), new_league });
    }
    Ok(out)
}

/// The options of a league created by this start (its bots and sets are the library's:
/// the house bots, 0).
fn new_league(args: &Args) -> TournamentConfig {
    args.limits.apply(TournamentConfig {
        bots: Vec::new(),
        sets: 0,
        seed: args.seed.unwrap_or_else(|| [rand::random::<u32>() as u64, 0]),
        runtime: args.runtime.runtime,
        transport: args.runtime.transport,
        image: args.runtime.image.clone(),
        max_submission_mb: args.runtime.max_submission_mb.get(),
        no_html: true,
        rules: args.rules.rules(),
        uma: default_uma(args.rules.rules().players),
        resources: args.runtime.resources(),
        matching: args.matching.matching(),
        batch: args.runtime.batch(),
        ..TournamentConfig::default()
    })
}

/// The server's settings from the flags: house bots through intake, the database's
/// password and the admin's token read from their files (checked).
fn settings(args: &Args) -> anyhow::Result<ServeSettings> {
    let house = HouseBot::load(&args.bots, args.runtime.max_submission_mb.get().saturating_mul(1024 * 1024))?;
    let db = with_password_file(&args.db)?;
    let admin_token = args.admin_token_file.as_deref().map(first_line).transpose()?;
    if let (Some(token), Some(file)) = (&admin_token, &args.admin_token_file) {
        if !looks_like_token(token) {
            bail!("{}: a token is 64 lowercase hex digits; make one with `openssl rand -hex 32`", file.display());
        }
    }
    Ok(ServeSettings {
        db,
        admin_token,
        listen: args.listen,
        jobs: args.jobs,
        leagues: leagues(args)?,
        house,
        pace: args.pace,
        suspension: SuspensionPolicy { after: args.suspend_after, window: args.suspend_window },
        uploads: UploadLimits { max_bots: args.max_bots, uploads_per_hour: args.uploads_per_hour },
        per_ip_per_minute: args.rate_per_ip,
        per_token_per_minute: args.rate_per_token,
        header_timeout: args.header_timeout.duration(),
        request_timeout: args.request_timeout.duration(),
        max_unpacked_bytes: args.max_unpacked_mb.saturating_mul(1024 * 1024),
        max_validations: args.max_validations,
        max_connections: usize::from(args.max_connections),
        secure_cookie: args.secure_cookie,
        validation_opponent: args.validation_opponent.clone(),
        lease: args.lease.duration(),
        db_patience: args.db_patience.duration(),
        trace_days: args.trace_days,
        cache: args.cache.place(),
        work_dir: args.work_dir.clone(),
    })
}

/// Printed at the start of a server that plays uploads as local processes.
pub const PROCESS_WARNING: &str = "mjai-sim: warning: --runtime process: uploaded bots run unsandboxed, as this server's user, with its files and network; for a trusted group only (the default, --runtime docker, contains them)";

async fn serve(args: Args) -> anyhow::Result<i32> {
    let started = crate::serve::start(settings(&args)?, |note| eprintln!("mjai-sim: {note}")).await?;
    let runtime = started.config().runtime;
    let shutdown = Shutdown::install_saying(match runtime {
        RuntimeKind::Docker => "stopping the games and removing their bots' containers",
        RuntimeKind::Process => "stopping the games and their bot processes",
    })?;
    if runtime == RuntimeKind::Process {
        eprintln!("{PROCESS_WARNING}");
    }
    let jobs = started.jobs();
    eprintln!(
        "mjai-sim: serving league {} of {} on http://{} ({} here)",
        started.league_names().join(", "),
        started.store().name(),
        started.address(),
        if jobs > 0 { format!("{jobs} game(s) at once") } else { "games played by workers".into() }
    );
    started.run(shutdown.stop()).await?;
    Ok(shutdown.exit_code().unwrap_or(1))
}
