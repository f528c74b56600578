//! `/games`: a league's games, newest first (`templates/games.html`): each game's id (a
//! link to its viewer `/games/{id}`), status, start and end (UTC), and its four seats (bot
//! and version, a link to the version's page; author; score and rank once finished); a form
//! of filters (GET, the query of `GET /api/games`) and a link to the next page.

use askama::Template;

use super::PageContext;
use crate::tournament::leaderboard::game_list::{GameList, GameQuery, GameStatus};
use crate::viewer::layout::{render, Head};

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
            seats: g
                .seats
                .iter()
                .map(|s| Seat {
                    bot: &s.bot,
                    version: s.version,
                    author: s.author.as_deref().unwrap_or("house"),
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
