//! Inline SVG charts of the tournament report and the bot pages: values with CI error
//! bars, rank distributions as stacked bars, ratings over games as lines. Every numeric axis
//! is labelled at round numbers ([`nice_ticks`]). The geometry is computed here; the markup
//! comes from the auto-escaping templates `chart_*.html`, so names are escaped there.

use std::collections::BTreeMap;

use askama::Template;

use mjai_sim_tournament::standings::RatingPoint;
use mjai_sim_viewer::layout::render;

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

/// A tick of an axis: where (pixels) and its label.
struct Tick {
    at: String,
    label_at: String,
    label: String,
}

#[derive(Template)]
#[template(path = "chart_ci.html")]
struct CiChart<'a> {
    id: &'a str,
    width: f64,
    height: String,
    grid_bottom: String,
    tick_y: String,
    ticks: Vec<Tick>,
    name_x: String,
    rows: Vec<CiMark<'a>>,
    axis: &'a str,
    axis_x: String,
    axis_y: String,
}

/// One bot's dot (and bar) in [`ci_chart`].
struct CiMark<'a> {
    name: &'a str,
    text_y: String,
    y: f64,
    cap_top: f64,
    cap_bottom: f64,
    x: String,
    color: &'static str,
    value: String,
    ci: Option<CiBar>,
}

struct CiBar {
    low: f64,
    high: f64,
    xa: String,
    xb: String,
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
    let (ticks, decimals) = nice_ticks(lo, hi, 6);
    let chart = CiChart {
        id,
        width: WIDTH,
        height: fmt(height),
        grid_bottom: fmt(height - 30.0),
        tick_y: fmt(height - 16.0),
        ticks: ticks
            .into_iter()
            .map(|v| Tick { at: fmt(x(v)), label_at: String::new(), label: tick_label(v, decimals) })
            .collect(),
        name_x: fmt(LEFT - 8.0),
        rows: rows
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let y = 20.0 + ROW * i as f64;
                CiMark {
                    name: &r.name,
                    text_y: fmt(y + 4.0),
                    y,
                    cap_top: y - 6.0,
                    cap_bottom: y + 6.0,
                    x: fmt(x(r.value)),
                    color: COLORS[i % COLORS.len()],
                    value: format!("{:.3}", r.value),
                    ci: r.ci.map(|(low, high)| CiBar { low, high, xa: fmt(x(low)), xb: fmt(x(high)) }),
                }
            })
            .collect(),
        axis,
        axis_x: fmt((LEFT + WIDTH) / 2.0),
        axis_y: fmt(height - 2.0),
    };
    render(&chart)
}

#[derive(Template)]
#[template(path = "chart_ranks.html")]
struct RankBars<'a> {
    width: f64,
    height: String,
    name_x: String,
    bar_height: String,
    bars: Vec<Bar<'a>>,
    legend_x: String,
    legend_y: String,
}

struct Bar<'a> {
    name: &'a str,
    y: f64,
    text_y: String,
    segments: Vec<Segment>,
}

struct Segment {
    x: String,
    width: String,
    fill: &'static str,
    place: &'static str,
    share: String,
    /// Where the percentage is written, when the segment is wide enough.
    label_x: Option<String>,
    percent: String,
}

/// Stacked bars of 1st..4th place shares per bot.
pub fn rank_bars(dists: &[(String, Vec<f64>)]) -> String {
    let shades = ["#1f7a34", "#7cb342", "#f2c14e", "#b02020"];
    let height = ROW * dists.len() as f64 + 30.0;
    let span = WIDTH - LEFT - 20.0;
    let bars = dists
        .iter()
        .enumerate()
        .map(|(i, (name, d))| {
            let y = 8.0 + ROW * i as f64;
            let total: f64 = d.iter().take(4).sum();
            let mut x = LEFT;
            let segments = d
                .iter()
                .take(4)
                .enumerate()
                .map(|(r, v)| {
                    let share = if total > 0.0 { v / total } else { 0.0 };
                    let w = share * span;
                    let s = Segment {
                        x: fmt(x),
                        width: fmt(w),
                        fill: shades[r],
                        place: ["1st", "2nd", "3rd", "4th"][r],
                        share: format!("{:.1}", share * 100.0),
                        label_x: (w > 30.0).then(|| fmt(x + w / 2.0)),
                        percent: format!("{:.0}", share * 100.0),
                    };
                    x += w;
                    s
                })
                .collect();
            Bar { name, y, text_y: fmt(y + 14.0), segments }
        })
        .collect();
    render(&RankBars {
        width: WIDTH,
        height: fmt(height),
        name_x: fmt(LEFT - 8.0),
        bar_height: fmt(ROW - 6.0),
        bars,
        legend_x: fmt(LEFT),
        legend_y: fmt(height - 4.0),
    })
}

