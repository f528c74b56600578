//! `report.html` of a tournament: standings with confidence intervals drawn as error bars,
//! rank distribution per bot, ratings over games, the head-to-head matrix
//! ([`super::report_matrix`]) and every game with its bots and ranks, linked to its viewer.
//! One file (`templates/report.html`, the site's style inline and allowed by its hash in a
//! CSP `<meta>`), inline SVG, no script, no network.
//!
//! Input: `standings.json` as `mjai-sim tournament` writes it, read into the tournament's
//! own [`Standings`] (schema in docs/output-files.md, "standings.json"); unknown fields are
//! ignored, `retired` and `rating_history` may be absent (older files).

use std::sync::LazyLock;

use askama::Template;

use super::figures::{ci_attr, with_ci};
use super::report_matrix::{matrix, MatrixRow};
use super::report_svg::{ci_chart, history_chart, rank_bars, CiRow};
use super::ReportError;
use super::SITE_CSS;
use mjai_sim_tournament::standings::{BotStanding, Standings};
use mjai_sim_viewer::layout::{csp_hash, render, Head};

/// The CSP of `report.html`: nothing but its own inline style.
pub static REPORT_CSP: LazyLock<String> =
    LazyLock::new(|| format!("default-src 'none'; style-src {}", csp_hash(SITE_CSS)));

/// One game of the list: its link and, when its `summary.json` was readable, its bots.
#[derive(Debug, Clone)]
pub struct GameLink {
    /// Game id (its folder name).
    pub id: String,
    /// Relative address of its `game.html` (or of its log when the page is missing).
    pub href: String,
    /// Bot name and rank (1..4) of each seat, in seat order; empty when unknown.
    pub seats: Vec<(String, u8)>,
}

/// Parses `standings.json` into [`Standings`]; the error is one line.
pub fn parse_standings(text: &str) -> Result<Standings, ReportError> {
    serde_json::from_str(text).map_err(|e| ReportError::NotStandings(e.to_string()))
}

#[derive(Template)]
#[template(path = "report.html")]
struct Report<'a> {
    head: Head,
    title: &'a str,
    headline: String,
    standings: Vec<StandingRow<'a>>,
    rank_chart: String,
    pt_chart: Option<String>,
    dist_chart: Option<String>,
    history_chart: Option<String>,
    matrix: Vec<MatrixRow<'a>>,
    games: Vec<GameRow<'a>>,
}

/// One line of the standings table, its figures printed.
struct StandingRow<'a> {
    name: &'a str,
    retired: bool,
    rank_ci: Option<String>,
    games: u64,
    rank: String,
    pt: String,
    dist: String,
    rating: String,
    elo: String,
}

/// One game of the list, its seats by finishing place.
struct GameRow<'a> {
    id: &'a str,
    href: &'a str,
    by_rank: Vec<SeatRank<'a>>,
}

struct SeatRank<'a> {
    seat: usize,
    rank: u8,
    name: &'a str,
}

/// The whole `report.html` for `title`, `standings` and the games' links.
pub fn render_report(title: &str, standings: &Standings, games: &[GameLink]) -> String {
    let ranked = standings.ranked();
    let ci = |c: Option<[f64; 2]>| c.map(|[lo, hi]| (lo, hi));
    let rank_rows: Vec<CiRow> = ranked
        .iter()
        .filter_map(|b| b.avg_rank.map(|v| CiRow { name: b.name.clone(), value: v, ci: ci(b.avg_rank_ci) }))
        .collect();
    let pt_rows: Vec<CiRow> = ranked
        .iter()
        .filter_map(|b| b.avg_pt.map(|v| CiRow { name: b.name.clone(), value: v, ci: ci(b.avg_pt_ci) }))
        .collect();
    let dists: Vec<(String, Vec<f64>)> =
        ranked.iter().filter(|b| b.games > 0).map(|b| (b.name.clone(), b.rank_dist.to_vec())).collect();
    let names: Vec<String> = standings.bots.iter().map(|b| b.name.clone()).collect();
    let report = Report {
        head: Head::inline(format!("{title} — mjai-sim report"), SITE_CSS, REPORT_CSP.clone()),
        title,
        headline: super::standings_text::headline(standings),
        standings: ranked.iter().map(|b| standing_row(b)).collect(),
        rank_chart: ci_chart(
            "rank-chart",
            &rank_rows,
            Some((1.0, standings.uma.len().max(2) as f64)),
            "mean rank (lower is better)",
        ),
        pt_chart: (!pt_rows.is_empty()).then(|| ci_chart("pt-chart", &pt_rows, None, "mean pt per game")),
        dist_chart: (!dists.is_empty()).then(|| rank_bars(&dists)),
        history_chart: (!standings.rating_history.is_empty()).then(|| history_chart(&names, &standings.rating_history)),
        matrix: matrix(standings),
        games: games.iter().map(game_row).collect(),
    };
    render(&report)
}

