//! `mjai-sim standings DIR`: the standings of a finished or running tournament, from its
//! database (read while the runner writes: SQLite WAL). Prints `standings.md`'s table (or,
//! with `--json`, `standings.json`'s content) and one status line on stderr.

use std::path::PathBuf;

use anyhow::{bail, Context};

use super::message_format::{emit_result, MessageFormatFlag};
use crate::messages::{CodedError, CommandResult, ErrorCode};
use crate::pages::standings_text::markdown;
use crate::tournament::session::Session;
use crate::tournament::store::DB_FILE;

/// Arguments of `mjai-sim standings`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The tournament folder (holding tournament.sqlite).
    #[arg(value_name = "DIR", required_unless_present = "db", conflicts_with = "db")]
    pub dir: Option<PathBuf>,
    /// The database holding the tournament (postgres://USER:PASS@HOST:PORT/NAME).
    #[arg(long, value_name = "URL", requires = "tournament")]
    pub db: Option<String>,
    /// With --db: the tournament's id (printed when it was created).
    #[arg(long, value_name = "ID", requires = "db")]
    pub tournament: Option<String>,
    /// Print the standings as JSON.
    #[arg(long, conflicts_with = "message_format")]
    pub json: bool,
    /// What stdout carries: the table, or JSON messages (the result or the error).
    #[command(flatten)]
    pub messages: MessageFormatFlag,
}

/// Prints the standings; returns the exit code.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(async {
        let session = open(&args).await?;
        let standings = session.standings().await?;
        let c = session.store().games().counts().await?;
        let tid = session.id().to_string();
        let league = session.config().is_league();
        session.close().await;
        match league {
            true => eprintln!(
                "mjai-sim: league {tid}: {} games done, {} running, {} pending, {} failed, {} cancelled",
                c.done, c.running, c.pending, c.failed, c.cancelled
            ),
            false => eprintln!(
                "mjai-sim: tournament {tid}: {} of {} games done, {} running, {} pending, {} failed",
                c.done,
                c.total(),
                c.running,
                c.pending,
                c.failed
            ),
        }
        if args.messages.json() {
            emit_result(CommandResult::Standings { standings: Box::new(standings) });
        } else if args.json {
            println!("{}", serde_json::to_string_pretty(&standings)?);
        } else {
            print!("{}", markdown(&standings));
        }
        Ok(0)
    })
}

/// The tournament of `DIR`, or `--tournament ID` in `--db URL`. Errors: no tournament there.
async fn open(args: &Args) -> anyhow::Result<Session> {
    if let (Some(db), Some(tid)) = (&args.db, &args.tournament) {
        return Session::open_in_db(db, tid, 2).await;
    }
    let dir = args.dir.clone().unwrap_or_default();
    if !dir.join(DB_FILE).exists() {
        bail!(CodedError::new(ErrorCode::NotFound, format!("{}: no tournament here (no {DB_FILE})", dir.display())));
    }
    Session::open_folder(&dir).await
}