#[derive(Template)]
#[template(path = "chart_history.html")]
struct History<'a> {
    width: f64,
    height: f64,
    left: f64,
    right: f64,
    top: String,
    bottom: String,
    ytick_x: String,
    yticks: Vec<Tick>,
    xticks: Vec<Tick>,
    axis_x: String,
    axis_y: String,
    /// The x axis's title.
    axis: &'a str,
    lines: Vec<Line<'a>>,
    label_x: String,
    labels: Vec<Label<'a>>,
}

struct Line<'a> {
    name: &'a str,
    color: &'static str,
    points: String,
}

struct Label<'a> {
    y: String,
    color: &'static str,
    name: &'a str,
}

/// One line per bot of its rating after each recorded game.
pub fn history_chart(names: &[String], history: &[RatingPoint]) -> String {
    let games = history.iter().map(|p| p.game).max().unwrap_or(1).max(1) as f64;
    let (xticks, xd) = nice_ticks(0.0, games, 6);
    let xticks = xticks.into_iter().map(|g| (g, tick_label(g, xd))).collect();
    let series: Vec<(f64, &BTreeMap<String, f64>)> = history.iter().map(|p| (p.game as f64, &p.ratings)).collect();
    rating_lines(names, &series, (0.0, games), xticks, "games (Weng-Lin μ after each)")
}

/// One bot's rating over time: `points` are `(ms since the Unix epoch, μ)` after each of
/// its games, oldest first; the x axis is UTC time, its ticks at round steps (a minute to
/// 30 days) labelled `HH:MM` (all on one date), `MM-DD HH:MM` or `MM-DD` (steps of days).
pub fn history_chart_by_time(name: &str, points: &[(i64, f64)]) -> String {
    let first = points.first().map_or(0, |p| p.0);
    let last = points.last().map_or(0, |p| p.0).max(first + 60_000);
    let names = [name.to_string()];
    let ratings: Vec<BTreeMap<String, f64>> =
        points.iter().map(|&(_, mu)| BTreeMap::from([(name.to_string(), mu)])).collect();
    let series: Vec<(f64, &BTreeMap<String, f64>)> =
        points.iter().zip(&ratings).map(|(&(at, _), r)| ((at - first) as f64, r)).collect();
    let xticks = time_ticks(first, last).into_iter().map(|(at, label)| ((at - first) as f64, label)).collect();
    rating_lines(&names, &series, (0.0, (last - first) as f64), xticks, "time, UTC (Weng-Lin μ after each game)")
}

/// Ticks of a time axis from `first` to `last` (ms): multiples of the first step of a
/// minute, 5 or 15 minutes, an hour, 3, 6 or 12 hours, a day, 2, 7 or 30 days that gives at
/// most 6, with their labels.
fn time_ticks(first: i64, last: i64) -> Vec<(i64, String)> {
    const MINUTE: i64 = 60_000;
    const DAY: i64 = 1440 * MINUTE;
    let steps = [1, 5, 15, 60, 180, 360, 720, 1440, 2880, 10080, 43200].map(|m| m * MINUTE);
    let span = (last - first).max(1);
    let step = steps.into_iter().find(|s| (span + s - 1) / s <= 6).unwrap_or(30 * DAY);
    let rfc3339 = mjai_sim_tournament::leaderboard::utc::rfc3339;
    let two_dates = rfc3339(first)[..10] != rfc3339(last)[..10];
    let label = |at: i64| {
        let t = rfc3339(at);
        match (step >= DAY, two_dates) {
            (true, _) => t[5..10].to_string(),
            (false, true) => format!("{} {}", &t[5..10], &t[11..16]),
            (false, false) => t[11..16].to_string(),
        }
    };
    let mut at = (first + step - 1).div_euclid(step) * step;
    let mut out = Vec::new();
    while at <= last {
        out.push((at, label(at)));
        at += step;
    }
    out
}

