//! Watching a running league game one hand behind: `GET /api/games/{id}/live`, a stream of
//! server-sent events (`text/event-stream`) of the game's finished hands, read from the
//! store as whoever plays the game (this server or a worker on another host) publishes
//! them at each `end_kyoku` ([`mjai_sim_tournament::store::Live`]). Nothing of a hand in
//! play is ever sent: no seat's concealed tiles before its hand ends, the masking of the
//! finished viewer (which shows every tile of a finished hand). Public, as the game's page is.
//!
//! Events (each one line of JSON in `data`):
//! - `hand`: `{"hand": H, "events": [...]}`, hand `H` (from 0; the first hand's events
//!   start with `start_game`) with its SSE `id` `H`; every hand from `?from=H` (default 0)
//!   on, in order, then each new one as it ends (polled every [`POLL`]).
//! - `restart`: `{"from": 0}`, the game went back to the queue (its player stopped or its
//!   lease expired) and will be played again from its first hand, which the stream then
//!   sends again.
//! - `end`: `{"state": "finished" | "failed"}`, the game is over; a finished game's hands
//!   not sent yet come first, from its stored log (so a stream from `from` sends every
//!   later hand once, whenever it was opened); the stream closes.
//!
//! Limits: [`super::watchers::MAX_WATCHERS`] streams at once on the server and [`super::watchers::MAX_PER_IP`] from one
//! address (then 503); a stream lasts at most [`LONGEST`] and ends when the server stops.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use axum::extract::{ConnectInfo, Query, State};
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::routing::get;
use axum::Router;
use futures_util::stream::{self, Stream, StreamExt};

use super::error::{ApiError, ErrorBody};
use super::params::GameId;
use super::state::AppState;
use super::watchers::Admission;
use mjai_sim_arena::cancel::CancelToken;
use mjai_sim_tournament::hand_publisher::hands_of_log;
use mjai_sim_tournament::store::{GameState, Store};

/// The routes of this module (described in the OpenAPI document, [`super::openapi`]).
pub const ROUTES: [&str; 1] = ["/api/games/{id}/live"];

/// How often a stream looks for a new hand: 1 s.
pub const POLL: Duration = Duration::from_secs(1);
/// Longest life of one stream (a game runs far shorter; a client reconnects with `from`).
pub const LONGEST: Duration = Duration::from_secs(6 * 3600);
/// Interval of the keep-alive comments: they also tell the server soon that a watcher has
/// gone (a write to a closed connection fails), which frees its place.
pub const KEEP_ALIVE: Duration = Duration::from_secs(5);
/// Hands read from the store at once.
const PAGE: u32 = 64;

/// This module's routes.
pub fn router() -> Router<AppState> {
    Router::new().route(ROUTES[0], get(live))
}

/// The query of `GET /api/games/{id}/live`.
#[derive(Debug, serde::Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct LiveParams {
    /// The first hand to send (0-based; default 0: every hand so far).
    from: Option<u32>,
}

/// `GET /api/games/{id}/live`.
#[utoipa::path(get, tag = "live", path = "/api/games/{id}/live",
    summary = "A running game's finished hands as server-sent events, one hand behind (then `end`)",
    params(GameId, LiveParams),
    responses((status = 200, description = "`text/event-stream`: `hand`, `restart` and `end` events (docs/server.md)", body = String, content_type = "text/event-stream"),
        (status = 400, description = "a parameter that is not one", body = ErrorBody),
        (status = 404, description = "no such game", body = ErrorBody),
        (status = 503, description = "too many streams open (on the server, or from this address)", body = ErrorBody)),
)]
pub async fn live(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    GameId(id): GameId,
    query: Result<Query<LiveParams>, axum::extract::rejection::QueryRejection>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let Query(params) = query.map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, e.body_text()))?;
    state.store.live().state(id).await?.ok_or_else(|| ApiError::not_found("such game"))?;
    let admission = state.watchers.admit(peer.ip()).ok_or_else(|| {
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "too many live streams open now; close one or try again later")
    })?;
    let follow = Follow {
        store: state.store.clone(),
        id,
        next: params.from.unwrap_or(0),
        was_running: false,
        first: true,
        over: false,
        until: Instant::now() + LONGEST,
        stop: state.watchers.stop(),
        _admission: admission,
    };
    let events = stream::unfold(follow, |mut f| async move { f.step().await.map(|batch| (batch, f)) })
        .flat_map(|batch| stream::iter(batch.into_iter().map(Ok)));
    Ok(Sse::new(events).keep_alive(KeepAlive::new().interval(KEEP_ALIVE)))
}

