//! One league of a server as its clients see it ([`LeagueInfo`]: name, rules, seats, where
//! its API and pages are), made at start from its stored options; listed by
//! [`super::leagues`] and held by every handler's state.

use serde::Serialize;
use utoipa::ToSchema;

use mjai_sim_pages::site::LeagueLink;
use mjai_sim_tournament::config::TournamentConfig;

/// One league of the server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct LeagueInfo {
    /// Its name (its tournament id), one path segment.
    pub name: String,
    /// Its rules preset's name (`tenhou`, `riichi-dev-3p`, ...), as its games play.
    pub rules: String,
    /// Seats at its tables: 4, or 3 (sanma).
    pub players: usize,
    /// Whether it is the server's default league, whose API is also at `/api/...` and
    /// pages at `/...`.
    pub default: bool,
    /// Its API's root: `/api/leagues/NAME` (its leaderboard: `/api/leagues/NAME/leaderboard`).
    pub api: String,
    /// Its pages' root: `/leagues/NAME/`.
    pub pages: String,
}

impl LeagueInfo {
    /// League `name` playing under `config` (its stored options).
    pub fn new(name: &str, config: &TournamentConfig, default: bool) -> LeagueInfo {
        LeagueInfo {
            name: name.to_string(),
            rules: config.rules.name().to_string(),
            players: config.rules.players.count(),
            default,
            api: format!("/api/leagues/{name}"),
            pages: format!("/leagues/{name}/"),
        }
    }

    /// The link `/about` shows, `current` when it is the page's own league.
    pub fn link(&self, current: bool) -> LeagueLink {
        LeagueLink {
            name: self.name.clone(),
            rules: self.rules.clone(),
            players: self.players,
            href: self.pages.clone(),
            current,
        }
    }
}
