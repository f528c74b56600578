//! `mjai-sim tournament --db URL ...`: the tournament, its schedule and its submissions
//! (zip bytes by sha256) go into the database; this process then plays with its own
//! `--jobs` like a worker (`--jobs 0`: only watches), shows progress from the database and
//! returns when every game is done or failed. Standings go to `DIR/standings.{json,md}`.
//!
//! `--sets 0` makes it a league: no game is scheduled up front (claims top the schedule
//! up), bots are added and retired with `mjai-sim league`, and this command returns only
//! on SIGINT/SIGTERM; the league stays in the database and workers go on playing it.
//! Printing and exit codes only: the library's [`Session`] does the rest.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context;

use super::progress::Progress;
use super::shutdown::Shutdown;
use super::tournament::{finish, Args};
use crate::tournament::session::worker::incarnation;
use crate::tournament::session::{PlayLoop, PlayOptions, Session};

/// Runs `mjai-sim tournament --db DB`; returns the exit code.
pub fn run(args: Args) -> anyhow::Result<i32> {
    args.check_format()?;
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    let db = args.db.clone().unwrap_or_default();
    runtime.block_on(run_async(&args, &db))
}

async fn run_async(args: &Args, db: &str) -> anyhow::Result<i32> {
    let new = args.new_tournament();
    let session = Session::create_in_db(db, &new, args.jobs.unwrap_or(2) as u32 + 4).await?;
    let (tid, config) = (session.id().to_string(), session.config().clone());
    let names: Vec<String> = new.plan()?.entrants.into_iter().map(|e| e.name).collect();
    let league = config.is_league();
    eprintln!(
        "mjai-sim: tournament {tid} in {} ({} bots: {}; seed {},{}; {}; {} at once here)",
        session.store().name(),
        names.len(),
        names.join(", "),
        config.seed[0],
        config.seed[1],
        match league {
            true => "a league: open-ended, runs until stopped".to_string(),
            false => format!("{} games", session.store().games().counts().await?.total()),
        },
        args.jobs.map(|j| j.to_string()).unwrap_or_else(|| "default".into()),
    );
    let dir = args.dir.clone().unwrap_or_else(|| PathBuf::from("logs").join(&tid));
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create the tournament folder {}", dir.display()))?;
    let shutdown = Shutdown::install()?;
    let opts = PlayOptions {
        jobs: args.jobs,
        worker: incarnation(&format!("coordinator-{}", std::process::id())),
        tag: None,
        lease: args.lease.duration(),
        work_dir: dir.join("work"),
        db_patience: args.db_patience.duration(),
        remote: None,
        cache: None,
    };
    let end =
        PlayLoop::coordinator(&session).run(&opts, args.observer(Arc::new(Progress::lines())), shutdown.stop()).await?;
    let hint = match league {
        true => format!(
            "the league stays in the database and workers go on playing it; bots: `mjai-sim league add|retire \
             --db URL --tournament {tid}`; standings: `mjai-sim standings --db URL --tournament {tid}`"
        ),
        false => format!(
            "workers go on (`mjai-sim worker --db URL`); standings: `mjai-sim standings --db URL --tournament {tid}`"
        ),
    };
    finish(session, &dir, args, end, &shutdown, &hint).await
}
