//! The operator's season routes (issue 54), for admins only ([`Admin`]: no token 401,
//! another author 403): `POST /api/seasons` opens a season (`{"name", "freeze_at"}`),
//! `POST /api/seasons/{name}/freeze` freezes it now, `POST /api/seasons/{name}/final` asks
//! for its final (`{"top": N, "sets": K}` or `{"all": true, "sets": K}`), which this
//! server's season job plays ([`super::jobs::finals`]) or, when workers play the league,
//! the workers. The same as `mjai-sim serve season open|freeze|final`. Each answers the
//! season as `GET /api/seasons/{name}` does ([`SeasonView`]).

use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::Deserialize;
use utoipa::ToSchema;

use super::auth::Admin;
use super::error::{ApiError, ErrorBody};
use super::season_view::{view, SeasonPath, SeasonView};
use super::state::AppState;
use mjai_sim_tournament::leaderboard::utc;
use mjai_sim_tournament::session::season::{begin_final, check_name, now_ms, Entrants, FinalAsk, SeasonError};
use mjai_sim_tournament::store::Opened;

/// The routes of this module beside `POST /api/seasons` (each described in the OpenAPI
/// document, [`super::openapi`]; the router is [`super::seasons::router`]).
pub const ROUTES: [&str; 2] = ["/api/seasons/{name}/freeze", "/api/seasons/{name}/final"];

/// `POST /api/seasons`'s body.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct OpenSeason {
    /// The season's name: 1 to 64 letters, digits, `-`, `_`, `.`.
    pub name: String,
    /// When uploads stop: RFC 3339 (`2026-12-31T12:00:00Z`) or `YYYY-MM-DD` (midnight UTC);
    /// a time already passed freezes the season at once.
    pub freeze_at: String,
}

/// `POST /api/seasons/{name}/final`'s body: `top` or `all`, and `sets`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AskFinal {
    /// The leaderboard's top N active bots play (at least one per seat).
    pub top: Option<u32>,
    /// Every active bot plays (instead of `top`).
    pub all: Option<bool>,
    /// Duplicate sets each bot plays (1 to 1000).
    pub sets: u32,
}

/// A JSON body or 400 naming what is wrong with it.
fn body<T>(body: Result<Json<T>, JsonRejection>) -> Result<T, ApiError> {
    body.map(|Json(b)| b).map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, e.body_text().replace('\n', " ")))
}

/// `POST /api/seasons`.
#[utoipa::path(post, path = "/api/seasons", request_body = OpenSeason, security(("bearer" = []), ("cookie" = [])),
    summary = "Open a season (admin only): uploads stop at freeze_at",
    responses((status = 201, description = "opened", body = SeasonView), (status = 400, description = "a bad name, time or body", body = ErrorBody),
        (status = 401, description = "no valid token", body = ErrorBody), (status = 403, description = "not an admin", body = ErrorBody),
        (status = 409, description = "a season of that name exists, or another is still open", body = ErrorBody)))]
pub async fn open(
    State(state): State<AppState>,
    _admin: Admin,
    asked: Result<Json<OpenSeason>, JsonRejection>,
) -> Result<(StatusCode, Json<SeasonView>), ApiError> {
    let asked = body(asked)?;
    check_name(&asked.name).map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, e))?;
    let freeze_ms = utc::parse(asked.freeze_at.trim()).ok_or_else(|| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "freeze_at is not a time: give RFC 3339 (2026-12-31T12:00:00Z) or YYYY-MM-DD",
        )
    })?;
    let seasons = state.store.seasons();
    match seasons.open(&asked.name, freeze_ms, now_ms()).await? {
        Opened::Opened => {}
        Opened::NameTaken => {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                format!("season {} exists; choose another name", asked.name),
            ))
        }
        Opened::AnotherOpen { name, freeze_ms } => {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                format!(
                    "season {name} is open until {}: freeze it first (POST /api/seasons/{name}/freeze)",
                    utc::rfc3339(freeze_ms)
                ),
            ))
        }
    }
    tracing::info!(target: super::AUDIT, event = "season_open", season = %asked.name, freeze_ms, "season opened");
    let row = seasons.get(&asked.name).await?.ok_or_else(|| anyhow::anyhow!("season {} vanished", asked.name))?;
    Ok((StatusCode::CREATED, Json(view(&state.store, &row).await?.linked_for(&state))))
}

