//! The bot routes of the JSON API: `GET /api/leaderboard`, `GET /api/bots/{name}`,
//! `GET /api/bots/{name}/games`, one version's page and games
//! (`GET /api/bots/{name}/v/{version}` and `.../games`): a rejected version, its line and
//! its page, only for its author and admins (anyone else: as if it did not exist, 404), `GET /api/bots/{name}/errors` and
//! `GET /api/bots/{name}/validation` (its author and admins only: others get 404, as if the
//! bot had no errors to show), `DELETE /api/bots/{name}` (retire: its author or an admin).
//! `POST /api/bots` (an upload) is [`super::upload`]'s.

use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::IntoResponse;
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;
use utoipa::ToSchema;

use super::auth::MaybeAuthor;
use super::bot_errors::{self, ValidationView};
use super::error::{ApiError, ErrorBody};
use super::owned::{OwnedBot, Public, Refusal};
use super::params::{BotPath, VersionPath};
use super::state::AppState;
use mjai_sim_tournament::leaderboard::shape::VersionPick;
use mjai_sim_tournament::leaderboard::{BotPage, BotStatus, ChomboLine, GameLine, Leaderboard};
use mjai_sim_tournament::store::VersionRow;

/// The routes of this module (each described in the OpenAPI document, [`super::openapi`]).
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
#[utoipa::path(get, path = "/api/leaderboard",
    summary = "Every bot version the caller may see (rejected and suspended ones: their author and admins only), active ones first by μ − 3σ",
    responses((status = 200, description = "the leaderboard", body = Leaderboard),
        (status = 401, description = "a token came that is not valid (unknown, revoked, malformed)", body = ErrorBody)),
)]
pub async fn leaderboard(State(state): State<AppState>, who: MaybeAuthor) -> Result<Json<Leaderboard>, ApiError> {
    let mut board = state.figures().await?.leaderboard();
    board.bots.retain(|e| who.sees(e.author.as_deref(), e.status));
    board.bots.iter_mut().for_each(|e| state.mark_online(e));
    Ok(Json(board))
}

/// `GET /api/bots/{name}`: the latest version.
#[utoipa::path(get, path = "/api/bots/{name}",
    summary = "A bot's page (its latest version; each version's own: /api/bots/{name}/v/{version})", params(BotPath),
    responses((status = 200, description = "the page", body = BotPage),
        (status = 401, description = "a token came that is not valid", body = ErrorBody),
        (status = 404, description = "no such bot (or none of its versions the caller may see)", body = ErrorBody)),
)]
pub async fn bot(
    State(state): State<AppState>,
    who: MaybeAuthor,
    BotPath(name): BotPath,
) -> Result<Json<BotPage>, ApiError> {
    let page = state.figures().await?.bot_page(name.as_str(), VersionPick::Latest, &shown_to(&who)).await?;
    let mut page = page.ok_or_else(|| ApiError::not_found("such bot"))?;
    state.mark_online(&mut page.entry);
    Ok(Json(page))
}

/// `GET /api/bots/{name}/v/{version}`: that version only.
#[utoipa::path(get, path = "/api/bots/{name}/v/{version}",
    summary = "One version's page: its own figures, opponents and games only", params(VersionPath),
    responses((status = 200, description = "the page", body = BotPage),
        (status = 401, description = "a token came that is not valid", body = ErrorBody),
        (status = 404, description = "no such bot version (or one the caller may not see)", body = ErrorBody)),
)]
pub async fn bot_version(
    State(state): State<AppState>,
    who: MaybeAuthor,
    VersionPath(name, version): VersionPath,
) -> Result<Json<BotPage>, ApiError> {
    let pick = VersionPick::Number(version);
    let page = state.figures().await?.bot_page(name.as_str(), pick, &shown_to(&who)).await?;
    let mut page = page.ok_or_else(|| ApiError::not_found("such bot version"))?;
    state.mark_online(&mut page.entry);
    Ok(Json(page))
}

/// Which versions `who` may see ([`MaybeAuthor::sees`]): another author's rejected ones
/// are as absent as an unknown bot's (404).
pub fn shown_to(who: &MaybeAuthor) -> impl Fn(&VersionRow) -> bool + Sync + '_ {
    move |v: &VersionRow| who.sees(v.author.as_deref(), v.status)
}

/// `GET /api/bots/{name}/games` and `GET /api/bots/{name}/v/{version}/games`.
#[derive(Debug, Serialize, ToSchema)]
pub struct GamesView {
    /// League games, latest first.
    pub games: Vec<GameLine>,
}

/// `GET /api/bots/{name}/games`: `{"games": [...]}` of every version, latest first.
#[utoipa::path(get, path = "/api/bots/{name}/games", summary = "Every league game of the bot's versions, latest first",
    params(BotPath),
    responses((status = 200, description = "games", body = GamesView),
        (status = 404, description = "no such bot", body = ErrorBody)),
)]
pub async fn games(
    State(state): State<AppState>,
    who: MaybeAuthor,
    BotPath(name): BotPath,
) -> Result<Json<GamesView>, ApiError> {
    let games = state.figures().await?.games_of(name.as_str(), None, &shown_to(&who)).await?;
    let games: Vec<GameLine> = games.ok_or_else(|| ApiError::not_found("such bot"))?;
    Ok(Json(GamesView { games }))
}

