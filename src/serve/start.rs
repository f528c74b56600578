//! The server's assembly, from its [`ServeSettings`] to a bound listener ([`start`]): the
//! store opened, the `admin` author's token, then each league (the default first, the
//! others beside it in the same database) opened or created with its house bots, the pace
//! and the suspension policy stored, games a stop cut off given back to the queue (SQLite:
//! one server per file), this process's share of the league's games, the handlers'
//! settings and the validation games' settings from the league's stored options. Then
//! [`Started::run`] serves until stopped.

use std::fmt;
use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::Context;
use tokio::net::TcpListener;

use mjai_sim_engine::game::Players;
use mjai_sim_runtime::submission::SubmissionLimits;
use mjai_sim_tournament::config::TournamentConfig;
use mjai_sim_tournament::session::worker::incarnation;
use mjai_sim_tournament::session::{PlayOptions, Session};
use mjai_sim_tournament::store::{is_postgres_url, Store};
use mjai_sim_tournament::submission_cache::SubmissionCache;

use super::admin::ensure_admin;
use super::jobs::validation::ValidationSettings;
use super::open_league::open_league;
use super::settings::{check_league_name, LeagueSettings, ServeSettings};
use super::state::Settings;

/// What a starting server has to say before it serves (the command line prints each line
/// on stderr).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StartNote {
    /// Games cut off by the last stop went back to the queue (a SQLite store, whose one
    /// server is this one).
    Requeued(u64),
    /// The stored league plays another mode than the settings' rules ask for (the stored
    /// options win).
    OtherMode {
        /// The league's name.
        league: String,
        /// Seats at its tables, as stored.
        stored: Players,
        /// Seats the settings ask for.
        asked: Players,
    },
}

impl fmt::Display for StartNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartNote::Requeued(games) => write!(f, "{games} game(s) cut off before go back to the queue"),
            StartNote::OtherMode { league, stored, asked } => write!(
                f,
                "warning: league {league} plays {}-player games (its stored options); --rules asks for {}-player: a league is one mode, so give another --league (or --db) for a {}-player league",
                stored.count(),
                asked.count(),
                asked.count()
            ),
        }
    }
}

/// A server assembled and listening, not serving yet: [`Started::run`] serves.
pub struct Started {
    /// Its leagues, the default first.
    pub(crate) leagues: Vec<StartedLeague>,
    /// The bound listener.
    pub(crate) listener: TcpListener,
    /// Its address (the port chosen).
    address: SocketAddr,
    /// League games played here at once, in each league (0: workers play them).
    jobs: usize,
    /// Validation games at once, in each league.
    pub(crate) max_validations: usize,
    /// Where games are played until stored (removed when the server stops).
    pub(crate) work_dir: PathBuf,
    /// Days finished games' traces are kept (0: for good).
    pub(crate) trace_days: u32,
}

/// One league of a started server.
pub(crate) struct StartedLeague {
    /// The league.
    pub(crate) session: Session,
    /// The handlers' limits and options.
    pub(crate) settings: Settings,
    /// How validation games are played.
    pub(crate) validation: ValidationSettings,
    /// Plays the league here (`None`: workers play it).
    pub(crate) play: Option<PlayOptions>,
}

impl Started {
    /// Where it listens.
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// League games played by this process at once in each league (0: by workers).
    pub fn jobs(&self) -> usize {
        self.jobs
    }

    /// The default league's store (its name, for the start line).
    pub fn store(&self) -> &Store {
        self.leagues[0].session.store()
    }

    /// The default league's stored options (its runtime: what a stop has to stop).
    pub fn config(&self) -> &TournamentConfig {
        self.leagues[0].session.config()
    }

    /// Every league's name, the default first.
    pub fn league_names(&self) -> Vec<String> {
        self.leagues.iter().map(|l| l.session.id().to_string()).collect()
    }
}

