//! The bot routes: `GET /api/leaderboard`, `GET /api/bots/{name}`,
//! `GET /api/bots/{name}/games`, `GET /api/bots/{name}/errors` and
//! `GET /api/bots/{name}/validation` (its author and admins only: others get 404, as if the
//! bot had no errors to show), `DELETE /api/bots/{name}` (retire: its author or an admin).

use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::IntoResponse;
use axum::Json;
use serde::Serialize;

use super::auth::{Author, MaybeAuthor};
use super::error::ApiError;
use super::errors::{self, ValidationView};
use super::state::AppState;
use crate::tournament::leaderboard::{BotPage, BotStatus, ChomboLine, GameLine, Leaderboard};
use crate::tournament::store::VersionRow;

/// `GET /api/leaderboard`.
pub async fn leaderboard(State(state): State<AppState>) -> Result<Json<Leaderboard>, ApiError> {
    Ok(Json(state.figures().await?.leaderboard()))
}

/// `GET /api/bots/{name}`.
pub async fn bot(State(state): State<AppState>, Path(name): Path<String>) -> Result<Json<BotPage>, ApiError> {
    state.figures().await?.bot_page(&name).await?.map(Json).ok_or_else(|| ApiError::not_found("such bot"))
}

/// `GET /api/bots/{name}/games`: `{"games": [...]}`, latest first.
pub async fn games(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let games: Vec<GameLine> =
        state.figures().await?.games_of(&name).await?.ok_or_else(|| ApiError::not_found("such bot"))?;
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

/// The versions of `name` when `who` may see its private parts (author or admin); 404
/// otherwise, so that others cannot even tell whether it has errors.
pub async fn own_versions(state: &AppState, who: &Author, name: &str) -> Result<Vec<VersionRow>, ApiError> {
    let versions = state.store.versions_of(name).await?;
    match versions.first() {
        Some(v) if who.may_touch(v.author.as_deref()) => Ok(versions),
        _ => Err(ApiError::not_found("such bot of yours")),
    }
}

/// `GET /api/bots/{name}/errors`.
pub async fn errors(
    State(state): State<AppState>,
    MaybeAuthor(who): MaybeAuthor,
    Path(name): Path<String>,
) -> Result<Json<ErrorsView>, ApiError> {
    let who = who.map(Author).ok_or_else(|| ApiError::not_found("such bot of yours"))?;
    let versions = own_versions(&state, &who, &name).await?;
    let validations = errors::validations(&state, &versions).await?;
    let chombos = errors::chombos(&state, &versions).await?;
    Ok(Json(ErrorsView { name, validations, chombos }))
}

/// `GET /api/bots/{name}/validation`: the mjai log of the latest version's validation game
/// (NDJSON); author or admin only (others: 404).
pub async fn validation_log(
    State(state): State<AppState>,
    MaybeAuthor(who): MaybeAuthor,
    Path(name): Path<String>,
) -> Result<impl IntoResponse, ApiError> {
    let who = who.map(Author).ok_or_else(|| ApiError::not_found("such bot of yours"))?;
    let versions = own_versions(&state, &who, &name).await?;
    let latest = versions.last().ok_or_else(|| ApiError::not_found("such bot of yours"))?;
    let files = state.store.validation(&latest.name, latest.version).await?;
    let files = files.filter(|f| !f.log_gz.is_empty()).ok_or_else(|| ApiError::not_found("validation game yet"))?;
    let log = super::games::gunzip(&files.log_gz)?;
    Ok(([(header::CONTENT_TYPE, super::games::NDJSON)], log))
}

/// `DELETE /api/bots/{name}`: retires the name's live versions (its author or an admin;
/// another author gets 403: the bot itself is public).
pub async fn retire(
    State(state): State<AppState>,
    who: Author,
    Path(name): Path<String>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let versions = state.store.versions_of(&name).await?;
    let Some(first) = versions.first() else { return Err(ApiError::not_found("such bot")) };
    if !who.may_touch(first.author.as_deref()) {
        return Err(ApiError::new(StatusCode::FORBIDDEN, format!("{name} is not yours to retire")));
    }
    let live: Vec<&VersionRow> =
        versions.iter().filter(|v| matches!(v.status, BotStatus::Active | BotStatus::Validating)).collect();
    if live.is_empty() {
        return Err(ApiError::new(StatusCode::CONFLICT, format!("{name} has no active or validating version")));
    }
    state.store.retire_versions(&live).await?;
    let version = live.iter().map(|v| v.version).max().unwrap_or(0);
    Ok(Json(serde_json::json!({ "name": name, "version": version, "status": BotStatus::Retired })))
}
