//! The server's routes, each resource's from its own module ([`super::bots`],
//! [`super::remote_socket`], [`super::upload`], [`super::upload_form`], [`super::games`], [`super::list_games`], [`super::login`],
//! [`super::ops`], [`super::openapi`], [`super::pages`]), and the layers every request passes, outermost first:
//! security headers, a request id (`x-request-id`, made here: a client's own is replaced)
//! and a `tracing` span per request carrying it, the request timeout (408), the rate limits
//! (429), and a 64 KiB body limit everywhere but the uploads, whose limit is the submission
//! cap (plus the form's own bytes); then, on every route that takes an author's token, the
//! token gate ([`super::gate`]: a dead token is 401).

use std::net::SocketAddr;
use std::sync::atomic::Ordering;
use std::time::Duration;

use axum::extract::{ConnectInfo, DefaultBodyLimit, State};
use axum::http::{header, HeaderName, HeaderValue, Request, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Router;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::TraceLayer;

use super::error::ApiError;
use super::state::AppState;
use super::{
    about, bots, downloads, game_trace, games, gate, leagues, limits, list_games, live_stream, login, openapi, ops,
    pages, remote_socket, riichi_dev, season_admin, season_page, seasons, upload, upload_form,
};

/// Body limit of every route but the upload.
pub const SMALL_BODY: usize = 64 * 1024;

/// The header carrying each request's id, in the request's span and in the answer.
pub const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// Every JSON API and operations route (the OpenAPI document, [`super::openapi`], describes
/// each and no other: a unit test checks it).
pub fn api_routes() -> Vec<&'static str> {
    [
        &upload::ROUTES[..],
        &bots::ROUTES,
        &remote_socket::ROUTES,
        &riichi_dev::ROUTES,
        &games::ROUTES,
        &game_trace::ROUTES,
        &list_games::ROUTES,
        &live_stream::ROUTES,
        &downloads::ROUTES,
        &openapi::ROUTES,
        &ops::ROUTES,
        &login::ROUTES,
        &leagues::ROUTES,
        &seasons::ROUTES,
        &season_admin::ROUTES,
    ]
    .concat()
}

/// Every HTML page (docs/server.md).
pub fn page_routes() -> Vec<&'static str> {
    [&pages::PAGES[..], &upload_form::PAGES, &list_games::PAGES, &about::PAGES, &season_page::PAGES].concat()
}

/// One league's routes over its `state` (a server's leagues are behind
/// [`super::dispatch`]).
pub fn router(state: AppState) -> Router {
    let timeout: Duration = state.settings.request_timeout;
    // a dead author's token is 401 on every route that takes one (the gate); not on
    // riichi.dev bots' routes (a bot token) nor the login routes (the way out of a dead cookie)
    let api_gate = axum::middleware::from_fn_with_state(state.clone(), gate::api_tokens);
    let page_gate = axum::middleware::from_fn_with_state(state.clone(), gate::page_tokens);
    let api = Router::new()
        .merge(bots::router())
        .merge(remote_socket::router())
        .merge(games::router())
        .merge(game_trace::router())
        .merge(list_games::router())
        .merge(live_stream::router())
        .merge(downloads::router())
        .merge(ops::router())
        .merge(openapi::router())
        .merge(leagues::router())
        .merge(seasons::router())
        .layer(api_gate.clone());
    let small = Router::new()
        .merge(api)
        .merge(riichi_dev::router())
        .merge(login::router())
        .merge(pages::router(state.clone()).layer(page_gate.clone()))
        .merge(list_games::page_router(state.clone()).layer(page_gate.clone()))
        .merge(about::page_router(state.clone()).layer(page_gate.clone()))
        .merge(season_page::page_router(state.clone()).layer(page_gate.clone()))
        .layer(DefaultBodyLimit::max(SMALL_BODY));
    let mut app = Router::new()
        .merge(upload::router(state.settings.max_submission_bytes).layer(api_gate))
        .merge(upload_form::router(state.settings.max_submission_bytes).layer(page_gate))
        .merge(small)
        .fallback(|| async { ApiError::not_found("such route") })
        .layer(axum::middleware::from_fn_with_state(state.clone(), rate_limit))
        .layer(TimeoutLayer::with_status_code(StatusCode::REQUEST_TIMEOUT, timeout))
        .layer(PropagateRequestIdLayer::new(REQUEST_ID))
        .layer(TraceLayer::new_for_http().make_span_with(request_span))
        .layer(SetRequestIdLayer::new(REQUEST_ID, MakeRequestUuid))
        .layer(axum::middleware::map_request(drop_client_request_id))
        .with_state(state);
    for (name, value) in limits::security_headers() {
        app = app.layer(SetResponseHeaderLayer::overriding(name, value));
    }
    app.layer(SetResponseHeaderLayer::overriding(header::CACHE_CONTROL, limits::cache_control::<axum::body::Body>))
}

/// Middleware: refuses a request over either rate limit ([`limits::RateLimits`]) with 429
/// and `Retry-After`, counted in `/metrics`.
pub async fn rate_limit(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    request: Request<axum::body::Body>,
    next: Next,
) -> Response {
    let token = super::auth::token_in(request.headers()).map(str::to_string);
    match state.limits.admit(peer.ip(), token.as_deref()) {
        Ok(()) => next.run(request).await,
        Err(after) => {
            state.counters.rate_limited.fetch_add(1, Ordering::Relaxed);
            let mut response =
                ApiError::new(StatusCode::TOO_MANY_REQUESTS, format!("too many requests; retry in {after} s"))
                    .into_response();
            if let Ok(v) = HeaderValue::from_str(&after.to_string()) {
                response.headers_mut().insert(header::RETRY_AFTER, v);
            }
            response
        }
    }
}

/// The span of one request: method, path (never the query) and request id.
fn request_span<B>(request: &Request<B>) -> tracing::Span {
    let id = request.headers().get(&REQUEST_ID).and_then(|v| v.to_str().ok()).unwrap_or("-");
    tracing::info_span!("request", method = %request.method(), path = %request.uri().path(), request_id = %id)
}

/// A client's own `x-request-id` is dropped, so that every id in the logs is the server's.
async fn drop_client_request_id<B>(mut request: Request<B>) -> Request<B> {
    request.headers_mut().remove(&REQUEST_ID);
    request
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    #[test]
    fn the_openapi_document_describes_every_api_route_and_no_other() {
        let doc: serde_json::Value = serde_json::from_str(openapi::document()).unwrap();
        let described: BTreeSet<&str> = doc["paths"].as_object().unwrap().keys().map(String::as_str).collect();
        let routes: BTreeSet<&str> = api_routes().into_iter().collect();
        let missing: Vec<&&str> = routes.difference(&described).collect();
        assert!(missing.is_empty(), "routes missing from the OpenAPI document (src/serve/openapi.rs): {missing:?}");
        let extra: Vec<&&str> = described.difference(&routes).collect();
        assert!(extra.is_empty(), "the OpenAPI document describes routes the router lacks: {extra:?}");
    }
}
