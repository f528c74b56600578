//! Playing a tournament held in a database, shared by `mjai-sim tournament --db`,
//! `mjai-sim worker` and the grading server: the tournament's stored options, its bots
//! loaded from the database (submissions by sha256, so no shared disk), and the runner with
//! leases. Each game's folder is written under a work folder, stored with its result, then
//! removed.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;

use super::folder::wait_or_stop;
use super::{default_jobs, load_rows, patience_of, Notice, Observer, Played, RunEnd, RunStart, Session};
use crate::arena::cancel::CancelToken;
use crate::tournament::pool::{BotFactory, Pool};
use crate::tournament::runner::{self, RunOptions};
use crate::tournament::store::retry::retry;
use crate::tournament::store::{Counts, TopUp};

/// How often [`Session::watch`] looks at the database while others play.
const POLL: Duration = Duration::from_millis(500);

/// Least time between two [`Notice::Counts`] of a league (it runs for days).
const LEAGUE_REPORT: Duration = Duration::from_secs(10);

/// How this process plays games of database tournaments.
#[derive(Debug, Clone)]
pub struct Player {
    /// Games at once (`None`: the default for the tournament's bots; `Some(0)`: play
    /// nothing, only watch).
    pub jobs: Option<usize>,
    /// Incarnation id written in `claimed_by` (`NAME#nonce`).
    pub worker: String,
    /// Docker label prefix of this process's containers (`worker-NAME`).
    pub tag: Option<String>,
    /// Lease of a claimed game.
    pub lease: Duration,
    /// Where game folders live until their result is stored (`<work>/<tid>/games/...`).
    pub work_dir: PathBuf,
    /// How long store calls are retried while the database is unreachable.
    pub db_patience: Duration,
}

impl Session {
    /// Plays the claimable games of this database tournament until none is left to claim
    /// (or `stop` fires), with the bots stored when it begins (a league's bots added later
    /// are played by the next call). Errors: the store failed beyond the patience, bots
    /// cannot start (Docker), logs unwritable.
    pub async fn play_round(
        &self,
        player: &Player,
        observer: Arc<dyn Observer>,
        stop: CancelToken,
    ) -> anyhow::Result<Played> {
        let (store, config) = (&self.store, &self.config);
        let patience = patience_of(player.db_patience, &observer);
        let rows = retry("read the bots", &patience, || store.bots()).await?;
        let loaded = load_rows(store, config, &rows, &patience).await?;
        let names: Vec<String> = rows.iter().map(|r| r.name.clone()).collect();
        let mut factory = BotFactory::new(loaded, &config.launch_settings()).await?;
        if let Some(tag) = &player.tag {
            factory = factory.with_tag(tag);
        }
        let factory = Arc::new(factory);
        let jobs = player.jobs.unwrap_or_else(|| default_jobs(factory.has_submissions())).max(1);
        let dir = player.work_dir.join(&self.tid);
        std::fs::create_dir_all(&dir).with_context(|| format!("cannot create the work folder {}", dir.display()))?;
        let pool = Arc::new(Pool::new(factory, config.keep_bots, jobs, dir.join("bot_logs")));
        if config.keep_bots {
            std::fs::create_dir_all(dir.join("bot_logs"))
                .with_context(|| format!("cannot create {}", dir.display()))?;
        }
        observer.started(&RunStart {
            place: store.name().to_string(),
            tid: self.tid.clone(),
            names: names.clone(),
            seed: config.seed,
            total: None,
            done: Vec::new(),
            jobs,
        });
        let options = RunOptions {
            jobs,
            logs: config.logs,
            html: false,
            dir,
            match_options: config.match_options(),
            rules: config.rules,
            names,
            worker: player.worker.clone(),
            lease: player.lease,
            store_files: true,
            patience,
            open_ended: config.is_league(),
        };
        let result = runner::run(store, pool.clone(), &options, stop, observer.as_ref()).await;
        observer.finished();
        pool.drain().await;
        result
    }

    /// Plays (unless `player.jobs` is `Some(0)`) and watches until no game is pending or
    /// running (a league: until `stop` fires), telling `observer` the counts when they
    /// change (a league's at most every 10 s) and once when a league idles.
    pub async fn watch(
        &self,
        player: &Player,
        observer: Arc<dyn Observer>,
        stop: CancelToken,
    ) -> anyhow::Result<RunEnd> {
        let store = &self.store;
        let league = self.config.is_league();
        let patience = patience_of(player.db_patience, &observer);
        let mut stop = stop;
        let mut last: Option<(Counts, Instant)> = None;
        let mut idle = false;
        loop {
            if *stop.borrow() {
                return Ok(RunEnd::Interrupted);
            }
            if league {
                // keeps a league topped up while no worker claims, and says once when it idles
                let topped = retry("top up", &patience, || store.top_up(1)).await?;
                if let (Some(note), false) = (topped.idle_note(), idle) {
                    observer.notice(&Notice::LeagueIdle(note));
                }
                idle = matches!(topped, TopUp::Idle { .. });
            }
            let ours = player.jobs != Some(0)
                && retry("look for games", &patience, || store.claimable_tournaments()).await?.contains(&store.id());
            if ours && self.play_round(player, observer.clone(), stop.clone()).await?.end == RunEnd::Interrupted {
                return Ok(RunEnd::Interrupted);
            }
            let c = retry("count games", &patience, || store.counts()).await?;
            let due = match last {
                None => true,
                Some((before, at)) => before != c && (!league || at.elapsed() >= LEAGUE_REPORT),
            };
            if due {
                observer.notice(&Notice::Counts { counts: c, league });
                last = Some((c, Instant::now()));
            }
            if !league && c.pending + c.running == 0 {
                return Ok(RunEnd::Finished);
            }
            wait_or_stop(&mut stop, POLL).await;
        }
    }
}
