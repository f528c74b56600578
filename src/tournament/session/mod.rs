//! The library API of tournaments and leagues, under every front end (the command line,
//! the grading server, the Python package through the binary): create, resume or open a
//! tournament, play it here or let workers play it from a database, watch it, add and
//! retire a league's bots, read its standings.
//!
//! Nothing here prints, installs signal handlers or picks exit codes: a run tells an
//! [`Observer`] what happens (games recorded or failed, database outages, notices) and stops
//! when its [`CancelToken`] fires.
//!
//! ```no_run
//! # async fn f() -> anyhow::Result<()> {
//! use mjai_sim_tournament::session::{Cancel, NewTournament, PlayLoop, PlayOptions, Quiet, Session};
//! use mjai_sim_tournament::config::TournamentConfig;
//! let new = NewTournament {
//!     bots: vec!["builtin:rulebase".into(), "builtin:random".into(), "builtin:tsumogiri".into(), "a=bots/a.zip".into()],
//!     seed: Some([1, 0]),
//!     config: TournamentConfig { sets: 2, ..TournamentConfig::default() },
//! };
//! let mut session = Session::create_in_folder(&new, Some("logs/t".into())).await?;
//! let cancel = Cancel::new(); // cancel.cancel() from elsewhere stops the run
//! let end = PlayLoop::here(&session).run(&PlayOptions::default(), std::sync::Arc::new(Quiet), cancel.token()).await?;
//! let standings = session.standings().await?;
//! # Ok(()) }
//! ```
//!
//! Where a tournament lives:
//! - a folder ([`Session::create_in_folder`], [`Session::resume_folder`]): `DIR/tournament.sqlite`,
//!   game folders in `DIR/games/`, bots loaded from their paths (a changed submission is
//!   refused on resume), played by this process ([`PlayLoop::here`]; with its remote
//!   entrants listened for: [`Session::play_here`]);
//! - a database ([`Session::create_in_db`], [`Session::open_in_db`]): PostgreSQL or
//!   `sqlite:PATH`, submissions stored by sha256, played by workers ([`worker`]), the
//!   coordinator and the server.
//!
//! A league's season's final: [`season`] (its bots, schedule and tournament; played by the
//! one loop; its standings frozen on the season).
//!
//! Where a tournament is played: in [`PlayLoop::run`], the one loop of rounds under every
//! process that plays (a folder's, the coordinator's, the workers', the server's), each round
//! set up once for both places (`round.rs`), with one settings type ([`PlayOptions`]).

mod bots;
mod here;
mod new;
mod play_loop;
mod round;
pub mod season;
pub mod worker;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{bail, Context};

pub use self::bots::{default_jobs, intake, load_rows, NewBot, BATCH_TABLES};
pub use self::here::{PlayHere, RemoteEntrant};
pub use self::new::{NewTournament, Plan};
pub use self::play_loop::{is_host_fault, PlayLoop, Scope, Until, HOST_BACKOFF, HOST_BACKOFF_MAX, LEAGUE_REPORT};
pub use self::round::PlayOptions;
use super::config::TournamentConfig;
use super::entrants::{self, Entrant};
pub use super::observer::{Notice, Observer, Quiet, RunStart, Traced};
use super::pool::LoadedBot;
pub use super::runner::{Played, RunEnd};
use super::standings::{compute, Standings, StandingsOptions};
use super::store::retry::{retry, Patience};
use super::store::{AddBot, BotRow, FailedGame, Retire, Store, DB_FILE};
pub use mjai_sim_arena::cancel::{Cancel, CancelToken};
use mjai_sim_arena::launch::BotSpec;
use mjai_sim_arena::run_id::game_id;

/// Where a tournament lives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// A tournament folder (`DIR/tournament.sqlite`, `DIR/games/`).
    Folder(PathBuf),
    /// A database (its name without password).
    Database(String),
}

/// One tournament or league, open.
pub struct Session {
    store: Store,
    tid: String,
    config: TournamentConfig,
    place: Place,
    /// A folder's bots loaded from their paths at create/resume (the first rows); a
    /// database's bots are loaded from it at each round.
    loaded: Vec<LoadedBot>,
}

impl Session {
    /// The names of its `remote:NAME` bots (they need a listener: [`PlayOptions::remote`],
    /// [`Session::play_here`]).
    pub fn remote_names(&self) -> Vec<String> {
        self.loaded_names(|b| match b {
            LoadedBot::Remote(name) => Some(name),
            _ => None,
        })
    }

    /// The names of its `riichilab:NAME` bots (riichi.dev's dialect; they need a listener too).
    pub fn riichi_dev_names(&self) -> Vec<String> {
        self.loaded_names(|b| match b {
            LoadedBot::RiichiDev(name) => Some(name),
            _ => None,
        })
    }

    /// The names `pick` finds among the loaded bots.
    fn loaded_names(&self, pick: impl Fn(&LoadedBot) -> Option<&String>) -> Vec<String> {
        self.loaded.iter().filter_map(pick).cloned().collect()
    }

