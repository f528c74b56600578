//! The read-only pages, server-rendered by [`mjai_sim_pages::site`] from the same figures as
//! the JSON API: `/` (the leaderboard), `/bots/{name}/v/{version}` (one version of a bot,
//! its own figures and games, a selector of its versions; its chombos only for its author
//! and admins), `/bots/{name}` (the same for the active version, else the latest),
//! `/bots/{name}/validation` (the viewer of the latest validation game: its author and
//! admins only, others 404), `/games/{id}` (the viewer of a league game),
//! `/me` (the logged-in author's bots, verdicts, errors and stderr; a visitor is sent to
//! `/login`), `/assets/{file}` (the pages' style and the viewer's script) and
//! `/favicon.ico` (the site's icon, which browsers ask for by themselves).
//!
//! A game's stderr tails are private: the viewer of `/games/{id}` shows each chombo's
//! stderr only to the author of the bot that made it (and to admins). A rejected version
//! is private too: its line, page and reason only for its author and admins (the
//! leaderboard page lists it for nobody: its author finds it on `/me`).

use axum::extract::{Path, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Extension;
use axum::Router;

use super::bot_errors;
use super::bots::{latest_validation_log, retire_live, shown_to};
use super::error::ApiError;
use super::games::gunzip;
use super::html::{LoggedIn, Page, PageError, Viewer};
use super::limits::Cacheable;
use super::owned::{seat_name, OwnedBot, OwnedSeats, Public};
use super::params::{BotPath, Paged, VersionPath};
use super::state::AppState;
use mjai_sim_engine::game::MAX_SEATS;
use mjai_sim_pages::site::{self, MyBot, PageContext};
use mjai_sim_tournament::leaderboard::shape::VersionPick;
use mjai_sim_tournament::leaderboard::{BotPage, BotStatus, ChomboLine};
use mjai_sim_tournament::store::VersionRow;
use mjai_sim_viewer::game::{analyse, GameInput};

/// The pages of this module (`/upload` is [`super::upload_form`]'s, `/login` [`super::login`]'s).
pub const PAGES: [&str; 9] = [
    "/",
    "/bots/{name}",
    "/bots/{name}/validation",
    "/games/{id}",
    "/me",
    "/assets/{file}",
    "/bots/{name}/retire",
    "/bots/{name}/v/{version}",
    "/favicon.ico",
];

/// How long a browser may keep the icon: a day (every other answer is `no-store`:
/// [`super::limits::cache_control`]).
pub const FAVICON_CACHE: &str = "public, max-age=86400";

/// This module's routes, error pages rendered for who is looking ([`super::html::for_viewer`]).
pub fn router(state: AppState) -> Router<AppState> {
    Router::new()
        .route(PAGES[0], get(leaderboard))
        .route(PAGES[1], get(bot))
        .route(PAGES[2], get(validation))
        .route(PAGES[3], get(game))
        .route(PAGES[4], get(me))
        .route(PAGES[5], get(asset))
        .route(PAGES[6], get(retire_form).post(retire))
        .route(PAGES[7], get(bot_version))
        .route(PAGES[8], get(favicon))
        .layer(axum::middleware::from_fn_with_state(state, super::html::for_viewer))
}

/// `GET /bots/{name}/retire`: the confirmation (its author or an admin; others as the API:
/// 401, 403, 404).
pub async fn retire_form(viewer: Viewer, Paged(bot): Paged<OwnedBot<Public>>) -> Page {
    Page::ok(site::retire_page(&viewer.context(), bot.name.as_str()))
}

/// `POST /bots/{name}/retire`: retires its live versions (as `DELETE /api/bots/{name}`),
/// then 303 to its page. The login cookie is `SameSite=Strict`: another site's form
/// cannot post here as the author.
pub async fn retire(State(state): State<AppState>, Paged(bot): Paged<OwnedBot<Public>>) -> Result<Response, PageError> {
    retire_live(&state, &bot).await?;
    Ok(axum::response::Redirect::to(&format!("/bots/{}", bot.name)).into_response())
}

/// `/`.
pub async fn leaderboard(State(state): State<AppState>, viewer: Viewer) -> Result<Page, PageError> {
    let mut board = state.figures().await?.leaderboard();
    let who = viewer.caller();
    board.bots.retain(|e| who.sees(e.author.as_deref(), e.status));
    board.bots.iter_mut().for_each(|e| state.mark_online(e));
    Ok(Page::ok(site::leaderboard_page(&board, &viewer.context())))
}

/// `/bots/{name}`: the page of the version shown by default (the active one, else the
/// latest), as [`bot_version`].
pub async fn bot(
    State(state): State<AppState>,
    viewer: Viewer,
    Paged(BotPath(name)): Paged<BotPath>,
    Paged(owned): Paged<Option<OwnedBot>>,
) -> Result<Page, PageError> {
    let who = viewer.caller();
    let page = state.figures().await?.bot_page(name.as_str(), VersionPick::Playing, &shown_to(&who)).await?;
    bot_version_page(&state, &viewer, page.ok_or_else(|| ApiError::not_found("such bot"))?, owned).await
}

/// `/bots/{name}/v/{version}`: that version's page; its chombos only when the viewer owns
/// the bot (an [`OwnedBot`] extracted; a failed store query is the error page, not a page
/// without chombos).
pub async fn bot_version(
    State(state): State<AppState>,
    viewer: Viewer,
    Paged(VersionPath(name, version)): Paged<VersionPath>,
    Paged(owned): Paged<Option<OwnedBot>>,
) -> Result<Page, PageError> {
    let (who, pick) = (viewer.caller(), VersionPick::Number(version));
    let page = state.figures().await?.bot_page(name.as_str(), pick, &shown_to(&who)).await?;
    bot_version_page(&state, &viewer, page.ok_or_else(|| ApiError::not_found("such bot version"))?, owned).await
}

/// One version's page, with the chombos of that version for its author and admins.
async fn bot_version_page(
    state: &AppState,
    viewer: &Viewer,
    mut page: BotPage,
    owned: Option<OwnedBot>,
) -> Result<Page, PageError> {
    state.mark_online(&mut page.entry);
    let chombos = match owned {
        Some(bot) => {
            let shown: Vec<VersionRow> = bot.versions.into_iter().filter(|v| v.version == page.entry.version).collect();
            Some(bot_errors::chombos(state, &shown).await?)
        }
        None => None,
    };
    Ok(Page::ok(site::bot_page(&page, chombos.as_deref(), &viewer.context_linking(state).await?)))
}

/// `/bots/{name}/validation`.
pub async fn validation(State(state): State<AppState>, Paged(bot): Paged<OwnedBot>) -> Result<Page, PageError> {
    let (log, errors) = latest_validation_log(&state, &bot).await?;
    let latest = bot.latest();
    let title = format!("{} v{}: validation game", latest.name, latest.version);
    let ctx = Viewer(Some(bot.author.clone())).context();
    let downloads = [("mjai log", format!("/api/bots/{}/validation", latest.name))];
    viewer_page(title, &log, Some(&errors), Default::default(), &ctx, &downloads)
}

/// `/games/{id}`: each seat's stderr only to its bot's author (and admins: [`OwnedSeats`]).
pub async fn game(
    State(state): State<AppState>,
    viewer: Viewer,
    Paged(OwnedSeats { id, seats, mine }): Paged<OwnedSeats>,
) -> Result<Page, PageError> {
    let mut names: [Option<String>; MAX_SEATS] = Default::default();
    for (name, s) in names.iter_mut().zip(&seats) {
        *name = Some(seat_name(s));
    }
    let Some(files) = state.store.blobs().game_files(id).await? else {
        return live_game(&state, id, names, &viewer).await;
    };
    let errors = private_stderr_removed(&files.errors, &mine);
    let downloads = [
        ("mjai log (.jsonl.gz)", format!("/api/games/{id}/log.jsonl.gz")),
        ("tenhou.net/6", format!("/api/games/{id}/tenhou6.json")),
    ];
    viewer_page(format!("Game {id}"), &gunzip(&files.log_gz)?, Some(&errors), names, &viewer.context(), &downloads)
}

/// `/games/{id}` of a game not finished: while it is played (or waits to be played again),
/// the viewer of its finished hands followed live (`/assets/live.js` over
/// [`super::live_stream`]'s stream); a game not begun or failed for good is 404 as before.
async fn live_game(
    state: &AppState,
    id: u64,
    names: [Option<String>; MAX_SEATS],
    viewer: &Viewer,
) -> Result<Page, PageError> {
    use mjai_sim_tournament::store::GameState;
    let game = state.store.live().state(id).await?;
    if !matches!(game, Some(GameState::Running | GameState::Pending)) {
        return Err(ApiError::not_found("such game").into());
    }
    let (mut log, hands) = super::live_stream::log_so_far(&state.store, id).await?;
    if hands == 0 {
        if game != Some(GameState::Running) {
            return Err(ApiError::not_found("such game").into());
        }
        // nothing has ended yet: the seats (three in a three-player league), and the first
        // hand once it ends
        let seats = names.iter().flatten().count();
        let seat_names: Vec<String> = (0..if seats == 0 { MAX_SEATS } else { seats }).map(|s| s.to_string()).collect();
        log = serde_json::json!({"type": "start_game", "names": seat_names}).to_string();
    }
    let live =
        mjai_sim_viewer::page::Live { hands, stream: format!("/api/games/{id}/live"), script: "/assets/live.js" };
    let title = format!("Game {id} (live)");
    let mut data = game_data(title, log.as_bytes(), None, names)?;
    // a log that stops after a hand because the game goes on is no failure
    if data.failure.as_ref().is_some_and(|f| f.event >= data.events.len()) {
        data.failure = None;
    }
    Ok(Page::ok(site::live_game_page(&data, &viewer.context(), &live)))
}

/// `/me` (a visitor is sent to `/login`: [`LoggedIn`]).
pub async fn me(State(state): State<AppState>, LoggedIn(author): LoggedIn) -> Result<Page, PageError> {
    let author = author.0.name;
    let figures = state.figures().await?;
    let versions = state.store.versions().all().await?;
    let mut names: Vec<&str> =
        versions.iter().filter(|v| v.author.as_deref() == Some(author.as_str())).map(|v| v.name.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    let mut bots: Vec<(BotPage, Vec<ChomboLine>, String)> = Vec::new();
    for name in names {
        let of_name: Vec<VersionRow> = versions.iter().filter(|v| v.name == name).cloned().collect();
        // the latest version: the one whose validation /me shows
        let Some(mut page) = figures.bot_page(name, VersionPick::Latest, &|_| true).await? else { continue };
        state.mark_online(&mut page.entry);
        let chombos = bot_errors::chombos(&state, &of_name).await?;
        let latest = of_name.last().map(std::slice::from_ref).unwrap_or_default();
        let stderr = bot_errors::validations(&state, latest).await?.into_iter().next().map(|v| v.stderr);
        bots.push((page, chombos, stderr.unwrap_or_default()));
    }
    // each bot's place among the active versions, as the leaderboard ranks them
    let board = figures.leaderboard();
    let active: Vec<(&str, u32)> =
        board.bots.iter().filter(|e| e.status == BotStatus::Active).map(|e| (e.name.as_str(), e.version)).collect();
    let place_of = |page: &BotPage| {
        let at = active.iter().position(|&(n, v)| n == page.entry.name && v == page.entry.version)?;
        Some((at + 1, active.len()))
    };
    let mine: Vec<MyBot<'_>> = bots
        .iter()
        .map(|(page, chombos, stderr)| MyBot { page, chombos, validation_stderr: stderr, place: place_of(page) })
        .collect();
    Ok(Page::ok(site::me_page(&author, &mine)))
}

/// `/assets/{file}`.
pub async fn asset(Path(file): Path<String>) -> Response {
    match site::asset(&file) {
        Some((kind, bytes)) => ([(header::CONTENT_TYPE, kind)], bytes).into_response(),
        None => PageError::Shown(ApiError::not_found("such file")).into_response(),
    }
}

/// `/favicon.ico`: the icon, cached for [`FAVICON_CACHE`] (from the binary: nothing is
/// fetched).
pub async fn favicon() -> Response {
    let cache = Cacheable(HeaderValue::from_static(FAVICON_CACHE));
    ([(header::CONTENT_TYPE, "image/x-icon")], Extension(cache), mjai_sim_pages::FAVICON).into_response()
}

/// The viewer page of a game (`log`: its mjai log; `errors`: its `errors.json`; `names`:
/// the bots by seat as `NAME vV`, shown instead of the log's seat numbers; `ctx`: who is
/// looking, for the header).
fn viewer_page(
    title: String,
    log: &[u8],
    errors: Option<&str>,
    names: [Option<String>; MAX_SEATS],
    ctx: &PageContext,
    downloads: &[(&str, String)],
) -> Result<Page, PageError> {
    let data = game_data(title, log, errors, names)?;
    Ok(Page::ok(site::game_page(&data, ctx, downloads)))
}

/// The viewer's data of a game (see [`viewer_page`]). Errors: a stored log that is not one
/// (500, logged).
fn game_data(
    title: String,
    log: &[u8],
    errors: Option<&str>,
    names: [Option<String>; MAX_SEATS],
) -> Result<mjai_sim_viewer::GameData, PageError> {
    let log = String::from_utf8_lossy(log);
    let input = GameInput { title, log: &log, errors_json: errors, stderr_tails: Default::default() };
    let mut data = analyse(&input).map_err(|e| {
        tracing::error!("a stored log cannot be shown: {e}");
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "this game's stored log cannot be shown")
    })?;
    for (shown, name) in data.names.iter_mut().zip(names) {
        if let Some(name) = name {
            *shown = name;
        }
    }
    // the log's own names (league names, `NAME#V`) give way to the shown ones
    if let Some(start) = data.events.iter_mut().find(|e| e["type"] == "start_game") {
        if start.get("names").is_some_and(|n| n.is_array()) {
            start["names"] = serde_json::json!(data.names);
        }
    }
    Ok(data)
}

/// `errors.json` with the `stderr_tail` of every entry dropped unless its seat's bot is the
/// viewer's (`mine[seat]`). Text that is not a JSON array becomes `[]`.
pub fn private_stderr_removed(errors: &str, mine: &[bool]) -> String {
    let mut entries: Vec<serde_json::Value> = serde_json::from_str(errors).unwrap_or_default();
    for e in &mut entries {
        let seat = e["player_id"].as_u64().and_then(|s| usize::try_from(s).ok());
        let visible = seat.and_then(|s| mine.get(s).copied()).unwrap_or(false);
        if let (false, Some(map)) = (visible, e.as_object_mut()) {
            map.remove("stderr_tail");
        }
    }
    serde_json::Value::Array(entries).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_viewers_seats_keep_their_stderr() {
        let errors = r#"[{"player_id":0,"stderr_tail":["secret0"]},{"player_id":2,"stderr_tail":["mine2"]},
            {"player_id":7,"stderr_tail":["x"]},{"stderr_tail":["y"]}]"#;
        let out = private_stderr_removed(errors, &[false, false, true, false]);
        assert!(out.contains("mine2"), "{out}");
        for gone in ["secret0", "\"x\"", "\"y\""] {
            assert!(!out.contains(gone), "{gone} in {out}");
        }
        assert_eq!(private_stderr_removed("not json", &[true; 4]), "[]");
    }
}
