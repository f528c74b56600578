//! `/games`: a league's games, newest first (`templates/games.html`): each game's id (a
//! link to its viewer `/games/{id}`), status, start and end (UTC), and its four seats (bot
//! and version, a link to the version's page; author; score and rank once finished; the
//! reason of a voided game); a form
//! of filters (GET, the query of `GET /api/games`) and a link to the next page.

use askama::Template;

use super::PageContext;
use mjai_sim_tournament::leaderboard::game_list::{GameList, GameQuery, GameStatus};
use mjai_sim_viewer::layout::{render, Head};

#[derive(Template)]
#[template(path = "games.html")]
struct Page<'a> {
    head: Head,
    ctx: &'a PageContext,
    games: Vec<Row<'a>>,
    filters: Filters<'a>,
    next: Option<&'a str>,
}

/// The filter form's values, as given.
struct Filters<'a> {
    bot: &'a str,
    version: String,
    author: &'a str,
    status: &'static str,
    from: &'a str,
    to: &'a str,
}

/// One game's line.
struct Row<'a> {
    id: u64,
    status: &'static str,
    started: &'a str,
    finished: &'a str,
    seats: Vec<Seat<'a>>,
    /// The operator's reason when the game was voided.
    void: Option<&'a str>,
}

/// One seat's cell.
struct Seat<'a> {
    bot: &'a str,
    version: u32,
    author: &'a str,
    /// `score (rank)` once finished, else empty.
    result: String,
}

/// The page `/games`: `list` (one page of `GET /api/games`), the filters it was asked
/// with (`query`; `from` and `to` as the caller wrote them) and `next`, the link to the
/// next page (its path and query), if any.
pub fn games_page(
    list: &GameList,
    query: &GameQuery,
    dates: (&str, &str),
    next: Option<&str>,
    ctx: &PageContext,
) -> String {
    let games = list
        .games
        .iter()
        .map(|g| Row {
            id: g.id,
            status: g.status.as_str(),
            started: g.started_at.as_deref().unwrap_or(""),
            finished: g.finished_at.as_deref().unwrap_or(""),
            void: g.void.as_ref().map(|v| v.reason.as_str()),
            seats: g
                .seats
                .iter()
                .map(|s| Seat {
                    bot: &s.bot,
                    version: s.version,
                    author: if s.house { "house" } else { s.author.as_deref().unwrap_or("") },
                    result: match (s.score, s.rank) {
                        (Some(score), Some(rank)) => format!("{score} ({rank})"),
                        _ => String::new(),
                    },
                })
                .collect(),
        })
        .collect();
    let filters = Filters {
        bot: query.bot.as_deref().unwrap_or(""),
        version: query.version.map_or(String::new(), |v| v.to_string()),
        author: query.author.as_deref().unwrap_or(""),
        status: query.status.map_or("", GameStatus::as_str),
        from: dates.0,
        to: dates.1,
    };
    let head = Head::linked("Games — mjai-sim".into(), "/assets/site.css");
    render(&Page { head, ctx, games, filters, next })
}

#[cfg(test)]
mod tests {
    use super::*;
    use mjai_sim_tournament::leaderboard::game_list::{GameSeat, GameSummary, GameVoid};

    fn seat(bot: &str, author: Option<&str>, result: Option<(i64, u8)>) -> GameSeat {
        GameSeat {
            bot: bot.into(),
            version: 2,
            author: author.map(str::to_string),
            house: author.is_none(),
            score: result.map(|r| r.0),
            rank: result.map(|r| r.1),
        }
    }

    #[test]
    fn games_are_linked_with_their_times_and_every_name_escaped() {
        let h = "\"'><script>alert(1)</script>";
        let finished = GameSummary {
            id: 7,
            status: GameStatus::Finished,
            started_at: Some("2026-11-27T17:05:03.123Z".into()),
            finished_at: Some("2026-11-27T17:05:04.500Z".into()),
            seats: vec![
                seat("ok-bot", None, Some((31000, 1))),
                seat(h, Some(h), Some((-1000, 4))),
                seat("c", None, None),
                seat("d", None, None),
            ],
            engine: None,
            void: Some(GameVoid { reason: h.into(), at: "2026-11-28T00:00:00.000Z".into() }),
        };
        let running = GameSummary {
            id: 9,
            status: GameStatus::Running,
            started_at: None,
            finished_at: None,
            void: None,
            ..finished.clone()
        };
        let list = GameList { games: vec![running, finished], next_cursor: Some("g7".into()) };
        let query = GameQuery { bot: Some(h.into()), limit: 2, ..GameQuery::default() };
        let html = games_page(&list, &query, (h, ""), Some("/games?bot=x&cursor=g7"), &PageContext::default());
        assert!(!html.contains("<script>alert") && !html.contains("\"'>"), "{html}");
        assert!(html.contains("<a href=\"/games/7\">7</a>") && html.contains("<a href=\"/games/9\">9</a>"), "{html}");
        assert!(html.contains("<time datetime=\"2026-11-27T17:05:04.500Z\">"), "{html}");
        assert!(html.contains("<a href=\"/bots/ok-bot/v/2\">ok-bot</a> v2") && html.contains("31000 (1)"), "{html}");
        assert!(
            html.contains("href=\"/games?bot=x&#38;cursor=g7\"")
                || html.contains("href=\"/games?bot=x&amp;cursor=g7\""),
            "{html}"
        );
        assert!(html.contains("class=\"game-running\"") && html.contains("class=\"game-finished\""), "{html}");
        // the voided game says so, its reason escaped; the other does not
        assert_eq!(html.matches("<span class=\"void\">voided: ").count(), 1, "{html}");
        let empty = games_page(
            &GameList { games: vec![], next_cursor: None },
            &GameQuery::default(),
            ("", ""),
            None,
            &PageContext::default(),
        );
        assert!(empty.contains("id=\"empty\"") && !empty.contains("id=\"next\""), "{empty}");
    }

    #[test]
    fn a_version_the_viewer_may_not_see_is_named_not_linked() {
        let game = GameSummary {
            id: 3,
            status: GameStatus::Finished,
            started_at: None,
            finished_at: None,
            seats: vec![seat("gone", Some("ann"), Some((-9000, 4))), seat("open", None, None)],
            engine: None,
            void: None,
        };
        let list = GameList { games: vec![game], next_cursor: None };
        let page = |ctx: &PageContext| games_page(&list, &GameQuery::default(), ("", ""), None, ctx);
        let visitor = PageContext { author: None, unseen: vec![("gone".into(), 2), ("gone".into(), 7)] };
        let html = page(&visitor);
        assert!(html.contains("<td class=\"name\">gone v2<br>") && !html.contains("/bots/gone/"), "{html}");
        assert!(html.contains("<a href=\"/bots/open/v/2\">open</a> v2"), "the others stay linked: {html}");
        // its author (nothing unseen): linked
        let own = page(&PageContext { author: Some("ann".into()), unseen: Vec::new() });
        assert!(own.contains("<a href=\"/bots/gone/v/2\">gone</a> v2"), "{own}");
    }
}
