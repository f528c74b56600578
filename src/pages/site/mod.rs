//! The grading server's pages (issue 21): pure functions from the league's data
//! ([`mjai_sim_tournament::leaderboard`]) to HTML, through the compiled, auto-escaping
//! templates of `src/pages/templates` (askama), so every name, reason and stderr line a bot
//! or author controls is escaped by construction. No I/O, no HTTP: the server calls these
//! and sends the result with the header [`CSP`].
//!
//! The pages hold no inline script or style (the CSP forbids both): the style and the
//! viewer's script are files under `/assets/` ([`asset`]). Everything but the game viewer
//! reads without JavaScript (the retired bots sit in a `<details>`).
//!
//! Forms post to `/login`, `/logout` and `/upload` on the same origin and carry no CSRF
//! token: the session cookie is `SameSite=Strict`, so a request from another site never
//! carries it, and the CSP's `form-action 'self'` keeps the forms on the origin.

mod about;
mod bot;
mod forms;
mod games;
mod leaderboard;
mod me;
mod season;

pub use about::{about_page, AboutFacts, LeagueLink};
pub use bot::bot_page;
pub use forms::{error_page, login_page, registered_page, retire_page, upload_page, ZipRuntime};
pub use games::games_page;
pub use leaderboard::leaderboard_page;
pub use me::{me_page, MyBot};
pub use season::{season_page, FinalGameLine, SeasonFacts, StandingLine};

use super::{LIVE_JS, SITE_CSS};
use mjai_sim_viewer::game::GameData;
use mjai_sim_viewer::layout::{GAME_CSS, GAME_JS};

/// The Content-Security-Policy the server sends with every page: scripts, styles and
/// images and the live game stream (`connect-src`) only from its own origin (no inline
/// code, no CDN), forms only to itself, no
/// framing, no `<base>`, nothing else.
pub const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; \
connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/// Who is looking at a page.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageContext {
    /// The logged-in author (from the session cookie); `None` for a visitor.
    pub author: Option<String>,
    /// Bot versions (name, version) this viewer may not see (another author's rejected or
    /// suspended ones: their pages answer 404): where a page names one (a game's seat, a
    /// head-to-head opponent) it is not linked ([`PageContext::links`]).
    pub unseen: Vec<(String, u32)>,
}

impl PageContext {
    /// Whether pages link version `version` of `name` for this viewer: every version but
    /// the [`PageContext::unseen`] ones. (`version` by reference: the templates pass
    /// their fields so.)
    pub fn links(&self, name: &str, version: &u32) -> bool {
        !self.unseen.iter().any(|(n, v)| n == name && v == version)
    }
}

/// The file served at `/assets/{name}`: its content type and bytes; `None` for any other
/// name. Files: `site.css` (every page), `game.css` and `game.js` (the viewer), `live.js`
/// (a running game's page).
pub fn asset(name: &str) -> Option<(&'static str, &'static [u8])> {
    match name {
        "site.css" => Some(("text/css; charset=utf-8", SITE_CSS.as_bytes())),
        "game.css" => Some(("text/css; charset=utf-8", GAME_CSS.as_bytes())),
        "game.js" => Some(("text/javascript; charset=utf-8", GAME_JS.as_bytes())),
        "live.js" => Some(("text/javascript; charset=utf-8", LIVE_JS.as_bytes())),
        _ => None,
    }
}

/// `/games/{id}` (and a bot's validation game): the viewer of one game (`data` from
/// [`mjai_sim_viewer::game::analyse`] over the game's log and errors), its style and script
/// from `/assets/`, its header naming who is logged in (`ctx`) as every page's does. Needs
/// JavaScript.
pub fn game_page(data: &GameData, ctx: &PageContext, downloads: &[(&str, String)]) -> String {
    mjai_sim_viewer::page::served_page(data, ctx.author.as_deref(), downloads, None)
}

/// `/games/{id}` while the game is played: the viewer of its finished hands (`data`), a
/// line saying it is live, and `live.js` following `live.stream`.
pub fn live_game_page(data: &GameData, ctx: &PageContext, live: &mjai_sim_viewer::page::Live) -> String {
    mjai_sim_viewer::page::served_page(data, ctx.author.as_deref(), &[], Some(live))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_four_assets_are_served() {
        assert!(asset("live.js").is_some_and(|a| a.0 == "text/javascript; charset=utf-8" && a.1 == LIVE_JS.as_bytes()));
        assert_eq!(asset("site.css").map(|a| a.0), Some("text/css; charset=utf-8"));
        assert_eq!(asset("game.js").map(|a| a.0), Some("text/javascript; charset=utf-8"));
        assert!(asset("game.css").is_some_and(|a| a.1.starts_with(b"body {")));
        for bad in ["", "../Cargo.toml", "site.css/", "viewer.html", "/assets/site.css"] {
            assert_eq!(asset(bad), None, "{bad}");
        }
    }
}
