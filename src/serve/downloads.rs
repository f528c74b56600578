//! Games to download (issue 39, item 4): a league game's mjai log with the bots' names in
//! `start_game` (`GET /api/games/{id}/log.jsonl.gz`, gzip) and its tenhou.net/6 form
//! (`GET /api/games/{id}/tenhou6.json`), both public as the game's page is, neither with a
//! seat's stderr; and every league game of one bot version as one archive
//! (`GET /api/bots/{name}/v/{version}/games.tar.gz`: per game `game-ID.jsonl` and
//! `game-ID.errors.json`, whose stderr tails are kept only for the seats the caller owns,
//! as on the game's page), streamed game by game, never whole in memory.
//!
//! A seat's name is its bot's as the game page shows it: `NAME vV` ([`seat_name`]).

use std::io::Write;
use std::time::Duration;

use axum::body::Body;
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use bytes::Bytes;
use tokio::sync::mpsc;

use super::auth::{Author, MaybeAuthor};
use super::bots::shown_to;
use super::error::{ApiError, ErrorBody};
use super::games::{gunzip, running};
use super::owned::{seat_name, OwnedSeats};
use super::pages::private_stderr_removed;
use super::params::GameId;
use super::params::VersionPath;
use super::state::AppState;
use mjai_sim_export::tenhou6::{error_notes, export};
use mjai_sim_tournament::leaderboard::game_list::GameStatus;
use mjai_sim_tournament::store::gzip;

/// The routes of this module (each described in the OpenAPI document, [`super::openapi`]).
pub const ROUTES: [&str; 3] =
    ["/api/games/{id}/log.jsonl.gz", "/api/games/{id}/tenhou6.json", "/api/bots/{name}/v/{version}/games.tar.gz"];

/// This module's routes.
pub fn router() -> Router<AppState> {
    Router::new().route(ROUTES[0], get(log_gz)).route(ROUTES[1], get(tenhou6)).route(ROUTES[2], get(version_archive))
}

/// Longest wait for the client to take one more piece of an archive (a client that stops
/// reading ends the download).
pub const ARCHIVE_WRITE_TIMEOUT: Duration = Duration::from_secs(30);

/// `GET /api/bots/{name}/v/{version}/games.tar.gz`.
#[utoipa::path(get, path = "/api/bots/{name}/v/{version}/games.tar.gz", params(VersionPath),
    summary = "Every league game of one version as one archive (a download): per game its mjai log with the bots' names and its errors.json (stderr only of the caller's own seats)",
    security((), ("bearer" = []), ("cookie" = [])),
    responses((status = 200, description = "a gzip-compressed tar, latest game first", body = Vec<u8>, content_type = "application/gzip"),
        (status = 404, description = "no such bot version (or one only its author may see)", body = ErrorBody)),
)]
pub async fn version_archive(
    State(state): State<AppState>,
    who: MaybeAuthor,
    VersionPath(name, version): VersionPath,
) -> Result<Response, ApiError> {
    let games = state.figures().await?.games_of(name.as_str(), Some(version), &shown_to(&who)).await?;
    let ids: Vec<u64> = games.ok_or_else(|| ApiError::not_found("such bot version"))?.iter().map(|g| g.id).collect();
    let (tx, rx) = mpsc::channel::<Result<Bytes, std::io::Error>>(4);
    let viewer = who.0.map(Author);
    tokio::spawn(async move {
        if let Err(e) = write_archive(&state, &ids, viewer.as_ref(), &tx).await {
            tracing::warn!("an archive of {} games ended early: {e}", ids.len());
            let _ = tx.send(Err(std::io::Error::other(e.to_string()))).await;
        }
    });
    let body = futures_util::stream::unfold(rx, |mut rx| async move { rx.recv().await.map(|piece| (piece, rx)) });
    let file = attachment(&format!("{}-v{version}-games.tar.gz", name.as_str()));
    let headers = [(header::CONTENT_TYPE, "application/gzip".to_string()), (header::CONTENT_DISPOSITION, file)];
    Ok((headers, Body::from_stream(body)).into_response())
}

