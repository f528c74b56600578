//! `/bots/{name}/v/{version}` (and `/bots/{name}`): one version of a bot
//! (`templates/bot.html`): a selector of the name's versions (plain links), the version's
//! figures, its rating over time (over games where the times are unknown) and rank distribution (SVG from
//! [`crate::report_svg`]), head-to-head, recent games with results, and, for its
//! author and admins, its chombos with reasons and stderr. Every bot is named as its author
//! wrote it, with its version beside it, and linked as `/bots/NAME/v/V`.

use std::collections::BTreeMap;

use askama::Template;

use super::leaderboard::{author_of, entry_row, reason_line, status_word, EntryRow};
use super::PageContext;
use crate::report_svg::{history_chart, history_chart_by_time, rank_bars};
use mjai_sim_tournament::leaderboard::utc;
use mjai_sim_tournament::leaderboard::{
    BotPage, BotStatus, ChomboLine, GameLine, LeaderboardEntry, TimeShare, PROVISIONAL_GAMES,
};
use mjai_sim_tournament::standings::RatingPoint;
use mjai_sim_viewer::layout::{render, Head};

#[derive(Template)]
#[template(path = "bot.html")]
struct Page<'a> {
    head: Head,
    ctx: &'a PageContext,
    e: &'a LeaderboardEntry,
    page: &'a BotPage,
    author: &'a str,
    status: &'static str,
    /// Why it was rejected or suspended (the page shows such a version only to its author
    /// and admins).
    reason: Option<String>,
    provisional_games: u64,
    /// Its share of the last hour's table time, in words ([`table_time_line`]).
    table_time: Option<String>,
    figures: EntryRow<'a>,
    rating_chart: Option<RatingChart>,
    dist_chart: Option<String>,
    versions: Vec<VersionLink>,
    h2h: Vec<H2hRow<'a>>,
    recent: Vec<RecentRow<'a>>,
    chombos: Option<&'a [ChomboLine]>,
}

/// One entry of the version selector.
struct VersionLink {
    version: u32,
    status: &'static str,
    /// The version shown.
    current: bool,
}

struct H2hRow<'a> {
    opponent: &'a str,
    opponent_version: u32,
    games: u64,
    above: u64,
    diff: String,
}

/// One recent game: this bot's rank(s) and score(s), then the four seats by place.
struct RecentRow<'a> {
    id: u64,
    /// When it ended (RFC 3339, UTC), when known.
    at: Option<&'a str>,
    rank: String,
    score: String,
    by_rank: Vec<SeatResult<'a>>,
}

struct SeatResult<'a> {
    seat: usize,
    rank: u8,
    score: i64,
    name: &'a str,
    version: u32,
}

/// The rating chart and its heading, which names the chart's x axis.
struct RatingChart {
    /// `Rating over time` or `Rating over games`.
    title: &'static str,
    /// The chart (SVG).
    svg: String,
}

/// The rating chart of `page`: over time when at least two of its points have a time
/// (only those drawn), else over games (`history`); `None` without points.
fn rating_chart(page: &BotPage, history: &[RatingPoint]) -> Option<RatingChart> {
    let e = &page.entry;
    let timed: Vec<(i64, f64)> = page
        .rating_history
        .iter()
        .zip(&page.rating_history_at)
        .filter_map(|(&(_, mu), at)| Some((utc::parse(at.as_deref()?)?, mu)))
        .collect();
    if timed.len() >= 2 {
        return Some(RatingChart { title: "Rating over time", svg: history_chart_by_time(&e.name, &timed) });
    }
    (!history.is_empty())
        .then(|| RatingChart { title: "Rating over games", svg: history_chart(std::slice::from_ref(&e.name), history) })
}

/// `share`'s line on the page: `41.0 s of decision time, 75 % of the league's (a fair
/// share: 20 %); over twice that: it sits the next games out`.
pub fn table_time_line(share: &TimeShare) -> String {
    let mut line = format!(
        "{:.1} s of decision time, {:.0} % of the league's (a fair share: {:.0} %)",
        share.decision_s,
        share.share * 100.0,
        share.fair_share * 100.0
    );
    if share.sits_out {
        line.push_str("; over twice that: it sits the next games out, until the others catch up");
    }
    line
}

