//! A league's seasons, read by anyone (issue 54): `GET /api/seasons` (every season, the
//! latest opened first), `GET /api/seasons/{name}` ([`SeasonView`]: status, freeze time,
//! the final's progress, its games and, once its last game is recorded, its frozen
//! standings) and `GET /api/seasons/{name}/games/{id}/log.jsonl.gz` (a final game's mjai
//! log with the bots' names, gzip). The operator's routes are [`super::season_admin`]'s;
//! the page `/seasons/{name}` is [`super::season_page`]'s; uploads stopped by a freeze:
//! [`upload_freeze`].

use axum::extract::{FromRequestParts, Path, State};
use axum::http::request::Parts;
use axum::http::{header, StatusCode};
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Serialize;
use utoipa::ToSchema;

use super::downloads::with_names;
use super::error::{ApiError, ErrorBody};
use super::games::gunzip;
use super::params::GameId;
use super::season_admin;
use super::state::AppState;
use mjai_sim_tournament::leaderboard::utc::rfc3339;
use mjai_sim_tournament::session::season::{check_name, now_ms};
use mjai_sim_tournament::standings::{BotStanding, Standings};
use mjai_sim_tournament::store::{SeasonRow, SeasonStatus, Store};

/// The routes of this module (each described in the OpenAPI document, [`super::openapi`]).
pub const ROUTES: [&str; 3] = ["/api/seasons", "/api/seasons/{name}", "/api/seasons/{name}/games/{id}/log.jsonl.gz"];

/// This module's routes and [`super::season_admin`]'s (`POST /api/seasons` shares a path
/// with `GET`).
pub fn router() -> Router<AppState> {
    Router::new()
        .route(ROUTES[0], get(list).post(season_admin::open))
        .route(ROUTES[1], get(season))
        .route(ROUTES[2], get(log_gz))
        .route(season_admin::ROUTES[0], post(season_admin::freeze))
        .route(season_admin::ROUTES[1], post(season_admin::ask_final))
}

/// The checked season name of a route's `{name}` (a season's name rules,
/// [`check_name`]); one no season can have is 404, as an unknown one.
#[derive(Debug, Clone)]
pub struct SeasonPath(pub String);

impl<S: Send + Sync> FromRequestParts<S> for SeasonPath {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<SeasonPath, ApiError> {
        let Path(params) = Path::<Vec<(String, String)>>::from_request_parts(parts, state)
            .await
            .map_err(|_| ApiError::not_found("such season"))?;
        let name = params.into_iter().find(|(k, _)| k == "name").map(|(_, v)| v);
        name.filter(|n| check_name(n).is_ok()).map(SeasonPath).ok_or_else(|| ApiError::not_found("such season"))
    }
}

/// A season's final as asked for, and how far it got.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct FinalView {
    /// The leaderboard's top N it took; `null`: every active bot (`all`).
    pub top: Option<u32>,
    /// Duplicate sets each bot plays (at least).
    pub sets: u32,
    /// Its games in all.
    pub games: u64,
    /// Its games played (recorded) so far.
    pub played: u64,
    /// Its bots, by their league names (`NAME`, `NAME#V`), best first as the leaderboard
    /// ranked them when the final was asked for.
    pub bots: Vec<String>,
    /// When it was asked for, UTC, RFC 3339.
    pub asked_at: String,
}

/// A game of a season's final, played.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct FinalGame {
    /// Its id in the final (schedule order).
    pub id: u64,
    /// Its duplicate set.
    pub set: u64,
    /// The bots by seat (league names).
    pub bots: Vec<String>,
    /// Their ranks by seat.
    pub ranks: Vec<u8>,
    /// Their final scores by seat, points.
    pub scores: Vec<i32>,
    /// Its mjai log (gzip): `/api/seasons/{name}/games/{id}/log.jsonl.gz`.
    pub log: String,
}

/// `GET /api/seasons/{name}`: a season.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SeasonView {
    /// Its name.
    pub name: String,
    /// The league it is a season of.
    pub league: String,
    /// `open` (uploads taken), `frozen` (from its freeze time: no upload), `final` (its
    /// final asked for: being played, or played once `final_standings` is set).
    pub status: SeasonStatus,
    /// When it was opened, UTC, RFC 3339.
    pub opened_at: String,
    /// When uploads stop (stopped), UTC, RFC 3339.
    pub freeze_at: String,
    /// Its final; `null` before one is asked for.
    #[serde(rename = "final")]
    pub final_round: Option<FinalView>,
    /// The final's standings, best first (lowest mean rank), frozen when its last game was
    /// recorded and never computed again; `null` until then. Each row as `standings.json`'s
    /// `bots` (docs/output-files.md).
    #[schema(value_type = Option<Vec<Object>>)]
    pub final_standings: Option<Vec<BotStanding>>,
    /// When they were frozen, UTC, RFC 3339.
    pub frozen_at: Option<String>,
    /// The final's games played so far, in schedule order (empty before a final).
    pub games: Vec<FinalGame>,
}

/// `GET /api/seasons`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SeasonList {
    /// Every season of the league, the latest opened first (without their games and
    /// standings: see each one's `GET /api/seasons/{name}`).
    pub seasons: Vec<SeasonView>,
}

/// `GET /api/seasons`.
#[utoipa::path(get, path = "/api/seasons", summary = "The league's seasons, the latest opened first (status, freeze time, final's progress)",
    responses((status = 200, description = "the seasons", body = SeasonList)))]
