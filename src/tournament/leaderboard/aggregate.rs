//! Per-bot aggregates of a league, folded game by game in schedule order, so that its
//! leaderboard is read from one row per bot rather than from every result (issue 21,
//! item 6). The store keeps them ([`crate::store`], tables `agg_bots`, `agg_pairs`,
//! `agg_cursor`); this module is the arithmetic, with no database.
//!
//! What a bot's aggregate holds, and why it gives the figures [`crate::standings::compute`]
//! gives over the same rows:
//! - games, rank counts, the sum of ranks and the sum of pt (uma by rank), added seat by
//!   seat in schedule order as `BotTally` (src/stats/standings/tally.rs) adds them: the same means, bit
//!   for bit;
//! - the Weng-Lin rating, updated by [`Ratings`] (the same code, the same order): the same
//!   μ and σ;
//! - its duplicate sets as the bootstrap sees them: the count of sets per distinct per-set
//!   sums `[games, rank sum, pt sum]` ([`SetCounts`]) plus the sums of its latest set, still
//!   open. [`unit_intervals`] draws the standings' resamples from exactly these counts (the
//!   bot's own ChaCha8 stream), so the 95 % intervals are the standings' percentile
//!   bootstrap over sets, not an approximation. This relies on a set's games being
//!   contiguous in schedule order (true of every schedule mjai-sim makes: set `s` is games
//!   `4s..4s+3`).
//! - the peak: the highest μ − 3σ after any game from its [`PROVISIONAL_GAMES`]-th on;
//! - its last game (id, and the league's count of folded games then, for the decay);
//! - its chombos (each seat's, summed: the leaderboard's chombos per game);
//! - a subsample of its rating history ([`History`]).
//!
//! Head-to-head per pair of bots (`a < b`): games shared, games `a` placed above `b`, the
//! sum of `rank(a) − rank(b)` (a bot in several seats counts with its mean rank).

use mjai_sim_engine::game::MAX_SEATS;
use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::PROVISIONAL_GAMES;
use crate::record::GameRecord;
use crate::standings::mean_rank;
use mjai_sim_stats::bootstrap::{unit_intervals, SetCounts};
use mjai_sim_stats::ratings::{Ratings, WengLin};

/// Most points kept in a bot's [`History`].
pub const HISTORY_POINTS: usize = 200;

/// The decay of an inactive bot's rating: σ grows by `DECAY_TAU²` in variance per league
/// game folded since the bot's last game (see [`decayed_sigma`]). 25/300: a bot that sat out
/// 10,000 league games is back to a newcomer's σ (25/3); one that plays one game in five
/// (a league of 20 bots) gains about 0.03 in σ between its games.
pub const DECAY_TAU: f64 = 25.0 / 300.0;

/// A newcomer's σ (skillratings' default 25/3): the decay never goes beyond it.
pub const SIGMA_START: f64 = 25.0 / 3.0;

/// σ of a rating after `games_since` league games without the bot:
/// `min(√(σ² + games_since · τ²), max(σ, 25/3))`. `tau` 0 leaves σ as it is.
pub fn decayed_sigma(sigma: f64, games_since: u64, tau: f64) -> f64 {
    (sigma * sigma + games_since as f64 * tau * tau).sqrt().min(SIGMA_START.max(sigma))
}

/// A bot's duplicate sets as the bootstrap needs them (stored as JSON).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SetState {
    /// Closed sets: `([games, rank sum, pt sum] as f64 bit patterns, sets)`.
    pub closed: Vec<([u64; 3], u64)>,
    /// The latest set: its index and sums so far (f64 bit patterns).
    pub open: Option<(u64, [u64; 3])>,
}

