//! `GET /api/games/{id}`: a league game's mjai log as it was written (`mjai_log.json`, one
//! event per line: `application/x-ndjson`); 404 when the game has no stored log.

use std::io::Read;

use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;

use super::error::{ApiError, ErrorBody};
use super::params::GameId;
use super::state::AppState;

/// The routes of this module (each described in the OpenAPI document, [`super::openapi`]).
pub const ROUTES: [&str; 1] = ["/api/games/{id}"];

/// This module's routes.
pub fn router() -> Router<AppState> {
    Router::new().route(ROUTES[0], get(game))
}

/// Content type of an mjai log.
pub const NDJSON: &str = "application/x-ndjson; charset=utf-8";

/// `GET /api/games/{id}`.
#[utoipa::path(get, path = "/api/games/{id}", summary = "A league game's mjai log", params(GameId),
    responses((status = 200, description = "mjai log, one event per line", body = String, content_type = "application/x-ndjson"),
        (status = 404, description = "no such game", body = ErrorBody)),
)]
pub async fn game(State(state): State<AppState>, GameId(id): GameId) -> Result<impl IntoResponse, ApiError> {
    let files = state.store.blobs().game_files(id).await?.ok_or_else(|| ApiError::not_found("such game"))?;
    let log = gunzip(&files.log_gz)?;
    Ok(([(header::CONTENT_TYPE, NDJSON)], log))
}

/// Inflates a stored log. Errors: damaged bytes (500, logged).
pub fn gunzip(bytes: &[u8]) -> Result<Vec<u8>, ApiError> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_end(&mut out)
        .map_err(|e| anyhow::anyhow!("a stored log is damaged: {e}"))?;
    Ok(out)
}