/// Writes the archive of games `ids` to `tx`, one game at a time. Errors: a store query
/// failed, or the client stopped reading (or went away).
async fn write_archive(
    state: &AppState,
    ids: &[u64],
    viewer: Option<&Author>,
    tx: &mpsc::Sender<Result<Bytes, std::io::Error>>,
) -> anyhow::Result<()> {
    let mut tar = tar::Builder::new(flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default()));
    for &id in ids {
        let (Some(seats), Some(files)) =
            (state.store.games().seat_bots(id).await?, state.store.blobs().game_files(id).await?)
        else {
            continue; // a game without stored files (logs off) has nothing to give
        };
        let names: Vec<String> = seats.iter().map(seat_name).collect();
        let mine: Vec<bool> = seats.iter().map(|s| viewer.is_some_and(|a| a.may_touch(s.author.as_deref()))).collect();
        let log = with_names(&gunzip(&files.log_gz).map_err(|e| anyhow::anyhow!("game {id}: {}", e.reason))?, &names);
        append(&mut tar, &format!("game-{id}.jsonl"), &log)?;
        append(&mut tar, &format!("game-{id}.errors.json"), private_stderr_removed(&files.errors, &mine).as_bytes())?;
        let piece = std::mem::take(tar.get_mut().get_mut());
        send(tx, piece).await?;
    }
    let rest = tar.into_inner()?.finish()?;
    send(tx, rest).await
}

/// One file of the archive.
fn append<W: Write>(tar: &mut tar::Builder<W>, path: &str, data: &[u8]) -> std::io::Result<()> {
    let mut header = tar::Header::new_gnu();
    header.set_size(data.len() as u64);
    header.set_mode(0o644);
    header.set_cksum();
    tar.append_data(&mut header, path, data)
}

/// Hands `piece` to the client within [`ARCHIVE_WRITE_TIMEOUT`].
async fn send(tx: &mpsc::Sender<Result<Bytes, std::io::Error>>, piece: Vec<u8>) -> anyhow::Result<()> {
    if piece.is_empty() {
        return Ok(());
    }
    match tokio::time::timeout(ARCHIVE_WRITE_TIMEOUT, tx.send(Ok(Bytes::from(piece)))).await {
        Ok(Ok(())) => Ok(()),
        Ok(Err(_)) => anyhow::bail!("the client went away"),
        Err(_) => anyhow::bail!("the client read nothing for {} s", ARCHIVE_WRITE_TIMEOUT.as_secs()),
    }
}

/// `GET /api/games/{id}/log.jsonl.gz`.
#[utoipa::path(get, path = "/api/games/{id}/log.jsonl.gz", params(GameId),
    summary = "A league game's mjai log with the bots' names in start_game, gzip-compressed (a download)",
    responses((status = 200, description = "the mjai log, one event per line, gzip", body = Vec<u8>, content_type = "application/gzip"),
        (status = 404, description = "no such game", body = ErrorBody), (status = 409, description = "the game is still running", body = ErrorBody)),
)]
pub async fn log_gz(State(state): State<AppState>, seats: OwnedSeats) -> Result<impl IntoResponse, ApiError> {
    let (log, _) = named_log(&state, &seats).await?;
    let bytes = gzip(&log).map_err(|e| anyhow::anyhow!("cannot compress a log: {e}"))?;
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
        (status = 404, description = "no such game", body = ErrorBody), (status = 409, description = "the game is still running", body = ErrorBody)),
)]
pub async fn tenhou6(State(state): State<AppState>, seats: OwnedSeats) -> Result<impl IntoResponse, ApiError> {
    let (log, errors) = named_log(&state, &seats).await?;
    let log = String::from_utf8_lossy(&log).into_owned();
    // the public part of each entry only (an ErrorNote has no stderr)
    let errors = error_notes(&errors).unwrap_or_default();
    let shown = |e: &dyn std::fmt::Display| anyhow::anyhow!("game {} cannot be exported: {e}", seats.id);
    let events = mjai_sim_engine::event::parse_log(&log).map_err(|e| shown(&e))?;
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
/// without a stored log, 409 while the game runs; a damaged one (500).
async fn named_log(state: &AppState, seats: &OwnedSeats) -> Result<(Vec<u8>, String), ApiError> {
    let Some(files) = state.store.blobs().game_files(seats.id).await? else {
        // a running game has seats and no files yet: say so, not "no such game"
        return match state.store.game_list().one(seats.id).await? {
            Some(g) if g.status == GameStatus::Running => Err(running(seats.id)),
            _ => Err(ApiError::not_found("such game")),
        };
    };
    let log = gunzip(&files.log_gz)?;
    let names: Vec<String> = seats.seats.iter().map(seat_name).collect();
    Ok((with_names(&log, &names), files.errors))
}

/// `log` (an mjai log, one event per line) with the `names` of its `start_game` replaced;
/// a log without one, or lines that are not JSON, are left as they are.
pub fn with_names(log: &[u8], names: &[String]) -> Vec<u8> {
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