/// `GET /api/bots/{name}/v/{version}/games`: `{"games": [...]}` of that version, latest
/// first.
#[utoipa::path(get, path = "/api/bots/{name}/v/{version}/games",
    summary = "Every league game of one version, latest first", params(VersionPath),
    responses((status = 200, description = "games", body = GamesView),
        (status = 404, description = "no such bot version", body = ErrorBody)),
)]
pub async fn version_games(
    State(state): State<AppState>,
    who: MaybeAuthor,
    VersionPath(name, version): VersionPath,
) -> Result<Json<GamesView>, ApiError> {
    let games = state.figures().await?.games_of(name.as_str(), Some(version), &shown_to(&who)).await?;
    let games: Vec<GameLine> = games.ok_or_else(|| ApiError::not_found("such bot version"))?;
    Ok(Json(GamesView { games }))
}

/// `GET /api/bots/{name}/errors`: `{"name", "validations": [...], "chombos": [...]}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorsView {
    /// The bot.
    pub name: String,
    /// Each version's validation, latest first.
    pub validations: Vec<ValidationView>,
    /// Chombos in league games, latest first.
    pub chombos: Vec<ChomboLine>,
}

/// `GET /api/bots/{name}/errors`.
#[utoipa::path(get, path = "/api/bots/{name}/errors",
    summary = "Validation verdicts with stderr, and chombos with stderr_tail: its author and admins only",
    params(BotPath), security(("bearer" = []), ("cookie" = [])),
    responses((status = 200, description = "errors", body = ErrorsView),
        (status = 404, description = "no such bot, or not the caller's (also without a token)", body = ErrorBody)),
)]
pub async fn errors(State(state): State<AppState>, bot: OwnedBot) -> Result<Json<ErrorsView>, ApiError> {
    let validations = bot_errors::validations(&state, &bot.versions).await?;
    let chombos = bot_errors::chombos(&state, &bot.versions).await?;
    Ok(Json(ErrorsView { name: bot.name.to_string(), validations, chombos }))
}

/// `GET /api/bots/{name}/validation`: the mjai log of the latest version's validation game
/// (NDJSON); author or admin only (others: 404).
#[utoipa::path(get, path = "/api/bots/{name}/validation",
    summary = "The mjai log of the latest version's validation game: its author and admins only", params(BotPath),
    security(("bearer" = []), ("cookie" = [])),
    responses((status = 200, description = "mjai log, one event per line", body = String, content_type = "application/x-ndjson"),
        (status = 404, description = "no such bot, not the caller's, or no validation game yet", body = ErrorBody)),
)]
pub async fn validation_log(State(state): State<AppState>, bot: OwnedBot) -> Result<impl IntoResponse, ApiError> {
    let log = latest_validation_log(&state, &bot).await?.0;
    Ok(([(header::CONTENT_TYPE, super::games::NDJSON)], log))
}

/// The latest version's validation game: its mjai log and `errors.json`. Errors: 404 before
/// the game ended.
pub async fn latest_validation_log(state: &AppState, bot: &OwnedBot) -> Result<(Vec<u8>, String), ApiError> {
    let latest = bot.latest();
    let files = state.store.versions().validation(&latest.name, latest.version).await?;
    let files = files.filter(|f| !f.log_gz.is_empty()).ok_or_else(|| ApiError::not_found("validation game yet"))?;
    Ok((super::games::gunzip(&files.log_gz)?, files.errors))
}

/// The answer of `DELETE /api/bots/{name}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Retired {
    /// The bot's name.
    pub name: String,
    /// The latest version retired.
    pub version: u32,
    /// Always `retired`.
    pub status: BotStatus,
}

/// `DELETE /api/bots/{name}`: retires the name's live versions (its author or an admin;
/// another author gets 403: the bot itself is public).
#[utoipa::path(delete, path = "/api/bots/{name}", summary = "Retire the bot's active or validating versions (games kept)",
    params(BotPath), security(("bearer" = []), ("cookie" = [])),
    responses((status = 200, description = "retired", body = Retired), (status = 401, description = "no valid token", body = ErrorBody),
        (status = 403, description = "not its author nor an admin", body = ErrorBody), (status = 404, description = "no such bot", body = ErrorBody), (status = 409, description = "nothing left to retire", body = ErrorBody)))]
pub async fn retire(State(state): State<AppState>, bot: OwnedBot<Public>) -> Result<Json<Retired>, ApiError> {
    let version = retire_live(&state, &bot).await?;
    Ok(Json(Retired { name: bot.name.to_string(), version, status: BotStatus::Retired }))
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
    state.store.versions().retire(&live).await?;
    let version = live.iter().map(|v| v.version).max().unwrap_or(0);
    let by = &bot.author.0.name;
    tracing::info!(target: super::AUDIT, event = "retire", bot = %bot.name, version, by = %by, "bot retired");
    Ok(version)
}
