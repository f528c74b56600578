//! `/me`: the logged-in author's bots (`templates/me.html`), each with its status, the
//! reason it was rejected or suspended, its validation game's stderr, and its chombos with reasons
//! and stderr.

use askama::Template;

use super::leaderboard::{reason_line, status_word};
use super::PageContext;
use crate::figures::mu_sigma;
use mjai_sim_tournament::leaderboard::{BotPage, ChomboLine};
use mjai_sim_viewer::layout::{render, Head};

/// One of the author's bots as `/me` shows it.
#[derive(Debug, Clone, Copy)]
pub struct MyBot<'a> {
    /// The bot (its latest version; `reason` says why a rejected one failed validation).
    pub page: &'a BotPage,
    /// Its chombos in league games, latest first.
    pub chombos: &'a [ChomboLine],
    /// The end of its stderr in its latest version's validation game (empty: none yet, or
    /// nothing written); the game itself is at `/bots/{name}/validation`.
    pub validation_stderr: &'a str,
    /// Its place on the leaderboard among the active versions, and how many there are
    /// (`None`: not active).
    pub place: Option<(usize, usize)>,
}

#[derive(Template)]
#[template(path = "me.html")]
struct Page<'a> {
    head: Head,
    ctx: PageContext,
    author: &'a str,
    bots: Vec<Mine<'a>>,
}

struct Mine<'a> {
    page: &'a BotPage,
    status: &'static str,
    /// Why it was rejected or suspended ([`reason_line`]).
    reason: Option<String>,
    chombos: &'a [ChomboLine],
    validation_stderr: &'a str,
    /// `μ ± σ`, once it has played a league game.
    rating: Option<String>,
    /// `#3 of 12 active`.
    place: Option<String>,
    /// `online` / `offline` for a bot played over a connection (remote, riichi.dev's).
    connection: Option<&'static str>,
}

/// The page `/me` of `author` (logged in) with `bots`, in the order given.
pub fn me_page(author: &str, bots: &[MyBot<'_>]) -> String {
    let bots = bots
        .iter()
        .map(|b| Mine {
            page: b.page,
            status: status_word(b.page.entry.status),
            reason: reason_line(b.page.entry.status, b.page.reason.as_deref()),
            chombos: b.chombos,
            validation_stderr: b.validation_stderr,
            rating: (b.page.entry.games > 0).then(|| mu_sigma(b.page.entry.rating.mu, b.page.entry.rating.sigma)),
            place: b.place.map(|(at, of)| format!("#{at} of {of} active")),
            connection: b.page.entry.kind.is_connected().then_some(if b.page.entry.online {
                "online"
            } else {
                "offline"
            }),
        })
        .collect();
    let head = Head::linked(format!("{author} — mjai-sim"), "/assets/site.css");
    render(&Page { head, ctx: PageContext { author: Some(author.to_string()), unseen: Vec::new() }, author, bots })
}
