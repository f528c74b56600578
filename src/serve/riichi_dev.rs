//! riichi.dev's dialect on the grading server (issue 37): `GET /ws/validate` and
//! `GET /ws/ranked`, upgraded to WebSockets, for bots registered with `kind=riichilab`
//! (`POST /api/bots`, which answers their bot token once). The bot token, in
//! `Authorization: Bearer TOKEN`, names the bot ([`BotTokenHolder`]; none or an unknown
//! one: the upgrade is closed at once with 1008, as riichi.dev's server does).
//!
//! - `/ws/validate`: the latest version must be a riichilab one that is validating (409
//!   otherwise, saying what to do); the connection plays the version's validation game
//!   (seat 0 against `--validation-opponent`), hears `validation_result`, and is closed.
//! - `/ws/ranked`: the latest version must be active; the connection waits in the hub and
//!   plays one league game (the league seats the bot only while it is connected); the
//!   server closes after `end_game`, and connecting again queues for the next.
//! - A bot has one connection at a time: a second is closed with 1013 and riichi.dev's
//!   words ("This bot is already connected to a game").
//!
//! The messages after the upgrade: docs/protocol.md, "riichi.dev's dialect".

use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{FromRequestParts, State};
use axum::http::request::Parts;
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Serialize;
use utoipa::ToSchema;

use super::error::{ApiError, ErrorBody};
use super::jobs::credentials::{is_revoked, Credential};
use super::owned::{OwnedBot, Public};
use super::params::BotPath;
use super::state::AppState;
use super::token::{looks_like_token, new_token, token_hash};
use mjai_sim_runtime::remote::limited;
use mjai_sim_runtime::remote::token::bearer;
use mjai_sim_runtime::riichi_dev::{
    refuse, ALREADY_CONNECTED, ALREADY_CONNECTED_CLOSE, BAD_TOKEN_CLOSE, RANKED_PATH, VALIDATE_PATH,
};
use mjai_sim_tournament::leaderboard::BotStatus;
use mjai_sim_tournament::store::{BotKind, VersionRow};

/// The routes of this module (each described in the OpenAPI document, [`super::openapi`]).
pub const ROUTES: [&str; 3] = [VALIDATE_PATH, RANKED_PATH, "/api/bots/{name}/token"];

/// This module's routes.
pub fn router() -> Router<AppState> {
    Router::new().route(ROUTES[0], get(validate)).route(ROUTES[1], get(ranked)).route(ROUTES[2], post(rotate))
}

/// A new bot token.
#[derive(Debug, Serialize, ToSchema)]
pub struct NewBotToken {
    /// The bot's name.
    pub name: String,
    /// The new token (64 hex digits), shown this once; the old one no longer works.
    pub token: String,
}

/// Handles `POST /api/bots/{name}/token`: a new bot token for a riichilab bot (its author
/// or an admin: [`OwnedBot<Public>`]); the old token stops working at once, and a
/// connection it opened is hung up ([`super::jobs::credentials`]).
#[utoipa::path(post, tag = "riichilab", path = "/api/bots/{name}/token", params(BotPath), security(("bearer" = []), ("cookie" = [])),
    summary = "A new bot token for a riichi.dev-dialect bot (the old one stops working)",
    responses((status = 200, description = "the new token, shown once", body = NewBotToken),
        (status = 401, description = "no valid token", body = ErrorBody), (status = 403, description = "not its author nor an admin", body = ErrorBody),
        (status = 404, description = "no such bot", body = ErrorBody), (status = 409, description = "the bot's latest version is not a riichilab one", body = ErrorBody),
        (status = 429, description = "a rate limit", body = ErrorBody)))]
pub async fn rotate(State(state): State<AppState>, bot: OwnedBot<Public>) -> Result<Json<NewBotToken>, ApiError> {
    let latest = bot.latest();
    if latest.kind != BotKind::RiichiDev {
        return Err(ApiError::new(StatusCode::CONFLICT, not_riichi_dev(&latest.name, latest.version, latest.kind)));
    }
    let token = new_token().map_err(|e| anyhow::anyhow!("cannot make a bot token: {e}"))?;
    state.store.bot_tokens().set(bot.name.as_str(), &token_hash(&token)).await?;
    state.credentials.recheck(); // the old token's connection is hung up
    tracing::info!(target: super::AUDIT, event = "bot_token", bot = %bot.name, author = %bot.author.0.name, "bot token replaced");
    Ok(Json(NewBotToken { name: bot.name.to_string(), token }))
}

