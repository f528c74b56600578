//! `mjai-sim worker --db URL [--jobs J] [--name NAME] [--exit-when-idle]`: plays scheduled
//! games of any tournament in the database, claimed with `FOR UPDATE SKIP LOCKED` under a
//! lease it renews while it plays; results, compressed logs, summaries and errors are
//! written in one transaction per batch. Its containers are labelled `worker-NAME-...`;
//! at start it removes those of its previous life and puts back the games that life held.
//! SIGTERM / Ctrl-C: the games in play stop, are given back, every container is removed,
//! exit 143 / 130.
//!
//! Leagues (`--sets 0`): a league with 4 active bots always has work (claiming tops its
//! schedule up), so a worker plays it until stopped; bots added to it are loaded at the
//! worker's next round (a round ends when the claims come back empty: the games waiting
//! need a bot this round did not load).
//!
//! Database outages: every store call is retried with backoff for `--db-patience` seconds
//! (default 300; see `tournament::store::retry`); games finished meanwhile are recorded
//! once the database answers.
//!
//! `--check` (a container's health check): exits 0 when the database and Docker answer.
//!
//! Exit status: 0 when `--exit-when-idle` found nothing left to claim; 1 on an error (one
//! line: database unreachable beyond `--db-patience`, Docker unreachable, a damaged
//! submission); 130/143 after a signal.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context;

use super::cache_args::CacheArgs;
use super::db_secret::with_password_file;
use super::numbers::Seconds;
use super::progress::Progress;
use super::shutdown::Shutdown;
use crate::tournament::runner::RunEnd;
use crate::tournament::session::worker::{begin, check_name, incarnation};
use crate::tournament::session::{PlayLoop, PlayOptions};
use crate::tournament::store::Store;

/// Arguments of `mjai-sim worker`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The database holding the tournaments (postgres://USER:PASS@HOST:PORT/NAME; without a
    /// password, the first line of the file MJAI_SIM_DB_PASSWORD_FILE names).
    #[arg(long, value_name = "URL", env = "MJAI_SIM_DB")]
    pub db: String,
    /// Games played at once [default: 2 per CPU with submissions, 1 per CPU for built-ins].
    #[arg(long, value_name = "J")]
    pub jobs: Option<usize>,
    /// This worker's name, stable across restarts (labels its containers) [default: host name].
    #[arg(long, value_name = "NAME", env = "MJAI_SIM_WORKER_NAME")]
    pub name: Option<String>,
    /// Exit (0) when no game is left to claim instead of waiting for new ones.
    #[arg(long)]
    pub exit_when_idle: bool,
    /// Seconds a claimed game stays this worker's without a heartbeat (renewed every third).
    #[arg(long, value_name = "SECS", default_value = "30")]
    pub lease: Seconds,
    /// Seconds between looks at the database when there is nothing to play.
    #[arg(long, value_name = "SECS", default_value = "2")]
    pub poll: Seconds,
    /// Seconds to keep retrying while the database is unreachable (finished games wait
    /// meanwhile, their results are written once it is back) before exiting with status 1.
    #[arg(long, value_name = "SECS", default_value = "300")]
    pub db_patience: Seconds,
    /// Where game folders live until their result is stored [default: a folder under the
    /// system's temporary folder].
    #[arg(long, value_name = "DIR")]
    pub work_dir: Option<PathBuf>,
    /// This host's submission cache: each submission is read from the database once per
    /// host, then from the cache.
    #[command(flatten)]
    pub cache: CacheArgs,
    /// Check only, then exit: 0 when the database and the Docker daemon answer, 1 (one
    /// line naming which) otherwise. A container's health check.
    #[arg(long)]
    pub check: bool,
}

/// Runs the worker; returns the exit code.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(run_async(args))
}

fn host_name() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: the buffer is valid for its length; gethostname NUL-terminates within it.
    let ok = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) } == 0;
    let end = buf.iter().position(|&b| b == 0).unwrap_or(0);
    match (ok, std::str::from_utf8(&buf[..end])) {
        (true, Ok(name)) if !name.is_empty() => name.to_string(),
        _ => "worker".to_string(),
    }
}

async fn run_async(args: Args) -> anyhow::Result<i32> {
    let name = args.name.clone().unwrap_or_else(host_name);
    check_name(&name).map_err(anyhow::Error::msg)?;
    let db = with_password_file(&args.db)?;
    if args.check {
        return check(&db).await;
    }
    let store = Store::open_url(&db, args.jobs.unwrap_or(4) as u32 + 4).await?;
    let shutdown = Shutdown::install()?;
    let lines = Arc::new(Progress::lines());
    let tag = begin(&store, &name, lines.as_ref()).await?;
    let work_dir = args.work_dir.clone().unwrap_or_else(|| std::env::temp_dir().join(format!("mjai-sim-{tag}")));
    let opts = PlayOptions {
        jobs: args.jobs,
        worker: incarnation(&name),
        tag: Some(tag),
        lease: args.lease.duration(),
        work_dir,
        db_patience: args.db_patience.duration(),
        remote: None,
        cache: Some(args.cache.open()?),
    };
    eprintln!("mjai-sim: worker {} on {}", opts.worker, store.name());
    let end =
        PlayLoop::worker(&store, args.exit_when_idle, args.poll.duration()).run(&opts, lines, shutdown.stop()).await?;
    store.close().await;
    let _ = std::fs::remove_dir_all(&opts.work_dir);
    Ok(match end {
        RunEnd::Interrupted => shutdown.exit_code().unwrap_or(130),
        RunEnd::Finished => 0,
    })
}

/// `--check`: the database answers a query and the Docker daemon a ping (each bounded by
/// its client's timeouts). Errors: the first that does not answer.
async fn check(db: &str) -> anyhow::Result<i32> {
    let store = Store::open_url(db, 1).await?;
    store.close().await;
    crate::runtime::docker::daemon().await?;
    Ok(0)
}
