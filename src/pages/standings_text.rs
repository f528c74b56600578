//! Standings as text: `standings.md` ([`markdown`]) and a compact terminal table
//! ([`table`]), and the two standings files of a tournament folder ([`write_standings`]).
//! Bots are listed best first ([`Standings::ranked`]); a retired bot is shown as
//! `NAME (retired)`.

use std::fmt::Write;
use std::path::Path;

use anyhow::Context;

use mjai_sim_tournament::standings::Standings;

/// `x` with `digits` decimals, `-` for none.
fn num(x: Option<f64>, digits: usize) -> String {
    x.map_or_else(|| "-".to_string(), |v| format!("{v:.digits$}"))
}

/// A share as a percentage with one decimal, `-` for none.
fn pct(x: Option<f64>) -> String {
    x.map_or_else(|| "-".to_string(), |v| format!("{:.1}%", v * 100.0))
}

/// An interval `[low, high]`, `-` for none.
fn ci(x: Option<[f64; 2]>, digits: usize) -> String {
    x.map_or_else(|| "-".to_string(), |[l, h]| format!("[{l:.digits$}, {h:.digits$}]"))
}

/// A name safe inside a Markdown table cell.
fn cell(name: &str) -> String {
    name.replace('|', "\\|").replace('\n', " ")
}

/// One line: games, sets, uma and how the intervals were made.
pub fn headline(st: &Standings) -> String {
    let uma = st.uma.iter().map(|u| format!("{u}")).collect::<Vec<_>>().join("/");
    format!(
        "{} games in {} duplicate sets; pt = uma {uma}; {:.0}% intervals from {} bootstrap resamples of the sets (seed {})",
        st.games,
        st.sets,
        st.bootstrap.level * 100.0,
        st.bootstrap.resamples,
        st.bootstrap.seed
    )
}

/// `standings.md`: the headline, a standings table, a play-style table and the
/// head-to-head table.
pub fn markdown(st: &Standings) -> String {
    let mut out = String::from("# Standings\n\n");
    let _ = writeln!(out, "{}.\n", headline(st));
    // one rank column per seat of the table: 1st..4th, or 1st..3rd in three-player
    let places = ["1st", "2nd", "3rd", "4th"];
    let seats = st.uma.len().min(places.len());
    let _ = writeln!(
        out,
        "| # | bot | games | avg rank | 95% CI | avg pt | 95% CI | {} | mean score | Weng-Lin mu | sigma | Elo |",
        places[..seats].join(" | ")
    );
    let _ = writeln!(out, "|---|---|---|---|---|---|---|{}---|---|---|---|", "---|".repeat(seats));
    for (i, b) in st.ranked().into_iter().enumerate() {
        let d: Vec<String> =
            (0..seats).map(|k| format!("{:.1}%", b.rank_dist.get(k).copied().unwrap_or(0.0) * 100.0)).collect();
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.2} | {:.2} | {:.1} |",
            i + 1,
            cell(&b.label()),
            b.games,
            num(b.avg_rank, 3),
            ci(b.avg_rank_ci, 3),
            num(b.avg_pt, 2),
            ci(b.avg_pt_ci, 2),
            d.join(" | "),
            num(b.mean_score, 0),
            b.weng_lin.mu,
            b.weng_lin.sigma,
            b.elo
        );
    }
    out.push_str("\n## Play\n\nRates per hand, except tsumo (per win) and tenpai (per exhaustive draw); points per win / deal-in.\n\n");
    out.push_str("| bot | hands | win | deal-in | riichi | call | tsumo | tenpai at draw | win pts | deal-in pts | chombos | decision median ms | p99 ms |\n");
    out.push_str("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for b in st.ranked() {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            cell(&b.label()),
            b.kyokus,
            pct(b.win_rate),
            pct(b.deal_in_rate),
            pct(b.riichi_rate),
            pct(b.call_rate),
            pct(b.tsumo_rate),
            pct(b.tenpai_at_draw_rate),
            num(b.avg_win_points, 0),
            num(b.avg_deal_in_points, 0),
            b.chombos,
            num(b.decision_median_ms, 3),
            num(b.decision_p99_ms, 3)
        );
    }
    if !st.pairs.is_empty() {
        out.push_str("\n## Head-to-head\n\nRank difference = mean of rank(a) − rank(b) at shared tables (negative: a placed better).\n\n");
        out.push_str("| a | b | games | sets | rank diff | 95% CI | a above b |\n|---|---|---|---|---|---|---|\n");
        for p in &st.pairs {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} | {} |",
                cell(&p.a),
                cell(&p.b),
                p.games,
                p.sets,
                num(p.rank_diff, 3),
                ci(p.rank_diff_ci, 3),
                p.a_above
            );
        }
    }
    if st.skipped_records > 0 {
        let _ = writeln!(out, "\n{} malformed records were skipped.", st.skipped_records);
    }
    if !st.not_counted.is_empty() {
        out.push_str("\n## Games not counted\n\nFailed for good; in no figure above. A reason beginning `internal error:` is a bug in mjai-sim (a built-in bot never takes a chombo).\n\n");
        for g in &st.not_counted {
            let _ = writeln!(out, "- game {}: {}", g.game, cell(&g.reason));
        }
    }
    out
}