pub async fn list(State(state): State<AppState>) -> Result<Json<SeasonList>, ApiError> {
    let rows = state.store.seasons().list().await?;
    let mut seasons = Vec::with_capacity(rows.len());
    for row in &rows {
        let mut v = view(&state.store, row).await?;
        (v.games, v.final_standings) = (Vec::new(), None);
        seasons.push(v);
    }
    Ok(Json(SeasonList { seasons }))
}

/// `GET /api/seasons/{name}`.
#[utoipa::path(get, path = "/api/seasons/{name}", params(("name" = String, Path, description = "the season's name")),
    summary = "A season: status, freeze time, its final's progress and games, its frozen standings",
    responses((status = 200, description = "the season", body = SeasonView), (status = 404, description = "no such season", body = ErrorBody)))]
pub async fn season(State(state): State<AppState>, SeasonPath(name): SeasonPath) -> Result<Json<SeasonView>, ApiError> {
    let row = state.store.seasons().get(&name).await?.ok_or_else(|| ApiError::not_found("such season"))?;
    Ok(Json(view(&state.store, &row).await?))
}

/// The view of season `row` of the league `league` (also `mjai-sim serve season show
/// --json`'s). Errors: the store failed; frozen standings that do not parse.
pub async fn view(league: &Store, row: &SeasonRow) -> anyhow::Result<SeasonView> {
    let league_name = league.meta().await?.map(|(tid, _)| tid).unwrap_or_default();
    let (mut final_round, mut games) = (None, Vec::new());
    if let Some(f) = &row.final_round {
        let store = league.scoped(f.t);
        let bots: Vec<String> = store.bots().await?.into_iter().map(|b| b.name).collect();
        let counts = store.games().counts().await?;
        final_round = Some(FinalView {
            top: f.top,
            sets: f.sets,
            games: counts.total(),
            played: counts.done,
            bots: bots.clone(),
            asked_at: rfc3339(f.asked_ms),
        });
        let mut records = store.games().records().await?;
        records.sort_by_key(|r| r.index);
        let name = |b: &usize| bots.get(*b).cloned().unwrap_or_else(|| format!("bot {b}"));
        games = records
            .into_iter()
            .map(|r| FinalGame {
                id: r.index,
                set: r.set,
                bots: r.seats.iter().map(name).collect(),
                ranks: r.ranks,
                scores: r.scores,
                log: format!("/api/seasons/{}/games/{}/log.jsonl.gz", row.name, r.index),
            })
            .collect();
    }
    let standings = match &row.final_standings {
        Some(json) => Some(
            serde_json::from_str::<Standings>(json)
                .map_err(|e| anyhow::anyhow!("season {}: frozen standings: {e}", row.name))?,
        ),
        None => None,
    };
    Ok(SeasonView {
        name: row.name.clone(),
        league: league_name,
        status: row.status(now_ms()),
        opened_at: rfc3339(row.opened_ms),
        freeze_at: rfc3339(row.freeze_ms),
        final_round,
        final_standings: standings.map(|s| s.ranked().into_iter().cloned().collect()),
        frozen_at: row.frozen_ms.map(rfc3339),
        games,
    })
}

/// `GET /api/seasons/{name}/games/{id}/log.jsonl.gz`.
#[utoipa::path(get, path = "/api/seasons/{name}/games/{id}/log.jsonl.gz",
    params(("name" = String, Path, description = "the season's name"), GameId),
    summary = "A game of a season's final: its mjai log with the bots' names in start_game, gzip-compressed (a download)",
    responses((status = 200, description = "the mjai log, one event per line, gzip", body = Vec<u8>, content_type = "application/gzip"),
        (status = 404, description = "no such season, final or game (or not played yet)", body = ErrorBody)))]
pub async fn log_gz(
    State(state): State<AppState>,
    SeasonPath(name): SeasonPath,
    GameId(id): GameId,
) -> Result<impl IntoResponse, ApiError> {
    let row = state.store.seasons().get(&name).await?.ok_or_else(|| ApiError::not_found("such season"))?;
    let f = row.final_round.ok_or_else(|| ApiError::not_found("final of this season yet"))?;
    let store = state.store.scoped(f.t);
    let files = store.blobs().game_files(id).await?.ok_or_else(|| ApiError::not_found("such game of this final"))?;
    let bots: Vec<String> = store.bots().await?.into_iter().map(|b| b.name).collect();
    let seats = store.games().seats(id).await?.unwrap_or_default();
    let names: Vec<String> =
        seats.iter().map(|&b| bots.get(b).cloned().unwrap_or_else(|| format!("bot {b}"))).collect();
    let log = gunzip(&files.log_gz)?;
    let log = if names.is_empty() { log } else { with_names(&log, &names) };
    let bytes = mjai_sim_tournament::store::gzip(&log).map_err(|e| anyhow::anyhow!("cannot compress a log: {e}"))?;
    let file = format!("attachment; filename=\"season-game-{id}.jsonl.gz\"");
    Ok(([(header::CONTENT_TYPE, "application/gzip".to_string()), (header::CONTENT_DISPOSITION, file)], bytes))
}

/// Refuses an upload while a season's freeze stops them ([`Seasons::upload_freeze`]:
/// the season opened last, from its freeze time on): 409 naming the season and its freeze
/// time (RFC 3339). Errors: that 409; the store failed.
///
/// [`Seasons::upload_freeze`]: mjai_sim_tournament::store::Seasons::upload_freeze
pub async fn upload_freeze(store: &Store) -> Result<(), ApiError> {
    match store.seasons().upload_freeze(now_ms()).await? {
        None => Ok(()),
        Some(s) => Err(ApiError::new(
            StatusCode::CONFLICT,
            format!(
                "uploads are frozen since {} (season {}): no new bot or version until the operator opens the next season",
                rfc3339(s.freeze_ms),
                s.name
            ),
        )),
    }
}
