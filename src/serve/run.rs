//! A started server serving ([`Started::run`]): for each league, one remote-bot hub for its
//! validation and league games, its jobs started ([`super::jobs`]: validation, those a stop
//! cut off queued again, the league played here), its handlers' state and router; the
//! leagues' routers behind one dispatcher ([`super::dispatch`]), the listener until the
//! stop; then the stop in order (module docs of the crate), the store closed and the work
//! folder removed.

use std::sync::Arc;

use mjai_sim_arena::cancel::{Cancel, CancelToken};
use mjai_sim_arena::launch::RemoteSeats;
use mjai_sim_runtime::remote::hub::RemoteHub;
use mjai_sim_tournament::leaderboard::BotStatus;
use mjai_sim_tournament::session::Session;
use mjai_sim_tournament::store::retry::Patience;
use mjai_sim_tournament::store::{BotKind, Online};

use axum::extract::Request;
use axum::middleware::Next;

use super::counters::Counters;
use super::dispatch::{self, LeagueRoute};
use super::jobs::validation::Validator;
use super::jobs::{credentials, finals, league_loop, local, retention};
use super::league_info::LeagueInfo;
use super::start::{Started, StartedLeague};
use super::state::{AppState, Peers};
use super::{limits, listen, router, watchers, STOP_WAIT};

impl Started {
    /// Serves until `stop` fires (or a league loop fails, which stops the server too),
    /// then stops as the crate's docs say, closes the store and removes the work folder.
    /// Errors: a play loop failed (database gone beyond its patience, Docker unreachable);
    /// the listener's own errors are logged and ridden out.
    pub async fn run(self, stop: CancelToken) -> anyhow::Result<()> {
        let store = self.store().clone();
        let work_dir = self.work_dir.clone();
        let result = self.serve(Cancel::child_of(&stop)).await;
        store.close().await; // every league's store is this one's pool, scoped
        let _ = std::fs::remove_dir_all(&work_dir);
        result
    }

    /// [`Started::run`] until the stop, before the store is closed.
    async fn serve(self, cancel: Cancel) -> anyhow::Result<()> {
        let Started { leagues, listener, max_validations, trace_days, .. } = self;
        let first = &leagues[0].settings;
        let header_timeout = first.header_timeout;
        let shared = Shared {
            limits: Arc::new(limits::RateLimits::new(first.per_ip_per_minute, first.per_token_per_minute)),
            counters: Arc::new(Counters::default()),
            watchers: Arc::new(watchers::Watchers::new(cancel.token())),
            peers: Arc::new(Peers::default()),
            leagues: Arc::new(
                leagues
                    .iter()
                    .enumerate()
                    .map(|(i, l)| LeagueInfo::new(l.session.id(), l.session.config(), i == 0))
                    .collect(),
            ),
        };
        let mut routes = Vec::with_capacity(leagues.len());
        let mut serving = Vec::with_capacity(leagues.len());
        let mut states = Vec::with_capacity(leagues.len());
        for (index, league) in leagues.into_iter().enumerate() {
            let name = league.session.id().to_string();
            let (state, league) = serve_league(league, index, &shared, max_validations, trace_days, &cancel).await?;
            states.push(state.clone());
            let mut router = router::router(state);
            if index > 0 {
                let base: Arc<str> = Arc::from(format!("/leagues/{name}"));
                router = router.layer(axum::middleware::from_fn(move |request: Request, next: Next| {
                    dispatch::prefix_links(base.clone(), request, next)
                }));
            }
            routes.push(LeagueRoute { name, router });
            serving.push(league);
        }
        shared.peers.set(states);
        listen::serve(listener, dispatch::dispatch(routes), header_timeout, cancel.token()).await;
        shared.peers.clear();
        for league in &serving {
            league.hub.close_all().await; // bridges hear `bye` (games in play end on the stop)
        }
        let mut plays = Vec::new();
        let deadline = tokio::time::Instant::now() + STOP_WAIT; // one wait for every league's
        for league in serving {
            if tokio::time::timeout_at(deadline, local::join(league.validations)).await.is_err() {
                tracing::warn!("validation games still running after {} s were left", STOP_WAIT.as_secs());
            }
            if let Err(e) = local::join(league.finals).await {
                tracing::warn!("the seasons' finals job: {e:#}");
            }
            plays.extend(league.play);
        }
        let mut result = Ok(());
        for play in plays {
            let ended = local::join(play).await;
            if result.is_ok() {
                result = ended;
            }
        }
        result
    }
}

