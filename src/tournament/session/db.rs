//! Playing a tournament held in a database, shared by `mjai-sim tournament --db`,
//! `mjai-sim worker` and the grading server: the tournament's stored options, its bots
//! loaded from the database (submissions by sha256, so no shared disk), and the runner with
//! leases. Each game's folder is written under a work folder, stored with its result, then
//! removed.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;

use super::{default_jobs, load_rows, patience_of, Observer, Played, RunStart, Session};
use crate::arena::cancel::CancelToken;
use crate::arena::launch::RemoteSeats;
use crate::tournament::pool::{BotFactory, Pool};
use crate::tournament::runner::{self, RunOptions};
use crate::tournament::store::retry::retry;

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
    /// Where `remote:NAME` bots find their bridges (a grading server's hub); `None`: this
    /// process plays no remote bot (their games fail to start).
    pub remote: Option<RemoteSeats>,
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
        factory = factory.with_remote(player.remote.clone());
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
}