/// The page `/bots/{name}/v/{version}` of `page`. `chombos`: the bot's chombos when the viewer may see
/// them (its author or an admin; the server decides), else `None` (the section is left
/// out).
pub fn bot_page(page: &BotPage, chombos: Option<&[ChomboLine]>, ctx: &PageContext) -> String {
    let e = &page.entry;
    let history: Vec<RatingPoint> = page
        .rating_history
        .iter()
        .map(|&(game, mu)| RatingPoint { game, ratings: BTreeMap::from([(e.name.clone(), mu)]) })
        .collect();
    let played = page.rank_counts.iter().sum::<u64>() > 0;
    let dist = [(e.name.clone(), page.rank_counts.iter().map(|&n| n as f64).collect())];
    let p = Page {
        head: Head::linked(format!("{} v{} — mjai-sim", e.name, e.version), "/assets/site.css"),
        ctx,
        e,
        page,
        author: author_of(e),
        status: status_word(e.status),
        reason: reason_line(e.status, page.reason.as_deref()),
        provisional_games: PROVISIONAL_GAMES,
        table_time: page.table_time.as_ref().map(table_time_line),
        figures: entry_row(e, String::new()),
        rating_chart: rating_chart(page, &history),
        dist_chart: played.then(|| rank_bars(&dist)),
        versions: page
            .versions
            .iter()
            .map(|v| VersionLink { version: v.version, status: status_word(v.status), current: v.version == e.version })
            .collect(),
        h2h: page
            .head_to_head
            .iter()
            .map(|h| H2hRow {
                opponent: &h.opponent,
                opponent_version: h.opponent_version,
                games: h.games,
                above: h.above,
                diff: signed_hundredths(h.rank_diff),
            })
            .collect(),
        recent: page.recent_games.iter().map(|g| recent_row(g, &e.name, e.version)).collect(),
        chombos,
    };
    render(&p)
}

/// `x` with a sign and two decimals (`+0.25`, `-1.50`), and `0.00` for anything that
/// rounds to zero (never `-0.00` nor `+0.00`).
fn signed_hundredths(x: f64) -> String {
    let rounded = (x * 100.0).round() / 100.0;
    if rounded == 0.0 {
        "0.00".into()
    } else {
        format!("{rounded:+.2}")
    }
}

/// Game `g` as the page of version `version` of `me` lists it.
fn recent_row<'a>(g: &'a GameLine, me: &str, version: u32) -> RecentRow<'a> {
    let seats = g.bots.len().min(g.versions.len()).min(g.ranks.len()).min(g.scores.len());
    let mine: Vec<usize> = (0..seats).filter(|&s| g.bots[s] == me && g.versions[s] == version).collect();
    let join = |f: &dyn Fn(usize) -> String| mine.iter().map(|&s| f(s)).collect::<Vec<_>>().join(", ");
    let mut by_rank: Vec<SeatResult> = (0..seats)
        .map(|seat| SeatResult {
            seat,
            rank: g.ranks[seat],
            score: g.scores[seat],
            name: &g.bots[seat],
            version: g.versions[seat],
        })
        .collect();
    by_rank.sort_by_key(|s| (s.rank, s.seat));
    RecentRow {
        id: g.id,
        at: g.finished_at.as_deref(),
        rank: join(&|s| g.ranks[s].to_string()),
        score: join(&|s| g.scores[s].to_string()),
        by_rank,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_difference_that_rounds_to_zero_has_no_sign() {
        assert_eq!(signed_hundredths(-0.001), "0.00");
        assert_eq!(signed_hundredths(-0.0), "0.00");
        assert_eq!(signed_hundredths(0.004), "0.00");
        assert_eq!(signed_hundredths(0.25), "+0.25");
        assert_eq!(signed_hundredths(-1.5), "-1.50");
        assert_eq!(signed_hundredths(-0.006), "-0.01");
    }

    #[test]
    fn the_table_time_line_says_whether_the_bot_sits_out() {
        let share = TimeShare { decision_s: 1920.0, share: 0.75, fair_share: 0.2, sits_out: true };
        assert_eq!(
            table_time_line(&share),
            "1920.0 s of decision time, 75 % of the league's (a fair share: 20 %); over twice that: it sits the next games out, until the others catch up"
        );
        let fair = TimeShare { decision_s: 160.0, share: 0.2, fair_share: 0.2, sits_out: false };
        assert_eq!(table_time_line(&fair), "160.0 s of decision time, 20 % of the league's (a fair share: 20 %)");
    }
}