/// One stream's place in its game.
struct Follow {
    store: Store,
    id: u64,
    /// The next hand to send.
    next: u32,
    was_running: bool,
    first: bool,
    over: bool,
    until: Instant,
    stop: CancelToken,
    _admission: Admission,
}

impl Follow {
    /// The next events to send (waiting [`POLL`] between looks); `None`: the stream ends.
    async fn step(&mut self) -> Option<Vec<Event>> {
        loop {
            if self.over || self.stop.is_cancelled() || Instant::now() >= self.until {
                return None;
            }
            if !self.first {
                tokio::select! {
                    _ = tokio::time::sleep(POLL) => {}
                    _ = self.stop.cancelled() => return None,
                }
            }
            self.first = false;
            match self.look().await {
                Ok(events) if events.is_empty() => continue,
                Ok(events) => return Some(events),
                Err(e) => {
                    tracing::warn!("live stream of game {}: {e}", self.id);
                    return None;
                }
            }
        }
    }

    /// New hands, or what became of the game.
    async fn look(&mut self) -> Result<Vec<Event>, mjai_sim_tournament::store::StoreError> {
        // the state first: a hand published after it is read is sent at the next look
        let state = self.store.live().state(self.id).await?;
        let hands = self.store.live().hands(self.id, self.next, PAGE).await?;
        let mut out = Vec::new();
        for (hand, events) in hands {
            out.push(hand_event(hand, &events));
            self.next = hand + 1;
        }
        match state {
            Some(GameState::Running) => self.was_running = true,
            Some(GameState::Pending) if self.was_running => {
                self.was_running = false;
                self.next = 0;
                out.push(Event::default().event("restart").data("{\"from\":0}"));
            }
            Some(GameState::Pending) => {}
            Some(GameState::Done) | None if out.is_empty() => {
                // the hands its player had not published yet, or a watcher had not read
                // before they went with the record: from the finished log
                out.extend(self.rest_of_finished().await?);
                self.over = true;
                out.push(Event::default().event("end").data("{\"state\":\"finished\"}"));
            }
            Some(GameState::Failed) if out.is_empty() => {
                self.over = true;
                out.push(Event::default().event("end").data("{\"state\":\"failed\"}"));
            }
            _ => {}
        }
        Ok(out)
    }
}

impl Follow {
    /// The hands from `next` on of the finished game's stored log (none when it has none).
    async fn rest_of_finished(&mut self) -> Result<Vec<Event>, mjai_sim_tournament::store::StoreError> {
        let Some(files) = self.store.blobs().game_files(self.id).await? else { return Ok(Vec::new()) };
        let log = match files.log() {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) => {
                tracing::warn!("game {}: the stored log cannot be read: {e}", self.id);
                return Ok(Vec::new());
            }
        };
        let rest = hands_of_log(&log).into_iter().filter(|(hand, _)| *hand >= self.next);
        Ok(rest.map(|(hand, events)| hand_event(hand, &events)).collect())
    }
}

/// The `hand` event of hand `hand` (its `events`: a JSON array).
fn hand_event(hand: u32, events: &str) -> Event {
    Event::default()
        .event("hand")
        .id(hand.to_string())
        .data(format!("{{\"hand\":{hand},\"events\":{}}}", events.trim()))
}

/// The mjai log of game `id` so far: every finished hand's events, one per line (the first
/// line `start_game`), and the number of hands. Errors: the database's; a stored hand
/// that is not a JSON array of events is skipped (logged).
pub async fn log_so_far(store: &Store, id: u64) -> Result<(String, u32), ApiError> {
    let mut log = String::new();
    let mut hands = 0u32;
    loop {
        let page = store.live().hands(id, hands, PAGE).await?;
        for (hand, events) in &page {
            if *hand != hands {
                // a gap: an attempt starting over is being written; show what is whole
                return Ok((log, hands));
            }
            match serde_json::from_str::<Vec<serde_json::Value>>(events) {
                Ok(list) => list.iter().for_each(|e| {
                    log.push_str(&e.to_string());
                    log.push('\n');
                }),
                Err(e) => tracing::warn!("game {id}: stored hand {hand} is not a JSON array: {e}"),
            }
            hands += 1;
        }
        if page.len() < PAGE as usize {
            break; // the last page: no query more
        }
    }
    Ok((log, hands))
}
