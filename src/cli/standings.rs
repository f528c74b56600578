//! `mjai-sim standings DIR`: the standings of a finished or running tournament, from its
//! database (read while the runner writes: SQLite WAL). Prints `standings.md`'s table (or,
//! with `--json`, `standings.json`'s content) and one status line on stderr.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context};

use crate::tournament::config::TournamentConfig;
use crate::tournament::standings::{compute, Standings, StandingsOptions};
use crate::tournament::store::{Store, DB_FILE};

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
    #[arg(long)]
    pub json: bool,
}

/// Prints the standings; returns the exit code.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(async {
        let store = open(&args).await?;
        let Some((tid, config)) = store.meta().await? else { bail!("{}: no tournament in it", store.name()) };
        let config: TournamentConfig =
            serde_json::from_str(&config).map_err(|e| anyhow::anyhow!("{}: unreadable options ({e})", store.name()))?;
        let names: Vec<String> = store.bots().await?.into_iter().map(|b| b.name).collect();
        let standings = standings_of(&store, &names, &config).await?;
        let c = store.counts().await?;
        store.close().await;
        match config.sets {
            0 => eprintln!(
                "mjai-sim: league {tid}: {} games done, {} running, {} pending, {} failed, {} cancelled",
                c.done, c.running, c.pending, c.failed, c.cancelled
            ),
            _ => eprintln!(
                "mjai-sim: tournament {tid}: {} of {} games done, {} running, {} pending, {} failed",
                c.done,
                c.total(),
                c.running,
                c.pending,
                c.failed
            ),
        }
        if args.json {
            println!("{}", serde_json::to_string_pretty(&standings)?);
        } else {
            print!("{}", standings.to_markdown());
        }
        Ok(0)
    })
}

/// The store of `DIR`, or of `--tournament ID` in `--db URL`. Errors: no tournament there.
async fn open(args: &Args) -> anyhow::Result<Store> {
    if let (Some(db), Some(tid)) = (&args.db, &args.tournament) {
        let store = Store::open_url(db, 2).await?;
        return match store.tournament(tid).await? {
            Some(s) => Ok(s),
            None => bail!("{}: no tournament {tid} (the id is printed by `mjai-sim tournament --db`)", store.name()),
        };
    }
    let dir = args.dir.clone().unwrap_or_default();
    let db = dir.join(DB_FILE);
    if !db.exists() {
        bail!("{}: no tournament here (no {DB_FILE})", dir.display());
    }
    Ok(Store::open(&db).await?)
}

/// The standings of every recorded game (the one place building [`StandingsOptions`]),
/// retired bots marked.
pub async fn standings_of(store: &Store, names: &[String], config: &TournamentConfig) -> anyhow::Result<Standings> {
    let records = store.records().await?;
    let options = StandingsOptions::new(config.uma, config.seed[0]);
    let mut standings = compute(names, &records, &options);
    standings.mark_retired(&store.retired().await?);
    Ok(standings)
}

/// Writes `DIR/standings.json` and `DIR/standings.md`, each through a temporary file and a
/// rename (complete or not at all).
pub fn write_standings(dir: &Path, standings: &Standings) -> anyhow::Result<()> {
    let json = serde_json::to_string_pretty(standings)? + "\n";
    for (name, text) in [("standings.json", json), ("standings.md", standings.to_markdown())] {
        let (tmp, path) = (dir.join(format!(".{name}.tmp")), dir.join(name));
        std::fs::write(&tmp, text).and_then(|_| std::fs::rename(&tmp, &path)).with_context(|| {
            format!("cannot write {} (check free space); results are kept in the database", path.display())
        })?;
    }
    Ok(())
}
