//! The routes, their body limits and the layers every request passes: security headers,
//! the request timeout (408), the rate limits (429) and a 64 KiB body limit everywhere but
//! the upload, whose limit is the submission cap (plus the form's own bytes).

use std::time::Duration;

use axum::extract::DefaultBodyLimit;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::Router;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::TimeoutLayer;

use super::error::ApiError;
use super::state::AppState;
use super::{bots, games, limits, login, ops, upload};

/// Body limit of every route but the upload.
pub const SMALL_BODY: usize = 64 * 1024;

/// Bytes a multipart form adds around the zip (boundaries, headers, the name field).
pub const FORM_SLACK: u64 = 64 * 1024;

/// The server's routes over `state`.
pub fn router(state: AppState) -> Router {
    let cap = usize::try_from(state.settings.max_submission_bytes.saturating_add(FORM_SLACK)).unwrap_or(usize::MAX);
    let timeout: Duration = state.settings.request_timeout;
    let upload = Router::new()
        .route("/api/bots", post(upload::upload))
        .layer(DefaultBodyLimit::max(cap))
        .layer(RequestBodyLimitLayer::new(cap));
    let mut app = Router::new()
        .merge(upload)
        .route("/api/leaderboard", get(bots::leaderboard))
        .route("/api/bots/{name}", get(bots::bot).delete(bots::retire))
        .route("/api/bots/{name}/games", get(bots::games))
        .route("/api/bots/{name}/errors", get(bots::errors))
        .route("/api/bots/{name}/validation", get(bots::validation_log))
        .route("/api/games/{id}", get(games::game))
        .route("/api/openapi.json", get(ops::openapi))
        .route("/login", post(login::login))
        .route("/logout", post(login::logout))
        .route("/healthz", get(ops::healthz))
        .route("/metrics", get(ops::metrics))
        .fallback(|| async { ApiError::not_found("such route") })
        .layer(DefaultBodyLimit::max(SMALL_BODY))
        .layer(axum::middleware::from_fn_with_state(state.clone(), limits::rate_limit))
        .layer(TimeoutLayer::with_status_code(StatusCode::REQUEST_TIMEOUT, timeout))
        .with_state(state);
    for (name, value) in limits::security_headers() {
        app = app.layer(SetResponseHeaderLayer::overriding(name, value));
    }
    app
}
