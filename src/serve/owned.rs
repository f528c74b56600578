//! Ownership as an extractor: a route that shows or changes what belongs to a bot's author
//! takes [`OwnedBot`], so no handler can forget the check. It holds the caller (the token's
//! author), the checked name of the route's `{name}` and the name's versions, and exists
//! only when the caller is the bot's author or an admin.
//!
//! Two refusals, by what the route reveals ([`Refusal`]):
//! - [`Private`] (a bot's errors, stderr, validation game): anyone else gets 404, the same
//!   as for an unknown bot, so that nobody can tell whether another's bot has errors;
//! - [`Public`] (retiring: the bot itself is public): no token 401, another author's bot
//!   403, an unknown bot 404.

use std::marker::PhantomData;

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::StatusCode;

use super::auth::{Author, MaybeAuthor};
use super::error::ApiError;
use super::name::BotName;
use super::params::BotPath;
use super::state::AppState;
use crate::tournament::store::VersionRow;

/// How [`OwnedBot`] refuses a caller who does not own the bot.
pub trait Refusal: Send + Sync + 'static {
    /// The refusal of `who` (`None`: no valid token) for `another`: the bot when it exists
    /// and is not theirs, `None` when there is no such bot.
    fn refuse(who: Option<&Author>, another: Option<&BotName>) -> ApiError;
}

/// The route shows the bot's private parts: 404 to anyone but its author and admins.
#[derive(Debug, Clone, Copy)]
pub struct Private;

/// The route changes a public bot: 401 without a token, 403 for another's bot, 404 when
/// there is no such bot.
#[derive(Debug, Clone, Copy)]
pub struct Public;

impl Refusal for Private {
    fn refuse(_: Option<&Author>, _: Option<&BotName>) -> ApiError {
        ApiError::not_found("such bot of yours")
    }
}

impl Refusal for Public {
    fn refuse(who: Option<&Author>, another: Option<&BotName>) -> ApiError {
        match (who, another) {
            (None, _) => super::auth::unauthorized(),
            (Some(_), None) => ApiError::not_found("such bot"),
            (Some(_), Some(name)) => ApiError::new(StatusCode::FORBIDDEN, format!("{name} is another author's bot")),
        }
    }
}

/// A bot the caller owns (or may act on as admin), with its versions (oldest first, never
/// empty).
#[derive(Debug, Clone)]
pub struct OwnedBot<R: Refusal = Private> {
    /// The caller.
    pub author: Author,
    /// The bot's name.
    pub name: BotName,
    /// Its versions, oldest first.
    pub versions: Vec<VersionRow>,
    refusal: PhantomData<R>,
}

impl<R: Refusal> OwnedBot<R> {
    /// The latest version.
    pub fn latest(&self) -> &VersionRow {
        // never empty: checked when extracted
        &self.versions[self.versions.len() - 1]
    }
}

impl<R: Refusal> FromRequestParts<AppState> for OwnedBot<R> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<OwnedBot<R>, ApiError> {
        let MaybeAuthor(who) = MaybeAuthor::from_request_parts(parts, state).await?;
        let who = who.map(Author);
        let Ok(BotPath(name)) = BotPath::from_request_parts(parts, state).await else {
            return Err(R::refuse(who.as_ref(), None));
        };
        let versions = state.store.versions_of(name.as_str()).await?;
        let Some(owner) = versions.first().map(|v| v.author.clone()) else {
            return Err(R::refuse(who.as_ref(), None));
        };
        match who {
            Some(author) if author.may_touch(owner.as_deref()) => {
                Ok(OwnedBot { author, name, versions, refusal: PhantomData })
            }
            _ => Err(R::refuse(who.as_ref(), Some(&name))),
        }
    }
}
