//! Standings as text: `standings.md` ([`Standings::to_markdown`]) and a compact terminal
//! table ([`Standings::to_table`]). Bots are listed best first (lowest average rank; bots
//! without games last, then in bot-list order); a retired bot is shown as `NAME (retired)`.

use std::fmt::Write;

use super::standings::{BotStanding, Standings};

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

impl BotStanding {
    /// The name as the tables show it: `NAME (retired)` for a bot retired from its league.
    pub fn label(&self) -> String {
        match self.retired {
            true => format!("{} (retired)", self.name),
            false => self.name.clone(),
        }
    }
}

impl Standings {
    /// Bots best first: lowest average rank, bots without games last; ties keep bot-list order.
    pub fn ranked(&self) -> Vec<&BotStanding> {
        let mut v: Vec<&BotStanding> = self.bots.iter().collect();
        v.sort_by(|a, b| match (a.avg_rank, b.avg_rank) {
            (Some(x), Some(y)) => x.total_cmp(&y),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => std::cmp::Ordering::Equal,
        });
        v
    }

    /// One line: games, sets, uma and how the intervals were made.
    pub fn headline(&self) -> String {
        let uma = self.uma.map(|u| format!("{u}")).join("/");
        format!(
            "{} games in {} duplicate sets; pt = uma {uma}; {:.0}% intervals from {} bootstrap resamples of the sets (seed {})",
            self.games,
            self.sets,
            self.bootstrap.level * 100.0,
            self.bootstrap.resamples,
            self.bootstrap.seed
        )
    }

    /// `standings.md`: the headline, a standings table, a play-style table and the
    /// head-to-head table.
    pub fn to_markdown(&self) -> String {
        let mut out = String::from("# Standings\n\n");
        let _ = writeln!(out, "{}.\n", self.headline());
        out.push_str("| # | bot | games | avg rank | 95% CI | avg pt | 95% CI | 1st | 2nd | 3rd | 4th | mean score | Weng-Lin mu | sigma | Elo |\n");
        out.push_str("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (i, b) in self.ranked().into_iter().enumerate() {
            let d = b.rank_dist.map(|x| format!("{:.1}%", x * 100.0));
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.2} | {:.2} | {:.1} |",
                i + 1,
                cell(&b.label()),
                b.games,
                num(b.avg_rank, 3),
                ci(b.avg_rank_ci, 3),
                num(b.avg_pt, 2),
                ci(b.avg_pt_ci, 2),
                d[0],
                d[1],
                d[2],
                d[3],
                num(b.mean_score, 0),
                b.weng_lin.mu,
                b.weng_lin.sigma,
                b.elo
            );
        }
        out.push_str("\n## Play\n\nRates per hand, except tsumo (per win) and tenpai (per exhaustive draw); points per win / deal-in.\n\n");
        out.push_str("| bot | hands | win | deal-in | riichi | call | tsumo | tenpai at draw | win pts | deal-in pts | chombos | decision median ms | p99 ms |\n");
        out.push_str("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for b in self.ranked() {
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
        if !self.pairs.is_empty() {
            out.push_str("\n## Head-to-head\n\nRank difference = mean of rank(a) − rank(b) at shared tables (negative: a placed better).\n\n");
            out.push_str("| a | b | games | sets | rank diff | 95% CI | a above b |\n|---|---|---|---|---|---|---|\n");
            for p in &self.pairs {
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
        if self.skipped_records > 0 {
            let _ = writeln!(out, "\n{} malformed records were skipped.", self.skipped_records);
        }
        if !self.not_counted.is_empty() {
            out.push_str("\n## Games not counted\n\nFailed for good; in no figure above. A reason beginning `internal error:` is a bug in mjai-sim (a built-in bot never takes a chombo).\n\n");
            for g in &self.not_counted {
                let _ = writeln!(out, "- game {}: {}", g.game, cell(&g.reason));
            }
        }
        out
    }

    /// A compact plain-text table for the terminal (one line per bot, best first).
    pub fn to_table(&self) -> String {
        let width = self.bots.iter().map(|b| b.label().chars().count()).max().unwrap_or(3).clamp(3, 32);
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{:>2}  {:<width$}  {:>6}  {:>8}  {:<16}  {:>7}  {:<18}  {:>7}  {:>6}",
            "#", "bot", "games", "avg rank", "95% CI", "avg pt", "95% CI", "Elo", "mu"
        );
        for (i, b) in self.ranked().into_iter().enumerate() {
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
        let _ = writeln!(out, "{}", self.headline());
        out
    }
}