impl SetState {
    /// Adds one seat (rank 1..=4, `pt`) of a game of set `set`.
    fn add(&mut self, set: u64, rank: u8, pt: f64) {
        if self.open.is_some_and(|(s, _)| s != set) {
            if let Some((_, sums)) = self.open.take() {
                match self.closed.iter_mut().find(|(k, _)| *k == sums) {
                    Some((_, c)) => *c += 1,
                    None => self.closed.push((sums, 1)),
                }
            }
        }
        let (_, sums) = self.open.get_or_insert((set, [0.0f64.to_bits(); 3]));
        let add = |bits: &mut u64, v: f64| *bits = (f64::from_bits(*bits) + v).to_bits();
        add(&mut sums[0], 1.0);
        add(&mut sums[1], f64::from(rank));
        add(&mut sums[2], pt);
    }

    /// Sets per distinct sums, the open set included (what the standings count).
    pub fn counts(&self) -> SetCounts {
        let mut out: SetCounts = self.closed.iter().copied().collect();
        if let Some((_, sums)) = self.open {
            *out.entry(sums).or_default() += 1;
        }
        out
    }
}

/// A bot's μ over its games, at most [`HISTORY_POINTS`] points: after every `every`-th game
/// of the bot (`every` doubles, dropping every other point, when the points would exceed
/// the cap), so the points stay evenly spaced.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct History {
    /// Games between points.
    pub every: u64,
    /// `(games played, μ)`.
    pub points: Vec<(u64, f64)>,
    /// When each point's game ended (ms since the Unix epoch, the database's clock), in the
    /// order of `points`; `None` for a game without a time (recorded before games had
    /// them). Stored histories from before this field have it empty: [`History::times`].
    #[serde(default)]
    pub at_ms: Vec<Option<i64>>,
}

impl Default for History {
    fn default() -> History {
        History { every: 1, points: Vec::new(), at_ms: Vec::new() }
    }
}

impl History {
    fn add(&mut self, games: u64, mu: f64, at_ms: Option<i64>) {
        if !games.is_multiple_of(self.every) {
            return;
        }
        self.at_ms = self.times();
        self.points.push((games, mu));
        self.at_ms.push(at_ms);
        if self.points.len() > HISTORY_POINTS {
            self.every *= 2;
            let every = self.every;
            let (points, at_ms) =
                self.points.iter().zip(&self.at_ms).filter(|(p, _)| p.0.is_multiple_of(every)).unzip();
            (self.points, self.at_ms) = (points, at_ms);
        }
    }

    /// When each point's game ended, one per point (`None` where unknown: a history stored
    /// before times were kept has none).
    pub fn times(&self) -> Vec<Option<i64>> {
        let missing = self.points.len().saturating_sub(self.at_ms.len());
        let known = &self.at_ms[self.at_ms.len().saturating_sub(self.points.len())..];
        std::iter::repeat_n(None, missing).chain(known.iter().copied()).collect()
    }
}

/// One bot's aggregate.
#[derive(Debug, Clone, PartialEq)]
pub struct BotAggregate {
    /// Games played (seats).
    pub games: u64,
    /// Games finished 1st..4th ([`MAX_SEATS`] wide: at a three-player league the 4th
    /// stays 0).
    pub rank_counts: [u64; MAX_SEATS],
    /// Sum of ranks.
    pub rank_sum: u64,
    /// Sum of pt (uma by rank), in schedule order.
    pub pt_sum: f64,
    /// Weng-Lin rating now.
    pub rating: WengLin,
    /// Highest μ − 3σ after a game from the [`PROVISIONAL_GAMES`]-th on.
    pub peak: Option<f64>,
    /// Id (schedule index) of its latest folded game.
    pub last_game: Option<u64>,
    /// The league's count of folded games just after its latest game.
    pub last_seq: u64,
    /// Its sets, for the bootstrap.
    pub sets: SetState,
    /// Its rating over its games.
    pub history: History,
    /// 95 % bootstrap intervals of mean rank and mean pt (as of the last fold).
    pub ci: [Option<[f64; 2]>; 2],
    /// Chombos in its games (each seat's `chombos`, summed).
    pub chombos: u64,
}