/// A compact plain-text table for the terminal (one line per bot, best first).
pub fn table(st: &Standings) -> String {
    let width = st.bots.iter().map(|b| b.label().chars().count()).max().unwrap_or(3).clamp(3, 32);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:>2}  {:<width$}  {:>6}  {:>8}  {:<16}  {:>7}  {:<18}  {:>7}  {:>6}",
        "#", "bot", "games", "avg rank", "95% CI", "avg pt", "95% CI", "Elo", "mu"
    );
    for (i, b) in st.ranked().into_iter().enumerate() {
        let name: String = b.label().chars().take(width).collect();
        let _ = writeln!(
            out,
            "{:>2}  {:<width$}  {:>6}  {:>8}  {:<16}  {:>7}  {:<18}  {:>7.1}  {:>6.2}",
            i + 1,
            name,
            b.games,
            num(b.avg_rank, 3),
            ci(b.avg_rank_ci, 3),
            num(b.avg_pt, 2),
            ci(b.avg_pt_ci, 2),
            b.elo,
            b.weng_lin.mu
        );
    }
    let _ = writeln!(out, "{}", headline(st));
    out
}

/// Writes `DIR/standings.json` and `DIR/standings.md` (schemas in docs/output-files.md),
/// each through a temporary file and a rename (complete or not at all). Errors: unwritable
/// folder, disk full (one line; the results stay in the database).
pub fn write_standings(dir: &Path, standings: &Standings) -> anyhow::Result<()> {
    let json = serde_json::to_string_pretty(standings)? + "\n";
    for (name, text) in [("standings.json", json), ("standings.md", markdown(standings))] {
        let (tmp, path) = (dir.join(format!(".{name}.tmp")), dir.join(name));
        std::fs::write(&tmp, text).and_then(|_| std::fs::rename(&tmp, &path)).with_context(|| {
            format!("cannot write {} (check free space); results are kept in the database", path.display())
        })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{markdown, table};
    use mjai_sim_tournament::fixtures::{names, opts, rec, set_of_four};
    use mjai_sim_tournament::record::GameRecord;
    use mjai_sim_tournament::standings::compute;

    #[test]
    fn markdown_and_table_list_bots_best_first() {
        let records: Vec<GameRecord> = (0..2).flat_map(set_of_four).collect();
        let st = compute(&names(4), &records, &opts());
        let md = markdown(&st);
        assert!(md.starts_with("# Standings"));
        let first_row = md.lines().find(|l| l.starts_with("| 1 |")).unwrap();
        assert!(first_row.contains("bot0") && first_row.contains("1.000"), "{first_row}");
        assert!(md.contains("## Head-to-head"));
        let table = table(&st);
        assert_eq!(table.lines().count(), 6, "header, 4 bots, headline:\n{table}");
        assert!(table.lines().nth(1).unwrap().contains("bot0"));
    }

    #[test]
    fn retired_bots_and_skipped_records_are_shown() {
        let mut records: Vec<GameRecord> = (0..2).flat_map(set_of_four).collect();
        records.push(rec(10, 2, [0, 1, 2, 9], [1, 2, 3, 4]));
        let mut st = compute(&names(5), &records, &opts());
        st.mark_retired(&[3]);
        let md = markdown(&st);
        assert!(md.contains("| bot3 (retired) |"), "{md}");
        assert!(md.contains("1 malformed records were skipped"), "{md}");
        assert!(table(&st).contains("bot3 (retired)"));
    }
}