/// Assembles the server `settings` describe and binds its listener, telling `notes` what
/// it should say meanwhile. Errors (one line): no league, a league named twice or badly,
/// the store or a league cannot be opened (another league in a SQLite file under the
/// default league's name, the database), the submission cache, the address cannot be
/// bound.
pub async fn start(settings: ServeSettings, notes: impl Fn(&StartNote)) -> anyhow::Result<Started> {
    let s = settings;
    if s.leagues.is_empty() {
        anyhow::bail!("a server hosts at least one league: give --league NAME");
    }
    for (i, l) in s.leagues.iter().enumerate() {
        check_league_name(&l.name).map_err(anyhow::Error::msg)?;
        if s.leagues[..i].iter().any(|other| other.name == l.name) {
            anyhow::bail!("league {} is named twice: give each --league its own name", l.name);
        }
    }
    let postgres = is_postgres_url(&s.db);
    let jobs = s.jobs.unwrap_or(if postgres { 0 } else { 2 });
    let db = Store::open_url(&s.db, (jobs as u32 + 8) * s.leagues.len() as u32).await?;
    if let Some(token) = &s.admin_token {
        ensure_admin(&db, token).await?;
    }
    let work_dir = s
        .work_dir
        .clone()
        .unwrap_or_else(|| std::env::temp_dir().join(format!("mjai-sim-serve-{}", std::process::id())));
    let cache = s.cache.open()?;
    let mut leagues = Vec::with_capacity(s.leagues.len());
    for (i, league) in s.leagues.iter().enumerate() {
        // the default league's games where they always were; the others' in folders apart
        let here = if i == 0 { work_dir.clone() } else { work_dir.join(format!("more-{i}")) };
        let beside = i > 0;
        leagues.push(start_league(&s, &db, league, beside, jobs, here, cache.clone(), &notes).await?);
    }
    let listener = TcpListener::bind(s.listen)
        .await
        .with_context(|| format!("cannot listen on {} (in use? choose another --listen)", s.listen))?;
    let address = listener.local_addr()?;
    Ok(Started {
        leagues,
        listener,
        address,
        jobs,
        max_validations: s.max_validations,
        work_dir,
        trace_days: s.trace_days,
    })
}

/// Opens (or creates) one league of the server and makes its settings: its house bots,
/// pace and suspension policy stored, games a stop cut off queued again (SQLite), its play
/// and validation options with their games under `work_dir`.
#[allow(clippy::too_many_arguments)]
async fn start_league(
    s: &ServeSettings,
    db: &Store,
    league: &LeagueSettings,
    beside: bool,
    jobs: usize,
    work_dir: PathBuf,
    cache: std::sync::Arc<SubmissionCache>,
    notes: &impl Fn(&StartNote),
) -> anyhow::Result<StartedLeague> {
    let postgres = is_postgres_url(&s.db);
    let new_league = TournamentConfig {
        bots: s.house.iter().map(|h| h.row.spec.clone()).collect(),
        sets: 0,
        ..league.new_league.clone()
    };
    let session = open_league(db, &league.name, &new_league.to_json(), &s.house, beside).await?;
    let store = session.store().clone();
    store.league().set_pace(s.pace).await?;
    store.suspensions().set_policy(s.suspension).await?;
    if !postgres {
        let requeued = store.leases().requeue_running().await?; // one server per SQLite file
        if requeued > 0 {
            notes(&StartNote::Requeued(requeued));
        }
    }
    let config = session.config().clone();
    let asked = league.new_league.rules.players;
    if config.rules.players != asked {
        notes(&StartNote::OtherMode { league: league.name.clone(), stored: config.rules.players, asked });
    }
    let play = (jobs > 0).then(|| PlayOptions {
        jobs: Some(jobs),
        worker: incarnation(&format!("serve-{}", std::process::id())),
        tag: None,
        lease: s.lease,
        work_dir: work_dir.join("league"),
        db_patience: s.db_patience,
        remote: None, // the server's hub, set by `Started::run`
        cache: Some(cache.clone()),
    });
    let no_remote_bots = match (postgres, jobs) {
        (true, _) => Some("this league is in PostgreSQL, where workers may play its games, and remote bots play only in games the server plays itself: run a server with a SQLite --db".to_string()),
        (false, 0) => Some("this server plays no games (--jobs 0), and remote bots play only in games the server plays itself".to_string()),
        _ => None,
    };
    let settings = Settings {
        max_submission_bytes: config.max_submission_mb.saturating_mul(1024 * 1024),
        intake: SubmissionLimits { max_unpacked_bytes: s.max_unpacked_bytes, ..config.submission_limits() },
        uploads: s.uploads,
        per_ip_per_minute: s.per_ip_per_minute,
        per_token_per_minute: s.per_token_per_minute,
        header_timeout: s.header_timeout,
        request_timeout: s.request_timeout,
        max_connections: s.max_connections,
        no_remote_bots,
        secure_cookie: s.secure_cookie,
        players: config.rules.players,
    };
    let validation = ValidationSettings {
        launch: config.launch_settings(),
        options: config.match_options(),
        rules: config.rules,
        opponent: s.validation_opponent.clone(),
        work_dir,
        remote: None, // the server's hub, set by `Started::run`
        cache: Some(cache),
    };
    Ok(StartedLeague { session, settings, validation, play })
}