/// The rating chart: one line per bot of `names` through `series` (`(x, μ by name)`),
/// `x` spanning `xs`, ticks `xticks` (`(x, label)`), the x axis titled `axis`.
fn rating_lines(
    names: &[String],
    series: &[(f64, &BTreeMap<String, f64>)],
    xs: (f64, f64),
    xticks: Vec<(f64, String)>,
    axis: &str,
) -> String {
    let (w, h, left, pad) = (WIDTH, 280.0, 50.0, 30.0);
    let span = (xs.1 - xs.0).max(f64::MIN_POSITIVE);
    let values = series.iter().flat_map(|p| p.1.values().copied());
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(v), b.max(v)));
    let (lo, hi) = if hi > lo { (lo, hi) } else { (lo - 1.0, lo + 1.0) };
    let (lo, hi) = nice_range(lo, hi, 5);
    let right = w - 120.0;
    let x = |g: f64| left + (g - xs.0) / span * (right - left);
    let y = |v: f64| h - pad - 10.0 - (v - lo) / (hi - lo) * (h - 2.0 * pad - 10.0);
    let (yticks, yd) = nice_ticks(lo, hi, 5);
    // Lines first; the names at the right end, spread apart so they do not overlap.
    let mut lines = Vec::new();
    let mut labels: Vec<(f64, &'static str, &str)> = Vec::new();
    for (i, n) in names.iter().enumerate() {
        let pts: Vec<(f64, f64)> = series.iter().filter_map(|p| p.1.get(n).map(|&v| (x(p.0), y(v)))).collect();
        let Some(&(_, last_y)) = pts.last() else { continue };
        let color = COLORS[i % COLORS.len()];
        let points: Vec<String> = pts.iter().map(|&(px, py)| format!("{},{}", fmt(px), fmt(py))).collect();
        lines.push(Line { name: n, color, points: points.join(" ") });
        labels.push((last_y + 4.0, color, n));
    }
    labels.sort_by(|a, b| a.0.total_cmp(&b.0));
    for i in 1..labels.len() {
        labels[i].0 = labels[i].0.max(labels[i - 1].0 + 13.0);
    }
    render(&History {
        width: w,
        height: h,
        left,
        right,
        top: fmt(y(hi)),
        bottom: fmt(y(lo)),
        ytick_x: fmt(left - 6.0),
        yticks: yticks
            .into_iter()
            .map(|v| Tick { at: fmt(y(v)), label_at: fmt(y(v) + 4.0), label: tick_label(v, yd) })
            .collect(),
        xticks: xticks
            .into_iter()
            .map(|(g, label)| Tick { at: fmt(x(g)), label_at: fmt(y(lo) + 16.0), label })
            .collect(),
        axis_x: fmt((left + right) / 2.0),
        axis_y: fmt(h - 6.0),
        axis,
        lines,
        label_x: fmt(right + 6.0),
        labels: labels.into_iter().map(|(ly, color, name)| Label { y: fmt(ly), color, name }).collect(),
    })
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
    fn time_ticks_fall_on_round_utc_steps() {
        let at = |t: &str| mjai_sim_tournament::leaderboard::utc::parse(t).unwrap();
        let hour = time_ticks(at("2026-11-27T17:05:03Z"), at("2026-11-27T17:40:00Z"));
        let labels: Vec<&str> = hour.iter().map(|t| t.1.as_str()).collect();
        assert_eq!(labels, ["17:15", "17:30"]);
        let days = time_ticks(at("2026-11-20T10:00:00Z"), at("2026-11-27T09:00:00Z"));
        let labels: Vec<&str> = days.iter().map(|t| t.1.as_str()).collect();
        assert_eq!(labels, ["11-21", "11-23", "11-25", "11-27"]);
        let two = time_ticks(at("2026-11-26T22:00:00Z"), at("2026-11-27T14:00:00Z"));
        assert_eq!(two.first().map(|t| t.1.as_str()), Some("11-27 00:00"));
        assert!(two.len() <= 6 && two.windows(2).all(|w| w[1].0 - w[0].0 == 3 * 3_600_000), "{two:?}");
        let svg =
            history_chart_by_time("<b>", &[(at("2026-11-27T17:05:03Z"), 25.0), (at("2026-11-27T17:40:00Z"), 26.0)]);
        assert!(svg.contains("time, UTC") && svg.contains(">17:30<") && !svg.contains("<b>"), "{svg}");
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
        assert!(svg.contains("&#60;b&#62;") && !svg.contains("<b>"));
    }
}
