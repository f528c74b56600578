//! A league game's files to download (issue 39, item 4): its mjai log with the bots' names
//! in `start_game` (`GET /api/games/{id}/log.jsonl.gz`, gzip) and its tenhou.net/6 form
//! (`GET /api/games/{id}/tenhou6.json`). Both public, as the game's page and
//! `/api/games/{id}` are; neither carries a seat's stderr (private to its author).
//!
//! A seat's name is its bot's as the game page shows it: `NAME vV`.

use std::io::Write;

use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;

use super::error::{ApiError, ErrorBody};
use super::games::gunzip;
use super::owned::OwnedSeats;
use super::params::GameId;
use super::state::AppState;
use crate::export::tenhou6::{export, ErrorNote};
use crate::tournament::store::SeatBot;

/// The routes of this module (each described in the OpenAPI document, [`super::openapi`]).
pub const ROUTES: [&str; 2] = ["/api/games/{id}/log.jsonl.gz", "/api/games/{id}/tenhou6.json"];

/// This module's routes.
pub fn router() -> Router<AppState> {
    Router::new().route(ROUTES[0], get(log_gz)).route(ROUTES[1], get(tenhou6))
}

/// A seat's name in a downloaded game: `NAME vV` (as the game page shows it).
pub fn seat_name(seat: &SeatBot) -> String {
    format!("{} v{}", seat.name, seat.version)
}

/// `GET /api/games/{id}/log.jsonl.gz`.
#[utoipa::path(get, path = "/api/games/{id}/log.jsonl.gz", params(GameId),
    summary = "A league game's mjai log with the bots' names in start_game, gzip-compressed (a download)",
    responses((status = 200, description = "the mjai log, one event per line, gzip", body = Vec<u8>, content_type = "application/gzip"),
        (status = 404, description = "no such game", body = ErrorBody)),
)]
pub async fn log_gz(State(state): State<AppState>, seats: OwnedSeats) -> Result<impl IntoResponse, ApiError> {
    let (log, _) = named_log(&state, &seats).await?;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    let bytes = gz.write_all(&log).and_then(|()| gz.finish());
    let bytes = bytes.map_err(|e| anyhow::anyhow!("cannot compress a log: {e}"))?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/gzip".to_string()),
            (header::CONTENT_DISPOSITION, attachment(&format!("game-{}.jsonl.gz", seats.id))),
        ],
        bytes,
    ))
}

/// `GET /api/games/{id}/tenhou6.json`.
#[utoipa::path(get, path = "/api/games/{id}/tenhou6.json", params(GameId),
    summary = "A league game in tenhou.net/6's JSON form, with the bots' names (a download; `mjai-sim export`'s)",
    responses((status = 200, description = "the game for tenhou.net/6's viewer", body = Object, content_type = "application/json"),
        (status = 404, description = "no such game", body = ErrorBody)),
)]
pub async fn tenhou6(State(state): State<AppState>, seats: OwnedSeats) -> Result<impl IntoResponse, ApiError> {
    let (log, errors) = named_log(&state, &seats).await?;
    let log = String::from_utf8_lossy(&log).into_owned();
    // the public part of each entry only (an ErrorNote has no stderr)
    let errors: Vec<ErrorNote> = serde_json::from_str::<Vec<serde_json::Value>>(&errors)
        .unwrap_or_default()
        .into_iter()
        .filter_map(|v| serde_json::from_value(v).ok())
        .collect();
    let shown = |e: &dyn std::fmt::Display| anyhow::anyhow!("game {} cannot be exported: {e}", seats.id);
    let events = crate::engine::event::parse_log(&log).map_err(|e| shown(&e))?;
    let game = export(&events, &errors).map_err(|e| shown(&e))?;
    let json = serde_json::to_string(&game).map_err(|e| shown(&e))?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/json".to_string()),
            (header::CONTENT_DISPOSITION, attachment(&format!("game-{}.tenhou6.json", seats.id))),
        ],
        json,
    ))
}

/// The stored log of game `seats.id` with `start_game.names` set to the seats' bots'
/// names ([`seat_name`]), every other line as stored; and its `errors.json`. Errors: 404
/// without a stored log; a damaged one (500).
async fn named_log(state: &AppState, seats: &OwnedSeats) -> Result<(Vec<u8>, String), ApiError> {
    let files = state.store.blobs().game_files(seats.id).await?.ok_or_else(|| ApiError::not_found("such game"))?;
    let log = gunzip(&files.log_gz)?;
    let names = seats.seats.each_ref().map(seat_name);
    Ok((with_names(&log, &names), files.errors))
}

/// `log` (an mjai log, one event per line) with the `names` of its `start_game` replaced;
/// a log without one, or lines that are not JSON, are left as they are.
pub fn with_names(log: &[u8], names: &[String; 4]) -> Vec<u8> {
    let text = String::from_utf8_lossy(log);
    let mut out = String::with_capacity(text.len() + 64);
    let mut renamed = false;
    for line in text.lines() {
        let parsed = (!renamed && line.contains("start_game")).then(|| serde_json::from_str::<serde_json::Value>(line));
        match parsed {
            Some(Ok(mut event)) if event["type"] == "start_game" => {
                event["names"] = serde_json::json!(names);
                out.push_str(&event.to_string());
                renamed = true;
            }
            _ => out.push_str(line),
        }
        out.push('\n');
    }
    out.into_bytes()
}

/// `attachment; filename="NAME"` (`name` is made here from digits and ASCII only).
fn attachment(name: &str) -> String {
    format!("attachment; filename=\"{name}\"")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_start_game_names_change() {
        let log =
            b"{\"type\":\"start_game\",\"names\":[\"0\",\"1\",\"2\",\"3\"],\"seed\":[1,2]}\n{\"type\":\"end_game\"}\n";
        let names = ["a v1", "b v2", "c v1", "<d> v3"].map(String::from);
        let out = String::from_utf8(with_names(log, &names)).unwrap();
        let first: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
        assert_eq!(first["names"], serde_json::json!(names));
        assert_eq!(first["seed"], serde_json::json!([1, 2]));
        assert_eq!(out.lines().nth(1), Some("{\"type\":\"end_game\"}"));
        assert_eq!(with_names(b"not json\n", &names), b"not json\n");
    }
}
