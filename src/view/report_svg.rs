//! Inline SVG charts of the tournament report: values with CI error bars, rank
//! distributions as stacked bars, ratings over games as lines.

use super::page::escape_html;
use super::report::HistoryPoint;

/// One bot's value with its CI.
#[derive(Debug, Clone)]
pub struct CiRow {
    /// Bot name.
    pub name: String,
    /// The estimate.
    pub value: f64,
    /// 95% CI `(low, high)`, when known.
    pub ci: Option<(f64, f64)>,
}

const LEFT: f64 = 160.0;
const WIDTH: f64 = 640.0;
const ROW: f64 = 26.0;
const COLORS: [&str; 8] = ["#1d4fa0", "#b02020", "#1f7a34", "#c77c00", "#6a3d9a", "#00838f", "#8d6e63", "#555"];

fn fmt(x: f64) -> String {
    format!("{x:.1}")
}

/// Horizontal chart: one row per bot, a dot at the value and a bar with caps over the CI.
/// `range` fixes the axis (e.g. ranks 1..4); otherwise it spans the values and CIs.
pub fn ci_chart(id: &str, rows: &[CiRow], range: Option<(f64, f64)>, axis: &str) -> String {
    let (mut lo, mut hi) = range.unwrap_or((f64::INFINITY, f64::NEG_INFINITY));
    if range.is_none() {
        for r in rows {
            let (a, b) = r.ci.unwrap_or((r.value, r.value));
            lo = lo.min(a).min(r.value);
            hi = hi.max(b).max(r.value);
        }
        let pad = ((hi - lo) * 0.1).max(1e-9);
        (lo, hi) = (lo - pad, hi + pad);
    }
    if !lo.is_finite() || !hi.is_finite() || hi <= lo {
        (lo, hi) = (0.0, 1.0);
    }
    let x = |v: f64| LEFT + (v.clamp(lo, hi) - lo) / (hi - lo) * (WIDTH - LEFT - 20.0);
    let height = ROW * rows.len() as f64 + 40.0;
    let mut o =
        format!("<svg id=\"{id}\" width=\"{WIDTH}\" height=\"{}\" xmlns=\"http://www.w3.org/2000/svg\">", fmt(height));
    for t in 0..=4 {
        let v = lo + (hi - lo) * t as f64 / 4.0;
        o.push_str(&format!(
            "<line x1=\"{0}\" x2=\"{0}\" y1=\"5\" y2=\"{1}\" stroke=\"#ddd\"/><text x=\"{0}\" y=\"{2}\" text-anchor=\"middle\">{3:.2}</text>",
            fmt(x(v)),
            fmt(height - 30.0),
            fmt(height - 16.0),
            v
        ));
    }
    for (i, r) in rows.iter().enumerate() {
        let y = 20.0 + ROW * i as f64;
        let name = escape_html(&r.name);
        o.push_str(&format!(
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{name}</text>",
            fmt(LEFT - 8.0),
            fmt(y + 4.0)
        ));
        if let Some((a, b)) = r.ci {
            let (xa, xb) = (fmt(x(a)), fmt(x(b)));
            o.push_str(&format!(
                "<g class=\"ci\" data-bot=\"{name}\" data-low=\"{a}\" data-high=\"{b}\"><line x1=\"{xa}\" x2=\"{xb}\" y1=\"{y}\" y2=\"{y}\" stroke=\"#333\" stroke-width=\"2\"/>\
                 <line x1=\"{xa}\" x2=\"{xa}\" y1=\"{}\" y2=\"{}\" stroke=\"#333\"/><line x1=\"{xb}\" x2=\"{xb}\" y1=\"{}\" y2=\"{}\" stroke=\"#333\"/></g>",
                y - 6.0,
                y + 6.0,
                y - 6.0,
                y + 6.0
            ));
        }
        o.push_str(&format!(
            "<circle cx=\"{}\" cy=\"{y}\" r=\"5\" fill=\"{}\"><title>{name}: {:.3}</title></circle>",
            fmt(x(r.value)),
            COLORS[i % COLORS.len()],
            r.value
        ));
    }
    o.push_str(&format!(
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text></svg>",
        fmt((LEFT + WIDTH) / 2.0),
        fmt(height - 2.0),
        escape_html(axis)
    ));
    o
}

