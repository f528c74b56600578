//! Playing a tournament held in a database (`--db`), shared by `mjai-sim tournament --db`
//! and `mjai-sim worker`: the tournament's stored options, its bots loaded from the
//! database (submissions by sha256, so no shared disk), and the runner with leases. Each
//! game's folder is written under a work folder, stored with its result, then removed.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use tokio::sync::watch;

use super::tournament::{default_jobs, launch_settings, limits, stored_match_options, stored_rules};
use crate::arena::launch::BotSpec;
use crate::runtime::submission::Submission;
use crate::tournament::config::TournamentConfig;
use crate::tournament::pool::{BotFactory, LoadedBot, Pool};
use crate::tournament::progress::Progress;
use crate::tournament::runner::{self, RunEnd, RunOptions};
use crate::tournament::store::retry::retry;
use crate::tournament::store::{BotRow, Store};

/// How this process plays games of database tournaments.
#[derive(Debug, Clone)]
pub struct Player {
    /// Games at once (`None`: the default for the tournament's bots).
    pub jobs: Option<usize>,
    /// Incarnation id written in `claimed_by` (`NAME#nonce`).
    pub worker: String,
    /// Docker label prefix of this process's containers (`worker-NAME`).
    pub tag: Option<String>,
    /// Lease of a claimed game.
    pub lease: Duration,
    /// Where game folders live until their result is stored (`<work>/<tid>/games/...`).
    pub work_dir: PathBuf,
    /// Show a progress bar.
    pub visible: bool,
    /// How long store calls are retried while the database is unreachable.
    pub db_patience: Duration,
}

/// The tournament's stored options, waiting up to `patience` for an unreachable database.
/// Errors: none created, or unreadable (one line).
pub async fn config_of(store: &Store, patience: Duration) -> anyhow::Result<(String, TournamentConfig)> {
    let Some((tid, text)) = retry("read the tournament", patience, || store.meta()).await? else {
        anyhow::bail!("{}: no such tournament; list them with psql or create one", store.name())
    };
    let config = serde_json::from_str(&text)
        .map_err(|e| anyhow::anyhow!("{}: tournament {tid}: unreadable options ({e})", store.name()))?;
    Ok((tid, config))
}

/// The tournament's bots: built-ins by name, submissions from the database by sha256 and
/// checked again (intake), waiting up to `patience` for an unreachable database. Errors: a
/// submission missing or damaged (one line).
pub async fn load_bots(
    store: &Store,
    config: &TournamentConfig,
    patience: Duration,
) -> anyhow::Result<(Vec<LoadedBot>, Vec<BotRow>)> {
    let rows = retry("read the bots", patience, || store.bots()).await?;
    Ok((load_rows(store, config, &rows, patience).await?, rows))
}

/// The bots of `rows` (see [`load_bots`]): submissions are read from the database, never
/// from the path they were given as.
pub async fn load_rows(
    store: &Store,
    config: &TournamentConfig,
    rows: &[BotRow],
    patience: Duration,
) -> anyhow::Result<Vec<LoadedBot>> {
    let mut loaded = Vec::with_capacity(rows.len());
    for r in rows {
        let spec: BotSpec = r.spec.parse().map_err(|e: String| anyhow::anyhow!("bot {}: {e}", r.name))?;
        loaded.push(match spec {
            BotSpec::Builtin(name) => LoadedBot::Builtin(name),
            BotSpec::Submission(_) => {
                let bytes =
                    retry("read a submission", patience, || store.submission(&r.sha256)).await?.ok_or_else(|| {
                        anyhow::anyhow!(
                            "{}: bot {}: submission {} is not in the database; create the tournament again",
                            store.name(),
                            r.name,
                            r.sha256
                        )
                    })?;
                let sub = Submission::from_zip_bytes(Path::new(&r.name), &bytes, &limits(config))
                    .map_err(|e| anyhow::anyhow!("bot {}: {e}", r.name))?;
                LoadedBot::Submission(Arc::new(sub))
            }
        });
    }
    Ok(loaded)
}

/// What [`play`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Played {
    /// How the run ended.
    pub end: RunEnd,
    /// Games this run recorded (0: it found nothing to play).
    pub games: u64,
}

/// Plays the claimable games of `store`'s tournament until none is left to claim (or
/// `stop` fires), with the bots stored when it begins (a league's bots added later are
/// played by the next call). Errors: the store failed, bots cannot start (Docker), logs
/// unwritable.
pub async fn play(store: &Store, player: &Player, stop: watch::Receiver<bool>) -> anyhow::Result<Played> {
    let (tid, config) = config_of(store, player.db_patience).await?;
    let (loaded, rows) = load_bots(store, &config, player.db_patience).await?;
    let names: Vec<String> = rows.iter().map(|r| r.name.clone()).collect();
    let mut factory = BotFactory::new(loaded, &launch_settings(&config)?).await?;
    if let Some(tag) = &player.tag {
        factory = factory.with_tag(tag);
    }
    let factory = Arc::new(factory);
    let jobs = player.jobs.unwrap_or_else(|| default_jobs(factory.has_submissions())).max(1);
    let dir = player.work_dir.join(&tid);
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create the work folder {}", dir.display()))?;
    let pool = Arc::new(Pool::new(factory, config.keep_bots, jobs, dir.join("bot_logs")));
    if config.keep_bots {
        std::fs::create_dir_all(dir.join("bot_logs")).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let options = RunOptions {
        jobs,
        logs: config.logs,
        html: false,
        dir,
        match_options: stored_match_options(&config)?,
        rules: stored_rules(&config.rules)?,
        names: names.clone(),
        worker: player.worker.clone(),
        lease: player.lease,
        store_files: true,
        db_patience: player.db_patience,
        open_ended: config.sets == 0,
    };
    let mut progress = match (player.visible, options.open_ended) {
        (false, _) => Progress::new(names, 0, &[], false), // hidden: no need to read the results
        (true, true) => {
            let done = retry("read results", player.db_patience, || store.records()).await?;
            Progress::open_ended(names, &done, true)
        }
        (true, false) => {
            let counts = retry("count games", player.db_patience, || store.counts()).await?;
            let done = retry("read results", player.db_patience, || store.records()).await?;
            Progress::new(names, counts.total(), &done, true)
        }
    };
    let result = runner::run(store, pool.clone(), &options, stop, &mut progress).await;
    progress.finish();
    pool.drain().await;
    Ok(Played { end: result?, games: progress.recorded_here() })
}
