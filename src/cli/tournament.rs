//! `mjai-sim tournament [OPTIONS] BOT BOT BOT BOT [BOT...]`: many games between N bots in
//! duplicate sets (or one-vs-three), `--jobs` at a time, results in `DIR/tournament.sqlite`,
//! resumable with `--resume DIR`; standings in `DIR/standings.json` and `DIR/standings.md`.
//! `--sets 0`: a league, played until stopped (`--db`: [`super::tournament_db`], which
//! uses this module's arguments and end). Parsing,
//! printing and exit codes only: the tournament itself is the library's
//! [`Session`](crate::tournament::session::Session).
//!
//! Exit status: 0 when every game was played; 1 when the tournament could not start (bad
//! submission, Docker unreachable, bad options) or stopped on an error (disk full, locked
//! database: what was recorded is kept); 2 when some games failed twice (listed on stderr);
//! 130 after Ctrl-C or SIGTERM (continue with `--resume DIR`).

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Context;

use super::game_limits::GameLimits;
use super::matching_arg::MatchingFlag;
use super::message_format::{emit_error, emit_result, MessageFormatFlag};
use super::numbers::Seconds;
use super::play::parse_seed;
use super::progress::Progress;
use super::rules_arg::RulesFlag;
use super::runtime_args::RuntimeArgs;
use super::shutdown::Shutdown;
use crate::engine::game::Players;
use crate::messages::{CommandResult, ErrorCode, TournamentLines};
use crate::pages::standings_text::{markdown, write_standings};
use crate::tournament::config::TournamentConfig;
use crate::tournament::observer::Observer;
use crate::tournament::runner::RunEnd;
use crate::tournament::schedule::Format;
use crate::tournament::session::{NewTournament, Place, PlayHere, Session};
use crate::tournament::standings::default_uma;

/// Arguments of `mjai-sim tournament`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The bots: NAME=BOT or BOT (named after its file stem), BOT being a .zip, a folder
    /// holding bot.py, or builtin:NAME. With --format 1v3 (1v2): CHALLENGER CHAMPION.
    #[arg(value_name = "BOT")]
    pub bots: Vec<String>,
    /// Duplicate sets to play (4 hanchans each, or 3 under a three-player preset: one wall
    /// seed, seats rotated); 0: an open-ended league, played until stopped (bots added and
    /// retired with `mjai-sim league`).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub sets: u64,
    /// Wall seed base NONCE[,KEY]: set i plays (NONCE + i, KEY) [default: random NONCE].
    #[arg(long, value_name = "NONCE[,KEY]", value_parser = parse_seed)]
    pub seed: Option<[u64; 2]>,
    /// `duplicate` (at least as many bots as seats), `1v3` (CHALLENGER against three
    /// CHAMPION copies) or, under a three-player preset, `1v2`.
    #[arg(long, value_enum, default_value_t = FormatArg::Duplicate)]
    pub format: FormatArg,
    /// Games played at once (`--tables`: the same) [default: 2 per CPU with submissions, 1
    /// per CPU for built-ins, 32 when every submission is a batched bot].
    #[arg(long, value_name = "J", visible_alias = "tables")]
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
    /// Uma by rank in pt, one number per seat [default: 90,45,0,-135; under a three-player
    /// preset 90,0,-90].
    #[arg(long, value_name = "U1,U2,U3[,U4]", value_parser = parse_uma)]
    pub uma: Option<Uma>,
    /// Print standings as JSON on stdout (the table goes to stderr; no progress bar).
    #[arg(long, conflicts_with = "message_format")]
    pub json: bool,
    /// Where remote:NAME entrants listen for `mjai-sim connect` (port 0: any free port).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:0")]
    pub listen: std::net::SocketAddr,
    /// What stdout carries: the standings table, or JSON messages (progress, each game, the
    /// result, errors; no progress bar).
    #[command(flatten)]
    pub messages: MessageFormatFlag,
    /// Time and restart limits of each game.
    #[command(flatten)]
    pub limits: GameLimits,
    /// How a league picks each set's bots.
    #[command(flatten)]
    pub matching: MatchingFlag,
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
    /// Duplicate sets between at least as many bots as the table has seats.
    Duplicate,
    /// Mortal's one-vs-three.
    #[value(name = "1v3")]
    OneVsThree,
    /// One-vs-two: one-vs-three at a three-player table.
    #[value(name = "1v2")]
    OneVsTwo,
}

