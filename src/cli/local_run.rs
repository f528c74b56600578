//! Playing a tournament held in its folder (`mjai-sim tournament` without `--db`): the
//! runner over `DIR/tournament.sqlite` with the bots loaded at the start, game folders in
//! `DIR/games/`.
//!
//! A league (`--sets 0`) plays in rounds until SIGINT/SIGTERM: a round ends when nothing it
//! can claim is left, which happens when bots were added to the league since its bots were
//! loaded (`mjai-sim league add --db sqlite:DIR/tournament.sqlite`: their submissions are
//! read from the database) or when fewer than 4 bots are active (then the next round waits
//! [`IDLE_POLL`]).

use std::io::IsTerminal;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;

use super::db_run::load_rows;
use super::tournament::{default_jobs, launch_settings, stored_match_options, stored_rules};
use super::worker::wait_or_stop;
use crate::arena::shutdown::Shutdown;
use crate::tournament::config::TournamentConfig;
use crate::tournament::pool::{BotFactory, LoadedBot, Pool};
use crate::tournament::progress::Progress;
use crate::tournament::runner::{self, RunEnd, RunOptions};
use crate::tournament::store::Store;

/// How long an idle league's next round waits.
pub const IDLE_POLL: Duration = Duration::from_secs(1);

/// How this process plays a tournament folder.
pub struct Local<'a> {
    /// The tournament folder.
    pub dir: &'a Path,
    /// Its store.
    pub store: &'a Store,
    /// Its stored options.
    pub config: &'a TournamentConfig,
    /// `--jobs` (`None`: the default for its bots).
    pub jobs: Option<usize>,
    /// `--lease`.
    pub lease: Duration,
    /// `--json` (no progress bar).
    pub json: bool,
}

/// Plays until every game is done (a league: until `shutdown` fires). `loaded` holds the
/// bots of the tournament's first `loaded.len()` rows, loaded by the caller (from their
/// paths). Errors: the store failed, bots cannot start, logs unwritable (one line).
pub async fn play(local: &Local<'_>, mut loaded: Vec<LoadedBot>, shutdown: &Shutdown) -> anyhow::Result<RunEnd> {
    let Local { dir, store, config, .. } = *local;
    let settings = launch_settings(config)?;
    let league = config.sets == 0;
    let visible = !local.json && std::io::stderr().is_terminal();
    let mut progress: Option<Progress> = None;
    let mut stop = shutdown.stop();
    loop {
        let rows = store.bots().await?;
        if rows.len() > loaded.len() {
            loaded.extend(load_rows(store, config, &rows[loaded.len()..], Duration::ZERO).await?);
        }
        let names: Vec<String> = rows.iter().map(|r| r.name.clone()).collect();
        let factory = Arc::new(BotFactory::new(loaded.clone(), &settings).await?);
        let jobs = local.jobs.unwrap_or_else(|| default_jobs(factory.has_submissions())).max(1);
        let pool = Arc::new(Pool::new(factory, config.keep_bots, jobs, dir.join("bot_logs")));
        if config.keep_bots {
            std::fs::create_dir_all(dir.join("bot_logs"))
                .with_context(|| format!("cannot create {}", dir.display()))?;
        }
        let progress = match progress.as_mut() {
            Some(p) => {
                p.set_names(names.clone());
                p
            }
            None => progress.insert(start(local, &names, jobs, visible).await?),
        };
        let options = RunOptions {
            jobs,
            logs: config.logs,
            html: !config.no_html,
            dir: dir.to_path_buf(),
            match_options: stored_match_options(config)?,
            rules: stored_rules(&config.rules)?,
            names,
            worker: format!("local-{}", std::process::id()),
            lease: local.lease,
            store_files: false,
            db_patience: Duration::ZERO, // an embedded file: no outage to wait for
            open_ended: league,
        };
        let before = progress.recorded_here();
        let result = runner::run(store, pool.clone(), &options, stop.clone(), progress).await;
        pool.drain().await;
        let end = result.inspect_err(|_| progress.finish())?;
        if !league || end == RunEnd::Interrupted {
            progress.finish();
            return Ok(end);
        }
        if progress.recorded_here() == before {
            wait_or_stop(&mut stop, IDLE_POLL).await;
        }
        if *stop.borrow() {
            progress.finish();
            return Ok(RunEnd::Interrupted);
        }
    }
}

/// The first round's line on stderr and the progress bar (a counter for a league).
async fn start(local: &Local<'_>, names: &[String], jobs: usize, visible: bool) -> anyhow::Result<Progress> {
    let (store, config) = (local.store, local.config);
    let counts = store.counts().await?;
    let done = store.records().await?;
    let games = match config.sets {
        0 => "a league: open-ended, runs until stopped".to_string(),
        _ => format!("{} games", counts.total()),
    };
    eprintln!(
        "mjai-sim: tournament in {} ({} bots: {}; seed {},{}; {games}, {} done; {jobs} at once)",
        local.dir.display(),
        names.len(),
        names.join(", "),
        config.seed[0],
        config.seed[1],
        done.len()
    );
    Ok(match config.sets {
        0 => Progress::open_ended(names.to_vec(), &done, visible),
        _ => Progress::new(names.to_vec(), counts.total(), &done, visible),
    })
}
