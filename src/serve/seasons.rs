//! A league's seasons, read by anyone (issue 54): `GET /api/seasons` (every season, the
//! latest opened first), `GET /api/seasons/{name}` ([`SeasonView`]: status, freeze time,
//! the final's progress, its games and, once its last game is recorded, its frozen
//! standings) and `GET /api/seasons/{name}/games/{id}/log.jsonl.gz` (a final game's mjai
//! log with the bots' names, gzip). The operator's routes are [`super::season_admin`]'s;
//! the page `/seasons/{name}` is [`super::season_page`]'s; uploads stopped by a freeze:
//! [`super::freeze`].

use axum::extract::State;
use axum::http::header;
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
use super::season_view::{view, SeasonPath, SeasonView};
use super::state::AppState;

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
    Ok(Json(view(&state.store, &row).await?.linked_for(&state)))
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
