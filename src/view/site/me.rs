//! `/me`: the logged-in author's bots (`templates/me.html`), each with its status, the
//! reason it was rejected, and its chombos with reasons and stderr.

use askama::Template;

use super::leaderboard::status_word;
use super::PageContext;
use crate::tournament::leaderboard::{BotPage, ChomboLine};
use crate::view::layout::{render, Head};

/// One of the author's bots as `/me` shows it.
#[derive(Debug, Clone, Copy)]
pub struct MyBot<'a> {
    /// The bot (its latest version; `reason` says why a rejected one failed validation).
    pub page: &'a BotPage,
    /// Its chombos, the validation game's included, latest first.
    pub chombos: &'a [ChomboLine],
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
    chombos: &'a [ChomboLine],
}

/// The page `/me` of `author` (logged in) with `bots`, in the order given.
pub fn me_page(author: &str, bots: &[MyBot<'_>]) -> String {
    let bots = bots
        .iter()
        .map(|b| Mine { page: b.page, status: status_word(b.page.entry.status), chombos: b.chombos })
        .collect();
    let head = Head::linked(format!("{author} — mjai-sim"), "/assets/site.css");
    render(&Page { head, ctx: PageContext { author: Some(author.to_string()) }, author, bots })
}