/// The bot a valid bot token names, with its latest version. No token, a malformed or an
/// unknown one: 401.
#[derive(Debug, Clone)]
pub struct BotTokenHolder {
    /// The bot's latest version.
    pub latest: VersionRow,
    /// The token's sha256 (hex): the connection lives while it stays the bot's.
    pub token_sha256: String,
}

impl FromRequestParts<AppState> for BotTokenHolder {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let unauthorized =
            || ApiError::new(StatusCode::UNAUTHORIZED, "send the bot's token as `Authorization: Bearer TOKEN`");
        let token = bearer(&parts.headers).filter(|t| looks_like_token(t)).ok_or_else(unauthorized)?;
        let token_sha256 = token_hash(token);
        let name = state.store.bot_tokens().bot_of(&token_sha256).await?.ok_or_else(unauthorized)?;
        let latest = state.store.versions().of(&name).await?.into_iter().max_by_key(|v| v.version);
        let latest = latest.ok_or_else(unauthorized)?;
        // a revoked author's bots connect no more
        if let Some(author) = &latest.author {
            if is_revoked(&state.store.authors().current_tokens().await?, author) {
                return Err(ApiError::new(StatusCode::UNAUTHORIZED, "this bot's author was revoked; ask the operator"));
            }
        }
        Ok(BotTokenHolder { latest, token_sha256 })
    }
}

/// Handles `GET /ws/validate`.
#[utoipa::path(get, tag = "riichilab", path = "/ws/validate", security(("bearer" = [])),
    summary = "riichi.dev's dialect: a bot's validation game (issue 37)",
    description = "The bot token (from POST /api/bots with kind=riichilab) in the Authorization header. One game in seat 0 against the validation opponent, then `validation_result`, then the server closes. Messages: docs/protocol.md, \"riichi.dev's dialect\".",
    responses((status = 101, description = "Switching to the WebSocket protocol: the validation game starts; with no or an unknown bot token the socket is closed at once with 1008, for a bot already connected with 1013 (riichi.dev's codes)"),
        (status = 409, description = "the latest version is not a validating riichilab one (validated already, rejected, retired, or a zip or remote version); or this server takes no remote bot", body = ErrorBody),
        (status = 429, description = "a rate limit", body = ErrorBody)))]
pub async fn validate(
    State(state): State<AppState>,
    holder: Result<BotTokenHolder, ApiError>,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let holder = match token_refused(holder) {
        Ok(holder) => holder,
        Err(why) => return Ok(refuse(ws, BAD_TOKEN_CLOSE, &why)),
    }?;
    may_connect(&holder.latest, true)?;
    upgrade(state, holder, ws, true)
}

/// A token refused (401) is answered as riichi.dev's server does, the upgrade closed with
/// 1008 and the reason (`Err`); any other error (the store failed) stays an HTTP answer.
fn token_refused(holder: Result<BotTokenHolder, ApiError>) -> Result<Result<BotTokenHolder, ApiError>, String> {
    match holder {
        Err(e) if e.status == StatusCode::UNAUTHORIZED => Err(e.reason),
        other => Ok(other),
    }
}

/// Handles `GET /ws/ranked`.
#[utoipa::path(get, tag = "riichilab", path = "/ws/ranked", security(("bearer" = [])),
    summary = "riichi.dev's dialect: queue for one ranked (league) game (issue 37)",
    description = "The bot token in the Authorization header. The connection waits until the league seats the bot, plays one hanchan, and the server closes after `end_game`; connect again to queue for the next. Messages: docs/protocol.md, \"riichi.dev's dialect\".",
    responses((status = 101, description = "Switching to the WebSocket protocol: queued for a league game; with no or an unknown bot token the socket is closed at once with 1008, for a bot already connected with 1013 (riichi.dev's codes)"),
        (status = 409, description = "the latest version is not an active riichilab one (validate it first at /ws/validate); or this server takes no remote bot", body = ErrorBody),
        (status = 429, description = "a rate limit", body = ErrorBody)))]
