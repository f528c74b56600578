//! Standings of a tournament from its game records (`standings.json`, schema in docs/output-files.md,
//! "standings.json").
//!
//! - pt is uma by rank only (default Mortal's 90, 45, 0, −135; at a three-player table
//!   [`SANMA_UMA`]), as Mortal's `one_vs_three.py` prints `avg_pt`: no
//!   `(score − 25000)/1000` term. The uma has one entry per seat of the table, and so do
//!   the rank counts: a tournament is of one table size.
//! - Average rank and pt get 95 % intervals from a seeded bootstrap over duplicate sets
//!   ([`crate::bootstrap`]); head-to-head pairs the same way.
//! - Ratings are fed in schedule order (`GameRecord::index`), so they do not depend on the
//!   order games finished in ([`crate::ratings`]).
//! - Pure: the tournament (`mjai_sim_tournament::standings`, a re-export) and the Python
//!   extension's in-process arena (`mjai_sim.evaluate`) compute standings here alike.
//! - Records naming a bot outside `names`, a rank outside 1..=seats (`seats`: the uma's
//!   length) or a seat count other than the uma's are skipped and counted in
//!   `skipped_records`; nothing panics.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

mod tally;

use crate::bootstrap::{intervals, SetTable, Sums};
use crate::ratings::{Ratings, WengLin};
use crate::record::GameRecord;
use tally::BotTally;

/// The default umas (the engine's: the training environment uses the same).
pub use mjai_sim_engine::game::{default_uma, MORTAL_UMA, SANMA_UMA};

/// How standings are computed.
#[derive(Debug, Clone, PartialEq)]
pub struct StandingsOptions {
    /// Uma by rank in points of pt (Mortal's 90, 45, 0, -135): one entry per seat of the
    /// table, so its length is the table size the records must have.
    pub uma: Vec<f64>,
    /// Seed of the bootstrap.
    pub bootstrap_seed: u64,
    /// Bootstrap resamples (default 1000).
    pub resamples: usize,
    /// Confidence level of the intervals (default 0.95).
    pub level: f64,
}

impl StandingsOptions {
    /// Options with `uma` and `bootstrap_seed`, 1000 resamples, 95 % intervals.
    pub fn new(uma: Vec<f64>, bootstrap_seed: u64) -> StandingsOptions {
        StandingsOptions { uma, bootstrap_seed, resamples: 1000, level: 0.95 }
    }
}

impl Default for StandingsOptions {
    fn default() -> StandingsOptions {
        StandingsOptions::new(MORTAL_UMA.to_vec(), 0)
    }
}

/// How the intervals were made.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BootstrapInfo {
    /// Resamples of the sets.
    pub resamples: usize,
    /// Seed (ChaCha8).
    pub seed: u64,
    /// Confidence level, e.g. 0.95.
    pub level: f64,
}

/// Standings of every bot.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Standings {
    /// Games counted.
    pub games: u64,
    /// Duplicate sets counted (sets with at least one counted game).
    pub sets: u64,
    /// Uma used for pt (one entry per seat of the table).
    pub uma: Vec<f64>,
    /// How the intervals were made.
    pub bootstrap: BootstrapInfo,
    /// One row per bot, in the order of the tournament's bot list.
    pub bots: Vec<BotStanding>,
    /// Head-to-head: one row per pair of bots that shared a table (`a` before `b` in the bot
    /// list).
    pub pairs: Vec<PairStanding>,
    /// Records skipped as malformed (bot index or rank out of range).
    pub skipped_records: u64,
    /// Weng-Lin mu of every bot after game `game` (1-based count of games fed, schedule
    /// order), at most [`HISTORY_POINTS`] evenly spaced points, the last game included: the
    /// report's "ratings over games".
    #[serde(default)]
    pub rating_history: Vec<RatingPoint>,
    /// Games of the schedule that are in no figure above: failed for good (a built-in's
    /// chombo, the referee's bug, among them: its reason begins `internal error: `).
    /// Filled by the session from its store ([`Standings::mark_not_counted`]).
    #[serde(default)]
    pub not_counted: Vec<NotCounted>,
}

/// A game of the schedule left out of the standings, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NotCounted {
    /// Schedule index.
    pub game: u64,
    /// Why (the last attempt's one-line reason).
    pub reason: String,
}

/// Most points kept in [`Standings::rating_history`].
pub const HISTORY_POINTS: usize = 200;

/// Every bot's rating after a number of games.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RatingPoint {
    /// Games fed so far.
    pub game: u64,
    /// Weng-Lin mu by bot name.
    pub ratings: BTreeMap<String, f64>,
}

