//! `GET /login` (the form), `POST /login` (form field `token`): sets the token as an
//! HttpOnly, SameSite=Strict cookie for the browser pages and answers 303 to `/me`; an
//! unknown token is 401 with the form again and the reason. `POST /logout` clears it.
//!
//! The cookie is `Secure` behind TLS: with `--secure-cookie`, or when the login's request
//! says `X-Forwarded-Proto: https` (a TLS terminator's header). Without either it is not,
//! so that plain HTTP on loopback works.

use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Form, Router};
use serde::Deserialize;
use utoipa::ToSchema;

use super::auth::COOKIE;
use super::error::ErrorBody;
use super::html::{Page, PageError, Viewer};
use super::state::AppState;
use super::token::{looks_like_token, token_hash};
use mjai_sim_pages::site::{login_page, PageContext};

/// The login form.
#[derive(Debug, Deserialize, ToSchema)]
pub struct LoginForm {
    /// The author's token.
    pub token: String,
}

/// The routes of this module (each described in the OpenAPI document, [`super::openapi`]).
pub const ROUTES: [&str; 2] = ["/login", "/logout"];

/// This module's routes.
pub fn router() -> Router<AppState> {
    Router::new().route(ROUTES[0], get(form).post(login)).route(ROUTES[1], post(logout))
}

/// How long the cookie lives, in seconds (30 days).
const COOKIE_SECONDS: u64 = 30 * 86_400;

/// `GET /login`.
#[utoipa::path(get, path = "/login", summary = "The login page (an HTML form posting `token` here)",
    responses((status = 200, description = "the form", body = String, content_type = "text/html")),
)]
pub async fn form(viewer: Viewer) -> Page {
    Page::ok(login_page(&viewer.context(), None))
}

/// `POST /login`.
#[utoipa::path(post, path = "/login", summary = "Set the token cookie (HttpOnly, SameSite=Strict) and go to /me",
    request_body(content = LoginForm, content_type = "application/x-www-form-urlencoded"),
    responses((status = 303, description = "cookie set; Location: /me"),
        (status = 401, description = "unknown token: the login page again with the reason", body = String, content_type = "text/html"),
        (status = 413, description = "over the body limit", body = ErrorBody)),
)]
pub async fn login(
    State(state): State<AppState>,
    headers: HeaderMap,
    Form(form): Form<LoginForm>,
) -> Result<Response, PageError> {
    let token = form.token.trim();
    let known = looks_like_token(token) && state.store.authors().by_token(&token_hash(token)).await?.is_some();
    if !known {
        let page = login_page(&PageContext::default(), Some("unknown token; ask the operator for yours"));
        return Ok(Page(StatusCode::UNAUTHORIZED, page).into_response());
    }
    let secure = if state.settings.secure_cookie || forwarded_https(&headers) { "; Secure" } else { "" };
    let cookie = format!("{COOKIE}={token}; HttpOnly; SameSite=Strict; Path=/; Max-Age={COOKIE_SECONDS}{secure}");
    Ok((StatusCode::SEE_OTHER, [(header::SET_COOKIE, cookie), (header::LOCATION, "/me".to_string())]).into_response())
}

/// Whether the request came over HTTPS through a TLS terminator (`X-Forwarded-Proto:
/// https`; the first value when it lists several).
fn forwarded_https(headers: &HeaderMap) -> bool {
    let proto = headers.get("x-forwarded-proto").and_then(|v| v.to_str().ok()).unwrap_or_default();
    proto.split(',').next().is_some_and(|p| p.trim().eq_ignore_ascii_case("https"))
}

/// `POST /logout`.
#[utoipa::path(post, path = "/logout", summary = "Clear the token cookie",
    responses((status = 303, description = "cookie cleared; Location: /")),
)]
pub async fn logout() -> impl IntoResponse {
    (StatusCode::SEE_OTHER, [(header::SET_COOKIE, super::auth::clear_cookie()), (header::LOCATION, "/".to_string())])
}
