//! Playing a tournament held in its folder: the runner over `DIR/tournament.sqlite` with
//! the bots loaded at create/resume, game folders in `DIR/games/`.
//!
//! A league (`--sets 0`) plays in rounds until cancelled: a round ends when nothing it can
//! claim is left, which happens when bots were added to the league since its bots were
//! loaded (`mjai-sim league add --db sqlite:DIR/tournament.sqlite`: their submissions are
//! read from the database) or when fewer than 4 bots are active (then the next round waits
//! [`IDLE_POLL`]).

use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;

use super::play_loop::{top_up, wait_or_stop};
use super::{default_jobs, load_rows, Observer, Place, RunEnd, RunStart, Session};
use crate::arena::cancel::CancelToken;
use crate::arena::launch::RemoteSeats;
use crate::tournament::pool::{BotFactory, Pool};
use crate::tournament::runner::{self, RunOptions};
use crate::tournament::store::retry::Patience;

/// How long an idle league's next round waits.
pub const IDLE_POLL: Duration = Duration::from_secs(1);

/// How this process plays a tournament folder.
#[derive(Debug, Clone)]
pub struct Local {
    /// Games at once (`None`: [`default_jobs`] for its bots).
    pub jobs: Option<usize>,
    /// Lease of a claimed game (another process may claim it after this long without a
    /// heartbeat).
    pub lease: Duration,
    /// Where `remote:NAME` entrants find their bridges (`None`: no remote entrant plays).
    pub remote: Option<RemoteSeats>,
}

impl Default for Local {
    /// The default jobs, a 30 s lease (`--lease`'s default).
    fn default() -> Local {
        Local { jobs: None, lease: Duration::from_secs(30), remote: None }
    }
}

impl Session {
    /// Plays a folder's tournament until every game is done (a league: until `stop`
    /// fires), telling `observer` what happens. Errors: not a folder's tournament, the store
    /// failed, bots cannot start, logs unwritable (one line; what was recorded stays).
    pub async fn play_here(
        &mut self,
        local: &Local,
        observer: Arc<dyn Observer>,
        stop: CancelToken,
    ) -> anyhow::Result<RunEnd> {
        let Place::Folder(dir) = self.place.clone() else {
            anyhow::bail!("tournament {} lives in a database: play it with workers or play_round", self.tid)
        };
        let (store, config) = (&self.store, &self.config);
        let settings = config.launch_settings();
        let mut stop = stop;
        let mut first = true;
        let mut idle = false;
        loop {
            idle = top_up(self, &Patience::none(), observer.as_ref(), idle).await?;
            let rows = store.bots().await?;
            if rows.len() > self.loaded.len() {
                let more = load_rows(store, config, &rows[self.loaded.len()..], &Patience::none()).await?;
                self.loaded.extend(more);
            }
            let names: Vec<String> = rows.iter().map(|r| r.name.clone()).collect();
            let factory =
                Arc::new(BotFactory::new(self.loaded.clone(), &settings).await?.with_remote(local.remote.clone()));
            // One bridge connection plays one seat at a time: remote entrants play one game at once
            // unless told otherwise (then run as many bridges as --jobs).
            let default = if local.remote.is_some() { 1 } else { default_jobs(factory.has_submissions()) };
            let jobs = local.jobs.unwrap_or(default).max(1);
            let pool = Arc::new(Pool::new(factory, config.keep_bots, jobs, dir.join("bot_logs")));
            if config.keep_bots {
                std::fs::create_dir_all(dir.join("bot_logs"))
                    .with_context(|| format!("cannot create {}", dir.display()))?;
            }
            if first {
                let counts = store.games().counts().await?;
                observer.started(&RunStart {
                    place: dir.display().to_string(),
                    tid: self.tid.clone(),
                    names: names.clone(),
                    seed: config.seed,
                    total: (!config.is_league()).then(|| counts.total()),
                    done: store.games().records().await?,
                    jobs,
                });
                first = false;
            } else {
                observer.bots(&names);
            }
            let options = RunOptions {
                jobs,
                logs: config.logs,
                html: !config.no_html,
                dir: dir.clone(),
                match_options: config.match_options(),
                rules: config.rules,
                names,
                worker: format!("local-{}", std::process::id()),
                lease: local.lease,
                store_files: false,
                patience: Patience::none(), // an embedded file: no outage to wait for
                open_ended: config.is_league(),
            };
            let result = runner::run(store, pool.clone(), &options, stop.clone(), observer.as_ref()).await;
            pool.drain().await;
            let played = result.inspect_err(|_| observer.finished())?;
            if !config.is_league() || played.end == RunEnd::Interrupted {
                observer.finished();
                return Ok(played.end);
            }
            if played.games == 0 {
                wait_or_stop(&mut stop, IDLE_POLL).await;
            }
            if *stop.borrow() {
                observer.finished();
                return Ok(RunEnd::Interrupted);
            }
        }
    }
}
