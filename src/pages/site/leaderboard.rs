//! `/`: the league's leaderboard (`templates/leaderboard.html`): its mode, rank, bot, author,
//! version, games, mean rank and mean pt with their 95 % intervals, rating μ ± σ, peak,
//! last game, chombos per game; provisional bots marked; retired bots in a `<details>`;
//! rejected and suspended bots only on their author's page.

use askama::Template;

use super::PageContext;
use crate::figures::{ci_attr, mu_sigma, with_ci};
use mjai_sim_tournament::leaderboard::{BotKind, BotStatus, Leaderboard, LeaderboardEntry, PROVISIONAL_GAMES};
use mjai_sim_viewer::layout::{render, Head};

#[derive(Template)]
#[template(path = "leaderboard.html")]
struct Page<'a> {
    head: Head,
    ctx: &'a PageContext,
    active: Vec<EntryRow<'a>>,
    retired: Vec<EntryRow<'a>>,
    provisional_games: u64,
    /// The league's mode in words (four- or three-player).
    mode: &'static str,
}

/// One leaderboard line, its figures printed.
pub(super) struct EntryRow<'a> {
    /// 1, 2, ... for the playing bots; empty for the others.
    pub place: String,
    pub name: &'a str,
    /// `provisional`, `status-validating`, ... (CSS classes).
    pub class: String,
    pub rank_ci: Option<String>,
    pub author: &'a str,
    pub version: u32,
    pub games: u64,
    pub rank: String,
    pub pt: String,
    pub rating: String,
    pub peak: String,
    pub last_game: Option<u64>,
    /// When it ended (RFC 3339, UTC), when known.
    pub last_game_at: Option<&'a str>,
    /// Chombos per game, two decimals (empty before its first game).
    pub chombos: String,
    /// A remote bot's `online` or `offline` (`None`: a zip bot, always playable).
    pub remote: Option<&'static str>,
}

/// The author's name as the pages print it: `house` for the operator's bots.
pub(super) fn author_of(e: &LeaderboardEntry) -> &str {
    e.author.as_deref().unwrap_or("house")
}

/// The status as a word (`active`, `retired`, ...).
pub(super) fn status_word(s: BotStatus) -> &'static str {
    match s {
        BotStatus::Validating => "validating",
        BotStatus::Active => "active",
        BotStatus::Rejected => "rejected",
        BotStatus::Retired => "retired",
        BotStatus::Suspended => "suspended",
    }
}

/// The line saying why a version was rejected (`Rejected: REASON`) or suspended
/// (`Suspended: 6 chombos in its last 10 league games. Upload a new version to play
/// again.`); `None` without a reason.
pub(super) fn reason_line(status: BotStatus, reason: Option<&str>) -> Option<String> {
    let reason = reason?;
    Some(match status {
        BotStatus::Suspended => {
            let why = reason.strip_prefix("suspended: ").unwrap_or(reason);
            format!("Suspended: {why}. Upload a new version to play again.")
        }
        _ => format!("Rejected: {reason}"),
    })
}

/// The figures of `e` as the leaderboard and the bot page print them.
pub(super) fn entry_row(e: &LeaderboardEntry, place: String) -> EntryRow<'_> {
    let mut class = format!("status-{}", status_word(e.status));
    if e.provisional {
        class.push_str(" provisional");
    }
    EntryRow {
        place,
        name: &e.name,
        class,
        rank_ci: ci_attr(e.avg_rank_ci),
        author: author_of(e),
        version: e.version,
        games: e.games,
        rank: with_ci(e.avg_rank, e.avg_rank_ci, 2),
        pt: with_ci(e.avg_pt, e.avg_pt_ci, 1),
        rating: mu_sigma(e.rating.mu, e.rating.sigma),
        peak: e.peak.map_or(String::new(), |p| format!("{p:.2}")),
        last_game: e.last_game,
        last_game_at: e.last_game_at.as_deref(),
        chombos: e.chombos_per_game.map_or(String::new(), |c| format!("{c:.2}")),
        remote: (e.kind == BotKind::Remote).then_some(if e.online { "online" } else { "offline" }),
    }
}

/// The page `/`: the bots of `board` in its order (best first), numbered among the active
/// ones; validating bots listed unnumbered, retired ones behind a toggle.
pub fn leaderboard_page(board: &Leaderboard, ctx: &PageContext) -> String {
    let mut active = Vec::new();
    let mut retired = Vec::new();
    let mut place = 0;
    for e in &board.bots {
        match e.status {
            BotStatus::Active => {
                place += 1;
                active.push(entry_row(e, place.to_string()));
            }
            BotStatus::Validating => active.push(entry_row(e, String::new())),
            BotStatus::Retired => retired.push(entry_row(e, String::new())),
            BotStatus::Rejected | BotStatus::Suspended => {}
        }
    }
    let head = Head::linked("Leaderboard — mjai-sim".into(), "/assets/site.css");
    let mode = match board.players {
        3 => "A three-player league (sanma, mode 3p): every game seats three bots.",
        _ => "A four-player league (mode 4p).",
    };
    render(&Page { head, ctx, active, retired, provisional_games: PROVISIONAL_GAMES, mode })
}
