//! `GET /api/games/{id}`: a league game, running or finished, as JSON ([`GameSummary`]:
//! seats, times, scores and ranks once finished, the engine that played it, and `void`
//! when the operator voided it); with `Accept: application/x-ndjson`, its mjai log as it
//! was written (`mjai_log.json`, one event per line), 409 while it runs. 404 for an id
//! the league has not started.

use std::io::Read;

use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};

use super::error::{ApiError, ErrorBody};
use super::params::GameId;
use super::state::AppState;
use mjai_sim_tournament::leaderboard::game_list::{GameStatus, GameSummary};

/// The routes of this module (each described in the OpenAPI document, [`super::openapi`]).
pub const ROUTES: [&str; 1] = ["/api/games/{id}"];

/// This module's routes.
pub fn router() -> Router<AppState> {
    Router::new().route(ROUTES[0], get(game))
}

/// Content type of an mjai log.
pub const NDJSON: &str = "application/x-ndjson; charset=utf-8";

/// `GET /api/games/{id}`.
#[utoipa::path(get, path = "/api/games/{id}", summary = "A league game: its seats, times, results, engine and void mark; or its mjai log", params(GameId),
    description = "JSON by default. With `Accept: application/x-ndjson` the game's mjai log as it was written, one event per line (its `start_game.meta.engine` names the engine).",
    responses((status = 200, description = "the game (JSON), or its mjai log with Accept: application/x-ndjson", body = GameSummary),
        (status = 404, description = "no such game (or not started yet)", body = ErrorBody),
        (status = 409, description = "the log was asked for while the game runs (watch it at /api/games/{id}/live)", body = ErrorBody)),
)]
pub async fn game(State(state): State<AppState>, GameId(id): GameId, headers: HeaderMap) -> Result<Response, ApiError> {
    let summary = state.store.game_list().one(id).await?.ok_or_else(|| ApiError::not_found("such game"))?;
    if !wants_log(&headers) {
        return Ok(Json(summary).into_response());
    }
    if summary.status == GameStatus::Running {
        return Err(running(id));
    }
    let files =
        state.store.blobs().game_files(id).await?.ok_or_else(|| ApiError::not_found("stored log of this game"))?;
    let log = gunzip(&files.log_gz)?;
    Ok(([(header::CONTENT_TYPE, NDJSON)], log).into_response())
}

/// Whether the request asks for the log: an `Accept` naming `application/x-ndjson`.
fn wants_log(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|t| t.split(';').next().is_some_and(|m| m.trim().eq_ignore_ascii_case("application/x-ndjson")))
}

/// 409 for a file of game `id` asked for while it runs.
pub fn running(id: u64) -> ApiError {
    ApiError::new(
        StatusCode::CONFLICT,
        format!("game {id} is still running: its files are stored when it ends; watch it live at /api/games/{id}/live"),
    )
}

/// Inflates a stored log. Errors: damaged bytes (500, logged).
pub fn gunzip(bytes: &[u8]) -> Result<Vec<u8>, ApiError> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_end(&mut out)
        .map_err(|e| anyhow::anyhow!("a stored log is damaged: {e}"))?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::wants_log;
    use axum::http::{header, HeaderMap, HeaderValue};

    #[test]
    fn only_an_accept_naming_ndjson_asks_for_the_log() {
        let with = |v: &'static str| {
            let mut h = HeaderMap::new();
            h.insert(header::ACCEPT, HeaderValue::from_static(v));
            h
        };
        assert!(!wants_log(&HeaderMap::new()));
        assert!(!wants_log(&with("*/*")));
        assert!(!wants_log(&with("application/json")));
        assert!(wants_log(&with("application/x-ndjson")));
        assert!(wants_log(&with("text/html, Application/X-NDJSON;q=0.9")));
        assert!(!wants_log(&with("application/x-ndjsonx")));
    }
}