pub async fn ranked(
    State(state): State<AppState>,
    holder: Result<BotTokenHolder, ApiError>,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let holder = match token_refused(holder) {
        Ok(holder) => holder,
        Err(why) => return Ok(refuse(ws, BAD_TOKEN_CLOSE, &why)),
    }?;
    may_connect(&holder.latest, false)?;
    upgrade(state, holder, ws, false)
}

/// Whether a connection may play `latest`: a validating riichilab version on
/// `/ws/validate` (`validation`), an active one on `/ws/ranked`. Errors: 409 saying what to
/// do.
fn may_connect(latest: &VersionRow, validation: bool) -> Result<(), ApiError> {
    let (name, v) = (&latest.name, latest.version);
    let text = match (latest.kind, latest.status, validation) {
        (BotKind::RiichiDev, BotStatus::Validating, true) | (BotKind::RiichiDev, BotStatus::Active, false) => {
            return Ok(())
        }
        (BotKind::RiichiDev, BotStatus::Active, true) => {
            format!("{name} v{v} is validated: connect to {RANKED_PATH} to play ranked games")
        }
        (BotKind::RiichiDev, BotStatus::Validating, false) => {
            format!("{name} v{v} is not validated yet: connect to {VALIDATE_PATH} first")
        }
        (BotKind::RiichiDev, BotStatus::Rejected, _) => format!(
            "{name} v{v} was rejected ({}); register a new version (POST /api/bots with kind=riichilab)",
            latest.reason.as_deref().unwrap_or("no reason recorded")
        ),
        (BotKind::RiichiDev, BotStatus::Suspended, _) => format!(
            "{name} v{v} is {}; register a new version (POST /api/bots with kind=riichilab)",
            latest.reason.as_deref().unwrap_or("suspended")
        ),
        (BotKind::RiichiDev, BotStatus::Retired, _) => {
            format!("{name} v{v} is retired; register a new version (POST /api/bots with kind=riichilab)")
        }
        (kind, ..) => not_riichi_dev(name, v, kind),
    };
    Err(ApiError::new(StatusCode::CONFLICT, text))
}

/// The 409 text for a version that is not a riichilab one.
fn not_riichi_dev(name: &str, v: u32, kind: BotKind) -> String {
    format!(
        "{name} v{v} is a {} version, not a riichilab one; register one (POST /api/bots with kind=riichilab)",
        kind.as_str()
    )
}

/// Upgrades and hands the connection to the hub (one per bot: a second is closed with
/// 1013); a validation connection starts the version's validation game.
fn upgrade(
    state: AppState,
    holder: BotTokenHolder,
    ws: WebSocketUpgrade,
    validation: bool,
) -> Result<Response, ApiError> {
    let BotTokenHolder { latest, token_sha256 } = holder;
    if let Some(why) = &state.settings.no_remote_bots {
        return Err(ApiError::new(StatusCode::CONFLICT, why.clone()));
    }
    let bot = latest.name.clone();
    let Some(claim) = state.hub.claim(&bot) else {
        return Ok(refuse(ws, ALREADY_CONNECTED_CLOSE, ALREADY_CONNECTED));
    };
    // one connection per bot (the claim); a validation connection waits under its own name
    let name = if validation { super::jobs::validation::validation_slot(&bot) } else { bot };
    state.hub.allow_one_game(&name);
    let author = latest.author.clone().unwrap_or_default();
    let credential = Credential::Bot { bot: latest.name.clone(), author: latest.author.clone(), token_sha256 };
    Ok(limited(ws)
        .on_upgrade(move |socket| async move {
            let ended = match state.hub.attach_at_most(&name, socket, 1) {
                Ok(attached) => {
                    state.credentials.watch(credential, attached.hang_up);
                    attached.ended
                }
                Err(e) => {
                    tracing::info!("riichilab connection for {name} refused: {e}");
                    return;
                }
            };
            let endpoint = if validation { VALIDATE_PATH } else { RANKED_PATH };
            tracing::info!(target: super::AUDIT, event = "online", bot = %name, version = latest.version, author = %author, endpoint, "riichilab bot connected");
            if validation {
                state.validator.spawn(latest.clone());
            }
            ended.wait().await; // bounded: by the connection's timeouts (idle, write, close).
            drop(claim);
            tracing::info!(target: super::AUDIT, event = "offline", bot = %name, author = %author, "riichilab connection closed");
        }))
}