/// `POST /api/seasons/{name}/freeze`.
#[utoipa::path(post, path = "/api/seasons/{name}/freeze", params(("name" = String, Path, description = "the season's name")),
    security(("bearer" = []), ("cookie" = [])), summary = "Freeze a season now (admin only): uploads stop",
    responses((status = 200, description = "frozen (a season frozen before keeps its time)", body = SeasonView),
        (status = 401, description = "no valid token", body = ErrorBody), (status = 403, description = "not an admin", body = ErrorBody),
        (status = 404, description = "no such season", body = ErrorBody)))]
pub async fn freeze(
    State(state): State<AppState>,
    _admin: Admin,
    SeasonPath(name): SeasonPath,
) -> Result<Json<SeasonView>, ApiError> {
    let row = state.store.seasons().freeze(&name, now_ms()).await?.ok_or_else(|| ApiError::not_found("such season"))?;
    tracing::info!(target: super::AUDIT, event = "season_freeze", season = %name, freeze_ms = row.freeze_ms, "season frozen");
    Ok(Json(view(&state.store, &row).await?.linked_for(&state)))
}

/// `POST /api/seasons/{name}/final`.
#[utoipa::path(post, path = "/api/seasons/{name}/final", params(("name" = String, Path, description = "the season's name")),
    request_body = AskFinal, security(("bearer" = []), ("cookie" = [])),
    summary = "Ask for a frozen season's final (admin only): the top N (or all) active bots play a duplicate-set round robin of K sets each, played by the server (or its workers)",
    responses((status = 202, description = "its tournament is written; it plays in the background", body = SeasonView),
        (status = 400, description = "a bad body (top or all, and sets 1 to 1000)", body = ErrorBody),
        (status = 401, description = "no valid token", body = ErrorBody), (status = 403, description = "not an admin", body = ErrorBody),
        (status = 404, description = "no such season", body = ErrorBody),
        (status = 409, description = "not frozen yet, a final already, or fewer eligible bots than seats", body = ErrorBody)))]
pub async fn ask_final(
    State(state): State<AppState>,
    _admin: Admin,
    SeasonPath(name): SeasonPath,
    asked: Result<Json<AskFinal>, JsonRejection>,
) -> Result<(StatusCode, Json<SeasonView>), ApiError> {
    let asked = body(asked)?;
    let entrants = match (asked.top, asked.all) {
        (Some(n), None | Some(false)) => Entrants::Top(n),
        (None, Some(true)) => Entrants::All,
        _ => {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "give either `top` (a number) or `\"all\": true`, with `sets`",
            ))
        }
    };
    // remote bots connect to this server's hub: taken when it plays the final itself
    let ask = FinalAsk { entrants, sets: asked.sets, remote: state.settings.no_remote_bots.is_none() };
    let begun = begin_final(&state.store, &name, ask, now_ms()).await.map_err(refusal)?;
    tracing::info!(target: super::AUDIT, event = "season_final", season = %name, bots = begun.bots.len(), games = begun.games, "season final asked for");
    let row = state.store.seasons().get(&name).await?.ok_or_else(|| anyhow::anyhow!("season {name} vanished"))?;
    Ok((StatusCode::ACCEPTED, Json(view(&state.store, &row).await?.linked_for(&state))))
}

/// A refused final as the API answers it.
fn refusal(e: SeasonError) -> ApiError {
    let status = match &e {
        SeasonError::NoSeason(_) => StatusCode::NOT_FOUND,
        SeasonError::NotFrozen { .. } | SeasonError::FinalAsked(_) | SeasonError::TooFew { .. } => StatusCode::CONFLICT,
        SeasonError::Asked(_) => StatusCode::BAD_REQUEST,
        SeasonError::Store(_) | SeasonError::Damaged(_) => return ApiError::from(anyhow::anyhow!("{e}")),
    };
    ApiError::new(status, e.to_string())
}