    /// A new tournament in a folder (`dir`, default `logs/<tournament id>/`): every bot
    /// passes intake before anything is written; then the folder, the database, the bots and
    /// the schedule. Errors: a refused bot, a folder already holding a tournament, an
    /// unwritable folder (one line).
    pub async fn create_in_folder(new: &NewTournament, dir: Option<PathBuf>) -> anyhow::Result<Session> {
        let Plan { config, entrants, games } = new.plan()?;
        let (loaded, rows) = entrants::load(&entrants, &config.submission_limits())?;
        let tid = game_id(config.seed);
        let dir = dir.unwrap_or_else(|| PathBuf::from("logs").join(&tid));
        let db = dir.join(DB_FILE);
        if db.exists() {
            bail!(
                "{} already holds a tournament; continue it with --resume {} or choose another --dir",
                db.display(),
                dir.display()
            );
        }
        std::fs::create_dir_all(&dir)
            .with_context(|| format!("cannot create the tournament folder {}", dir.display()))?;
        let store = Store::open(&db).await?;
        let store = store.create(&tid, &config.to_json(), &rows, &games).await?;
        Ok(Session { store, tid, config, place: Place::Folder(dir), loaded })
    }

    /// The tournament in folder `dir`, to continue: its stored options and the bots it was
    /// created with (from their paths; a bot whose submission changed, by sha256, is
    /// refused); games cut off by a crash go back to the queue (`observer` hears how many).
    pub async fn resume_folder(dir: &Path, observer: &dyn Observer) -> anyhow::Result<Session> {
        let db = dir.join(DB_FILE);
        if !db.exists() {
            bail!("{}: no tournament here (no {DB_FILE}); start one without --resume", dir.display());
        }
        let store = Store::open(&db).await?;
        let (tid, config) =
            stored_config(&store, &Patience::none()).await.map_err(|e| match e.is::<NoTournament>() {
                true => anyhow::anyhow!("{}: the tournament was never created; start a new one", db.display()),
                false => e,
            })?;
        let mut stored = store.bots().await?;
        // a league's bots added later (`league add`) are loaded from the database by the runner
        stored.truncate(config.bots.len());
        let entrants: Vec<Entrant> = stored
            .iter()
            .map(|r| Ok(Entrant { name: r.name.clone(), spec: r.spec.parse().map_err(anyhow::Error::msg)? }))
            .collect::<anyhow::Result<_>>()?;
        let (loaded, rows) = entrants::load(&entrants, &config.submission_limits())?;
        for (old, new) in stored.iter().zip(&rows) {
            if old.sha256 != new.sha256 {
                bail!(
                    "bot {} ({}) changed since the tournament began (sha256 {}… now {}…); restore it or start a new tournament",
                    old.name,
                    old.spec,
                    &old.sha256[..12.min(old.sha256.len())],
                    &new.sha256[..12]
                );
            }
        }
        let requeued = store.leases().requeue_running().await?;
        if requeued > 0 {
            observer.notice(&Notice::Requeued { games: requeued, worker: None });
        }
        Ok(Session { store, tid, config, place: Place::Folder(dir.to_path_buf()), loaded })
    }

