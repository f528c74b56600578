//! `/about`: the page for a first visitor ([`mjai_sim_pages::site::about_page`]): the
//! league's rules preset and table size, its clock, the upload limits and where uploads
//! play, how to join, where the API is described; the server's leagues and this league's
//! seasons. Read from the league's stored options
//! (what its games play under, whatever a later start's flags say) and the server's limits.

use axum::extract::State;
use axum::routing::get;
use axum::Router;

use super::error::ApiError;
use super::html::{Page, PageError, Viewer};
use super::state::AppState;
use mjai_sim_arena::clock::{Clock, OnTimeout};
use mjai_sim_arena::launch::RuntimeKind;
use mjai_sim_pages::site::{about_page, AboutFacts};
use mjai_sim_tournament::config::TournamentConfig;
use mjai_sim_tournament::store::SeasonStatus;

/// This module's pages (docs/server.md).
pub const PAGES: [&str; 1] = ["/about"];

/// This module's routes, error pages rendered for who is looking.
pub fn page_router(state: AppState) -> Router<AppState> {
    Router::new().route(PAGES[0], get(page)).layer(axum::middleware::from_fn_with_state(state, super::html::for_viewer))
}

/// Handles `/about`. Errors: the store failed (500 or 503); the league's stored options
/// do not parse (500).
pub async fn page(State(state): State<AppState>, viewer: Viewer) -> Result<Page, PageError> {
    let json = state.store.meta().await?.map(|(_, json)| json).unwrap_or_default();
    let config = TournamentConfig::parse(&json)
        .map_err(|e| ApiError::from(anyhow::anyhow!("the league's stored options do not parse: {e}")))?;
    let facts = AboutFacts {
        rules: config.rules.name().to_string(),
        players: config.rules.players.count(),
        clock: clock_words(&config.match_options().clock),
        runtime: match config.runtime {
            RuntimeKind::Docker => "in a Docker container per seat, with no network".into(),
            RuntimeKind::Process => "as a plain process on the server (a trusted group's league)".into(),
        },
        max_mib: state.settings.max_submission_bytes.div_ceil(1024 * 1024),
        max_bots: state.settings.uploads.max_bots,
        uploads_per_hour: state.settings.uploads.uploads_per_hour,
        leagues: state.leagues.iter().enumerate().map(|(i, l)| l.link(i == state.league)).collect(),
        seasons: seasons(&state).await?,
    };
    Ok(Page::ok(about_page(&facts, &viewer.context())))
}

/// The league's seasons for `/about`: (name, status word), the latest opened first.
/// Errors: the store failed.
async fn seasons(state: &AppState) -> Result<Vec<(String, String)>, ApiError> {
    let now = mjai_sim_tournament::session::season::now_ms();
    let rows = state.store.seasons().list().await?;
    let word = |s| match s {
        SeasonStatus::Open => "open",
        SeasonStatus::Frozen => "frozen",
        SeasonStatus::Final => "final",
    };
    Ok(rows.iter().map(|r| (r.name.clone(), word(r.status(now)).to_string())).collect())
}

/// `clock` in words: `2 s per decision, no time bank; a timeout is a chombo`.
fn clock_words(clock: &Clock) -> String {
    let bank = match clock.bank.is_zero() {
        true => "no time bank".to_string(),
        false => format!("a {} s time bank per hand", clock.bank.as_secs_f64()),
    };
    let timeout = match clock.on_timeout {
        OnTimeout::Chombo => "a timeout is a chombo",
        OnTimeout::Default => "a timeout plays the default action, with no penalty",
    };
    format!("{} s per decision, {bank}; {timeout}", clock.decision.as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::clock_words;
    use mjai_sim_arena::clock::Clock;

    #[test]
    fn each_clock_is_said_in_words() {
        assert_eq!(clock_words(&Clock::mjai_app()), "2 s per decision, no time bank; a timeout is a chombo");
        assert_eq!(
            clock_words(&Clock::riichi_dev()),
            "3 s per decision, a 15 s time bank per hand; a timeout plays the default action, with no penalty"
        );
    }
}
