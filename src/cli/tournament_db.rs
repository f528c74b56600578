//! `mjai-sim tournament --db URL ...`: the tournament, its schedule and its submissions
//! (zip bytes by sha256) go into the database; this process then plays with its own
//! `--jobs` like a worker (`--jobs 0`: only watches), shows progress from the database and
//! returns when every game is done or failed. Standings go to `DIR/standings.{json,md}`.
//!
//! `--sets 0` makes it a league: no game is scheduled up front (claims top the schedule
//! up), bots are added and retired with `mjai-sim league`, and this command returns only
//! on SIGINT/SIGTERM; the league stays in the database and workers go on playing it.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};

use super::db_run::{self, Player};
use super::play::game_id;
use super::tournament::{finish, limits, plan, Args};
use super::worker::{incarnation, wait_or_stop};
use crate::arena::launch::BotSpec;
use crate::arena::shutdown::Shutdown;
use crate::tournament::entrants;
use crate::tournament::runner::RunEnd;
use crate::tournament::store::retry::retry;
use crate::tournament::store::{Counts, Store, TopUp};

/// How often the coordinator looks at the database while others play.
const POLL: Duration = Duration::from_millis(500);

/// Least time between two lines of counts of a league (it runs for days).
const LEAGUE_REPORT: Duration = Duration::from_secs(10);

/// Runs `mjai-sim tournament --db DB`; returns the exit code.
pub async fn run(args: &Args, db: &str) -> anyhow::Result<i32> {
    let (config, entrants, games) = plan(args)?;
    for e in &entrants {
        if let BotSpec::Submission(path) = &e.spec {
            if path.is_dir() {
                bail!(
                    "{}: with --db a submission must be a .zip (workers read it from the database): zip it with `cd {} && zip -r ../{}.zip .`",
                    e.name,
                    path.display(),
                    e.name
                );
            }
        }
    }
    let (_, rows) = entrants::load(&entrants, &limits(&config))?; // intake before anything is written
    let store = Store::open_url(db, args.jobs.unwrap_or(2) as u32 + 4).await?;
    for e in &entrants {
        if let BotSpec::Submission(path) = &e.spec {
            let bytes = std::fs::read(path).with_context(|| format!("{}: cannot read {}", e.name, path.display()))?;
            store.put_submission(&bytes).await?;
        }
    }
    let tid = game_id(config.seed);
    let store = store.create(&tid, &serde_json::to_string(&config)?, &rows, &games).await?;
    let names: Vec<String> = rows.iter().map(|r| r.name.clone()).collect();
    let league = config.sets == 0;
    eprintln!(
        "mjai-sim: tournament {tid} in {} ({} bots: {}; seed {},{}; {}; {} at once here)",
        store.name(),
        rows.len(),
        names.join(", "),
        config.seed[0],
        config.seed[1],
        if league { "a league: open-ended, runs until stopped".to_string() } else { format!("{} games", games.len()) },
        args.jobs.map(|j| j.to_string()).unwrap_or_else(|| "default".into()),
    );
    let dir = args.dir.clone().unwrap_or_else(|| PathBuf::from("logs").join(&tid));
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create the tournament folder {}", dir.display()))?;
    let shutdown = Shutdown::install()?;
    let player = Player {
        jobs: args.jobs,
        worker: incarnation(&format!("coordinator-{}", std::process::id())),
        tag: None,
        lease: args.lease.duration(),
        work_dir: dir.join("work"),
        visible: false,
        db_patience: args.db_patience.duration(),
    };
    let end = watch(&store, &player, league, &shutdown).await?;
    let hint = match league {
        true => format!(
            "the league stays in the database and workers go on playing it; bots: `mjai-sim league add|retire \
             --db URL --tournament {tid}`; standings: `mjai-sim standings --db URL --tournament {tid}`"
        ),
        false => format!(
            "workers go on (`mjai-sim worker --db URL`); standings: `mjai-sim standings --db URL --tournament {tid}`"
        ),
    };
    let names: Vec<String> =
        retry("read the bots", player.db_patience, || store.bots()).await?.into_iter().map(|b| b.name).collect();
    finish(&store, &dir, &names, &config, args.json, end, &shutdown, &hint).await
}

/// Plays (unless `--jobs 0`) and watches until no game is pending or running (a league:
/// until `stop` fires). A league's line of counts is printed at most every
/// [`LEAGUE_REPORT`].
async fn watch(store: &Store, player: &Player, league: bool, shutdown: &Shutdown) -> anyhow::Result<RunEnd> {
    let mut stop = shutdown.stop();
    let mut last: Option<(Counts, Instant)> = None;
    let mut idle = false;
    loop {
        if *stop.borrow() {
            return Ok(RunEnd::Interrupted);
        }
        let patience = player.db_patience;
        if league {
            // keeps a league topped up while no worker claims, and says once when it idles
            let topped = retry("top up", patience, || store.top_up(1)).await?;
            if let (Some(note), false) = (topped.idle_note(), idle) {
                eprintln!("mjai-sim: {note}");
            }
            idle = matches!(topped, TopUp::Idle { .. });
        }
        let ours = player.jobs != Some(0)
            && retry("look for games", patience, || store.claimable_tournaments()).await?.contains(&store.id());
        if ours && db_run::play(store, player, stop.clone()).await?.end == RunEnd::Interrupted {
            return Ok(RunEnd::Interrupted);
        }
        let c = retry("count games", patience, || store.counts()).await?;
        let due = match last {
            None => true,
            Some((before, at)) => before != c && (!league || at.elapsed() >= LEAGUE_REPORT),
        };
        if due {
            match league {
                true => eprintln!(
                    "mjai-sim: {} games done, {} running, {} pending, {} failed, {} cancelled",
                    c.done, c.running, c.pending, c.failed, c.cancelled
                ),
                false => eprintln!(
                    "mjai-sim: {} of {} games done, {} running, {} pending, {} failed",
                    c.done,
                    c.total(),
                    c.running,
                    c.pending,
                    c.failed
                ),
            }
            last = Some((c, Instant::now()));
        }
        if !league && c.pending + c.running == 0 {
            return Ok(RunEnd::Finished);
        }
        wait_or_stop(&mut stop, POLL).await;
    }
}
