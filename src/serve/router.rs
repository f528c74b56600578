//! The routes, their body limits and the layers every request passes: security headers,
//! the request timeout (408), the rate limits (429) and a 64 KiB body limit everywhere but
//! the uploads (`POST /api/bots`, `POST /upload`), whose limit is the submission cap (plus
//! the form's own bytes). [`ROUTES`] is the JSON API and operations (docs/openapi.json),
//! [`PAGES`] the HTML pages (docs/server.md).

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
use super::{bots, games, limits, login, ops, pages, upload, upload_form};

/// Every route's path (docs/openapi.json describes each: a unit test checks it).
pub const ROUTES: [&str; 12] = [
    "/api/bots",
    "/api/leaderboard",
    "/api/bots/{name}",
    "/api/bots/{name}/games",
    "/api/bots/{name}/errors",
    "/api/bots/{name}/validation",
    "/api/games/{id}",
    "/api/openapi.json",
    "/login",
    "/logout",
    "/healthz",
    "/metrics",
];

/// The HTML pages' paths (`/login` and `/logout` are in [`ROUTES`]: the form posts there).
pub const PAGES: [&str; 7] =
    ["/", "/bots/{name}", "/bots/{name}/validation", "/games/{id}", "/me", "/upload", "/assets/{file}"];

/// Body limit of every route but the upload.
pub const SMALL_BODY: usize = 64 * 1024;

/// Bytes a multipart form adds around the zip (boundaries, headers, the name field).
pub const FORM_SLACK: u64 = 64 * 1024;

/// The server's routes over `state`.
pub fn router(state: AppState) -> Router {
    let cap = usize::try_from(state.settings.max_submission_bytes.saturating_add(FORM_SLACK)).unwrap_or(usize::MAX);
    let timeout: Duration = state.settings.request_timeout;
    let upload = Router::new()
        .route(ROUTES[0], post(upload::upload))
        .route(PAGES[5], get(upload_form::form).post(upload_form::upload))
        .layer(DefaultBodyLimit::max(cap))
        .layer(RequestBodyLimitLayer::new(cap));
    let mut app = Router::new()
        .merge(upload)
        .route(ROUTES[1], get(bots::leaderboard))
        .route(ROUTES[2], get(bots::bot).delete(bots::retire))
        .route(ROUTES[3], get(bots::games))
        .route(ROUTES[4], get(bots::errors))
        .route(ROUTES[5], get(bots::validation_log))
        .route(ROUTES[6], get(games::game))
        .route(ROUTES[7], get(ops::openapi))
        .route(ROUTES[8], get(login::form).post(login::login))
        .route(ROUTES[9], post(login::logout))
        .route(ROUTES[10], get(ops::healthz))
        .route(ROUTES[11], get(ops::metrics))
        .route(PAGES[0], get(pages::leaderboard))
        .route(PAGES[1], get(pages::bot))
        .route(PAGES[2], get(pages::validation))
        .route(PAGES[3], get(pages::game))
        .route(PAGES[4], get(pages::me))
        .route(PAGES[6], get(pages::asset))
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