/// Stacked bars of 1st..4th place shares per bot.
pub fn rank_bars(dists: &[(String, Vec<f64>)]) -> String {
    let shades = ["#1f7a34", "#7cb342", "#f2c14e", "#b02020"];
    let height = ROW * dists.len() as f64 + 30.0;
    let mut o = format!(
        "<svg id=\"rank-dist\" width=\"{WIDTH}\" height=\"{}\" xmlns=\"http://www.w3.org/2000/svg\">",
        fmt(height)
    );
    let span = WIDTH - LEFT - 20.0;
    for (i, (name, d)) in dists.iter().enumerate() {
        let y = 8.0 + ROW * i as f64;
        let total: f64 = d.iter().take(4).sum();
        let name = escape_html(name);
        o.push_str(&format!(
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{name}</text>",
            fmt(LEFT - 8.0),
            fmt(y + 14.0)
        ));
        let mut x = LEFT;
        for (r, v) in d.iter().take(4).enumerate() {
            let share = if total > 0.0 { v / total } else { 0.0 };
            let w = share * span;
            o.push_str(&format!(
                "<rect x=\"{}\" y=\"{y}\" width=\"{}\" height=\"{}\" fill=\"{}\"><title>{name}: {} place {:.1}%</title></rect>",
                fmt(x),
                fmt(w),
                fmt(ROW - 6.0),
                shades[r],
                ["1st", "2nd", "3rd", "4th"][r],
                share * 100.0
            ));
            if w > 30.0 {
                o.push_str(&format!(
                    "<text x=\"{}\" y=\"{}\" fill=\"#fff\" text-anchor=\"middle\">{:.0}%</text>",
                    fmt(x + w / 2.0),
                    fmt(y + 14.0),
                    share * 100.0
                ));
            }
            x += w;
        }
    }
    o.push_str(&format!("<text x=\"{}\" y=\"{}\">1st · 2nd · 3rd · 4th</text></svg>", fmt(LEFT), fmt(height - 4.0)));
    o
}

/// One line per bot of its rating after each recorded game.
pub fn history_chart(names: &[String], history: &[HistoryPoint]) -> String {
    let (w, h, pad) = (WIDTH, 260.0, 40.0);
    let games = history.iter().map(|p| p.game).max().unwrap_or(1).max(1) as f64;
    let values = history.iter().flat_map(|p| p.ratings.values().copied());
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(v), b.max(v)));
    let (lo, hi) = if hi > lo { (lo, hi) } else { (lo - 1.0, lo + 1.0) };
    let x = |g: u64| pad + g as f64 / games * (w - 2.0 * pad - 120.0);
    let y = |v: f64| h - pad - (v - lo) / (hi - lo) * (h - 2.0 * pad);
    let mut o = format!("<svg id=\"ratings\" width=\"{w}\" height=\"{h}\" xmlns=\"http://www.w3.org/2000/svg\">");
    o.push_str(&format!(
        "<text x=\"4\" y=\"{}\">{hi:.1}</text><text x=\"4\" y=\"{}\">{lo:.1}</text><text x=\"{}\" y=\"{}\">games: {games}</text>",
        fmt(y(hi) + 4.0),
        fmt(y(lo)),
        fmt(w / 2.0 - 40.0),
        fmt(h - 8.0)
    ));
    for (i, n) in names.iter().enumerate() {
        let pts: Vec<String> = history
            .iter()
            .filter_map(|p| p.ratings.get(n).map(|&v| format!("{},{}", fmt(x(p.game)), fmt(y(v)))))
            .collect();
        if pts.is_empty() {
            continue;
        }
        let color = COLORS[i % COLORS.len()];
        let label_y = pts.last().and_then(|p| p.split(',').nth(1)).unwrap_or("0").to_string();
        o.push_str(&format!(
            "<polyline class=\"rating\" data-bot=\"{name}\" fill=\"none\" stroke=\"{color}\" stroke-width=\"2\" points=\"{}\"/>\
             <text x=\"{}\" y=\"{label_y}\" fill=\"{color}\">{name}</text>",
            pts.join(" "),
            fmt(w - pad - 115.0),
            name = escape_html(n)
        ));
    }
    o.push_str("</svg>");
    o
}
