//! Ratings fed game by game in schedule order: Weng-Lin (through `skillratings`) and
//! mjai.app's pairwise Elo.
//!
//! mjai.app's Elo (`python/mjai/elo.py`, `update_multi_players_elo`): every rating starts at
//! 1500 (`mean_elo`); after a game the six pairs are updated one after another in the order
//! (1st,2nd), (1st,3rd), (1st,4th), (2nd,3rd), (2nd,4th), (3rd,4th) (at a three-player
//! table the three pairs (1st,2nd), (1st,3rd), (2nd,3rd), the same loop over three seats), each with the ratings
//! as already updated by the pairs before it: the higher-placed player gains
//! `K · (1 − E)` and the lower loses as much, `E = 1 / (1 + 10^((R_low − R_high) / 1200))`
//! (width 1200, not chess's 400), `K = 8`. Reproduced exactly for four different bots.
//! Not reproduced: mjai.app's `matching.py` divides stored ratings by 100 before the update
//! and multiplies them back when saving; its stored starting values are not public, so we
//! keep `elo.py`'s scale (start 1500).
//!
//! A bot in several seats of one game (Mortal's 1-vs-3 champion): each seat is rated as a
//! copy with the bot's rating before the game, and the bot's change is the sum of its copies'
//! changes (Weng-Lin: mu changes summed, sigma² shrunk by the product of its copies'
//! shrink factors). For four different bots this is the plain update.

use serde::{Deserialize, Serialize};
use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::MultiTeamOutcome;

/// mjai.app's starting Elo (`mean_elo`).
pub const ELO_START: f64 = 1500.0;
/// mjai.app's Elo width (`elo_width`).
pub const ELO_WIDTH: f64 = 1200.0;
/// mjai.app's K factor (`DEFAULT_K_FACTOR`).
pub const ELO_K: f64 = 8.0;

/// A Weng-Lin rating: `mu` (skill, starts at 25) and `sigma` (its uncertainty, starts at 25/3).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct WengLin {
    /// Estimated skill.
    pub mu: f64,
    /// Uncertainty of `mu` (one standard deviation).
    pub sigma: f64,
}

/// Running ratings of every bot.
#[derive(Debug, Clone)]
pub struct Ratings {
    weng_lin: Vec<WengLinRating>,
    elo: Vec<f64>,
    config: WengLinConfig,
}

impl Ratings {
    /// Starting ratings for `bots` bots.
    pub fn new(bots: usize) -> Ratings {
        Ratings { weng_lin: vec![WengLinRating::new(); bots], elo: vec![ELO_START; bots], config: WengLinConfig::new() }
    }

    /// Ratings continuing from stored Weng-Lin ratings (one per bot, by index); Elo starts
    /// at [`ELO_START`] (the store's aggregates keep only Weng-Lin).
    pub fn from_weng_lin(ratings: &[WengLin]) -> Ratings {
        let weng_lin = ratings.iter().map(|r| WengLinRating { rating: r.mu, uncertainty: r.sigma }).collect();
        Ratings { weng_lin, elo: vec![ELO_START; ratings.len()], config: WengLinConfig::new() }
    }

    /// Feeds one game: bot index and rank (1..=seats) per seat, one entry per seat of the
    /// table (4, or 3 at a three-player table; `seats` and `ranks` of one length). The
    /// caller checks the indices. Elo updates every pair of seats in mjai.app's order (six
    /// pairs at four seats, three at three).
    pub fn add_game(&mut self, seats: &[usize], ranks: &[u8]) {
        self.add_weng_lin(seats, ranks);
        self.add_elo(seats, ranks);
    }

    fn add_weng_lin(&mut self, seats: &[usize], ranks: &[u8]) {
        let n = seats.len();
        let before: Vec<[WengLinRating; 1]> = seats.iter().map(|&b| [self.weng_lin[b]]).collect();
        let teams: Vec<(&[WengLinRating], MultiTeamOutcome)> =
            (0..n).map(|s| (&before[s][..], MultiTeamOutcome::new(usize::from(ranks[s])))).collect();
        let after = weng_lin_multi_team(&teams, &self.config);
        let mut mu_change = vec![0.0; n];
        let mut shrink = vec![1.0; n];
        for s in 0..n {
            let (old, new) = (before[s][0], after[s][0]);
            let slot = seats.iter().position(|&b| b == seats[s]).unwrap_or(s);
            mu_change[slot] += new.rating - old.rating;
            shrink[slot] *= (new.uncertainty / old.uncertainty).powi(2);
        }
        for s in 0..n {
            if seats.iter().position(|&b| b == seats[s]) == Some(s) {
                let r = &mut self.weng_lin[seats[s]];
                r.rating += mu_change[s];
                r.uncertainty *= shrink[s].sqrt();
            }
        }
    }

