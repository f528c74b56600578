//! The list of a league's games: `GET /api/games` (JSON, [`GameList`]) and the page
//! `/games`, newest first, a page at a time (`limit`, `cursor`), filtered by bot, version,
//! author, end time and status ([`GamesQuery`]; bad parameters 400). Both public: a league
//! game is (its page `/games/{id}` is), a suspended version's included; the list holds
//! seats, results and times, never a bot's stderr. The page names a version the viewer may
//! not see without linking it (its page would answer 404).

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};

use super::error::{ApiError, ErrorBody};
use super::game_query::{self, GamesParams, GamesQuery};
use super::html::{Page, PageError, Viewer};
use super::state::AppState;
use mjai_sim_pages::site;
use mjai_sim_tournament::leaderboard::game_list::GameList;

/// The API route of this module (described in the OpenAPI document, [`super::openapi`]).
pub const ROUTES: [&str; 1] = ["/api/games"];

/// The page of this module.
pub const PAGES: [&str; 1] = ["/games"];

/// `GET /api/games`.
pub fn router() -> Router<AppState> {
    Router::new().route(ROUTES[0], get(games))
}

/// `/games`, its error pages rendered for who is looking ([`super::html::for_viewer`]).
pub fn page_router(state: AppState) -> Router<AppState> {
    Router::new().route(PAGES[0], get(page)).layer(axum::middleware::from_fn_with_state(state, super::html::for_viewer))
}

/// `GET /api/games`.
#[utoipa::path(get, tag = "game_list", path = "/api/games",
    summary = "The league's games, newest first, running and finished, with seats, results and times (cursor-paginated)",
    params(GamesParams),
    responses((status = 200, description = "one page of games; `next_cursor` for the next", body = GameList),
        (status = 400, description = "a parameter that is not one (unknown, repeated, out of range, from after to)", body = ErrorBody),
        (status = 401, description = "a token came that is not valid", body = ErrorBody)),
)]
pub async fn games(State(state): State<AppState>, GamesQuery(q): GamesQuery) -> Result<Json<GameList>, ApiError> {
    Ok(Json(state.store.game_list().list(&q).await?))
}

/// `/games`: the same list as HTML, with a filter form and a link to the next page. The
/// form's empty fields are no filter; a bad parameter is the error page (400).
pub async fn page(State(state): State<AppState>, viewer: Viewer, uri: axum::http::Uri) -> Result<Page, PageError> {
    let given: Vec<(String, String)> = url::form_urlencoded::parse(uri.query().unwrap_or("").as_bytes())
        .into_owned()
        .filter(|(_, v)| !v.is_empty())
        .collect();
    let q = game_query::parse(&encoded(given.iter().map(|(k, v)| (k.as_str(), v.as_str()))))?;
    let list = state.store.game_list().list(&q).await?;
    // the dates as the caller wrote them (the form shows them again), and the next page's
    // link: the same query with the new cursor
    let date = |key: &str| given.iter().find(|(k, _)| k == key).map_or("", |(_, v)| v.as_str());
    let next = list.next_cursor.as_ref().map(|cursor| {
        let kept = given.iter().filter(|(k, _)| k != "cursor").map(|(k, v)| (k.as_str(), v.as_str()));
        format!("/games?{}", encoded(kept.chain([("cursor", cursor.as_str())])))
    });
    let ctx = viewer.context_linking(&state).await?;
    let html = site::games_page(&list, &q, (date("from"), date("to")), next.as_deref(), &ctx);
    Ok(Page::ok(html))
}

/// `pairs` as a percent-encoded query (`a=1&b=x%26y`).
fn encoded<'a>(pairs: impl Iterator<Item = (&'a str, &'a str)>) -> String {
    let mut query = url::form_urlencoded::Serializer::new(String::new());
    for (k, v) in pairs {
        query.append_pair(k, v);
    }
    query.finish()
}
