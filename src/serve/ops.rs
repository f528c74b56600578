//! Operations routes: `GET /healthz` (the database answers: 200 `ok`, else 503) and
//! `GET /metrics` (Prometheus text format); the API's description, `GET /api/openapi.json`,
//! is [`super::openapi`]'s.

use std::fmt::Write;
use std::sync::atomic::Ordering;

use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;

use super::error::{ApiError, ErrorBody};
use super::state::AppState;

/// The routes of this module (each described in the OpenAPI document, [`super::openapi`]).
pub const ROUTES: [&str; 2] = ["/healthz", "/metrics"];

/// This module's routes.
pub fn router() -> Router<AppState> {
    Router::new().route(ROUTES[0], get(healthz)).route(ROUTES[1], get(metrics))
}

/// `GET /healthz`.
#[utoipa::path(get, path = "/healthz", summary = "200 `ok` while the database answers, else 503",
    responses((status = 200, description = "ok", body = String, content_type = "text/plain"),
        (status = 503, description = "database unavailable", body = String, content_type = "text/plain")),
)]
pub async fn healthz(State(state): State<AppState>) -> impl IntoResponse {
    match state.store.games().counts().await {
        Ok(_) => (StatusCode::OK, "ok\n"),
        Err(e) => {
            tracing::warn!("health check: {e}");
            (StatusCode::SERVICE_UNAVAILABLE, "database unavailable\n")
        }
    }
}

/// A Prometheus label value: backslash, quote and newline escaped.
fn label(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n")
}

/// `GET /metrics`: games by state, queue depth (pending games), workers holding a game,
/// bot versions by status, validations in flight, uploads and rate-limited requests, and
/// what this server's league loop met: failed game attempts, host faults, database outages
/// ([`super::jobs::league_observer`]).
#[utoipa::path(get, path = "/metrics", summary = "Prometheus text: mjai_games_played_total, mjai_queue_depth, mjai_games_running, mjai_games_failed_total, mjai_workers_seen, mjai_bot_versions{status}, mjai_validations_in_flight, mjai_uploads_total, mjai_rate_limited_total, mjai_game_attempts_failed_total, mjai_host_faults_total, mjai_db_outages_total, mjai_games_voided, mjai_build_info{version,commit}",
    responses((status = 200, description = "metrics", body = String, content_type = "text/plain"), (status = 500, description = "the database failed", body = ErrorBody)))]
pub async fn metrics(State(state): State<AppState>) -> Result<impl IntoResponse, ApiError> {
    let c = state.store.games().counts().await?;
    let workers = state.store.leases().workers_seen().await?;
    let versions = state.store.versions().counts().await?;
    let mut out = String::new();
    let mut family = |name: &str, kind: &str, help: &str, rows: &[(String, u64)]| {
        let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} {kind}");
        for (labels, v) in rows {
            let _ = writeln!(out, "{name}{labels} {v}");
        }
    };
    let plain = |v: u64| vec![(String::new(), v)];
    family("mjai_games_played_total", "counter", "League games finished and recorded.", &plain(c.done));
    family("mjai_queue_depth", "gauge", "League games waiting to be played.", &plain(c.pending));
    family("mjai_games_running", "gauge", "League games being played.", &plain(c.running));
    family("mjai_games_failed_total", "counter", "League games that failed twice.", &plain(c.failed));
    family("mjai_workers_seen", "gauge", "Distinct workers holding a running game.", &plain(workers));
    let by_status: Vec<(String, u64)> = versions.into_iter().map(|(s, n)| (format!("{{status=\"{s}\"}}"), n)).collect();
    family("mjai_bot_versions", "gauge", "Bot versions by status.", &by_status);
    let flight = state.validator.in_flight() as u64;
    family("mjai_validations_in_flight", "gauge", "Validation games waiting or playing.", &plain(flight));
    let counted = |c: &std::sync::atomic::AtomicU64| plain(c.load(Ordering::Relaxed));
    let uploads = counted(&state.counters.uploads);
    family("mjai_uploads_total", "counter", "Uploads accepted since start.", &uploads);
    let limited = counted(&state.counters.rate_limited);
    family("mjai_rate_limited_total", "counter", "Requests refused by a rate limit since start.", &limited);
    let attempts = counted(&state.counters.game_failures);
    family(
        "mjai_game_attempts_failed_total",
        "counter",
        "League game attempts this server played that failed, since start.",
        &attempts,
    );
    let faults = counted(&state.counters.host_faults);
    family(
        "mjai_host_faults_total",
        "counter",
        "Host faults (Docker, images) the league loop backed off from, since start.",
        &faults,
    );
    let outages = counted(&state.counters.db_outages);
    family("mjai_db_outages_total", "counter", "Database outages the league loop met, since start.", &outages);
    let voided = state.store.voids().count().await?;
    family("mjai_games_voided", "gauge", "League games voided by the operator (`serve void`).", &plain(voided));
    // the engine this server plays with (its games' logs name it in start_game.meta.engine)
    let (version, commit) = mjai_sim_arena::engine_stamp::build();
    let build = vec![(format!("{{version=\"{}\",commit=\"{}\"}}", label(&version), label(&commit)), 1)];
    family("mjai_build_info", "gauge", "The mjai-sim build serving: its version and commit.", &build);
    Ok(([(header::CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")], out))
}
