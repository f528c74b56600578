//! Route parameters parsed into checked types before any handler runs: [`BotPath`] (the
//! `{name}` of `/api/bots/{name}...` and `/bots/{name}...`, a [`BotName`]), [`VersionPath`]
//! (`{name}` and `{version}` of `/bots/{name}/v/{version}` and its API twin) and [`GameId`]
//! (the `{id}` of `/api/games/{id}` and `/games/{id}`, a game index). A parameter no bot
//! or game can have is 404 with the same reason as an unknown one (so a probe learns
//! nothing from the difference); page routes take them through [`Paged`], which answers
//! with the site's error page instead of JSON. Each describes itself in the OpenAPI
//! document ([`IntoParams`]: the same rules as a schema).

use axum::extract::{FromRequestParts, Path};
use axum::http::request::Parts;
use utoipa::openapi::path::{Parameter, ParameterBuilder, ParameterIn};
use utoipa::openapi::schema::{ObjectBuilder, Type};
use utoipa::openapi::Required;
use utoipa::IntoParams;

use super::error::ApiError;
use super::html::PageError;
use super::name::{BotName, MAX_NAME_CHARS, NAME_PATTERN};

/// The checked bot name of a route's `{name}`.
#[derive(Debug, Clone)]
pub struct BotPath(pub BotName);

/// The checked bot name and version of a route's `{name}` and `{version}`: the version is
/// decimal digits without a leading zero, 1 to [`MAX_VERSION`].
#[derive(Debug, Clone)]
pub struct VersionPath(pub BotName, pub u32);

/// The highest version a route accepts (versions are stored as `u32`).
pub const MAX_VERSION: u32 = u32::MAX;

/// The game index of a route's `{id}` (digits only, fits 63 bits).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameId(pub u64);

/// The route parameter `key` of `parts` as text; a route without it is the router's
/// mistake, answered 404.
async fn param<S: Send + Sync>(parts: &mut Parts, state: &S, key: &str) -> Option<String> {
    let Path(params) = Path::<Vec<(String, String)>>::from_request_parts(parts, state).await.ok()?;
    params.into_iter().find(|(k, _)| k == key).map(|(_, value)| value)
}

/// `text` as a version: digits, no leading zero, 1..=[`MAX_VERSION`].
fn version_of(text: &str) -> Option<u32> {
    // digits only (`parse` would take `+1`), no leading zero (so never 0); `parse` refuses
    // the empty text and anything over MAX_VERSION (u32::MAX)
    let canonical = text.bytes().all(|b| b.is_ascii_digit()) && !text.starts_with('0');
    canonical.then(|| text.parse::<u32>().ok()).flatten()
}

impl<S: Send + Sync> FromRequestParts<S> for BotPath {
    type Rejection = ApiError;

    /// Errors: 404 when the name breaks [`BotName`]'s rules (no bot can have it).
    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<BotPath, ApiError> {
        let text = param(parts, state, "name").await.ok_or_else(|| ApiError::not_found("such bot"))?;
        BotName::parse(&text).map(BotPath).map_err(|_| ApiError::not_found("such bot"))
    }
}

impl<S: Send + Sync> FromRequestParts<S> for VersionPath {
    type Rejection = ApiError;

    /// Errors: 404 when the name breaks [`BotName`]'s rules or the version is not one
    /// ([`MAX_VERSION`]): no bot version can have it.
    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<VersionPath, ApiError> {
        let BotPath(name) = BotPath::from_request_parts(parts, state).await?;
        let text = param(parts, state, "version").await.unwrap_or_default();
        version_of(&text).map(|v| VersionPath(name, v)).ok_or_else(|| ApiError::not_found("such bot version"))
    }
}

impl<S: Send + Sync> FromRequestParts<S> for GameId {
    type Rejection = ApiError;

    /// Errors: 404 when the id is not a decimal number below 2^63 (no game has it).
    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<GameId, ApiError> {
        let text = param(parts, state, "id").await.ok_or_else(|| ApiError::not_found("such game"))?;
        let digits = !text.is_empty() && text.len() <= 19 && text.bytes().all(|b| b.is_ascii_digit());
        let id = digits.then(|| text.parse::<u64>().ok()).flatten().filter(|&n| i64::try_from(n).is_ok());
        id.map(GameId).ok_or_else(|| ApiError::not_found("such game"))
    }
}

