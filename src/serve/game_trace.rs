//! `GET /api/games/{id}/trace?seat=S`: one seat's trace of a finished league game, for
//! disputes (issue 54; [`mjai_sim_arena::trace`]): every line the seat was sent and what it
//! answered, each with its time, an unanswered request with why. Private as a seat's
//! stderr is: the seat's bot's author and admins ([`OwnedSeats`]); anyone else gets 404, as
//! for a trace that does not exist. 409 while the game runs.

use axum::extract::{Query, State};
use axum::http::{header, StatusCode};
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;

use super::error::{ApiError, ErrorBody};
use super::games::{gunzip, running, NDJSON};
use super::owned::OwnedSeats;
use super::params::GameId;
use super::state::AppState;
use mjai_sim_tournament::leaderboard::game_list::GameStatus;

/// The routes of this module (each described in the OpenAPI document, [`super::openapi`]).
pub const ROUTES: [&str; 1] = ["/api/games/{id}/trace"];

/// This module's routes.
pub fn router() -> Router<AppState> {
    Router::new().route(ROUTES[0], get(trace))
}

/// The query of `GET /api/games/{id}/trace`.
#[derive(Debug, serde::Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct TraceParams {
    /// The seat (0 is the first dealer).
    seat: u8,
}

/// `GET /api/games/{id}/trace`.
#[utoipa::path(get, path = "/api/games/{id}/trace", params(GameId, TraceParams), security(("bearer" = []), ("cookie" = [])),
    summary = "One seat's trace of a league game: every line it was sent and answered, with times (disputes)",
    description = "One JSON object per exchange: `seat`, `at_ms` (from the game's start), `ms` (request to answer), `sent`, `answer` (`null` when unanswered, then `error` and `reason`). The seat's bot's author and admins only. Format and bounds: docs/server.md, \"Traces\".",
    responses((status = 200, description = "the seat's exchanges, one per line", body = String, content_type = "application/x-ndjson"),
        (status = 400, description = "no seat, or not one of the table's", body = ErrorBody),
        (status = 404, description = "no such game or trace, or not the caller's seat", body = ErrorBody),
        (status = 409, description = "the game is still running", body = ErrorBody)),
)]
pub async fn trace(
    State(state): State<AppState>,
    seats: OwnedSeats,
    query: Result<Query<TraceParams>, axum::extract::rejection::QueryRejection>,
) -> Result<impl IntoResponse, ApiError> {
    let Query(TraceParams { seat }) = query.map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, e.body_text()))?;
    let Some(&mine) = seats.mine.get(usize::from(seat)) else {
        let last = seats.seats.len().saturating_sub(1);
        return Err(ApiError::new(StatusCode::BAD_REQUEST, format!("seat must be 0 to {last}")));
    };
    let hidden = || ApiError::not_found("trace of this seat that you may read (its bot's author and admins may)");
    if !mine {
        return Err(hidden());
    }
    let Some(gz) = state.store.blobs().trace(seats.id).await? else {
        return match state.store.game_list().one(seats.id).await? {
            Some(g) if g.status == GameStatus::Running => Err(running(seats.id)),
            _ => Err(hidden()),
        };
    };
    let text = String::from_utf8_lossy(&gunzip(&gz)?).into_owned();
    Ok(([(header::CONTENT_TYPE, NDJSON)], of_seat(&text, seat)))
}

/// The lines of `trace` that are `seat`'s, and the truncation marker if there is one.
fn of_seat(trace: &str, seat: u8) -> String {
    let mut out = String::new();
    for line in trace.lines() {
        let Ok(entry) = serde_json::from_str::<serde_json::Value>(line) else { continue };
        if entry["seat"] == u64::from(seat) || entry["truncated"] == true {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::of_seat;

    #[test]
    fn a_seat_reads_its_own_lines_and_the_marker() {
        let trace = "{\"seat\":0,\"sent\":\"a\"}\n{\"seat\":1,\"sent\":\"b\"}\n{\"seat\":10,\"sent\":\"c\"}\nnot json\n{\"truncated\":true,\"after_bytes\":9}\n";
        assert_eq!(of_seat(trace, 1), "{\"seat\":1,\"sent\":\"b\"}\n{\"truncated\":true,\"after_bytes\":9}\n");
        assert_eq!(of_seat(trace, 0), "{\"seat\":0,\"sent\":\"a\"}\n{\"truncated\":true,\"after_bytes\":9}\n");
    }
}
