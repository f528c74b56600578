//! `report.html` of a tournament: standings with confidence intervals drawn as error bars,
//! rank distribution per bot, ratings over games, the head-to-head matrix and a link to
//! every game's viewer. Inline SVG, no script, no network.
//!
//! Input: `standings.json` as `mjai-sim tournament` writes it, read tolerantly (fields not
//! listed here are ignored; missing optional ones leave their part out):
//!
//! ```json
//! {"bots": [{"name": "a", "games": 40, "avg_rank": 2.41, "avg_rank_ci": [2.30, 2.52],
//!            "avg_pt": 3.5, "avg_pt_ci": [-1.2, 8.1], "rank_dist": [12, 10, 9, 9],
//!            "weng_lin": {"mu": 26.1, "sigma": 2.3}, "elo": 1512.0}],
//!  "pairs": [{"a": "a", "b": "b", "games": 20, "a_ahead": 11}],
//!  "rating_history": [{"game": 10, "ratings": {"a": 25.3, "b": 24.7}}]}
//! ```
//!
//! A CI is `[low, high]`, `{"low": .., "high": ..}` (or `lo`/`hi`), or a half-width number.
//! `rank_dist` is counts or fractions of 1st..4th places. A pair names its bots by `a`/`b`
//! (names or indices into `bots`) or `bots: [a, b]`; its numeric fields fill the matrix cell.
//! `rating_history` (optional) gives each bot's rating (e.g. Weng-Lin mu) after a game.

use serde::Deserialize;
use serde_json::Value;

use super::page::escape_html;
use super::report_svg::{ci_chart, history_chart, rank_bars, CiRow};
use super::ViewError;

/// `standings.json`, as far as the report reads it.
#[derive(Debug, Clone, Deserialize)]
pub struct StandingsFile {
    /// One row per bot.
    pub bots: Vec<BotRow>,
    /// Head-to-head entries (shape described in the module docs).
    #[serde(default)]
    pub pairs: Vec<Value>,
    /// Ratings after successive games, when the tournament records them.
    #[serde(default)]
    pub rating_history: Vec<HistoryPoint>,
}

/// One bot's standing.
#[derive(Debug, Clone, Deserialize)]
pub struct BotRow {
    /// Bot name.
    pub name: String,
    /// Retired from its league (shown after the name).
    #[serde(default)]
    pub retired: bool,
    /// Games played.
    #[serde(default)]
    pub games: u64,
    /// Mean rank, 1..=4.
    pub avg_rank: f64,
    /// 95% CI of the mean rank.
    #[serde(default)]
    pub avg_rank_ci: Value,
    /// Mean points of placement (pt, uma included).
    #[serde(default)]
    pub avg_pt: Option<f64>,
    /// 95% CI of the mean pt.
    #[serde(default)]
    pub avg_pt_ci: Value,
    /// 1st..4th places: counts or fractions.
    #[serde(default)]
    pub rank_dist: Option<Vec<f64>>,
    /// Weng-Lin rating.
    #[serde(default)]
    pub weng_lin: Option<WengLin>,
    /// Elo rating.
    #[serde(default)]
    pub elo: Option<f64>,
}

/// A Weng-Lin (OpenSkill) rating.
#[derive(Debug, Clone, Copy, Deserialize)]
pub struct WengLin {
    /// Mean skill.
    pub mu: f64,
    /// Uncertainty.
    pub sigma: f64,
}

/// Ratings of every bot after one game.
#[derive(Debug, Clone, Deserialize)]
pub struct HistoryPoint {
    /// Games played so far (x axis).
    pub game: u64,
    /// Rating by bot name.
    pub ratings: std::collections::BTreeMap<String, f64>,
}

/// A link to one game's viewer, relative to the report.
#[derive(Debug, Clone)]
pub struct GameLink {
    /// Game id (its folder name).
    pub id: String,
    /// Relative address of its `game.html` (or of its log when the page is missing).
    pub href: String,
}

/// A CI from any of the accepted shapes, around `center`.
pub fn ci_of(v: &Value, center: f64) -> Option<(f64, f64)> {
    let f = |x: &Value| x.as_f64();
    match v {
        Value::Array(a) if a.len() == 2 => Some((f(&a[0])?, f(&a[1])?)),
        Value::Number(n) => n.as_f64().map(|h| (center - h, center + h)),
        Value::Object(o) => {
            let lo = o.get("low").or_else(|| o.get("lo")).and_then(f)?;
            let hi = o.get("high").or_else(|| o.get("hi")).and_then(f)?;
            Some((lo, hi))
        }
        _ => None,
    }
}

