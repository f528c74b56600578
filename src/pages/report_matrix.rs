//! The head-to-head matrix of `report.html`: for every two bots that shared tables, the mean
//! rank difference of the row bot minus the column bot with its 95% CI, coloured by sign
//! and significance. Both triangles are filled: a mirror cell is the negated difference
//! with the mirrored interval. Markup: `templates/matrix.html`.

use mjai_sim_tournament::standings::{PairStanding, Standings};

/// One matrix cell, from the row bot's side.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cell {
    /// Mean of rank(row) − rank(column) over the games both played (negative: the row bot
    /// placed better).
    pub diff: f64,
    /// 95% interval of `diff`; `None` with fewer than 2 shared sets.
    pub ci: Option<[f64; 2]>,
    /// Games both played.
    pub games: u64,
    /// Duplicate sets both played in.
    pub sets: u64,
}

impl Cell {
    /// The cell of `row` against `col` from `pair` (either orientation); `None` when the pair
    /// is not these two bots or has no difference.
    pub fn of(pair: &PairStanding, row: &str, col: &str) -> Option<Cell> {
        let diff = pair.rank_diff?;
        let (games, sets) = (pair.games, pair.sets);
        if pair.a == row && pair.b == col {
            Some(Cell { diff, ci: pair.rank_diff_ci, games, sets })
        } else if pair.a == col && pair.b == row {
            Some(Cell { diff: -diff, ci: pair.rank_diff_ci.map(|[lo, hi]| [-hi, -lo]), games, sets })
        } else {
            None
        }
    }

    /// True when the interval excludes 0.
    pub fn significant(&self) -> bool {
        self.ci.is_some_and(|[lo, hi]| lo > 0.0 || hi < 0.0)
    }

    /// CSS classes: `better` (row placed better, `diff < 0`), `worse` or `even`, plus `sig`
    /// when the interval excludes 0.
    pub fn class(&self) -> &'static str {
        match (self.diff.total_cmp(&0.0), self.significant()) {
            (std::cmp::Ordering::Less, true) => "better sig",
            (std::cmp::Ordering::Less, false) => "better",
            (std::cmp::Ordering::Greater, true) => "worse sig",
            (std::cmp::Ordering::Greater, false) => "worse",
            (std::cmp::Ordering::Equal, _) => "even",
        }
    }

    /// `−0.21 [−0.40, −0.02]`: two decimals, a true minus sign; `(no CI)` without interval.
    pub fn text(&self) -> String {
        let ci = self.ci.map_or_else(|| "(no CI)".to_string(), |[lo, hi]| format!("[{}, {}]", signed(lo), signed(hi)));
        format!("{} {ci}", signed(self.diff))
    }
}

/// `x` with two decimals, `−` for negatives, never `−0.00`.
fn signed(x: f64) -> String {
    let s = format!("{x:.2}");
    match s.strip_prefix('-') {
        Some("0.00") => "0.00".to_string(),
        Some(rest) => format!("\u{2212}{rest}"),
        None => s,
    }
}

/// One row of the matrix (`templates/matrix.html`): the row bot and one cell per column,
/// columns in the order of the rows.
#[derive(Debug, Clone)]
pub struct MatrixRow<'a> {
    /// The row bot.
    pub name: &'a str,
    /// Its cells, left to right.
    pub cells: Vec<MatrixCell<'a>>,
}

/// One cell: the column bot and, when the two shared tables, the difference.
#[derive(Debug, Clone)]
pub struct MatrixCell<'a> {
    /// The column bot (the row bot itself on the diagonal).
    pub col: &'a str,
    /// The difference of row against column; `None` on the diagonal and for bots that
    /// never met.
    pub cell: Option<Cell>,
}

/// The "Head to head" matrix: bots best first in rows and columns; empty when no two bots
/// shared a table.
pub fn matrix(s: &Standings) -> Vec<MatrixRow<'_>> {
    if s.pairs.is_empty() {
        return Vec::new();
    }
    let names: Vec<&str> = s.ranked().into_iter().map(|b| b.name.as_str()).collect();
    let cell = |row: &str, col: &str| match row == col {
        true => None,
        false => s.pairs.iter().find_map(|p| Cell::of(p, row, col)),
    };
    names
        .iter()
        .map(|&row| MatrixRow {
            name: row,
            cells: names.iter().map(|&col| MatrixCell { col, cell: cell(row, col) }).collect(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(diff: f64, ci: Option<[f64; 2]>) -> PairStanding {
        PairStanding {
            a: "a".into(),
            b: "b".into(),
            games: 72,
            sets: 18,
            rank_diff: Some(diff),
            rank_diff_ci: ci,
            a_above: 40,
        }
    }

    #[test]
    fn a_cell_shows_the_difference_with_its_ci_from_either_side() {
        let p = pair(-0.2104, Some([-0.401, -0.019]));
        let ab = Cell::of(&p, "a", "b").unwrap();
        assert_eq!(ab.text(), "\u{2212}0.21 [\u{2212}0.40, \u{2212}0.02]");
        assert_eq!(ab.class(), "better sig");
        let ba = Cell::of(&p, "b", "a").unwrap();
        assert_eq!(ba.text(), "0.21 [0.02, 0.40]");
        assert_eq!(ba.class(), "worse sig");
        assert_eq!(Cell::of(&p, "a", "c"), None);
    }

    #[test]
    fn a_ci_containing_zero_is_pale_and_no_ci_is_said() {
        let p = pair(0.3, Some([-0.1, 0.7]));
        assert_eq!(Cell::of(&p, "a", "b").unwrap().class(), "worse");
        assert_eq!(Cell::of(&p, "b", "a").unwrap().class(), "better");
        let none = Cell::of(&pair(-0.004, None), "a", "b").unwrap();
        assert_eq!(none.text(), "0.00 (no CI)");
        assert_eq!(none.class(), "better");
        assert_eq!(Cell::of(&pair(0.0, Some([-0.5, 0.5])), "a", "b").unwrap().class(), "even");
    }
}
