//! Who is asking, as typed extractors: [`Author`] (a valid token in `Authorization: Bearer
//! TOKEN`, or in the `mjai_token` cookie that `POST /login` sets) and [`MaybeAuthor`] (an
//! author, or nobody). A missing or unknown token is 401 for [`Author`]. What an admin may
//! do beyond an author is a bot's private parts and retiring it ([`Author::may_touch`],
//! through [`super::owned`]); no route is for admins only.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{header, StatusCode};

use super::error::ApiError;
use super::state::AppState;
use super::token::{looks_like_token, token_hash};
use crate::tournament::store::AuthorRow;

/// Name of the cookie holding the token in a browser.
pub const COOKIE: &str = "mjai_token";

/// An authenticated author.
#[derive(Debug, Clone)]
pub struct Author(pub AuthorRow);

/// The author when a valid token came, else nobody (never an error for a bad token:
/// public routes answer the same).
#[derive(Debug, Clone)]
pub struct MaybeAuthor(pub Option<AuthorRow>);

impl Author {
    /// May this author see or change what belongs to `owner`: their own, or as admin.
    pub fn may_touch(&self, owner: Option<&str>) -> bool {
        self.0.admin || owner == Some(self.0.name.as_str())
    }
}

/// The token a request's `headers` carry: the Bearer header first, then the cookie.
pub fn token_in(headers: &axum::http::HeaderMap) -> Option<&str> {
    let bearer = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim);
    bearer.or_else(|| {
        headers
            .get_all(header::COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(';'))
            .find_map(|c| c.trim().strip_prefix(COOKIE).and_then(|rest| rest.strip_prefix('=')))
    })
}

async fn lookup(parts: &Parts, state: &AppState) -> Result<Option<AuthorRow>, ApiError> {
    author_of(&parts.headers, state).await
}

/// The author whose valid token `headers` carry (`None`: no token, or an unknown one).
pub async fn author_of(headers: &axum::http::HeaderMap, state: &AppState) -> Result<Option<AuthorRow>, ApiError> {
    let Some(token) = token_in(headers).filter(|t| looks_like_token(t)) else { return Ok(None) };
    Ok(state.store.authors().by_token(&token_hash(token)).await?)
}

/// 401 naming how to get a token.
pub fn unauthorized() -> ApiError {
    ApiError::new(
        StatusCode::UNAUTHORIZED,
        "a valid token is needed: send `Authorization: Bearer TOKEN` (the operator makes one with `mjai-sim serve author add NAME`)",
    )
}

impl FromRequestParts<AppState> for Author {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Author, ApiError> {
        lookup(parts, state).await?.map(Author).ok_or_else(unauthorized)
    }
}

impl FromRequestParts<AppState> for MaybeAuthor {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<MaybeAuthor, ApiError> {
        Ok(MaybeAuthor(lookup(parts, state).await?))
    }
}
