//! `/about` (`templates/about.html`): what a first visitor needs to know about the league:
//! its rules preset and table size, the clock, the upload limits and where uploads play,
//! how to get a token and join, and where the API is described.

use askama::Template;

use super::PageContext;
use mjai_sim_viewer::layout::{render, Head};

/// The league's facts the page states (the server reads them from its settings and the
/// league's stored options).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AboutFacts {
    /// The rules preset's name (`tenhou`, `riichi-dev-3p`, ...).
    pub rules: String,
    /// Seats at a table: 4, or 3.
    pub players: usize,
    /// The clock in words (`2 s per decision, no time bank; a timeout is a chombo`).
    pub clock: String,
    /// Where an uploaded zip plays, as a phrase (`in a Docker container per seat`).
    pub runtime: String,
    /// Largest upload, MiB.
    pub max_mib: u64,
    /// Most bots an author may have validating or active.
    pub max_bots: u64,
    /// Most uploads an author may make in an hour.
    pub uploads_per_hour: u64,
    /// Every league of the server, the default first.
    pub leagues: Vec<LeagueLink>,
    /// This league's seasons, the latest opened first: (name, status word: `open`,
    /// `frozen` or `final`).
    pub seasons: Vec<(String, String)>,
}

/// A league of the server as `/about` lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeagueLink {
    /// Its name.
    pub name: String,
    /// Its rules preset's name.
    pub rules: String,
    /// Seats at its tables: 4, or 3.
    pub players: usize,
    /// Its pages' root (`/leagues/NAME/`).
    pub href: String,
    /// Whether it is the league whose page this is.
    pub current: bool,
}

#[derive(Template)]
#[template(path = "about.html")]
struct About<'a> {
    head: Head,
    ctx: &'a PageContext,
    f: &'a AboutFacts,
}

/// The page `/about` stating `facts`.
pub fn about_page(facts: &AboutFacts, ctx: &PageContext) -> String {
    render(&About { head: Head::linked("About — mjai-sim".into(), "/assets/site.css"), ctx, f: facts })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_states_the_leagues_facts() {
        let facts = AboutFacts {
            rules: "riichi-dev-3p".into(),
            players: 3,
            clock: "3 s per decision and a 15 s bank per hand <b>".into(),
            runtime: "in a Docker container per seat".into(),
            max_mib: 100,
            max_bots: 3,
            uploads_per_hour: 10,
            leagues: vec![
                LeagueLink {
                    name: "4p".into(),
                    rules: "tenhou".into(),
                    players: 4,
                    href: "/leagues/4p/".into(),
                    current: false,
                },
                LeagueLink {
                    name: "3p".into(),
                    rules: "riichi-dev-3p".into(),
                    players: 3,
                    href: "/leagues/3p/".into(),
                    current: true,
                },
            ],
            seasons: vec![("spring<i>".into(), "final".into())],
        };
        let html = about_page(&facts, &PageContext::default());
        assert!(html.contains("<code>riichi-dev-3p</code>: 3 players"), "{html}");
        assert!(
            html.contains("Clock: 3 s per decision and a 15 s bank per hand &#60;b&#62;.")
                || html.contains("&lt;b&gt;"),
            "{html}"
        );
        assert!(!html.contains("<b>"), "escaped: {html}");
        assert!(html.contains("at most 100 MiB") && html.contains("in a Docker container per seat"), "{html}");
        assert!(html.contains("at most 3 bots") && html.contains("10 uploads an hour"), "{html}");
        assert!(html.contains("href=\"/api/openapi.json\"") && html.contains("href=\"/login\""), "{html}");
        assert!(html.contains("<li><a href=\"/leagues/4p/\">4p</a>: <code>tenhou</code>, 4 players</li>"), "{html}");
        assert!(
            html.contains("<li><strong>3p</strong> (this one): <code>riichi-dev-3p</code>, 3 players</li>"),
            "{html}"
        );
    }
}
