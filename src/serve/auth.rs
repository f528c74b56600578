//! Who is asking, as typed extractors: [`Author`] (a valid token in `Authorization: Bearer
//! TOKEN`, or in the `mjai_token` cookie that `POST /login` sets) and [`MaybeAuthor`] (an
//! author, or nobody). A missing token is 401 for [`Author`]. What an admin may do beyond
//! an author is a bot's private parts and retiring it ([`Author::may_touch`], through
//! [`super::owned`]), and seeing every rejected or suspended version ([`may_see`]); the
//! routes for admins only (a season's: [`super::season_admin`]) take [`Admin`]: no token
//! 401, an author who is not an admin 403.
//!
//! A token that came but is not valid (unknown, revoked, rotated away, malformed) is 401
//! on every route that takes an author's token, public ones included, before any
//! extractor runs: the middlewares of [`super::gate`] ([`authenticate`] and
//! [`bad_token`] are theirs), so that nobody mistakes a dead token for an
//! answer about a bot (a 404 "no such bot of yours"). The routes of riichi.dev bots, whose
//! Bearer token is a bot token, and the login routes (the way out of a dead cookie) do
//! without them.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, StatusCode};

use super::error::ApiError;
use super::state::AppState;
use super::token::{looks_like_token, token_hash};
use mjai_sim_runtime::remote::token::bearer;
use mjai_sim_tournament::leaderboard::BotStatus;
use mjai_sim_tournament::store::AuthorRow;

/// Name of the cookie holding the token in a browser.
pub const COOKIE: &str = "mjai_token";

/// An authenticated author.
#[derive(Debug, Clone)]
pub struct Author(pub AuthorRow);

/// An authenticated admin (an author added with `--admin`, or `admin` of
/// `--admin-token-file`). Rejection: 401 without a valid token, 403 for an author who is
/// not an admin.
#[derive(Debug, Clone)]
pub struct Admin(pub AuthorRow);

/// The author when a valid token came, else nobody (never an error itself: on the routes
/// behind [`super::gate`] a token that is not valid was refused with 401 before).
#[derive(Debug, Clone)]
pub struct MaybeAuthor(pub Option<AuthorRow>);

impl Author {
    /// May this author see or change what belongs to `owner`: their own, or as admin.
    pub fn may_touch(&self, owner: Option<&str>) -> bool {
        self.0.admin || owner == Some(self.0.name.as_str())
    }
}

impl MaybeAuthor {
    /// Whether this caller may see a version of `owner` (`None`: a house bot) with
    /// `status`: [`may_see`].
    pub fn sees(&self, owner: Option<&str>, status: BotStatus) -> bool {
        may_see(self.0.as_ref(), owner, status)
    }
}

/// Whether `who` (`None`: a visitor) may see a bot version of `owner` with `status`: any
/// public status ([`BotStatus::is_private`]) to anyone; a rejected or suspended one only
/// to its author and admins (docs/server.md "Privacy").
pub fn may_see(who: Option<&AuthorRow>, owner: Option<&str>, status: BotStatus) -> bool {
    !status.is_private() || who.is_some_and(|a| a.admin || owner == Some(a.name.as_str()))
}

/// The author of a request's token as [`super::gate`]'s middlewares found it (kept
/// in the request's extensions, so the extractors do not look it up again).
#[derive(Debug, Clone)]
pub struct Authenticated(pub Option<AuthorRow>);

/// Where a request's token came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Carrier {
    /// `Authorization: Bearer TOKEN`.
    Bearer,
    /// The login cookie.
    Cookie,
}

/// The author of the token `headers` carry: `Ok(None)` without one; errors: 401 when one
/// came and is not an author's valid token ([`bad_token`]), with where it came from; a
/// failed store query (500, or 503 while the database is unreachable).
pub async fn authenticate(
    headers: &HeaderMap,
    state: &AppState,
) -> Result<Result<Option<AuthorRow>, Carrier>, ApiError> {
    let carrier = if headers.contains_key(header::AUTHORIZATION) { Carrier::Bearer } else { Carrier::Cookie };
    let Some(token) = token_in(headers) else {
        // an Authorization header that is not exactly one `Bearer TOKEN` is a token that
        // came and is not valid, not a visitor
        return Ok(match carrier {
            Carrier::Bearer => Err(carrier),
            Carrier::Cookie => Ok(None),
        });
    };
    if !looks_like_token(token) {
        return Ok(Err(carrier));
    }
    Ok(state.store.authors().by_token(&token_hash(token)).await?.map(Some).ok_or(carrier))
}

/// 401 for a token that came but is no author's valid one.
pub fn bad_token(carrier: Carrier) -> ApiError {
    let text = match carrier {
        Carrier::Bearer => "this token is not valid (unknown, revoked or rotated); ask the operator for a new one",
        Carrier::Cookie => "your login is no longer valid (the token is unknown, revoked or rotated); log in again",
    };
    ApiError::new(StatusCode::UNAUTHORIZED, text)
}

/// The `Set-Cookie` value that clears the login cookie.
pub fn clear_cookie() -> String {
    format!("{COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0")
}

/// The token a request's `headers` carry: the `Authorization` header when there is one
/// (read by the one strict parser, [`mjai_sim_runtime::remote::token::bearer`]: exactly one
/// such header, `Bearer ` and a token that is not empty, else no token), otherwise the
/// cookie.
pub fn token_in(headers: &axum::http::HeaderMap) -> Option<&str> {
    if headers.contains_key(header::AUTHORIZATION) {
        return bearer(headers);
    }
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|c| c.trim().strip_prefix(COOKIE).and_then(|rest| rest.strip_prefix('=')))
}

/// The caller: as the token middleware found it, else looked up.
async fn lookup(parts: &Parts, state: &AppState) -> Result<Option<AuthorRow>, ApiError> {
    if let Some(Authenticated(who)) = parts.extensions.get::<Authenticated>() {
        return Ok(who.clone());
    }
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

impl FromRequestParts<AppState> for Admin {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Admin, ApiError> {
        match lookup(parts, state).await? {
            None => Err(unauthorized()),
            Some(a) if a.admin => Ok(Admin(a)),
            Some(a) => Err(ApiError::new(
                StatusCode::FORBIDDEN,
                format!("{} is not an admin: only the operator may do this (an author added with `serve author add NAME --admin`)", a.name),
            )),
        }
    }
}
