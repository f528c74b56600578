//! Inline SVG charts of the tournament report: values with CI error bars, rank
//! distributions as stacked bars, ratings over games as lines. Every numeric axis is
//! labelled at round numbers ([`nice_ticks`]).

use super::page::escape_html;
use crate::tournament::standings::RatingPoint;

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

/// Round tick values: the multiples of a step of 1, 2 or 5 × 10^k that lie in `[lo, hi]`,
/// the step chosen so there are at most about `target` of them (at least one step fits),
/// with the decimals a label needs. `(-83.67, 4.92, 5)` gives −80, −60, −40, −20, 0.
pub fn nice_ticks(lo: f64, hi: f64, target: usize) -> (Vec<f64>, usize) {
    if !(lo.is_finite() && hi.is_finite()) || hi <= lo {
        return (Vec::new(), 0);
    }
    let raw = (hi - lo) / target.max(1) as f64;
    let exp = raw.log10().floor() as i32;
    let norm = raw / 10f64.powi(exp);
    let mult: i64 = match norm {
        n if n <= 1.0 => 1,
        n if n <= 2.0 => 2,
        n if n <= 5.0 => 5,
        _ => 10,
    };
    // Value of tick i: i·mult·10^exp, divided rather than multiplied by a fraction so
    // 3 × 0.2 prints as 0.6.
    let value = |i: i64| match exp {
        e if e < 0 => (i * mult) as f64 / 10f64.powi(-e),
        e => (i * mult) as f64 * 10f64.powi(e),
    };
    let step = value(1);
    let first = (lo / step - 1e-9).ceil() as i64;
    let last = (hi / step + 1e-9).floor() as i64;
    let ticks = (first..=last).map(|i| value(i) + 0.0).collect();
    let decimals = (-(exp + i32::from(mult == 10))).max(0) as usize;
    (ticks, decimals)
}

/// `lo..hi` widened to the nearest round ticks outside it (see [`nice_ticks`]).
pub fn nice_range(lo: f64, hi: f64, target: usize) -> (f64, f64) {
    let (ticks, _) = nice_ticks(lo, hi, target);
    let step = match ticks.as_slice() {
        [a, b, ..] => b - a,
        _ => return (lo, hi),
    };
    let (first, last) = (ticks[0], ticks[ticks.len() - 1]);
    let lo = if first > lo + 1e-9 * step { first - step } else { first };
    let hi = if last < hi - 1e-9 * step { last + step } else { last };
    (lo, hi)
}

