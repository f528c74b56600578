//! The query of `GET /api/games` and `/games` parsed into a checked
//! [`GameQuery`] before the handler runs ([`GamesQuery`]): `limit` (1 to
//! [`MAX_LIMIT`], default [`DEFAULT_LIMIT`]), `cursor` (a previous answer's `next_cursor`),
//! `bot`, `version` (with `bot`), `author`, `from` and `to` (a date `YYYY-MM-DD` or an RFC
//! 3339 time, on the game's end time; a date `to` takes in its whole day) and `status`
//! (`running` or `finished`). Anything else (an unknown or repeated parameter, a value out
//! of range, `from` after `to`) is 400 with a one-line reason; a bot or author no game has
//! is not an error, its list is empty.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::StatusCode;
use utoipa::IntoParams;

use super::error::ApiError;
use mjai_sim_tournament::leaderboard::game_list::{cursor_id, GameQuery, GameStatus, DEFAULT_LIMIT, MAX_LIMIT};
use mjai_sim_tournament::leaderboard::utc;

/// The checked query of a games list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GamesQuery(pub GameQuery);

/// The parameters as the OpenAPI document describes them (parsing is [`parse`]'s).
#[derive(Debug, IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)] // read by the OpenAPI document only
pub struct GamesParams {
    /// Games per answer, 1 to 200 (default 50).
    #[param(minimum = 1, maximum = 200)]
    limit: Option<u32>,
    /// The previous answer's `next_cursor` (any other text: 400).
    cursor: Option<String>,
    /// Only games with a seat of this bot (a name no bot has: an empty list).
    bot: Option<String>,
    /// With `bot`: only that version's games.
    #[param(minimum = 1)]
    version: Option<u32>,
    /// Only games with a seat of one of this author's bots.
    author: Option<String>,
    /// Only games that ended at or after this: `YYYY-MM-DD` (its midnight, UTC) or RFC 3339.
    from: Option<String>,
    /// Only games that ended at or before this: `YYYY-MM-DD` (the whole day, UTC) or RFC 3339.
    to: Option<String>,
    /// `running` or `finished` (default: both; a date filter lists finished games only).
    status: Option<String>,
}

/// A 400 with `reason`.
fn bad(reason: String) -> ApiError {
    ApiError::new(StatusCode::BAD_REQUEST, reason)
}

/// Milliseconds of one day.
const DAY_MS: i64 = 86_400_000;

/// `query` (the text after `?`, percent-encoded) as a [`GameQuery`]. Errors: 400 with the
/// parameter and what it takes.
pub fn parse(query: &str) -> Result<GameQuery, ApiError> {
    let mut q = GameQuery { limit: DEFAULT_LIMIT, ..GameQuery::default() };
    let mut seen: Vec<String> = Vec::new();
    for (key, value) in url::form_urlencoded::parse(query.as_bytes()) {
        if seen.iter().any(|k| *k == key) {
            return Err(bad(format!("parameter {key} given twice")));
        }
        seen.push(key.to_string());
        let value = value.into_owned();
        match key.as_ref() {
            "limit" => {
                let n = value.parse::<u32>().ok().filter(|n| (1..=MAX_LIMIT).contains(n) && !value.starts_with('+'));
                q.limit = n.ok_or_else(|| bad(format!("limit must be a number from 1 to {MAX_LIMIT}")))?;
            }
            "cursor" => {
                let id = cursor_id(&value).ok_or_else(|| bad("cursor is not one this server gave".into()))?;
                q.before = Some(id);
            }
            "bot" => q.bot = Some(value),
            "version" => {
                let canonical = value.bytes().all(|b| b.is_ascii_digit()) && !value.starts_with('0');
                let v = canonical.then(|| value.parse::<u32>().ok()).flatten();
                q.version = Some(v.ok_or_else(|| bad("version must be a number from 1 to 4294967295".into()))?);
            }
            "author" => q.author = Some(value),
            "from" => q.from_ms = Some(time(&key, &value)?),
            "to" => {
                let ms = time(&key, &value)?;
                // a date: through the end of that day
                q.to_ms = Some(if value.len() == 10 { ms + DAY_MS - 1 } else { ms });
            }
            "status" => {
                q.status = Some(match value.as_str() {
                    "running" => GameStatus::Running,
                    "finished" => GameStatus::Finished,
                    _ => return Err(bad("status must be running or finished".into())),
                })
            }
            other => {
                let shown: String = other.chars().take(40).collect();
                return Err(bad(format!(
                    "unknown parameter {shown:?} (limit, cursor, bot, version, author, from, to, status)"
                )));
            }
        }
    }
    if q.version.is_some() && q.bot.is_none() {
        return Err(bad("version needs bot".into()));
    }
    if let (Some(from), Some(to)) = (q.from_ms, q.to_ms) {
        if from > to {
            return Err(bad("from is after to".into()));
        }
    }
    Ok(q)
}

/// `value` of date parameter `key` in milliseconds. Errors: 400.
fn time(key: &str, value: &str) -> Result<i64, ApiError> {
    utc::parse(value).ok_or_else(|| bad(format!("{key} must be a date (YYYY-MM-DD) or an RFC 3339 time")))
}

impl<S: Send + Sync> FromRequestParts<S> for GamesQuery {
    type Rejection = ApiError;

    /// Errors: 400 as [`parse`].
    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<GamesQuery, ApiError> {
        parse(parts.uri.query().unwrap_or("")).map(GamesQuery)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn good_queries_parse_into_their_filters() {
        assert_eq!(parse("").unwrap(), GameQuery { limit: DEFAULT_LIMIT, ..GameQuery::default() });
        let q = parse(
            "limit=200&cursor=g12&bot=a%2Db&version=2&author=alice&from=2026-11-27&to=2026-11-27&status=finished",
        )
        .unwrap();
        assert_eq!((q.limit, q.before, q.bot.as_deref(), q.version), (200, Some(12), Some("a-b"), Some(2)));
        assert_eq!(q.author.as_deref(), Some("alice"));
        assert_eq!((q.from_ms, q.to_ms), (Some(1_795_737_600_000), Some(1_795_737_600_000 + DAY_MS - 1)));
        assert_eq!(q.status, Some(GameStatus::Finished));
        assert_eq!(parse("to=2026-11-27T10:00:00Z").unwrap().to_ms, Some(1_795_737_600_000 + 36_000_000));
        assert_eq!(parse("limit=1&status=running").unwrap().status, Some(GameStatus::Running));
    }

    #[test]
    fn bad_queries_are_400_with_a_reason() {
        for bad in [
            "limit=0",
            "limit=201",
            "limit=-1",
            "limit=+5",
            "limit=x",
            "limit=",
            "cursor=7",
            "cursor=",
            "version=1",
            "bot=a&version=0",
            "bot=a&version=01",
            "bot=a&version=4294967296",
            "from=yesterday",
            "to=2026-02-30",
            "status=done",
            "status=",
            "page=2",
            "limit=5&limit=6",
            "from=2026-11-28&to=2026-11-27",
            "%FF=1",
        ] {
            let e = parse(bad).unwrap_err();
            assert_eq!(e.status, StatusCode::BAD_REQUEST, "{bad}");
            assert!(!e.reason.contains('\n') && !e.reason.is_empty(), "{bad}: {}", e.reason);
        }
    }
}