/// Parses `standings.json`; the error is one line.
pub fn parse_standings(text: &str) -> Result<StandingsFile, ViewError> {
    serde_json::from_str(text).map_err(|e| ViewError::NotStandings(e.to_string()))
}

/// The whole `report.html` for `title`, `standings` and the games' links.
pub fn render_report(title: &str, standings: &StandingsFile, games: &[GameLink]) -> String {
    let mut o = String::with_capacity(16 * 1024 + games.len() * 120);
    o.push_str("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">");
    o.push_str(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">",
    );
    o.push_str(&format!(
        "<title>{} — mjai-sim report</title><style>{}</style></head><body>",
        escape_html(title),
        STYLE
    ));
    o.push_str(&format!("<h1>{}</h1>", escape_html(title)));
    o.push_str(&standings_table(standings));
    let rank_rows: Vec<CiRow> = standings
        .bots
        .iter()
        .map(|b| CiRow { name: b.name.clone(), value: b.avg_rank, ci: ci_of(&b.avg_rank_ci, b.avg_rank) })
        .collect();
    o.push_str("<h2>Mean rank (95% CI)</h2>");
    o.push_str(&ci_chart("rank-chart", &rank_rows, Some((1.0, 4.0)), "mean rank (lower is better)"));
    let pt_rows: Vec<CiRow> = standings
        .bots
        .iter()
        .filter_map(|b| b.avg_pt.map(|v| CiRow { name: b.name.clone(), value: v, ci: ci_of(&b.avg_pt_ci, v) }))
        .collect();
    if !pt_rows.is_empty() {
        o.push_str("<h2>Mean pt (95% CI)</h2>");
        o.push_str(&ci_chart("pt-chart", &pt_rows, None, "mean pt per game"));
    }
    let dists: Vec<(String, Vec<f64>)> =
        standings.bots.iter().filter_map(|b| b.rank_dist.clone().map(|d| (b.name.clone(), d))).collect();
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
    o.push_str(&format!("<h2>Games ({})</h2><ol id=\"games\">", games.len()));
    for g in games {
        o.push_str(&format!("<li><a href=\"{}\">{}</a></li>", escape_html(&g.href), escape_html(&g.id)));
    }
    o.push_str("</ol></body></html>\n");
    o
}

const STYLE: &str = "body{font:14px/1.4 system-ui,sans-serif;margin:1em 2em;color:#222}\
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}\
th{background:#eef}td.name{text-align:left;font-weight:bold}svg{background:#fafafa;border:1px solid #ddd}\
svg text{font:12px sans-serif}#games{columns:4}";

fn fmt_ci(ci: Option<(f64, f64)>, digits: usize) -> String {
    ci.map_or(String::new(), |(lo, hi)| format!(" [{lo:.digits$}, {hi:.digits$}]"))
}

fn standings_table(s: &StandingsFile) -> String {
    let mut o = String::from(
        "<h2>Standings</h2><table id=\"standings\"><tr><th>#</th><th>bot</th><th>games</th>\
         <th>mean rank [95% CI]</th><th>mean pt [95% CI]</th><th>1st/2nd/3rd/4th</th><th>Weng-Lin μ (σ)</th><th>Elo</th></tr>",
    );
    let mut order: Vec<&BotRow> = s.bots.iter().collect();
    order.sort_by(|a, b| a.avg_rank.total_cmp(&b.avg_rank));
    for (i, b) in order.iter().enumerate() {
        let rank_ci = ci_of(&b.avg_rank_ci, b.avg_rank);
        let pt = b.avg_pt.map_or(String::new(), |p| format!("{p:.2}{}", fmt_ci(ci_of(&b.avg_pt_ci, p), 2)));
        let dist = b.rank_dist.as_ref().map_or(String::new(), |d| {
            let total: f64 = d.iter().sum();
            d.iter()
                .map(|x| format!("{:.1}%", if total > 0.0 { 100.0 * x / total } else { 0.0 }))
                .collect::<Vec<_>>()
                .join(" / ")
        });
        let wl = b.weng_lin.map_or(String::new(), |w| format!("{:.2} ({:.2})", w.mu, w.sigma));
        let elo = b.elo.map_or(String::new(), |e| format!("{e:.0}"));
        let ci_attr = rank_ci.map_or(String::new(), |(lo, hi)| format!(" data-ci=\"{lo} {hi}\""));
        o.push_str(&format!(
            "<tr data-bot=\"{n}\"{ci_attr}><td>{}</td><td class=\"name\">{n}{retired}</td><td>{}</td><td>{:.3}{}</td><td>{pt}</td><td>{dist}</td><td>{wl}</td><td>{elo}</td></tr>",
            i + 1,
            b.games,
            b.avg_rank,
            fmt_ci(rank_ci, 3),
            n = escape_html(&b.name),
            retired = if b.retired { " <small>(retired)</small>" } else { "" },
        ));
    }
    o.push_str("</table>");
    o
}

/// The two bot names of a pair entry.
fn pair_names(p: &Value, names: &[String]) -> Option<(String, String)> {
    let name = |v: &Value| match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => n.as_u64().and_then(|i| names.get(i as usize).cloned()),
        _ => None,
    };
    if let Some(Value::Array(b)) = p.get("bots") {
        return Some((name(b.first()?)?, name(b.get(1)?)?));
    }
    let a = p.get("a").or_else(|| p.get("bot_a"))?;
    let b = p.get("b").or_else(|| p.get("bot_b"))?;
    Some((name(a)?, name(b)?))
}