fn standing_row<'a>(b: &'a BotStanding) -> StandingRow<'a> {
    let dist = match b.games {
        0 => String::new(),
        _ => b.rank_dist.iter().map(|x| format!("{:.1}%", 100.0 * x)).collect::<Vec<_>>().join(" / "),
    };
    StandingRow {
        name: &b.name,
        retired: b.retired,
        rank_ci: ci_attr(b.avg_rank_ci),
        games: b.games,
        rank: with_ci(b.avg_rank, b.avg_rank_ci, 3),
        pt: with_ci(b.avg_pt, b.avg_pt_ci, 2),
        dist,
        rating: format!("{:.2} ({:.2})", b.weng_lin.mu, b.weng_lin.sigma),
        elo: format!("{:.0}", b.elo),
    }
}

/// The game's four bots by finishing place (seat in the title).
fn game_row(g: &GameLink) -> GameRow<'_> {
    let mut by_rank: Vec<SeatRank> =
        g.seats.iter().enumerate().map(|(seat, (name, rank))| SeatRank { seat, rank: *rank, name }).collect();
    by_rank.sort_by_key(|s| (s.rank, s.seat));
    GameRow { id: &g.id, href: &g.href, by_rank }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `standings.json` with bots `a` and `b` (b retired) and their pair, as the tournament writes.
    fn two_bots() -> String {
        let bot = |name: &str, rank: f64, retired: bool| {
            serde_json::json!({"name": name, "retired": retired, "games": 8, "sets": 2, "avg_rank": rank,
                "avg_rank_ci": [rank - 0.3, rank + 0.3], "avg_pt": 1.0, "avg_pt_ci": null,
                "rank_dist": [0.25, 0.25, 0.25, 0.25], "rank_counts": [2, 2, 2, 2], "mean_score": 25000.0,
                "weng_lin": {"mu": 25.0, "sigma": 8.0}, "elo": 1500.0, "kyokus": 80, "chombos": 0, "decisions": 0})
        };
        serde_json::json!({"games": 8, "sets": 2, "uma": [90.0, 45.0, 0.0, -135.0],
            "bootstrap": {"resamples": 1000, "seed": 0, "level": 0.95},
            "bots": [bot("a", 2.0, false), bot("b", 3.0, true)],
            "pairs": [{"a": "a", "b": "b", "games": 8, "sets": 2, "rank_diff": -1.9861111111111112,
                       "rank_diff_ci": [-2.5, -1.25], "a_above": 7}],
            "skipped_records": 0})
        .to_string()
    }

    #[test]
    fn a_retired_bot_is_marked() {
        let html = render_report("t", &parse_standings(&two_bots()).unwrap(), &[]);
        assert!(html.contains("<td class=\"name\">b <small>(retired)</small></td>"), "{html}");
        assert!(html.contains("<td class=\"name\">a</td>"));
    }

    #[test]
    fn the_matrix_shows_both_sides_rounded_with_cis() {
        let html = render_report("t", &parse_standings(&two_bots()).unwrap(), &[]);
        assert!(html.contains("data-row=\"a\" data-col=\"b\""), "{html}");
        assert!(html.contains("\u{2212}1.99 [\u{2212}2.50, \u{2212}1.25]<br><small>8 games</small>"), "{html}");
        assert!(html.contains("<td class=\"h2h worse sig\" data-row=\"b\" data-col=\"a\""), "{html}");
        assert!(html.contains(">1.99 [1.25, 2.50]<br>"), "{html}");
        assert!(!html.contains("(see ") && !html.contains("a_above") && !html.contains("1.9861"), "{html}");
    }

    #[test]
    fn each_game_lists_its_bots_by_rank() {
        let seats = vec![("a".into(), 3), ("<b>".into(), 1), ("a".into(), 4), ("c".into(), 2)];
        let games = [
            GameLink { id: "000001".into(), href: "games/000001/game.html".into(), seats },
            GameLink { id: "000002".into(), href: "games/000002/mjai_log.json".into(), seats: vec![] },
        ];
        let html = render_report("t", &parse_standings(&two_bots()).unwrap(), &games);
        let row = "<tr><td><a href=\"games/000001/game.html\">000001</a></td>\
                   <td class=\"r1\" title=\"seat 1, rank 1\">&#60;b&#62;</td><td class=\"r2\" title=\"seat 3, rank 2\">c</td>\
                   <td class=\"r3\" title=\"seat 0, rank 3\">a</td><td class=\"r4\" title=\"seat 2, rank 4\">a</td></tr>";
        assert!(html.contains(row), "{html}");
        assert!(html.contains("000002</a></td><td colspan=\"4\"><small>no summary.json</small>"));
    }

    #[test]
    fn bad_standings_give_one_line() {
        let e = parse_standings("{\"bots\": 3}").unwrap_err().to_string();
        assert!(e.starts_with("not a standings.json:") && !e.contains('\n'), "{e}");
        // The report reads only what the tournament writes: a duck-typed file is refused.
        let e = parse_standings(r#"{"bots": [{"name": "a", "avg_rank": 2.0}]}"#).unwrap_err().to_string();
        assert!(e.starts_with("not a standings.json:") && !e.contains('\n'), "{e}");
    }
}
