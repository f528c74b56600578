//! One round of a tournament in this process, wherever it lives: its bots loaded, a pool of
//! seats, then the runner until nothing it can claim is left. The one setup under every
//! loop ([`super::PlayLoop`]): a folder's tournament (`mjai-sim tournament`), the
//! coordinator, the workers and the grading server.
//!
//! What the place changes, and only here:
//! - a folder: the bots it was created or resumed with, loaded from their paths (a league's
//!   bots added later come from the database); game folders under `DIR/games/` with their
//!   `game.html`; the embedded file has no outage to wait out;
//! - a database: every bot from the database (submissions by sha256, so no shared disk);
//!   each game's folder written under [`PlayOptions::work_dir`], stored with its result, then
//!   removed; store calls ride out outages for [`PlayOptions::db_patience`].

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;

use super::{default_jobs, load_rows, Observer, Place, Played, RunStart, Session, BATCH_TABLES};
use crate::pool::{BotFactory, LoadedBot, Pool};
use crate::runner::{self, RunOptions};
use crate::store::retry::{retry, Patience};
use crate::submission_cache::SubmissionCache;
use mjai_sim_arena::cancel::CancelToken;
use mjai_sim_arena::launch::RemoteSeats;

/// How this process plays games: one settings type for a folder's tournament and for the
/// database loops (coordinator, workers, server).
#[derive(Debug, Clone)]
pub struct PlayOptions {
    /// Games at once (`None`: the default for the tournament's bots, [`default_jobs`], or 1
    /// when remote bots play; `Some(0)`: play nothing, only watch).
    pub jobs: Option<usize>,
    /// Incarnation id written in `claimed_by` (`NAME#nonce`; a folder's: `local-PID`).
    pub worker: String,
    /// Docker label prefix of this process's containers (`worker-NAME`).
    pub tag: Option<String>,
    /// Lease of a claimed game (another process may claim it after this long without a
    /// heartbeat).
    pub lease: Duration,
    /// Database tournaments: where game folders live until their result is stored
    /// (`<work>/<tid>/games/...`). A folder's games are written in the folder itself.
    pub work_dir: PathBuf,
    /// Database tournaments: how long store calls are retried while the database is
    /// unreachable (a folder's embedded file: not at all).
    pub db_patience: Duration,
    /// Where `remote:NAME` bots find their bridges (a folder's listener, a grading server's
    /// hub); `None`: this process plays no remote bot (their games fail to start).
    pub remote: Option<RemoteSeats>,
    /// Database tournaments: this host's submission cache (`--cache-dir`, `--cache-mb`);
    /// `None`: each round reads the submissions into temporary files.
    pub cache: Option<Arc<SubmissionCache>>,
}

impl PlayOptions {
    /// A folder's tournament played by this process (`mjai-sim tournament`): `jobs`, a
    /// `lease`, remote seats if any; worker `local-PID`, no tag, no database patience.
    pub fn here(jobs: Option<usize>, lease: Duration, remote: Option<RemoteSeats>) -> PlayOptions {
        PlayOptions {
            jobs,
            worker: format!("local-{}", std::process::id()),
            tag: None,
            lease,
            work_dir: PathBuf::new(),
            db_patience: Duration::ZERO,
            remote,
            cache: None,
        }
    }
}

impl Default for PlayOptions {
    /// [`PlayOptions::here`] with the default jobs, a 30 s lease (`--lease`'s default) and no
    /// remote seats.
    fn default() -> PlayOptions {
        PlayOptions::here(None, Duration::from_secs(30), None)
    }
}

/// Whether a round is this loop's first of its tournament (the observer hears
/// [`Observer::started`]) or a later one (it hears the bots' names, [`Observer::bots`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Announce {
    /// The first round: [`Observer::started`].
    Start,
    /// A later round: [`Observer::bots`] (a league's bots may have been added).
    Bots,
}

impl Session {
    /// Plays the claimable games of this tournament until none is left to claim (or `stop`
    /// fires), with the bots stored when it begins (a league's bots added later play from
    /// the next round). Errors: the store failed beyond the patience, bots cannot start
    /// (Docker), a damaged submission, logs unwritable (one line; what was recorded stays).
    pub(super) async fn play_round(
        &self,
        opts: &PlayOptions,
        patience: &Patience,
        observer: &dyn Observer,
        stop: CancelToken,
        announce: Announce,
    ) -> anyhow::Result<Played> {
        let (store, config) = (&self.store, &self.config);
        let rows = retry("read the bots", patience, || store.bots()).await?;
        let loaded = match &self.place {
            // the bots it was created with, from their paths; a league's later bots from the database
            Place::Folder(_) => {
                let from = self.loaded.len().min(rows.len());
                let mut loaded: Vec<LoadedBot> = self.loaded.clone();
                loaded.extend(load_rows(store, config, &rows[from..], patience, opts.cache.as_deref()).await?);
                loaded
            }
            Place::Database(_) => load_rows(store, config, &rows, patience, opts.cache.as_deref()).await?,
        };
        let names: Vec<String> = rows.iter().map(|r| r.name.clone()).collect();
        let mut factory = BotFactory::new(loaded, &config.launch_settings()).await?;
        if let Some(tag) = &opts.tag {
            factory = factory.with_tag(tag);
        }
        let factory = Arc::new(factory.with_remote(opts.remote.clone()));
        // One bridge connection plays one seat at a time: remote bots play one game at once
        // unless told otherwise (then run as many bridges as jobs).
        let default = match () {
            _ if opts.remote.is_some() => 1,
            _ if factory.only_batched_submissions() => BATCH_TABLES,
            _ => default_jobs(factory.has_submissions()),
        };
        let jobs = opts.jobs.unwrap_or(default).max(1);
        let (dir, html, store_files) = match &self.place {
            Place::Folder(dir) => (dir.clone(), !config.no_html, false),
            Place::Database(_) => (opts.work_dir.join(&self.tid), false, true),
        };
        std::fs::create_dir_all(&dir).with_context(|| format!("cannot create the folder {}", dir.display()))?;
        let pool = Arc::new(Pool::new(factory, config.keep_bots, jobs, dir.join("bot_logs")));
        if config.keep_bots {
            std::fs::create_dir_all(dir.join("bot_logs"))
                .with_context(|| format!("cannot create {}", dir.join("bot_logs").display()))?;
        }
        match announce {
            Announce::Start => {
                let (place, total, done) = match &self.place {
                    Place::Folder(dir) => {
                        let total = (!config.is_league()).then_some(store.games().counts().await?.total());
                        (dir.display().to_string(), total, store.games().records().await?)
                    }
                    Place::Database(name) => (name.clone(), None, Vec::new()),
                };
                observer.started(&RunStart {
                    place,
                    tid: self.tid.clone(),
                    names: names.clone(),
                    seed: config.seed,
                    total,
                    done,
                    jobs,
                });
            }
            Announce::Bots => observer.bots(&names),
        }
        let options = RunOptions {
            jobs,
            logs: config.logs,
            html,
            dir,
            match_options: config.match_options(),
            rules: config.rules,
            names,
            worker: opts.worker.clone(),
            lease: opts.lease,
            store_files,
            patience: patience.clone(),
            open_ended: config.is_league(),
            live_hands: config.is_league(),
            // a stored game keeps its trace (a league's or a database tournament's)
            traces: store_files,
        };
        let result = runner::run(store, pool.clone(), &options, stop, observer).await;
        pool.drain().await;
        pool.factory().close_batches().await; // bounded: inside.
        result
    }
}
