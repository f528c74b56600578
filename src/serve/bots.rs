//! The bot routes of the JSON API: `GET /api/leaderboard`, `GET /api/bots/{name}`,
//! `GET /api/bots/{name}/games`, one version's page and games
//! (`GET /api/bots/{name}/v/{version}` and `.../games`), `GET /api/bots/{name}/errors` and
//! `GET /api/bots/{name}/validation` (its author and admins only: others get 404, as if the
//! bot had no errors to show), `DELETE /api/bots/{name}` (retire: its author or an admin).
//! `POST /api/bots` (an upload) is [`super::upload`]'s.

use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::IntoResponse;
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;

use super::bot_errors::{self, ValidationView};
use super::error::ApiError;
use super::owned::{OwnedBot, Public, Refusal};
use super::params::{BotPath, VersionPath};
use super::state::AppState;
use crate::tournament::board::VersionPick;
use crate::tournament::leaderboard::{BotPage, BotStatus, ChomboLine, GameLine, Leaderboard};
use crate::tournament::store::VersionRow;

/// The routes of this module (docs/openapi.json describes each).
pub const ROUTES: [&str; 7] = [
    "/api/leaderboard",
    "/api/bots/{name}",
    "/api/bots/{name}/games",
    "/api/bots/{name}/errors",
    "/api/bots/{name}/validation",
    "/api/bots/{name}/v/{version}",
    "/api/bots/{name}/v/{version}/games",
];

/// This module's routes.
pub fn router() -> Router<AppState> {
    Router::new()
        .route(ROUTES[0], get(leaderboard))
        .route(ROUTES[1], get(bot).delete(retire))
        .route(ROUTES[2], get(games))
        .route(ROUTES[3], get(errors))
        .route(ROUTES[4], get(validation_log))
        .route(ROUTES[5], get(bot_version))
        .route(ROUTES[6], get(version_games))
}

/// `GET /api/leaderboard`.
pub async fn leaderboard(State(state): State<AppState>) -> Result<Json<Leaderboard>, ApiError> {
    let mut board = state.figures().await?.leaderboard();
    board.bots.iter_mut().for_each(|e| state.mark_online(e));
    Ok(Json(board))
}

/// `GET /api/bots/{name}`: the latest version.
pub async fn bot(State(state): State<AppState>, BotPath(name): BotPath) -> Result<Json<BotPage>, ApiError> {
    let page = state.figures().await?.bot_page(name.as_str(), VersionPick::Latest).await?;
    let mut page = page.ok_or_else(|| ApiError::not_found("such bot"))?;
    state.mark_online(&mut page.entry);
    Ok(Json(page))
}

/// `GET /api/bots/{name}/v/{version}`: that version only.
pub async fn bot_version(
    State(state): State<AppState>,
    VersionPath(name, version): VersionPath,
) -> Result<Json<BotPage>, ApiError> {
    let page = state.figures().await?.bot_page(name.as_str(), VersionPick::Number(version)).await?;
    let mut page = page.ok_or_else(|| ApiError::not_found("such bot version"))?;
    state.mark_online(&mut page.entry);
    Ok(Json(page))
}

/// `GET /api/bots/{name}/games`: `{"games": [...]}` of every version, latest first.
pub async fn games(State(state): State<AppState>, BotPath(name): BotPath) -> Result<Json<serde_json::Value>, ApiError> {
    let games: Vec<GameLine> =
        state.figures().await?.games_of(name.as_str(), None).await?.ok_or_else(|| ApiError::not_found("such bot"))?;
    Ok(Json(serde_json::json!({ "games": games })))
}

/// `GET /api/bots/{name}/v/{version}/games`: `{"games": [...]}` of that version, latest
/// first.
pub async fn version_games(
    State(state): State<AppState>,
    VersionPath(name, version): VersionPath,
) -> Result<Json<serde_json::Value>, ApiError> {
    let games = state.figures().await?.games_of(name.as_str(), Some(version)).await?;
    let games: Vec<GameLine> = games.ok_or_else(|| ApiError::not_found("such bot version"))?;
    Ok(Json(serde_json::json!({ "games": games })))
}

/// `GET /api/bots/{name}/errors`: `{"name", "validations": [...], "chombos": [...]}`.
#[derive(Debug, Serialize)]
pub struct ErrorsView {
    /// The bot.
    pub name: String,
    /// Each version's validation, latest first.
    pub validations: Vec<ValidationView>,
    /// Chombos in league games, latest first.
    pub chombos: Vec<ChomboLine>,
}

/// `GET /api/bots/{name}/errors`.
pub async fn errors(State(state): State<AppState>, bot: OwnedBot) -> Result<Json<ErrorsView>, ApiError> {
    let validations = bot_errors::validations(&state, &bot.versions).await?;
    let chombos = bot_errors::chombos(&state, &bot.versions).await?;
    Ok(Json(ErrorsView { name: bot.name.to_string(), validations, chombos }))
}

/// `GET /api/bots/{name}/validation`: the mjai log of the latest version's validation game
/// (NDJSON); author or admin only (others: 404).
pub async fn validation_log(State(state): State<AppState>, bot: OwnedBot) -> Result<impl IntoResponse, ApiError> {
    let log = latest_validation_log(&state, &bot).await?.0;
    Ok(([(header::CONTENT_TYPE, super::games::NDJSON)], log))
}

/// The latest version's validation game: its mjai log and `errors.json`. Errors: 404 before
/// the game ended.
pub async fn latest_validation_log(state: &AppState, bot: &OwnedBot) -> Result<(Vec<u8>, String), ApiError> {
    let latest = bot.latest();
    let files = state.store.validation(&latest.name, latest.version).await?;
    let files = files.filter(|f| !f.log_gz.is_empty()).ok_or_else(|| ApiError::not_found("validation game yet"))?;
    Ok((super::games::gunzip(&files.log_gz)?, files.errors))
}

/// `DELETE /api/bots/{name}`: retires the name's live versions (its author or an admin;
/// another author gets 403: the bot itself is public).
pub async fn retire(State(state): State<AppState>, bot: OwnedBot<Public>) -> Result<Json<serde_json::Value>, ApiError> {
    let version = retire_live(&state, &bot).await?;
    Ok(Json(serde_json::json!({ "name": bot.name.as_str(), "version": version, "status": BotStatus::Retired })))
}

/// Retires `bot`'s active and validating versions (one transaction) and says so in the
/// audit log; returns the latest version retired. Errors: 409 when none is live. Shared by
/// the API and the page's button.
pub async fn retire_live<R: Refusal>(state: &AppState, bot: &OwnedBot<R>) -> Result<u32, ApiError> {
    let live: Vec<&VersionRow> =
        bot.versions.iter().filter(|v| matches!(v.status, BotStatus::Active | BotStatus::Validating)).collect();
    if live.is_empty() {
        return Err(ApiError::new(StatusCode::CONFLICT, format!("{} has no active or validating version", bot.name)));
    }
    state.store.retire_versions(&live).await?;
    let version = live.iter().map(|v| v.version).max().unwrap_or(0);
    let by = &bot.author.0.name;
    tracing::info!(target: super::AUDIT, event = "retire", bot = %bot.name, version, by = %by, "bot retired");
    Ok(version)
}