/// One bot's row. Figures over no games are `null`. "Games" counts seats: a bot in three
/// seats of one game (1-vs-3 champion) counts three.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BotStanding {
    /// Bot name.
    pub name: String,
    /// Retired from its league (`mjai-sim league retire`): no longer scheduled, its games
    /// still counted. Always false in a tournament with a fixed schedule.
    #[serde(default)]
    pub retired: bool,
    /// Games played.
    pub games: u64,
    /// Duplicate sets played in.
    pub sets: u64,
    /// Mean rank (1..4).
    pub avg_rank: Option<f64>,
    /// 95 % interval `[low, high]` of `avg_rank`; `null` with fewer than 2 sets.
    pub avg_rank_ci: Option<[f64; 2]>,
    /// Mean pt (uma by rank).
    pub avg_pt: Option<f64>,
    /// 95 % interval of `avg_pt`; `null` with fewer than 2 sets.
    pub avg_pt_ci: Option<[f64; 2]>,
    /// Share of games finished 1st, 2nd, 3rd, 4th (sums to 1; zeros with no games): one
    /// entry per seat of the table (three at a three-player table).
    pub rank_dist: Vec<f64>,
    /// Games finished 1st, 2nd, 3rd, 4th (one entry per seat of the table).
    pub rank_counts: Vec<u64>,
    /// Mean final score, points.
    pub mean_score: Option<f64>,
    /// Weng-Lin rating (skillratings defaults: mu 25, sigma 25/3 at start).
    pub weng_lin: WengLin,
    /// mjai.app pairwise Elo (start 1500, K = 8, width 1200).
    pub elo: f64,
    /// Hands played.
    pub kyokus: u64,
    /// Wins per hand.
    pub win_rate: Option<f64>,
    /// Deal-ins per hand.
    pub deal_in_rate: Option<f64>,
    /// Riichi declarations per hand.
    pub riichi_rate: Option<f64>,
    /// Hands with a chi, pon or daiminkan, per hand.
    pub call_rate: Option<f64>,
    /// Tsumo wins per win (Tenhou's ツモ率).
    pub tsumo_rate: Option<f64>,
    /// Tenpai at exhaustive draws, per exhaustive draw.
    pub tenpai_at_draw_rate: Option<f64>,
    /// Mean points gained per win (own deltas, honba and sticks included).
    pub avg_win_points: Option<f64>,
    /// Mean points paid per deal-in.
    pub avg_deal_in_points: Option<f64>,
    /// Chombos committed.
    pub chombos: u64,
    /// Decisions timed.
    pub decisions: u64,
    /// Median decision time, milliseconds (log buckets: ±4.5 %).
    pub decision_median_ms: Option<f64>,
    /// 99th-percentile decision time, milliseconds (±4.5 %).
    pub decision_p99_ms: Option<f64>,
}

/// Head-to-head of two bots at the tables they shared.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairStanding {
    /// First bot (earlier in the bot list).
    pub a: String,
    /// Second bot.
    pub b: String,
    /// Games in which both played.
    pub games: u64,
    /// Duplicate sets in which both played.
    pub sets: u64,
    /// Mean of `rank(a) − rank(b)` over those games (negative: `a` placed better); a bot in
    /// several seats counts with its mean rank.
    pub rank_diff: Option<f64>,
    /// 95 % interval of `rank_diff`; `null` with fewer than 2 shared sets.
    pub rank_diff_ci: Option<[f64; 2]>,
    /// Games in which `a` placed above `b`.
    pub a_above: u64,
}

/// The leader for a progress bar: lowest average rank (ties: earlier in the bot list).
#[derive(Debug, Clone, PartialEq)]
pub struct Leader {
    /// Bot name.
    pub name: String,
    /// Mean rank.
    pub avg_rank: f64,
    /// Its 95 % interval, when there is one.
    pub avg_rank_ci: Option<[f64; 2]>,
}

/// Head-to-head sums of one pair within one set.
#[derive(Debug, Clone, Copy, Default)]
struct PairSums {
    games: u64,
    diff: f64,
    a_above: u64,
}

/// One set's sums: per bot `[games, rank sum, pt sum]`, per pair (a < b) head-to-head sums.
type SetSums = (BTreeMap<usize, [f64; 3]>, BTreeMap<(usize, usize), PairSums>);

