//! `report.html` of a tournament: standings with confidence intervals drawn as error bars,
//! rank distribution per bot, ratings over games, the head-to-head matrix
//! ([`super::report_matrix`]) and every game with its bots and ranks, linked to its viewer.
//! Inline SVG, no script, no network.
//!
//! Input: `standings.json` as `mjai-sim tournament` writes it, read into the tournament's
//! own [`Standings`] (schema in docs/output-files.md, "standings.json"); unknown fields are
//! ignored, `retired` and `rating_history` may be absent (older files).

use super::page::escape_html;
use super::report_matrix::{head_to_head, MATRIX_STYLE};
use super::report_svg::{ci_chart, history_chart, rank_bars, CiRow};
use super::ViewError;
use crate::tournament::standings::{BotStanding, Standings};

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
pub fn parse_standings(text: &str) -> Result<Standings, ViewError> {
    serde_json::from_str(text).map_err(|e| ViewError::NotStandings(e.to_string()))
}

/// The whole `report.html` for `title`, `standings` and the games' links.
pub fn render_report(title: &str, standings: &Standings, games: &[GameLink]) -> String {
    let mut o = String::with_capacity(16 * 1024 + games.len() * 200);
    o.push_str("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">");
    o.push_str(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">",
    );
    o.push_str(&format!(
        "<title>{} — mjai-sim report</title><style>{STYLE}{MATRIX_STYLE}</style></head><body>",
        escape_html(title),
    ));
    o.push_str(&format!(
        "<h1>{}</h1><p id=\"headline\">{}.</p>",
        escape_html(title),
        escape_html(&standings.headline())
    ));
    let ranked = standings.ranked();
    o.push_str(&standings_table(&ranked));
    let ci = |c: Option<[f64; 2]>| c.map(|[lo, hi]| (lo, hi));
    let rank_rows: Vec<CiRow> = ranked
        .iter()
        .filter_map(|b| b.avg_rank.map(|v| CiRow { name: b.name.clone(), value: v, ci: ci(b.avg_rank_ci) }))
        .collect();
    o.push_str("<h2>Mean rank (95% CI)</h2>");
    o.push_str(&ci_chart("rank-chart", &rank_rows, Some((1.0, 4.0)), "mean rank (lower is better)"));
    let pt_rows: Vec<CiRow> = ranked
        .iter()
        .filter_map(|b| b.avg_pt.map(|v| CiRow { name: b.name.clone(), value: v, ci: ci(b.avg_pt_ci) }))
        .collect();
    if !pt_rows.is_empty() {
        o.push_str("<h2>Mean pt (95% CI)</h2>");
        o.push_str(&ci_chart("pt-chart", &pt_rows, None, "mean pt per game"));
    }
    let dists: Vec<(String, Vec<f64>)> =
        ranked.iter().filter(|b| b.games > 0).map(|b| (b.name.clone(), b.rank_dist.to_vec())).collect();
    if !dists.is_empty() {
        o.push_str("<h2>Rank distribution</h2>");
        o.push_str(&rank_bars(&dists));
    }
    o.push_str("<h2>Ratings over games</h2>");
    if standings.rating_history.is_empty() {
        o.push_str("<p>standings.json has no <code>rating_history</code>.</p>");
    } else {
        let names: Vec<String> = standings.bots.iter().map(|b| b.name.clone()).collect();
        o.push_str(&history_chart(&names, &standings.rating_history));
    }
    o.push_str(&head_to_head(standings));
    o.push_str(&games_table(games));
    o.push_str("</body></html>\n");
    o
}

const STYLE: &str = "body{font:14px/1.4 system-ui,sans-serif;margin:1em 2em;color:#222}\
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}\
th{background:#eef}td.name{text-align:left;font-weight:bold}svg{background:#fafafa;border:1px solid #ddd}\
svg text{font:12px sans-serif}#standings td{white-space:nowrap}#games td,#games th{text-align:left}#games .r1{font-weight:bold}";

fn fmt_ci(ci: Option<[f64; 2]>, digits: usize) -> String {
    ci.map_or(String::new(), |[lo, hi]| format!(" [{lo:.digits$}, {hi:.digits$}]"))
}

fn standings_table(ranked: &[&BotStanding]) -> String {
    let mut o = String::from(
        "<h2>Standings</h2><table id=\"standings\"><tr><th>#</th><th>bot</th><th>games</th>\
         <th>mean rank [95% CI]</th><th>mean pt [95% CI]</th><th>1st/2nd/3rd/4th</th><th>Weng-Lin μ (σ)</th><th>Elo</th></tr>",
    );
    for (i, b) in ranked.iter().enumerate() {
        let rank = b.avg_rank.map_or(String::new(), |r| format!("{r:.3}{}", fmt_ci(b.avg_rank_ci, 3)));
        let pt = b.avg_pt.map_or(String::new(), |p| format!("{p:.2}{}", fmt_ci(b.avg_pt_ci, 2)));
        let dist = match b.games {
            0 => String::new(),
            _ => b.rank_dist.iter().map(|x| format!("{:.1}%", 100.0 * x)).collect::<Vec<_>>().join(" / "),
        };
        let ci_attr = b.avg_rank_ci.map_or(String::new(), |[lo, hi]| format!(" data-ci=\"{lo} {hi}\""));
        o.push_str(&format!(
            "<tr data-bot=\"{n}\"{ci_attr}><td>{}</td><td class=\"name\">{n}{retired}</td><td>{}</td><td>{rank}</td><td>{pt}</td><td>{dist}</td><td>{:.2} ({:.2})</td><td>{:.0}</td></tr>",
            i + 1,
            b.games,
            b.weng_lin.mu,
            b.weng_lin.sigma,
            b.elo,
            n = escape_html(&b.name),
            retired = if b.retired { " <small>(retired)</small>" } else { "" },
        ));
    }
    o.push_str("</table>");
    o
}

/// The games, one row each: the link, then the four bots by finishing place (seat in
/// the title).
fn games_table(games: &[GameLink]) -> String {
    let mut o = format!(
        "<h2>Games ({})</h2><table id=\"games\"><tr><th>game</th><th>1st</th><th>2nd</th><th>3rd</th><th>4th</th></tr>",
        games.len()
    );
    for g in games {
        o.push_str(&format!("<tr><td><a href=\"{}\">{}</a></td>", escape_html(&g.href), escape_html(&g.id)));
        let mut by_rank: Vec<(usize, &(String, u8))> = g.seats.iter().enumerate().collect();
        by_rank.sort_by_key(|(seat, (_, rank))| (*rank, *seat));
        for (seat, (name, rank)) in by_rank {
            o.push_str(&format!("<td class=\"r{rank}\" title=\"seat {seat}, rank {rank}\">{}</td>", escape_html(name)));
        }
        if g.seats.is_empty() {
            o.push_str("<td colspan=\"4\"><small>no summary.json</small></td>");
        }
        o.push_str("</tr>");
    }
    o.push_str("</table>");
    o
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
                   <td class=\"r1\" title=\"seat 1, rank 1\">&lt;b&gt;</td><td class=\"r2\" title=\"seat 3, rank 2\">c</td>\
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