    /// A new tournament in the database `url` (PostgreSQL, or `sqlite:PATH`), played by
    /// workers: intake first, then the submissions' bytes, the tournament, its bots and its
    /// schedule. `connections`: the PostgreSQL pool size. Errors: a folder given as a
    /// submission (workers read zips from the database), a refused bot, the database.
    pub async fn create_in_db(url: &str, new: &NewTournament, connections: u32) -> anyhow::Result<Session> {
        let Plan { config, entrants, games } = new.plan()?;
        for e in &entrants {
            if let BotSpec::Remote(_) | BotSpec::RiichiDev(_) = &e.spec {
                bail!("{}: {} cannot play in a database tournament (workers have no listener); play it in a folder tournament", e.name, e.spec);
            }
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
        let (_, rows) = entrants::load(&entrants, &config.submission_limits())?; // intake before any write
        let store = Store::open_url(url, connections).await?;
        for e in &entrants {
            if let BotSpec::Submission(path) = &e.spec {
                let bytes =
                    std::fs::read(path).with_context(|| format!("{}: cannot read {}", e.name, path.display()))?;
                store.blobs().put_submission(&bytes).await?;
            }
        }
        let tid = game_id(config.seed);
        let store = store.create(&tid, &config.to_json(), &rows, &games).await?;
        let place = Place::Database(store.name().to_string());
        Ok(Session { store, tid, config, place, loaded: Vec::new() })
    }

    /// The tournament in folder `dir`, to read (standings, counts) while another process
    /// may be playing it: no bot is loaded, nothing is written. Errors: no tournament there.
    pub async fn open_folder(dir: &Path) -> anyhow::Result<Session> {
        let store = Store::open(&dir.join(DB_FILE)).await?;
        let (tid, config) = stored_config(&store, &Patience::none()).await?;
        Ok(Session { store, tid, config, place: Place::Folder(dir.to_path_buf()), loaded: Vec::new() })
    }

    /// The tournament `tid` in the database `url`. Errors: no such tournament (the message
    /// says where ids come from), unreadable options.
    pub async fn open_in_db(url: &str, tid: &str, connections: u32) -> anyhow::Result<Session> {
        let db = Store::open_url(url, connections).await?;
        let Some(store) = db.tournament(tid).await? else {
            bail!("{}: no tournament {tid} (the id is printed by `mjai-sim tournament --db`)", db.name())
        };
        Session::of_store(store, &Patience::none()).await
    }

    /// The tournament `store` is scoped to (a worker's claimable tournament), waiting out an
    /// outage for `patience`.
    pub async fn of_store(store: Store, patience: &Patience) -> anyhow::Result<Session> {
        let (tid, config) = stored_config(&store, patience).await?;
        let place = Place::Database(store.name().to_string());
        Ok(Session { store, tid, config, place, loaded: Vec::new() })
    }

    /// The tournament's id.
    pub fn id(&self) -> &str {
        &self.tid
    }

    /// Its stored options.
    pub fn config(&self) -> &TournamentConfig {
        &self.config
    }

    /// Where it lives.
    pub fn place(&self) -> &Place {
        &self.place
    }

    /// Its store (for reads the session does not wrap: counts, records, game files).
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Its bots' names in bot-list order (retired ones included).
    pub async fn names(&self, patience: &Patience) -> anyhow::Result<Vec<String>> {
        Ok(retry("read the bots", patience, || self.store.bots()).await?.into_iter().map(|b| b.name).collect())
    }

    /// Adds a bot to a league: intake first (a refused bot never enters: nothing is
    /// written); a zip's bytes go into the database by sha256 with the bot, which gets the
    /// next index. Returns the stored row and whether the name was free. Errors: not a
    /// league, a refused bot, the database.
    pub async fn add_bot(&self, name: &str, bot: &NewBot) -> anyhow::Result<(AddBot, BotRow)> {
        self.require_league()?;
        let row = intake(name, bot, &self.config)?;
        let bytes = match bot {
            NewBot::Zip { bytes, .. } => Some(bytes.as_slice()),
            NewBot::Builtin(_) => None,
        };
        let added = self.store.league().add_bot(name, &row.spec, &row.sha256, bytes).await?;
        let idx = match added {
            AddBot::Added { idx } => idx,
            AddBot::NameTaken => row.idx,
        };
        Ok((added, BotRow { idx, ..row }))
    }

    /// Retires a league's bot: never scheduled again, its pending games cancelled; games
    /// already claimed finish and count. Errors: not a league, the database.
    pub async fn retire(&self, name: &str) -> anyhow::Result<Retire> {
        self.require_league()?;
        Ok(self.store.league().retire(name).await?)
    }

    /// The standings of every recorded game (the one place building
    /// [`StandingsOptions`]: the tournament's uma, its seed's nonce as the bootstrap seed),
    /// retired bots marked.
    pub async fn standings(&self) -> anyhow::Result<Standings> {
        let names: Vec<String> = self.store.bots().await?.into_iter().map(|b| b.name).collect();
        let records = self.store.games().records().await?;
        let options = StandingsOptions::new(self.config.uma.clone(), self.config.seed[0]);
        let mut standings = compute(&names, &records, &options);
        standings.mark_retired(&self.store.league().retired().await?);
        standings.mark_not_counted(self.store.games().failed().await?.into_iter().map(|f| (f.index, f.error)));
        Ok(standings)
    }

    /// Games that failed for good.
    pub async fn failed(&self) -> anyhow::Result<Vec<FailedGame>> {
        Ok(self.store.games().failed().await?)
    }

    /// Closes the store (waits for its connections to finish).
    pub async fn close(self) {
        self.store.close().await;
    }

    fn require_league(&self) -> anyhow::Result<()> {
        if !self.config.is_league() {
            bail!(
                "tournament {} has a fixed schedule ({} sets); only a league (created with --sets 0) takes bots in and out",
                self.tid,
                self.config.sets
            );
        }
        Ok(())
    }
}

/// The stored id and options, parsed once (one error text for every front end).
async fn stored_config(store: &Store, patience: &Patience) -> anyhow::Result<(String, TournamentConfig)> {
    let Some((tid, text)) = retry("read the tournament", patience, || store.meta()).await? else {
        return Err(anyhow::Error::new(NoTournament(store.name().to_string())));
    };
    let config = TournamentConfig::parse(&text)
        .map_err(|e| anyhow::anyhow!("{}: tournament {tid}: unreadable options ({e})", store.name()))?;
    Ok((tid, config))
}

/// A database holding no tournament yet.
#[derive(Debug, thiserror::Error)]
#[error("{0}: no tournament in it; create one with `mjai-sim tournament --db`")]
struct NoTournament(String);

/// `limit`, with outages told to `observer`.
fn patience_of(limit: std::time::Duration, observer: &Arc<dyn Observer>) -> Patience {
    Patience::new(limit, observer.clone())
}

#[cfg(test)]
mod season_tests;