/// A tick label: `decimals` decimals, a true minus sign, never `−0`.
fn tick_label(v: f64, decimals: usize) -> String {
    let s = format!("{v:.decimals$}");
    match s.strip_prefix('-') {
        Some(rest) if rest.chars().all(|c| c == '0' || c == '.') => rest.to_string(),
        Some(rest) => format!("\u{2212}{rest}"),
        None => s,
    }
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
        let pad = ((hi - lo) * 0.05).max(1e-6);
        (lo, hi) = nice_range(lo - pad, hi + pad, 6);
    }
    if !lo.is_finite() || !hi.is_finite() || hi <= lo {
        (lo, hi) = (0.0, 1.0);
    }
    let x = |v: f64| LEFT + (v.clamp(lo, hi) - lo) / (hi - lo) * (WIDTH - LEFT - 20.0);
    let height = ROW * rows.len() as f64 + 40.0;
    let mut o =
        format!("<svg id=\"{id}\" width=\"{WIDTH}\" height=\"{}\" xmlns=\"http://www.w3.org/2000/svg\">", fmt(height));
    let (ticks, decimals) = nice_ticks(lo, hi, 6);
    for v in ticks {
        o.push_str(&format!(
            "<line x1=\"{0}\" x2=\"{0}\" y1=\"5\" y2=\"{1}\" stroke=\"#ddd\"/><text class=\"tick\" x=\"{0}\" y=\"{2}\" text-anchor=\"middle\">{3}</text>",
            fmt(x(v)),
            fmt(height - 30.0),
            fmt(height - 16.0),
            tick_label(v, decimals)
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
pub fn history_chart(names: &[String], history: &[RatingPoint]) -> String {
    let (w, h, left, pad) = (WIDTH, 280.0, 50.0, 30.0);
    let games = history.iter().map(|p| p.game).max().unwrap_or(1).max(1) as f64;
    let values = history.iter().flat_map(|p| p.ratings.values().copied());
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(v), b.max(v)));
    let (lo, hi) = if hi > lo { (lo, hi) } else { (lo - 1.0, lo + 1.0) };
    let (lo, hi) = nice_range(lo, hi, 5);
    let right = w - 120.0;
    let x = |g: f64| left + g / games * (right - left);
    let y = |v: f64| h - pad - 10.0 - (v - lo) / (hi - lo) * (h - 2.0 * pad - 10.0);
    let mut o = format!("<svg id=\"ratings\" width=\"{w}\" height=\"{h}\" xmlns=\"http://www.w3.org/2000/svg\">");
    let (yticks, yd) = nice_ticks(lo, hi, 5);
    for v in yticks {
        o.push_str(&format!(
            "<line x1=\"{left}\" x2=\"{right}\" y1=\"{0}\" y2=\"{0}\" stroke=\"#ddd\"/><text class=\"tick\" x=\"{1}\" y=\"{2}\" text-anchor=\"end\">{3}</text>",
            fmt(y(v)),
            fmt(left - 6.0),
            fmt(y(v) + 4.0),
            tick_label(v, yd)
        ));
    }
    let (xticks, xd) = nice_ticks(0.0, games, 6);
    for g in xticks {
        o.push_str(&format!(
            "<line x1=\"{0}\" x2=\"{0}\" y1=\"{1}\" y2=\"{2}\" stroke=\"#ddd\"/><text class=\"tick\" x=\"{0}\" y=\"{3}\" text-anchor=\"middle\">{4}</text>",
            fmt(x(g)),
            fmt(y(hi)),
            fmt(y(lo)),
            fmt(y(lo) + 16.0),
            tick_label(g, xd)
        ));
    }
    o.push_str(&format!(
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">games (Weng-Lin μ after each)</text>",
        fmt((left + right) / 2.0),
        fmt(h - 6.0)
    ));
    // Lines first; the names at the right end, spread apart so they do not overlap.
    let mut labels: Vec<(f64, &str, String)> = Vec::new();
    for (i, n) in names.iter().enumerate() {
        let pts: Vec<(f64, f64)> =
            history.iter().filter_map(|p| p.ratings.get(n).map(|&v| (x(p.game as f64), y(v)))).collect();
        let Some(&(_, last_y)) = pts.last() else { continue };
        let color = COLORS[i % COLORS.len()];
        let points: Vec<String> = pts.iter().map(|&(px, py)| format!("{},{}", fmt(px), fmt(py))).collect();
        o.push_str(&format!(
            "<polyline class=\"rating\" data-bot=\"{}\" fill=\"none\" stroke=\"{color}\" stroke-width=\"2\" points=\"{}\"/>",
            escape_html(n),
            points.join(" ")
        ));
        labels.push((last_y + 4.0, color, escape_html(n)));
    }
    labels.sort_by(|a, b| a.0.total_cmp(&b.0));
    for i in 1..labels.len() {
        labels[i].0 = labels[i].0.max(labels[i - 1].0 + 13.0);
    }
    for (label_y, color, name) in labels {
        o.push_str(&format!("<text x=\"{}\" y=\"{}\" fill=\"{color}\">{name}</text>", fmt(right + 6.0), fmt(label_y)));
    }
    o.push_str("</svg>");
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_fall_on_round_numbers() {
        assert_eq!(nice_ticks(-83.67, 4.92, 5), (vec![-80.0, -60.0, -40.0, -20.0, 0.0], 0));
        assert_eq!(nice_ticks(1.0, 4.0, 6), (vec![1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0], 1));
        assert_eq!(nice_ticks(0.0, 20.0, 6), (vec![0.0, 5.0, 10.0, 15.0, 20.0], 0));
        assert_eq!(nice_ticks(24.13, 25.71, 5), (vec![24.5, 25.0, 25.5], 1));
        let (small, d) = nice_ticks(-0.07, 0.61, 5);
        assert_eq!((small, d), (vec![0.0, 0.2, 0.4, 0.6], 1), "0.6 is exactly 0.6");
        assert_eq!(nice_ticks(2.0, 2.0, 5), (vec![], 0));
        assert_eq!(nice_range(-83.67, 4.92, 5), (-100.0, 20.0));
        assert_eq!(nice_range(1.0, 4.0, 6), (1.0, 4.0));
        assert_eq!(tick_label(-0.0, 1), "0.0");
        assert_eq!(tick_label(-20.0, 0), "\u{2212}20");
    }

    #[test]
    fn the_ci_chart_labels_its_axis_at_round_numbers() {
        let rows = [
            CiRow { name: "a".into(), value: -40.0, ci: Some((-83.67, 4.92)) },
            CiRow { name: "<b>".into(), value: 10.0, ci: None },
        ];
        let svg = ci_chart("pt", &rows, None, "pt");
        let labels: Vec<&str> = svg
            .split("<text class=\"tick\"")
            .skip(1)
            .map(|t| t.split('>').nth(1).unwrap().trim_end_matches("</text"))
            .collect();
        assert_eq!(labels, ["\u{2212}100", "\u{2212}80", "\u{2212}60", "\u{2212}40", "\u{2212}20", "0", "20"]);
        assert!(svg.contains("&lt;b&gt;") && !svg.contains("<b>"));
    }
}
