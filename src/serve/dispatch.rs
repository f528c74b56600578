//! Several leagues at one address (issue 54): each league is served by its own router over
//! its own [`super::state::AppState`] (store scoped to it, rules, queue, validator, remote
//! hub), and this module sends each request to one of them:
//!
//! - `/api/leagues/NAME/REST` is `/api/REST` of league NAME (`/api/leagues/NAME` itself is
//!   its `/api/league`); `/leagues/NAME/REST` is `/REST` of league NAME (pages, assets, the
//!   riichi.dev dialect's `/ws/...`, `/metrics`); `/leagues` is the default league's `/about`,
//!   which lists them all;
//! - any other path with the query parameter `league=NAME` is that path of league NAME (the
//!   parameter taken out);
//! - everything else is the default league's (the first), so that a one-league server's
//!   paths are what they always were.
//!
//! An unknown league is 404 naming `/api/leagues`. A league name is one path segment of
//! letters, digits, `-`, `_` and `.` ([`super::settings::check_league_name`]).
//!
//! A league other than the default renders its pages with the links of the default's paths
//! (`/games`, `/bots/NAME`): [`prefix_links`] puts them under `/leagues/NAME` in the
//! response (the `href`, `action`, `src` and `data-stream` attributes of HTML answers, and
//! `Location`), so that its pages link within it. What a bot or an author controls never
//! reaches those attributes unescaped (every such value is HTML-escaped and URL-encoded by
//! the templates), so only the templates' own links are rewritten.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::Request;
use axum::http::{header, HeaderValue, Uri};
use axum::response::{IntoResponse, Response};
use axum::Router;
use tower::ServiceExt;

use super::error::ApiError;

/// Largest HTML answer whose links [`prefix_links`] rewrites, in bytes (a hanchan's viewer
/// page is about 1 MB); a larger one is sent as it is.
pub const MAX_REWRITTEN_PAGE: usize = 32 * 1024 * 1024;

/// One league's router, by name.
#[derive(Clone)]
pub struct LeagueRoute {
    /// The league's name.
    pub name: String,
    /// Its routes (every layer included), over its own state.
    pub router: Router,
}

/// The server's router: `leagues` (the default first; at least one) behind the paths the
/// module docs list.
pub fn dispatch(leagues: Vec<LeagueRoute>) -> Router {
    let leagues = Arc::new(leagues);
    Router::new().fallback(move |request: Request| {
        let leagues = leagues.clone();
        async move { route(&leagues, request).await }
    })
}

/// Sends `request` to its league's router, its path rewritten.
async fn route(leagues: &[LeagueRoute], mut request: Request) -> Response {
    let Some(default) = leagues.first() else { return ApiError::not_found("league").into_response() };
    let (league, uri) = match pick(request.uri()) {
        Pick::Default => (default, None),
        Pick::League { name, uri } => match leagues.iter().find(|l| l.name == name) {
            Some(league) => (league, Some(uri)),
            None => {
                return ApiError::new(
                    axum::http::StatusCode::NOT_FOUND,
                    format!("no league named {name:?} here; GET /api/leagues lists this server's leagues"),
                )
                .into_response()
            }
        },
        Pick::About => (default, Some(Uri::from_static("/about"))),
    };
    if let Some(uri) = uri {
        *request.uri_mut() = uri;
    }
    match league.router.clone().oneshot(request).await {
        Ok(response) => response,
        Err(never) => match never {},
    }
}

/// Where a request goes.
#[derive(Debug, PartialEq, Eq)]
enum Pick {
    /// The default league, the path as it is.
    Default,
    /// `/leagues`: the default league's `/about`.
    About,
    /// League `name`, at `uri`.
    League { name: String, uri: Uri },
}

/// The league a request's `uri` names and its path within that league (module docs).
fn pick(uri: &Uri) -> Pick {
    let path = uri.path();
    let query = uri.query();
    if path == "/leagues" || path == "/leagues/" {
        return Pick::About;
    }
    let (name, rest) = if let Some(after) = path.strip_prefix("/api/leagues/") {
        let (name, rest) = split_segment(after);
        (name, if rest.is_empty() || rest == "/" { "/api/league".to_string() } else { format!("/api{rest}") })
    } else if let Some(after) = path.strip_prefix("/leagues/") {
        let (name, rest) = split_segment(after);
        (name, if rest.is_empty() { "/".to_string() } else { rest.to_string() })
    } else {
        match query.and_then(league_param) {
            Some((name, others)) => {
                return Pick::League { name, uri: with_query(path, others.as_deref()) };
            }
            None => return Pick::Default,
        }
    };
    Pick::League { name: name.to_string(), uri: with_query(&rest, query) }
}

/// `s` split at its first `/`: the segment before, and the rest from the `/` on.
fn split_segment(s: &str) -> (&str, &str) {
    match s.find('/') {
        Some(i) => (&s[..i], &s[i..]),
        None => (s, ""),
    }
}

/// The value of `league=` in `query` and the query without it (`None` when nothing is
/// left); `None` when there is no such parameter.
fn league_param(query: &str) -> Option<(String, Option<String>)> {
    let mut name = None;
    let mut others = Vec::new();
    for pair in query.split('&') {
        match pair.strip_prefix("league=") {
            Some(value) if name.is_none() => name = Some(value.to_string()),
            _ => others.push(pair),
        }
    }
    name.map(|n| (n, (!others.is_empty()).then(|| others.join("&"))))
}

