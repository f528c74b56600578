//! What every handler shares: the league's store, the server's settings, the validator,
//! the figures cache and the counters `/metrics` reports. A server of several leagues has
//! one state per league ([`super::dispatch`] picks it); the rate limits, the counters and
//! the list of leagues are the server's, shared by them all.

use std::sync::Arc;
use std::time::Duration;

use super::counters::Counters;
use super::jobs::validation::Validator;
use super::leaderboard::FiguresCache;
use mjai_sim_engine::game::Players;
use mjai_sim_runtime::remote::hub::RemoteHub;
use mjai_sim_runtime::submission::SubmissionLimits;
use mjai_sim_tournament::leaderboard::{BotStatus, LeaderboardEntry};
use mjai_sim_tournament::store::{Store, UploadLimits};

/// The server's limits and options (from the command line).
#[derive(Debug, Clone)]
pub struct Settings {
    /// Largest upload (the zip), in bytes: the request body limit of `POST /api/bots`.
    pub max_submission_bytes: u64,
    /// Intake limits of an uploaded zip (unpacked size, files).
    pub intake: SubmissionLimits,
    /// Per-author limits.
    pub uploads: UploadLimits,
    /// Requests per minute from one IP address (then 429).
    pub per_ip_per_minute: u32,
    /// Requests per minute with one token (then 429).
    pub per_token_per_minute: u32,
    /// Longest wait for a request's headers (also an idle keep-alive connection's limit).
    pub header_timeout: Duration,
    /// Longest a request may take, body included (then 408).
    pub request_timeout: Duration,
    /// Open connections one remote bot may have at once (`--max-connections`); each plays
    /// one game at a time.
    pub max_connections: usize,
    /// Why this server takes no remote bot (`None`: it does). Remote bots play only in
    /// games this process plays: a league played by workers (`--jobs 0`, PostgreSQL) has
    /// none.
    pub no_remote_bots: Option<String>,
    /// Mark the login cookie `Secure` on every login (`--secure-cookie`: the server is
    /// reached over HTTPS through a TLS terminator). Without it, only a login whose request
    /// says `X-Forwarded-Proto: https` gets one.
    pub secure_cookie: bool,
    /// Seats at the league's tables (its stored rules): an upload declaring another mode
    /// is refused ([`super::upload::check_mode`]).
    pub players: Players,
}

/// The state handlers share (cheap to clone).
#[derive(Clone)]
pub struct AppState {
    /// The league's store.
    pub store: Store,
    /// Limits and options.
    pub settings: Arc<Settings>,
    /// Runs validation games.
    pub validator: Validator,
    /// The read API's figures.
    pub figures: Arc<FiguresCache>,
    /// Counters for `/metrics`.
    pub counters: Arc<Counters>,
    /// Rate limits per IP and per token.
    pub limits: Arc<super::limits::RateLimits>,
    /// Remote bots' connections (`/api/bots/{name}/connect`): who is online, and the
    /// connections games take seats from.
    pub hub: Arc<RemoteHub>,
    /// Open bot connections and the tokens they were opened with (hung up when those stop
    /// being valid).
    pub credentials: Arc<super::jobs::credentials::Credentials>,
    /// Open live streams of running games (`GET /api/games/{id}/live`), bounded.
    pub watchers: Arc<super::watchers::Watchers>,
    /// Every league of the server, the default first ([`super::leagues`]).
    pub leagues: Arc<Vec<super::league_info::LeagueInfo>>,
    /// This state's league: its index in [`AppState::leagues`].
    pub league: usize,
    /// Every league's state, for a request that names another league in its body (an
    /// upload's field `league`); filled once every league is started, emptied at the stop.
    pub peers: Arc<Peers>,
}

/// Every league's state of a server ([`AppState::peers`]).
#[derive(Default)]
pub struct Peers(std::sync::RwLock<Vec<AppState>>);

impl Peers {
    /// Holds `states` (the leagues', the default first).
    pub fn set(&self, states: Vec<AppState>) {
        *self.0.write().unwrap_or_else(|e| e.into_inner()) = states;
    }

    /// Lets go of every state (at the stop: a state holds this list).
    pub fn clear(&self) {
        self.0.write().unwrap_or_else(|e| e.into_inner()).clear();
    }
}

impl AppState {
    /// Sets `entry.online` for a remote bot from the hub (connected now, and the version
    /// is validating or active: a retired or rejected version plays no more); a zip bot's
    /// stays.
    pub fn mark_online(&self, entry: &mut LeaderboardEntry) {
        if entry.kind.is_connected() {
            let live = matches!(entry.status, BotStatus::Active | BotStatus::Validating);
            entry.online = live && self.hub.online(&entry.name) > 0;
        }
    }

    /// The state of the league named `league`: this one's when it is this league, another
    /// league's of the server otherwise. Errors: 404 naming `/api/leagues` when the server
    /// has no such league.
    pub fn for_league(&self, league: &str) -> Result<AppState, super::error::ApiError> {
        if self.leagues.get(self.league).is_some_and(|l| l.name == league) {
            return Ok(self.clone());
        }
        let peers = self.peers.0.read().unwrap_or_else(|e| e.into_inner());
        match peers.iter().find(|p| p.leagues.get(p.league).is_some_and(|l| l.name == league)) {
            Some(state) => Ok(state.clone()),
            None => Err(super::error::ApiError::new(
                axum::http::StatusCode::NOT_FOUND,
                format!("no league named {league:?} here; GET /api/leagues lists this server's leagues"),
            )),
        }
    }

    /// API path `path` (`/api/...`, the default league's) as this league's: the same for the
    /// default league, `/api/leagues/NAME/...` for another ([`super::dispatch`]): what a JSON
    /// answer links to.
    pub fn api_path(&self, path: &str) -> String {
        match (self.league, path.strip_prefix("/api")) {
            (0, _) | (_, None) => path.to_string(),
            (_, Some(rest)) => match self.leagues.get(self.league) {
                Some(league) => format!("{}{rest}", league.api),
                None => path.to_string(),
            },
        }
    }

    /// The league's figures now (cached while nothing changed).
    pub async fn figures(&self) -> Result<Arc<super::leaderboard::Figures>, super::error::ApiError> {
        Ok(self.figures.get(&self.store).await?)
    }
}