/// Standings of `names` (bot index = position) from `records` (any order).
pub fn compute(names: &[String], records: &[GameRecord], options: &StandingsOptions) -> Standings {
    let n = names.len();
    let size = options.uma.len();
    let valid = |r: &GameRecord| {
        r.seats.len() == size
            && r.ranks.len() == size
            && r.stats.len() == size
            && r.scores.len() == size
            && r.seats.iter().all(|&b| b < n)
            && r.ranks.iter().all(|&k| (1..=size).contains(&usize::from(k)))
    };
    let mut sorted: Vec<&GameRecord> = records.iter().filter(|r| valid(r)).collect();
    let skipped_records = (records.len() - sorted.len()) as u64;
    sorted.sort_by_key(|r| (r.index, r.set));

    let mut tallies = vec![BotTally::new(size); n];
    let mut ratings = Ratings::new(n);
    // Per set: per bot (games, rank sum, pt sum) and per pair sums.
    let mut sets: BTreeMap<u64, SetSums> = BTreeMap::new();
    let mut rating_history = Vec::new();
    let every = sorted.len().div_ceil(HISTORY_POINTS).max(1);
    for (i, r) in sorted.iter().enumerate() {
        ratings.add_game(&r.seats, &r.ranks);
        if (i + 1) % every == 0 || i + 1 == sorted.len() {
            let ratings = names.iter().enumerate().map(|(b, name)| (name.clone(), ratings.weng_lin(b).mu)).collect();
            rating_history.push(RatingPoint { game: i as u64 + 1, ratings });
        }
        let (bots, pairs) = sets.entry(r.set).or_default();
        for s in 0..size {
            let b = r.seats[s];
            let pt = options.uma[usize::from(r.ranks[s]) - 1];
            tallies[b].add_seat(r, s, pt);
            let e = bots.entry(b).or_default();
            e[0] += 1.0;
            e[1] += f64::from(r.ranks[s]);
            e[2] += pt;
        }
        let mut present: Vec<usize> = r.seats.to_vec();
        present.sort_unstable();
        present.dedup();
        for (i, &a) in present.iter().enumerate() {
            for &b in &present[i + 1..] {
                let diff = mean_rank(r, a) - mean_rank(r, b);
                let p = pairs.entry((a, b)).or_default();
                p.games += 1;
                p.diff += diff;
                p.a_above += u64::from(diff < 0.0);
            }
        }
    }

    // Units: bots 0..n, then pairs in (a, b) order.
    let mut pair_index: BTreeMap<(usize, usize), usize> = BTreeMap::new();
    for (_, pairs) in sets.values() {
        for &k in pairs.keys() {
            pair_index.entry(k).or_insert(0);
        }
    }
    for (i, v) in pair_index.values_mut().enumerate() {
        *v = n + i;
    }
    let mut table = SetTable::default();
    let mut pair_totals = vec![(PairSums::default(), 0u64); pair_index.len()];
    for (bots, pairs) in sets.values() {
        table.begin_set();
        for (&b, e) in bots {
            tallies[b].sets += 1;
            table.push(Sums { unit: b as u32, n: e[0], x: e[1], y: e[2] });
        }
        for (k, p) in pairs {
            let u = pair_index[k];
            table.push(Sums { unit: u as u32, n: p.games as f64, x: p.diff, y: 0.0 });
            let t = &mut pair_totals[u - n];
            t.0.games += p.games;
            t.0.diff += p.diff;
            t.0.a_above += p.a_above;
            t.1 += 1;
        }
    }
    let cis = intervals(&table, n + pair_index.len(), options.resamples, options.level, options.bootstrap_seed);

    let bots =
        names.iter().enumerate().map(|(b, name)| tallies[b].standing(name, cis[b].0, cis[b].1, &ratings, b)).collect();
    let pairs = pair_index
        .iter()
        .map(|(&(a, b), &u)| {
            let (t, shared_sets) = pair_totals[u - n];
            PairStanding {
                a: names[a].clone(),
                b: names[b].clone(),
                games: t.games,
                sets: shared_sets,
                rank_diff: (t.games > 0).then(|| t.diff / t.games as f64),
                rank_diff_ci: cis[u].0,
                a_above: t.a_above,
            }
        })
        .collect();
    Standings {
        games: sorted.len() as u64,
        sets: sets.len() as u64,
        uma: options.uma.clone(),
        bootstrap: BootstrapInfo { resamples: options.resamples, seed: options.bootstrap_seed, level: options.level },
        bots,
        pairs,
        skipped_records,
        rating_history,
        not_counted: Vec::new(),
    }
}

/// Mean rank of bot `b`'s seats in `r` (it is present).
pub fn mean_rank(r: &GameRecord, b: usize) -> f64 {
    let (sum, count) = (0..r.seats.len())
        .filter(|&s| r.seats[s] == b)
        .fold((0.0, 0.0), |(sum, c), s| (sum + f64::from(r.ranks[s]), c + 1.0));
    sum / count
}

impl Standings {
    /// Marks the bots with these indices retired ([`BotStanding::retired`]); indices
    /// outside the bot list are ignored.
    pub fn mark_retired(&mut self, retired: &[usize]) {
        for &b in retired {
            if let Some(bot) = self.bots.get_mut(b) {
                bot.retired = true;
            }
        }
    }

    /// Lists `games` (schedule index, reason) as not counted ([`Standings::not_counted`]).
    pub fn mark_not_counted(&mut self, games: impl IntoIterator<Item = (u64, String)>) {
        self.not_counted.extend(games.into_iter().map(|(game, reason)| NotCounted { game, reason }));
    }

    /// The bot with the lowest average rank (ties: earlier in the bot list); `None` before
    /// any game.
    pub fn leader(&self) -> Option<Leader> {
        let mut best: Option<&BotStanding> = None;
        for b in &self.bots {
            if let Some(r) = b.avg_rank {
                if best.and_then(|x| x.avg_rank).is_none_or(|x| r < x) {
                    best = Some(b);
                }
            }
        }
        best.map(|b| Leader { name: b.name.clone(), avg_rank: b.avg_rank.unwrap_or(0.0), avg_rank_ci: b.avg_rank_ci })
    }

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