    fn add_elo(&mut self, seats: &[usize], ranks: &[u8]) {
        let n = seats.len();
        let before: Vec<f64> = seats.iter().map(|&b| self.elo[b]).collect();
        let mut r = before.clone();
        let mut by_rank: Vec<usize> = (0..n).collect();
        by_rank.sort_by_key(|&s| (ranks[s], s));
        for (hi, lo) in (0..n).flat_map(|hi| (hi + 1..n).map(move |lo| (hi, lo))) {
            let (w, l) = (by_rank[hi], by_rank[lo]);
            let expected = 1.0 / (1.0 + 10f64.powf((r[l] - r[w]) / ELO_WIDTH));
            let change = ELO_K * (1.0 - expected);
            r[w] += change;
            r[l] -= change;
        }
        for s in 0..n {
            self.elo[seats[s]] += r[s] - before[s];
        }
    }

    /// Weng-Lin rating of bot `b`.
    pub fn weng_lin(&self, b: usize) -> WengLin {
        let r = self.weng_lin[b];
        WengLin { mu: r.rating, sigma: r.uncertainty }
    }

    /// mjai.app Elo of bot `b`.
    pub fn elo(&self, b: usize) -> f64 {
        self.elo[b]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// mjai.app's `update_multi_players_elo` on one game, written out by hand: all at 1500,
    /// seats 0..3 finish 2nd, 1st, 4th, 3rd.
    #[test]
    fn elo_matches_mjai_app_sequential_pairs() {
        let mut r = Ratings::new(4);
        r.add_game(&[0, 1, 2, 3], &[2, 1, 4, 3]);
        // Independent computation of elo.py's loop (ranks_idx = [1, 0, 3, 2]).
        let mut e = [1500.0f64; 4];
        let order = [1usize, 0, 3, 2];
        for (i, j) in [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)] {
            let (w, l) = (order[i], order[j]);
            let ex = 1.0 / (1.0 + 10f64.powf((e[l] - e[w]) / 1200.0));
            e[w] += 8.0 * (1.0 - ex);
            e[l] -= 8.0 * (1.0 - ex);
        }
        for (b, expected) in e.iter().enumerate() {
            assert!((r.elo(b) - expected).abs() < 1e-9, "bot {b}: {} vs {expected}", r.elo(b));
        }
        // First pair: 4 points each way at equal ratings.
        assert!(r.elo(1) > 1511.0 && r.elo(2) < 1489.0, "{:?}", [r.elo(1), r.elo(2)]);
        let total: f64 = (0..4).map(|b| r.elo(b)).sum();
        assert!((total - 6000.0).abs() < 1e-9, "Elo is zero-sum");
    }

    #[test]
    fn weng_lin_moves_winner_up_and_shrinks_sigma() {
        let mut r = Ratings::new(4);
        r.add_game(&[0, 1, 2, 3], &[1, 2, 3, 4]);
        let w: Vec<WengLin> = (0..4).map(|b| r.weng_lin(b)).collect();
        assert!(w[0].mu > w[1].mu && w[1].mu > w[2].mu && w[2].mu > w[3].mu, "{w:?}");
        assert!(w.iter().all(|x| x.sigma < 25.0 / 3.0));
    }

    #[test]
    fn copies_of_one_bot_sum_their_changes() {
        // 1-vs-3: bot 0 wins against three copies of bot 1; bot 1's Elo loss equals bot 0's gain.
        let mut r = Ratings::new(2);
        r.add_game(&[1, 0, 1, 1], &[2, 1, 3, 4]);
        assert!(r.elo(0) > ELO_START);
        assert!((r.elo(0) + r.elo(1) - 2.0 * ELO_START).abs() < 1e-9);
        assert!(r.weng_lin(0).mu > 25.0 && r.weng_lin(1).mu < 25.0);
        assert!(r.weng_lin(1).sigma < r.weng_lin(0).sigma, "three copies shrink sigma more");
    }
}