fn head_to_head(s: &StandingsFile) -> String {
    let names: Vec<String> = s.bots.iter().map(|b| b.name.clone()).collect();
    let mut o = String::from("<h2>Head to head</h2>");
    if s.pairs.is_empty() {
        o.push_str("<p>standings.json has no <code>pairs</code>.</p>");
        return o;
    }
    o.push_str("<table id=\"h2h\"><tr><th></th>");
    for n in &names {
        o.push_str(&format!("<th>{}</th>", escape_html(n)));
    }
    o.push_str("</tr>");
    for row in &names {
        o.push_str(&format!("<tr><td class=\"name\">{}</td>", escape_html(row)));
        for col in &names {
            let cell = s.pairs.iter().find_map(|p| {
                let (a, b) = pair_names(p, &names)?;
                let fields = p.as_object()?;
                let nums: Vec<String> = fields
                    .iter()
                    .filter(|(k, v)| v.is_number() && !["a", "b", "bot_a", "bot_b"].contains(&k.as_str()))
                    .map(|(k, v)| format!("{} {v}", escape_html(k)))
                    .collect();
                match (&a == row && &b == col, &b == row && &a == col) {
                    (true, _) => Some(nums.join("<br>")),
                    (_, true) => {
                        Some(format!("(see {}×{})<br>{}", escape_html(col), escape_html(row), nums.join("<br>")))
                    }
                    _ => None,
                }
            });
            o.push_str(&format!("<td>{}</td>", cell.unwrap_or_default()));
        }
        o.push_str("</tr>");
    }
    o.push_str("</table>");
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ci_shapes() {
        assert_eq!(ci_of(&serde_json::json!([2.0, 3.0]), 2.5), Some((2.0, 3.0)));
        assert_eq!(ci_of(&serde_json::json!(0.5), 2.5), Some((2.0, 3.0)));
        assert_eq!(ci_of(&serde_json::json!({"lo": 1.0, "hi": 2.0}), 1.5), Some((1.0, 2.0)));
        assert_eq!(ci_of(&Value::Null, 1.5), None);
    }

    #[test]
    fn a_retired_bot_is_marked() {
        let text = r#"{"bots": [{"name": "a", "avg_rank": 2.0}, {"name": "b", "avg_rank": 3.0, "retired": true}]}"#;
        let html = render_report("t", &parse_standings(text).unwrap(), &[]);
        assert!(html.contains("<td class=\"name\">b <small>(retired)</small></td>"), "{html}");
        assert!(html.contains("<td class=\"name\">a</td>"));
    }

    #[test]
    fn bad_standings_give_one_line() {
        let e = parse_standings("{\"bots\": 3}").unwrap_err().to_string();
        assert!(e.starts_with("not a standings.json:") && !e.contains('\n'), "{e}");
    }
}