/// `--uma`: pt by rank, one finite number per seat (the table size is checked against the
/// preset when the tournament is planned).
#[derive(Debug, Clone, PartialEq)]
pub struct Uma(pub Vec<f64>);

fn parse_uma(text: &str) -> Result<Uma, String> {
    let values: Result<Vec<f64>, _> = text.split(',').map(|p| p.trim().parse::<f64>()).collect();
    match values {
        Ok(v) if (3..=4).contains(&v.len()) && v.iter().all(|x| x.is_finite()) => Ok(Uma(v)),
        _ => Err(format!("`{text}` is not three or four numbers, e.g. --uma 90,45,0,-135 (three-player: 90,0,-90)")),
    }
}

/// Runs the tournament held in a folder (`--db`: [`super::tournament_db::run`]); returns
/// the exit code.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(run_async(args))
}

async fn run_async(args: Args) -> anyhow::Result<i32> {
    args.check_format()?;
    let visible = !args.json && !args.messages.json() && std::io::stderr().is_terminal();
    let progress = args.observer(Arc::new(Progress::folder(visible)));
    let session = match &args.resume {
        Some(dir) => Session::resume_folder(dir, progress.as_ref()).await?,
        None => Session::create_in_folder(&args.new_tournament(), args.dir.clone()).await?,
    };
    let dir = match session.place() {
        Place::Folder(dir) => dir.clone(),
        Place::Database(_) => PathBuf::new(),
    };
    let shutdown = Shutdown::install()?;
    let play = PlayHere {
        jobs: args.jobs,
        lease: args.lease.duration(),
        listen: args.listen,
        start_timeout: args.limits.start_timeout.duration(),
        game_timeout: args.limits.game_timeout.duration(),
    };
    let end = session
        .play_here(&play, progress, shutdown.stop(), |entrants| {
            for e in entrants {
                eprintln!("mjai-sim: entrant {}:{}: {}", e.kind, e.name, e.command);
            }
        })
        .await?;
    let hint = format!("continue with `mjai-sim tournament --resume {}`", dir.display());
    finish(session, &dir, &args, end, &shutdown, &hint).await
}

impl Args {
    /// The run's observer: `progress`, behind the JSON messages when they were asked for.
    pub(super) fn observer(&self, progress: Arc<Progress>) -> Arc<dyn Observer> {
        match self.messages.json() {
            true => Arc::new(TournamentLines::new(Box::new(std::io::stdout()), progress)),
            false => progress,
        }
    }

    /// Refuses `--format 1v3` under a three-player preset and `1v2` under a four-player
    /// one, in one line naming the other.
    pub(super) fn check_format(&self) -> anyhow::Result<()> {
        let players = self.rules.rules().players;
        let asked = match self.format {
            FormatArg::Duplicate => return Ok(()),
            FormatArg::OneVsThree => Players::Four,
            FormatArg::OneVsTwo => Players::Three,
        };
        if asked == players {
            return Ok(());
        }
        anyhow::bail!(
            "--format {} does not fit --rules {} ({} seats): use --format {}",
            Format::OneVsThree.flag(asked),
            self.rules.rules().name(),
            players.count(),
            Format::OneVsThree.flag(players)
        )
    }