impl Default for BotAggregate {
    fn default() -> BotAggregate {
        BotAggregate {
            games: 0,
            rank_counts: [0; MAX_SEATS],
            rank_sum: 0,
            pt_sum: 0.0,
            rating: WengLin { mu: 25.0, sigma: SIGMA_START },
            peak: None,
            last_game: None,
            last_seq: 0,
            sets: SetState::default(),
            history: History::default(),
            ci: [None, None],
            chombos: 0,
        }
    }
}

/// Head-to-head of bots `a < b`.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PairAggregate {
    /// Games both played.
    pub games: u64,
    /// Games `a` placed above `b`.
    pub a_above: u64,
    /// Sum of `rank(a) − rank(b)`.
    pub diff: f64,
}

/// Head-to-head by `(a, b)`, `a < b`.
pub type Pairs = BTreeMap<(usize, usize), PairAggregate>;

/// How intervals are drawn: the standings' options.
#[derive(Debug, Clone, PartialEq)]
pub struct FoldOptions {
    /// Uma by rank (pt): one entry per seat of the league's table.
    pub uma: Vec<f64>,
    /// Bootstrap seed.
    pub seed: u64,
    /// Bootstrap resamples.
    pub resamples: usize,
    /// Confidence level.
    pub level: f64,
}

/// Games being folded into some bots' aggregates: load the aggregates of the bots the
/// games name (absent ones start fresh), [`Fold::add`] the games in schedule order, then
/// [`Fold::finish`].
pub struct Fold {
    /// Aggregates by bot index.
    pub bots: BTreeMap<usize, BotAggregate>,
    /// Head-to-head by `(a, b)`, `a < b`.
    pub pairs: Pairs,
    /// Games folded in the league so far.
    pub folded: u64,
    ratings: Ratings,
    /// Bot index → position in `ratings`.
    slot: BTreeMap<usize, usize>,
    touched: BTreeSet<usize>,
    options: FoldOptions,
}

impl Fold {
    /// A fold over these aggregates (every bot the games name must be a key of `bots`).
    pub fn new(bots: BTreeMap<usize, BotAggregate>, pairs: Pairs, folded: u64, options: FoldOptions) -> Fold {
        let slot: BTreeMap<usize, usize> = bots.keys().enumerate().map(|(i, &b)| (b, i)).collect();
        let start: Vec<WengLin> = bots.values().map(|a| a.rating).collect();
        let ratings = Ratings::from_weng_lin(&start);
        Fold { bots, pairs, folded, ratings, slot, touched: BTreeSet::new(), options }
    }

    /// Folds one game (the next in schedule order), which ended at `at_ms` (ms since the
    /// Unix epoch; `None`: unknown). A game naming a bot that is not loaded, of another
    /// table size than the uma's, or with a rank outside 1..=seats is skipped (false), as
    /// the standings skip it.
    pub fn add(&mut self, r: &GameRecord, at_ms: Option<i64>) -> bool {
        let Some(slots) = r.seats.iter().map(|b| self.slot.get(b).copied()).collect::<Option<Vec<usize>>>() else {
            return false;
        };
        let size = self.options.uma.len();
        if r.ranks.len() != size
            || r.stats.len() != size
            || r.ranks.iter().any(|&k| !(1..=size).contains(&usize::from(k)))
        {
            return false;
        }
        self.folded += 1;
        self.ratings.add_game(&slots, &r.ranks);
        for s in 0..size {
            let b = r.seats[s];
            let pt = self.options.uma[usize::from(r.ranks[s]) - 1];
            let Some(a) = self.bots.get_mut(&b) else { continue };
            a.games += 1;
            a.rank_counts[usize::from(r.ranks[s]) - 1] += 1;
            a.rank_sum += u64::from(r.ranks[s]);
            a.pt_sum += pt;
            a.sets.add(r.set, r.ranks[s], pt);
            a.chombos += u64::from(r.stats[s].chombos);
        }
        let mut present: Vec<usize> = r.seats.to_vec();
        present.sort_unstable();
        present.dedup();
        for &b in &present {
            let rating = self.ratings.weng_lin(self.slot[&b]);
            let Some(a) = self.bots.get_mut(&b) else { continue };
            a.rating = rating;
            if a.games >= PROVISIONAL_GAMES {
                let score = rating.mu - 3.0 * rating.sigma;
                a.peak = Some(a.peak.map_or(score, |p| p.max(score)));
            }
            a.last_game = Some(r.index);
            a.last_seq = self.folded;
            let games = a.games;
            a.history.add(games, rating.mu, at_ms);
            self.touched.insert(b);
        }
        for (i, &a) in present.iter().enumerate() {
            for &b in &present[i + 1..] {
                let diff = mean_rank(r, a) - mean_rank(r, b);
                let p = self.pairs.entry((a, b)).or_default();
                p.games += 1;
                p.diff += diff;
                p.a_above += u64::from(diff < 0.0);
            }
        }
        true
    }