/// What every league of a server shares.
struct Shared {
    /// Rate limits per IP and per token: one budget across the leagues.
    limits: Arc<limits::RateLimits>,
    /// Counters for `/metrics`.
    counters: Arc<Counters>,
    /// Open live streams, bounded across the leagues.
    watchers: Arc<watchers::Watchers>,
    /// Every league, the default first.
    leagues: Arc<Vec<LeagueInfo>>,
    /// Every league's state, once started.
    peers: Arc<Peers>,
}

/// A league being served: what the stop waits for.
struct Serving {
    /// Its remote bots' connections.
    hub: Arc<RemoteHub>,
    /// Its validation games.
    validations: std::thread::JoinHandle<anyhow::Result<()>>,
    /// Its play loop (`None`: workers play it).
    play: Option<std::thread::JoinHandle<anyhow::Result<()>>>,
    /// Its seasons' finals ([`finals`]).
    finals: std::thread::JoinHandle<anyhow::Result<()>>,
}

/// Starts serving league `index`: one remote-bot hub for its validation and league games,
/// its jobs started ([`super::jobs`]: validation, those a stop cut off queued again, the
/// league played here, its seasons' finals, credentials checked, traces kept), and its
/// handlers' state.
/// Errors: the store failed; a job's thread could not start.
async fn serve_league(
    league: StartedLeague,
    index: usize,
    shared: &Shared,
    max_validations: usize,
    trace_days: u32,
    cancel: &Cancel,
) -> anyhow::Result<(AppState, Serving)> {
    let StartedLeague { session, settings, mut validation, mut play } = league;
    // remote bots: one hub for validation and league games; a start finding the bot's
    // connections busy in other games waits up to the whole-game bound
    let options = &validation.options;
    let hub = RemoteHub::with_busy_wait(options.game_timeout);
    let seats = RemoteSeats { hub: hub.clone(), wait: options.start_timeout };
    let online = {
        let hub = hub.clone();
        Online(Arc::new(move |name: &str| hub.ready(name)))
    };
    // the league schedules remote bots only while they are connected
    let session = Session::of_store(session.store().with_online(online), &Patience::none()).await?;
    let store = session.store().clone();
    let versions = store.versions().all().await?;
    for row in versions.iter().filter(|v| v.kind.is_connected()) {
        match row.kind {
            BotKind::RiichiDev => hub.allow_one_game(&row.name),
            _ => hub.allow(&row.name),
        }
    }
    if let Some(opts) = &mut play {
        opts.remote = Some(seats.clone());
    }
    validation.remote = Some(seats);
    let (validator, validations) = Validator::start(validation, max_validations, store.clone(), cancel.clone())?;
    for row in versions.into_iter().filter(|v| v.status == BotStatus::Validating && v.kind == BotKind::Zip) {
        validator.spawn(row); // cut off by the last stop (a remote bot: at its next connection)
    }
    let credentials = Arc::new(credentials::Credentials::default());
    tokio::spawn(credentials::run(credentials.clone(), store.clone(), cancel.clone()));
    if trace_days > 0 {
        tokio::spawn(retention::run(store.clone(), trace_days, cancel.clone()));
    }
    let state = AppState {
        store: store.clone(),
        settings: Arc::new(settings),
        validator,
        figures: Default::default(),
        counters: shared.counters.clone(),
        limits: shared.limits.clone(),
        hub: hub.clone(),
        credentials,
        watchers: shared.watchers.clone(),
        leagues: shared.leagues.clone(),
        league: index,
        peers: shared.peers.clone(),
    };
    let finals = finals::spawn(store.clone(), play.clone(), shared.counters.clone(), cancel.clone())?;
    let play = match play {
        Some(opts) => Some(league_loop::spawn(session, opts, shared.counters.clone(), cancel.clone())?),
        None => None,
    };
    Ok((state, Serving { hub, validations, play, finals }))
}
