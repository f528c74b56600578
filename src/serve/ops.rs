//! Operations routes: `GET /healthz` (the database answers: 200 `ok`, else 503),
//! `GET /metrics` (Prometheus text format) and `GET /api/openapi.json` (the API's
//! description, `docs/openapi.json`).

use std::fmt::Write;
use std::sync::atomic::Ordering;

use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;

use super::error::ApiError;
use super::state::AppState;

/// The routes of this module (docs/openapi.json describes each).
pub const ROUTES: [&str; 3] = ["/api/openapi.json", "/healthz", "/metrics"];

/// This module's routes.
pub fn router() -> Router<AppState> {
    Router::new().route(ROUTES[0], get(openapi)).route(ROUTES[1], get(healthz)).route(ROUTES[2], get(metrics))
}

/// The OpenAPI document of every route.
pub const OPENAPI: &str = include_str!("../../docs/openapi.json");

/// `GET /healthz`.
pub async fn healthz(State(state): State<AppState>) -> impl IntoResponse {
    match state.store.counts().await {
        Ok(_) => (StatusCode::OK, "ok\n"),
        Err(e) => {
            tracing::warn!("health check: {e}");
            (StatusCode::SERVICE_UNAVAILABLE, "database unavailable\n")
        }
    }
}

/// `GET /metrics`: games by state, queue depth (pending games), workers holding a game,
/// bot versions by status, validations in flight, uploads and rate-limited requests.
pub async fn metrics(State(state): State<AppState>) -> Result<impl IntoResponse, ApiError> {
    let c = state.store.counts().await?;
    let workers = state.store.workers_seen().await?;
    let versions = state.store.version_counts().await?;
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
    let uploads = state.counters.uploads.load(Ordering::Relaxed);
    family("mjai_uploads_total", "counter", "Uploads accepted since start.", &plain(uploads));
    let limited = state.counters.rate_limited.load(Ordering::Relaxed);
    family("mjai_rate_limited_total", "counter", "Requests refused by a rate limit since start.", &plain(limited));
    Ok(([(header::CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")], out))
}

/// `GET /api/openapi.json`.
pub async fn openapi() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "application/json")], OPENAPI)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_openapi_document_describes_every_route() {
        let doc: serde_json::Value = serde_json::from_str(OPENAPI).unwrap();
        let paths = doc["paths"].as_object().unwrap();
        let routes = crate::serve::router::api_routes();
        for route in &routes {
            assert!(paths.contains_key(*route), "{route} is missing from docs/openapi.json");
        }
        assert_eq!(paths.len(), routes.len(), "docs/openapi.json describes a route the router lacks");
    }
}