/// The OpenAPI description of the path parameter `name`, of `schema`.
fn path_parameter(name: &str, description: &str, schema: ObjectBuilder) -> Parameter {
    ParameterBuilder::new()
        .name(name)
        .parameter_in(ParameterIn::Path)
        .required(Required::True)
        .description(Some(description))
        .schema(Some(schema))
        .build()
}

/// `{name}`: a [`BotName`].
fn name_parameter() -> Parameter {
    let schema = ObjectBuilder::new()
        .schema_type(Type::String)
        .pattern(Some(NAME_PATTERN))
        .min_length(Some(1))
        .max_length(Some(MAX_NAME_CHARS));
    path_parameter("name", "the bot's name (any other text: 404, as an unknown bot)", schema)
}

impl IntoParams for BotPath {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        vec![name_parameter()]
    }
}

impl IntoParams for VersionPath {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        let schema = ObjectBuilder::new().schema_type(Type::Integer).minimum(Some(1)).maximum(Some(MAX_VERSION));
        let version = path_parameter("version", "decimal digits, no leading zero (else 404)", schema);
        vec![name_parameter(), version]
    }
}

impl IntoParams for GameId {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        let schema = ObjectBuilder::new().schema_type(Type::Integer).minimum(Some(0)).maximum(Some(i64::MAX));
        vec![path_parameter("id", "the league game's index: decimal digits (else 404)", schema)]
    }
}

/// Any JSON-refusing extractor `T` on a page route: its refusal becomes the site's error
/// page with the same status (e.g. `Paged(BotPath(name))`).
#[derive(Debug, Clone)]
pub struct Paged<T>(pub T);

impl<S: Send + Sync, T> FromRequestParts<S> for Paged<T>
where
    T: FromRequestParts<S, Rejection = ApiError> + Send,
{
    type Rejection = PageError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Paged<T>, PageError> {
        Ok(Paged(T::from_request_parts(parts, state).await?))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    use axum::body::Body;
    use axum::http::{Request, StatusCode};
    use axum::routing::get;
    use axum::Router;
    use tower::ServiceExt;

    use super::*;

    /// The status of `GET path` on a router whose handlers count their calls in `calls`.
    async fn status(path: &str, calls: &Arc<AtomicUsize>) -> StatusCode {
        let (a, b, c) = (calls.clone(), calls.clone(), calls.clone());
        let app = Router::new()
            .route(
                "/bots/{name}",
                get(move |BotPath(_): BotPath| async move {
                    a.fetch_add(1, Ordering::SeqCst);
                }),
            )
            .route(
                "/bots/{name}/v/{version}",
                get(move |VersionPath(..): VersionPath| async move {
                    c.fetch_add(1, Ordering::SeqCst);
                }),
            )
            .route(
                "/games/{id}",
                get(move |GameId(_): GameId| async move {
                    b.fetch_add(1, Ordering::SeqCst);
                }),
            );
        let request = Request::get(path).body(Body::empty()).unwrap();
        app.oneshot(request).await.unwrap().status()
    }

    #[tokio::test]
    async fn a_parameter_no_bot_or_game_can_have_is_404_before_the_handler() {
        let calls = Arc::new(AtomicUsize::new(0));
        for bad in [
            "/bots/a%20b",
            "/bots/.hidden",
            "/bots/%3Cb%3E",
            &format!("/bots/{}", "x".repeat(41)),
            "/games/abc",
            "/games/-1",
            "/games/+5",
            "/games/9223372036854775808", // 2^63: just over
            "/games/99999999999999999999",
            "/bots/a%20b/v/1",
            "/bots/ok/v/0",          // just under the lowest version
            "/bots/ok/v/4294967296", // 2^32: just over the highest
            "/bots/ok/v/01",
            "/bots/ok/v/+1",
            "/bots/ok/v/x",
        ] {
            assert_eq!(status(bad, &calls).await, StatusCode::NOT_FOUND, "{bad}");
        }
        assert_eq!(calls.load(Ordering::SeqCst), 0, "a handler ran for a refused parameter");
        for good in [
            "/bots/my-bot_2",
            &format!("/bots/{}", "x".repeat(40)),
            "/games/0",
            "/games/9223372036854775807",
            "/bots/ok/v/1",
            "/bots/ok/v/4294967295",
        ] {
            assert_eq!(status(good, &calls).await, StatusCode::OK, "{good}");
        }
        assert_eq!(calls.load(Ordering::SeqCst), 6);
    }
}
