//! The token gate: middlewares of the routes that take an author's token. A token that
//! came (Bearer header or login cookie) but is no author's valid one (unknown, revoked,
//! rotated away, malformed) is 401 before any extractor runs, on public routes too:
//! [`api_tokens`] answers JSON, [`page_tokens`] the site's error page and clears the dead
//! cookie (the next page is then a visitor's). A valid token's author goes on in the
//! request's extensions ([`Authenticated`]), so the extractors of [`super::auth`] do not
//! look it up again. No token at all passes: each route decides what a visitor gets.

use axum::extract::{Request, State};
use axum::http::{header, HeaderValue};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::auth::{authenticate, bad_token, clear_cookie, Authenticated, Carrier};
use super::html::PageError;
use super::state::AppState;

/// Middleware of the JSON routes that take an author's token: a token that came and is
/// not valid is 401 ([`bad_token`]); otherwise the request goes on with [`Authenticated`].
pub async fn api_tokens(State(state): State<AppState>, mut request: Request, next: Next) -> Response {
    match authenticate(request.headers(), &state).await {
        Ok(Ok(who)) => {
            request.extensions_mut().insert(Authenticated(who));
            next.run(request).await
        }
        Ok(Err(carrier)) => bad_token(carrier).into_response(),
        Err(e) => e.into_response(),
    }
}

/// Middleware of the pages: as [`api_tokens`], the refusal as the error page (401), and a
/// dead login cookie is cleared with it, so that the next page is a visitor's.
pub async fn page_tokens(State(state): State<AppState>, mut request: Request, next: Next) -> Response {
    match authenticate(request.headers(), &state).await {
        Ok(Ok(who)) => {
            request.extensions_mut().insert(Authenticated(who));
            next.run(request).await
        }
        Ok(Err(carrier)) => {
            let mut response = PageError::Shown(bad_token(carrier)).into_response();
            if carrier == Carrier::Cookie {
                if let Ok(clear) = HeaderValue::from_str(&clear_cookie()) {
                    response.headers_mut().append(header::SET_COOKIE, clear);
                }
            }
            response
        }
        Err(e) => PageError::Shown(e).into_response(),
    }
}
