//! `POST /login` (form field `token`): sets the token as an HttpOnly, SameSite=Strict,
//! Secure-less (plain HTTP on loopback works) cookie for the browser pages and answers 303
//! to `/me`; an unknown token is 401. `POST /logout` clears it.

use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::IntoResponse;
use axum::Form;
use serde::Deserialize;

use super::auth::COOKIE;
use super::error::ApiError;
use super::state::AppState;
use super::token::{looks_like_token, token_hash};

/// The login form.
#[derive(Debug, Deserialize)]
pub struct LoginForm {
    /// The author's token.
    pub token: String,
}

/// How long the cookie lives, in seconds (30 days).
const COOKIE_SECONDS: u64 = 30 * 86_400;

/// `POST /login`.
pub async fn login(State(state): State<AppState>, Form(form): Form<LoginForm>) -> Result<impl IntoResponse, ApiError> {
    let token = form.token.trim();
    let known = looks_like_token(token) && state.store.author_by_token(&token_hash(token)).await?.is_some();
    if !known {
        return Err(ApiError::new(StatusCode::UNAUTHORIZED, "unknown token; ask the operator for yours"));
    }
    let cookie = format!("{COOKIE}={token}; HttpOnly; SameSite=Strict; Path=/; Max-Age={COOKIE_SECONDS}");
    Ok((StatusCode::SEE_OTHER, [(header::SET_COOKIE, cookie), (header::LOCATION, "/me".to_string())]))
}

/// `POST /logout`.
pub async fn logout() -> impl IntoResponse {
    let cookie = format!("{COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0");
    (StatusCode::SEE_OTHER, [(header::SET_COOKIE, cookie), (header::LOCATION, "/".to_string())])
}