    /// The bots whose aggregates changed, with their intervals redrawn.
    pub fn finish(mut self) -> (BTreeMap<usize, BotAggregate>, Pairs, u64) {
        let o = &self.options;
        for &b in &self.touched {
            if let Some(a) = self.bots.get_mut(&b) {
                let (rank, pt) = unit_intervals(b as u32, &a.sets.counts(), o.resamples, o.level, o.seed);
                a.ci = [rank, pt];
            }
        }
        let touched = self.touched;
        self.bots.retain(|b, _| touched.contains(b));
        (self.bots, self.pairs, self.folded)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decay_grows_with_absence_and_stops_at_a_newcomers_sigma() {
        assert_eq!(decayed_sigma(2.0, 0, DECAY_TAU), 2.0);
        assert_eq!(decayed_sigma(2.0, 500, 0.0), 2.0);
        let a = decayed_sigma(2.0, 100, DECAY_TAU);
        let b = decayed_sigma(2.0, 1000, DECAY_TAU);
        assert!(2.0 < a && a < b, "{a} {b}");
        // √(4 + 100 · (1/12)²) by hand
        assert!((a - (4.0f64 + 100.0 / 144.0).sqrt()).abs() < 1e-12);
        assert_eq!(decayed_sigma(2.0, 1_000_000, DECAY_TAU), SIGMA_START);
    }

    #[test]
    fn history_keeps_at_most_its_cap_evenly_spaced() {
        let mut h = History::default();
        for g in 1..=1000 {
            h.add(g, g as f64, Some(g as i64 * 1000));
        }
        assert!(h.points.len() <= HISTORY_POINTS && h.points.len() > HISTORY_POINTS / 2, "{}", h.points.len());
        let steps: BTreeSet<u64> = h.points.windows(2).map(|w| w[1].0 - w[0].0).collect();
        assert_eq!(steps.len(), 1, "evenly spaced: {steps:?}");
        // each kept point keeps its own game's time
        assert_eq!(h.at_ms.len(), h.points.len());
        assert!(h.points.iter().zip(&h.at_ms).all(|(p, t)| *t == Some(p.0 as i64 * 1000)));
    }

    #[test]
    fn a_history_stored_without_times_has_none_for_its_old_points() {
        let mut h: History = serde_json::from_str(r#"{"every":1,"points":[[1,25.0],[2,26.0]]}"#).unwrap();
        assert_eq!(h.times(), [None, None]);
        h.add(3, 27.0, Some(5));
        assert_eq!(h.times(), [None, None, Some(5)]);
        assert_eq!(h.at_ms.len(), 3);
    }

    #[test]
    fn a_set_closes_when_the_next_begins() {
        let mut s = SetState::default();
        s.add(0, 1, 90.0);
        s.add(0, 4, -135.0);
        s.add(1, 2, 45.0);
        let key = [2.0f64.to_bits(), 5.0f64.to_bits(), (-45.0f64).to_bits()];
        assert_eq!(s.closed, vec![(key, 1)]);
        let counts = s.counts();
        assert_eq!(counts.values().sum::<u64>(), 2, "the open set counts too");
    }
}