    /// The library's request for a new tournament from these options.
    pub(super) fn new_tournament(&self) -> NewTournament {
        NewTournament {
            bots: self.bots.clone(),
            seed: self.seed,
            config: self.limits.apply(TournamentConfig {
                format: match self.format {
                    FormatArg::Duplicate => Format::Duplicate,
                    FormatArg::OneVsThree | FormatArg::OneVsTwo => Format::OneVsThree,
                },
                bots: Vec::new(),
                sets: self.sets,
                seed: [0, 0],
                uma: self.uma.clone().map_or_else(|| default_uma(self.rules.rules().players), |u| u.0),
                runtime: self.runtime.runtime,
                transport: self.runtime.transport,
                image: self.runtime.image.clone(),
                max_submission_mb: self.runtime.max_submission_mb.get(),
                keep_bots: self.keep_bots,
                logs: !self.no_logs,
                no_html: self.no_html,
                rules: self.rules.rules(),
                resources: self.runtime.resources(),
                matching: self.matching.matching(),
                batch: self.runtime.batch(),
                ..TournamentConfig::default()
            }),
        }
    }
}

/// The end of a tournament command: writes and prints the standings (`--json`: JSON on
/// stdout, the table on stderr; JSON messages: the `result`), reports games that failed for
/// good, closes the store, and returns the exit status: 0 done, 2 some games failed, 3 some
/// game failed for an internal error (a built-in bot's chombo: the referee's bug), 128 + the
/// signal when interrupted (after printing `interrupted; HINT`).
pub(super) async fn finish(
    session: Session,
    dir: &Path,
    args: &Args,
    end: RunEnd,
    shutdown: &Shutdown,
    hint: &str,
) -> anyhow::Result<i32> {
    let standings = session.standings().await?;
    write_standings(dir, &standings)?;
    let failed = session.failed().await?;
    session.close().await;
    let messages = args.messages.json();
    if !messages {
        let table = markdown(&standings);
        if args.json {
            eprint!("{table}");
            println!("{}", serde_json::to_string_pretty(&standings)?);
        } else {
            print!("{table}");
        }
    }
    for f in &failed {
        eprintln!("mjai-sim: game {} failed {} times: {}", f.index, f.attempts, f.error);
    }
    let (exit, ending) = match end {
        RunEnd::Interrupted => {
            let line = format!("interrupted; {hint}");
            eprintln!("mjai-sim: {line}");
            (shutdown.exit_code().unwrap_or(130), Some((ErrorCode::Interrupted, line)))
        }
        RunEnd::Finished if failed.iter().any(|f| f.is_internal()) => {
            let n = failed.iter().filter(|f| f.is_internal()).count();
            let line = format!(
                "internal error: {n} game(s) not counted because a built-in bot took a chombo (a bug in mjai-sim; listed above and under \"Games not counted\" in the standings)"
            );
            eprintln!("mjai-sim: {line}");
            (3, Some((ErrorCode::Internal, line)))
        }
        RunEnd::Finished if !failed.is_empty() => {
            let line = format!("{} game(s) failed twice (listed in the result and on stderr)", failed.len());
            (2, Some((ErrorCode::GamesFailed, line)))
        }
        RunEnd::Finished => (0, None),
    };
    if messages {
        let dir = dir.display().to_string();
        emit_result(CommandResult::Tournament { dir, standings: Box::new(standings), failed });
        if let Some((code, line)) = ending {
            emit_error(code, &line);
        }
    }
    Ok(exit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uma_parses_four_numbers() {
        assert_eq!(parse_uma("90,45,0,-135"), Ok(Uma(vec![90.0, 45.0, 0.0, -135.0])));
        assert_eq!(parse_uma("90,0,-90"), Ok(Uma(vec![90.0, 0.0, -90.0])));
        assert!(parse_uma("1,2").unwrap_err().contains("--uma"));
        assert!(parse_uma("1,2,3,4,5").unwrap_err().contains("--uma"));
        assert!(parse_uma("1,2,3,x").is_err());
    }
}
