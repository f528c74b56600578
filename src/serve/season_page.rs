//! The page `/seasons/{name}` ([`mjai_sim_pages::site::season_page`]): a season of the
//! league, its final's games (each log a download) and, once frozen, its final standings;
//! public, from the same view as `GET /api/seasons/{name}` ([`super::seasons::view`]).

use axum::extract::State;
use axum::routing::get;
use axum::Router;

use super::error::ApiError;
use super::html::{Page, PageError, Viewer};
use super::params::Paged;
use super::season_view::{view, SeasonPath, SeasonView};
use super::state::AppState;
use mjai_sim_pages::site::{season_page, FinalGameLine, SeasonFacts, StandingLine};

/// This module's pages (docs/server.md).
pub const PAGES: [&str; 1] = ["/seasons/{name}"];

/// This module's routes, error pages rendered for who is looking.
pub fn page_router(state: AppState) -> Router<AppState> {
    Router::new().route(PAGES[0], get(page)).layer(axum::middleware::from_fn_with_state(state, super::html::for_viewer))
}

/// Handles `/seasons/{name}`. Errors: no such season (404); the store failed (500 or 503).
pub async fn page(
    State(state): State<AppState>,
    viewer: Viewer,
    Paged(SeasonPath(name)): Paged<SeasonPath>,
) -> Result<Page, PageError> {
    let row = state.store.seasons().get(&name).await?.ok_or_else(|| ApiError::not_found("such season"))?;
    let season = view(&state.store, &row).await.map_err(ApiError::from)?;
    Ok(Page::ok(season_page(&facts(&season), &viewer.context())))
}

/// The page's facts from the season's JSON view.
pub fn facts(s: &SeasonView) -> SeasonFacts {
    let fixed = |x: Option<f64>, digits: usize| x.map_or_else(|| "–".to_string(), |v| format!("{v:.digits$}"));
    let final_line = s.final_round.as_ref().map(|f| {
        let who = match f.top {
            Some(n) => format!("the top {n} of the leaderboard"),
            None => "every active bot".to_string(),
        };
        format!(
            "{who} ({} bots: {}), {} duplicate set(s) each; {} of {} games played",
            f.bots.len(),
            f.bots.join(", "),
            f.sets,
            f.played,
            f.games
        )
    });
    let standings = s
        .final_standings
        .iter()
        .flatten()
        .enumerate()
        .map(|(i, b)| StandingLine {
            rank: i + 1,
            name: b.name.clone(),
            games: b.games,
            avg_rank: match b.avg_rank_ci {
                Some([lo, hi]) => format!("{} [{lo:.2}, {hi:.2}]", fixed(b.avg_rank, 3)),
                None => fixed(b.avg_rank, 3),
            },
            avg_pt: fixed(b.avg_pt, 1),
            rating: format!("{:.2}", b.weng_lin.mu),
        })
        .collect();
    let games = s
        .games
        .iter()
        .map(|g| FinalGameLine {
            id: g.id,
            set: g.set,
            seats: g.bots.iter().zip(&g.ranks).map(|(b, r)| format!("{b} ({r})")).collect::<Vec<_>>().join(", "),
            log: g.log.clone(),
        })
        .collect();
    SeasonFacts {
        name: s.name.clone(),
        league: s.league.clone(),
        status: serde_json::to_value(s.status).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default(),
        opened_at: s.opened_at.clone(),
        freeze_at: s.freeze_at.clone(),
        final_line,
        frozen_at: s.frozen_at.clone(),
        standings,
        games,
    }
}
