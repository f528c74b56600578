//! The server's leagues as its clients see them: `GET /api/leagues` (every league: name,
//! rules, seats, where its API and pages are) and `GET /api/league` (the league whose API
//! is asked: `/api/leagues/NAME` is that route of league NAME, [`super::dispatch`]). Read
//! from each league's stored options at start.

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;
use utoipa::ToSchema;

use super::league_info::LeagueInfo;
use super::state::AppState;

/// The routes of this module (each described in the OpenAPI document, [`super::openapi`]).
pub const ROUTES: [&str; 2] = ["/api/leagues", "/api/league"];

/// This module's routes.
pub fn router() -> Router<AppState> {
    Router::new().route(ROUTES[0], get(leagues)).route(ROUTES[1], get(league))
}

/// The answer of `GET /api/leagues`.
#[derive(Debug, Serialize, ToSchema)]
pub struct LeagueList {
    /// Every league, the default first.
    pub leagues: Vec<LeagueInfo>,
}

/// `GET /api/leagues`.
#[utoipa::path(get, path = "/api/leagues", summary = "The server's leagues: name, rules, seats, where each one's API and pages are",
    responses((status = 200, description = "every league, the default first", body = LeagueList)))]
pub async fn leagues(State(state): State<AppState>) -> Json<LeagueList> {
    Json(LeagueList { leagues: state.leagues.to_vec() })
}

/// `GET /api/league` (as `/api/leagues/NAME`: that league).
#[utoipa::path(get, path = "/api/league", summary = "This league (`/api/leagues/NAME` is league NAME's): name, rules, seats, paths",
    responses((status = 200, description = "the league", body = LeagueInfo)))]
pub async fn league(State(state): State<AppState>) -> Json<LeagueInfo> {
    Json(state.leagues[state.league].clone())
}