/// `path` with `query`, as a URI (a path that does not parse is `/`, which answers 404).
fn with_query(path: &str, query: Option<&str>) -> Uri {
    let text = match query {
        Some(q) => format!("{path}?{q}"),
        None => path.to_string(),
    };
    text.parse().unwrap_or_else(|_| Uri::from_static("/"))
}

/// Middleware of a league other than the default (`base`: `/leagues/NAME`): its answers'
/// links put under `base` (module docs).
pub async fn prefix_links(base: Arc<str>, request: Request, next: axum::middleware::Next) -> Response {
    let mut response = next.run(request).await;
    if let Some(location) = response.headers().get(header::LOCATION).and_then(|v| v.to_str().ok()) {
        if let Some(moved) = prefixed(location, &base) {
            if let Ok(v) = HeaderValue::from_str(&moved) {
                response.headers_mut().insert(header::LOCATION, v);
            }
        }
    }
    let html = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("text/html"));
    if !html {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, MAX_REWRITTEN_PAGE).await else {
        return ApiError::from(anyhow::anyhow!("a page over {MAX_REWRITTEN_PAGE} bytes")).into_response();
    };
    let Ok(text) = std::str::from_utf8(&bytes) else { return Response::from_parts(parts, Body::from(bytes)) };
    let rewritten = rewrite_links(text, &base);
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, Body::from(rewritten))
}

/// The attributes whose site paths [`rewrite_links`] moves.
const LINK_ATTRIBUTES: [&str; 4] = [" href=\"", " action=\"", " src=\"", " data-stream=\""];

/// `html` with every link attribute holding a site path (`"/..."`) put under `base`, but
/// those already naming a league (`/leagues/...`) and protocol-relative ones (`//...`).
fn rewrite_links(html: &str, base: &str) -> String {
    let mut out = String::with_capacity(html.len() + 1024);
    let mut rest = html;
    while let Some((at, attribute)) =
        LINK_ATTRIBUTES.iter().filter_map(|a| rest.find(a).map(|i| (i, *a))).min_by_key(|(i, _)| *i)
    {
        let value_at = at + attribute.len();
        out.push_str(&rest[..value_at]);
        rest = &rest[value_at..];
        let end = rest.find('"').unwrap_or(rest.len());
        match prefixed(&rest[..end], base) {
            Some(moved) => out.push_str(&moved),
            None => out.push_str(&rest[..end]),
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// `path` under `base` when it is a site path to move (module docs); `None` otherwise.
fn prefixed(path: &str, base: &str) -> Option<String> {
    let moves = path.starts_with('/') && !path.starts_with("//") && !path.starts_with("/leagues/");
    moves.then(|| format!("{base}{path}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn league(uri: &str) -> Pick {
        pick(&uri.parse().unwrap())
    }

    fn to(name: &str, uri: &str) -> Pick {
        Pick::League { name: name.into(), uri: uri.parse().unwrap() }
    }

    #[test]
    fn a_path_names_its_league_or_is_the_defaults() {
        assert_eq!(league("/api/leagues/3p/leaderboard"), to("3p", "/api/leaderboard"));
        assert_eq!(league("/api/leagues/3p"), to("3p", "/api/league"));
        assert_eq!(league("/api/leagues/3p/"), to("3p", "/api/league"));
        assert_eq!(league("/api/leagues/3p/games?bot=a&limit=2"), to("3p", "/api/games?bot=a&limit=2"));
        assert_eq!(league("/leagues/3p/bots/a%20b"), to("3p", "/bots/a%20b"));
        assert_eq!(league("/leagues/3p"), to("3p", "/"));
        assert_eq!(league("/leagues/3p/"), to("3p", "/"));
        assert_eq!(league("/ws/ranked?league=3p"), to("3p", "/ws/ranked"));
        assert_eq!(league("/api/bots?x=1&league=3p&y=2"), to("3p", "/api/bots?x=1&y=2"));
        assert_eq!(league("/leagues"), Pick::About);
        assert_eq!(league("/api/leagues"), Pick::Default);
        assert_eq!(league("/api/leaderboard"), Pick::Default);
        assert_eq!(league("/games?bot=league"), Pick::Default);
        assert_eq!(league("/"), Pick::Default);
    }

    #[test]
    fn only_the_templates_site_paths_move_under_the_league() {
        let html = r#"<a href="/games">g</a><a href="/leagues/4p/">4p</a><form action="/upload"><img src="//x/y"><a href="https://e/">e</a><div id="live" data-stream="/api/games/3/live"></div><p>href="/not-an-attribute"</p><a class="x" href="/bots/a%22b/v/1">b</a>"#;
        let out = rewrite_links(html, "/leagues/3p");
        assert_eq!(
            out,
            r#"<a href="/leagues/3p/games">g</a><a href="/leagues/4p/">4p</a><form action="/leagues/3p/upload"><img src="//x/y"><a href="https://e/">e</a><div id="live" data-stream="/leagues/3p/api/games/3/live"></div><p>href="/not-an-attribute"</p><a class="x" href="/leagues/3p/bots/a%22b/v/1">b</a>"#
        );
        assert_eq!(rewrite_links("no links", "/leagues/3p"), "no links");
        assert_eq!(rewrite_links("<a href=\"/unterminated", "/leagues/3p"), "<a href=\"/leagues/3p/unterminated");
    }
}
