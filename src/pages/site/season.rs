//! `/seasons/{name}` (`templates/season.html`): a league's season, its final's games (each
//! log downloadable) and its standings once frozen. Everything shown is escaped by the
//! template.

use askama::Template;

use super::PageContext;
use mjai_sim_viewer::layout::{render, Head};

/// A season as the page states it (the server fills it from the season's JSON).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SeasonFacts {
    /// The season's name.
    pub name: String,
    /// Its league's name.
    pub league: String,
    /// `open`, `frozen` or `final`.
    pub status: String,
    /// When it was opened, RFC 3339.
    pub opened_at: String,
    /// When uploads stop, RFC 3339.
    pub freeze_at: String,
    /// The final in words (who plays, how many sets and games, how many played); `None`
    /// before one is asked for.
    pub final_line: Option<String>,
    /// When the final's standings were frozen, RFC 3339; `None` until then.
    pub frozen_at: Option<String>,
    /// The frozen standings, best first.
    pub standings: Vec<StandingLine>,
    /// The final's games played.
    pub games: Vec<FinalGameLine>,
}

/// One bot's line of the frozen standings, its figures as text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StandingLine {
    /// 1 for the best.
    pub rank: usize,
    /// The bot (its league name).
    pub name: String,
    /// Games played in the final.
    pub games: u64,
    /// Mean rank, with its interval when there is one.
    pub avg_rank: String,
    /// Mean placement points.
    pub avg_pt: String,
    /// Weng-Lin μ.
    pub rating: String,
}

/// One game of the final.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FinalGameLine {
    /// Its id in the final.
    pub id: u64,
    /// Its duplicate set.
    pub set: u64,
    /// Its seats: `NAME (RANK)`, comma-separated.
    pub seats: String,
    /// Its log's download path.
    pub log: String,
}

#[derive(Template)]
#[template(path = "season.html")]
struct Season<'a> {
    head: Head,
    ctx: &'a PageContext,
    s: &'a SeasonFacts,
}

/// The page of season `facts`.
pub fn season_page(facts: &SeasonFacts, ctx: &PageContext) -> String {
    let title = format!("Season {} — mjai-sim", facts.name);
    render(&Season { head: Head::linked(title, "/assets/site.css"), ctx, s: facts })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_shows_the_frozen_standings_and_games_escaped() {
        let mut facts = SeasonFacts {
            name: "s1".into(),
            league: "league".into(),
            status: "final".into(),
            opened_at: "2026-12-06T10:00:00.000Z".into(),
            freeze_at: "2026-12-06T11:00:00.000Z".into(),
            final_line: Some("4 bots <i>, 1 set each".into()),
            frozen_at: None,
            standings: Vec::new(),
            games: vec![FinalGameLine {
                id: 3,
                set: 0,
                seats: "<b>x</b> (1), y (2)".into(),
                log: "/api/seasons/s1/games/3/log.jsonl.gz".into(),
            }],
        };
        let html = season_page(&facts, &PageContext::default());
        assert!(html.contains("id=\"not-frozen\""), "{html}");
        assert!(html.contains("href=\"/api/seasons/s1/games/3/log.jsonl.gz\""), "{html}");
        assert!(!html.contains("<b>x</b>") && !html.contains("<i>"), "escaped: {html}");
        facts.frozen_at = Some("2026-12-06T12:00:00.000Z".into());
        facts.standings = vec![StandingLine {
            rank: 1,
            name: "<script>".into(),
            games: 4,
            avg_rank: "1.50".into(),
            avg_pt: "30.0".into(),
            rating: "27.1".into(),
        }];
        let html = season_page(&facts, &PageContext::default());
        assert!(html.contains("id=\"standings\"") && !html.contains("id=\"not-frozen\""), "{html}");
        assert!(!html.contains("<script>"), "escaped: {html}");
    }
}
