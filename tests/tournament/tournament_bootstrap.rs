//! The set bootstrap on simulated tournaments whose true mean ranks are known exactly:
//! intervals narrow as sets grow, and 95 % intervals cover the truth about 95 % of the time.
//!
//! Model (seeded, deterministic): four bots with Plackett-Luce strengths; in each duplicate
//! set one seat, drawn uniformly, is "lucky" (its strength × 3) for all four games of the
//! set, so the games of a set are correlated as duplicate games are (they share walls).
//! Each bot plays every seat once per set. The true mean rank and pt of a bot are the
//! averages over the 4 lucky seats × 4 rotations of the exact Plackett-Luce expectations
//! (all 24 finishing orders enumerated).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use mjai_sim::tournament::record::GameRecord;
use mjai_sim::tournament::standings::{compute, StandingsOptions, MORTAL_UMA};

const STRENGTH: [f64; 4] = [2.0, 1.5, 1.0, 0.6];
const LUCK: f64 = 3.0;

/// Seat weights of game `g` of a set with lucky seat `lucky`: bot `(s + g) % 4` in seat `s`.
fn weights(g: usize, lucky: usize) -> ([usize; 4], [f64; 4]) {
    let seats: [usize; 4] = std::array::from_fn(|s| (s + g) % 4);
    let w = std::array::from_fn(|s| STRENGTH[seats[s]] * if s == lucky { LUCK } else { 1.0 });
    (seats, w)
}

/// Every permutation of 0..4.
fn permutations() -> Vec<[usize; 4]> {
    let mut out = Vec::new();
    for a in 0..4 {
        for b in (0..4).filter(|&b| b != a) {
            for c in (0..4).filter(|&c| c != a && c != b) {
                let d = 6 - a - b - c;
                out.push([a, b, c, d]);
            }
        }
    }
    out
}

/// Exact expected rank and pt per bot.
fn truth() -> ([f64; 4], [f64; 4]) {
    let (mut rank, mut pt) = ([0.0; 4], [0.0; 4]);
    for lucky in 0..4 {
        for g in 0..4 {
            let (seats, w) = weights(g, lucky);
            for order in permutations() {
                // order[k] = seat finishing k+1.
                let mut p = 1.0;
                let mut left: f64 = w.iter().sum();
                for &s in &order {
                    p *= w[s] / left;
                    left -= w[s];
                }
                for (k, &s) in order.iter().enumerate() {
                    rank[seats[s]] += p * (k + 1) as f64 / 16.0;
                    pt[seats[s]] += p * MORTAL_UMA[k] / 16.0;
                }
            }
        }
    }
    (rank, pt)
}

/// One simulated tournament of `sets` duplicate sets.
fn tournament(sets: u64, rng: &mut ChaCha8Rng) -> Vec<GameRecord> {
    let mut out = Vec::new();
    for set in 0..sets {
        let lucky = rng.random_range(0..4);
        for g in 0..4 {
            let (seats, mut w) = weights(g, lucky);
            let mut ranks = [0u8; 4];
            for place in 1..=4u8 {
                // Seat picked with probability proportional to its weight (finished seats
                // have weight 0); the last seat still in the race catches rounding.
                let total: f64 = w.iter().sum();
                let mut x = rng.random::<f64>() * total;
                let mut pick = (0..4).rev().find(|&s| w[s] > 0.0).unwrap_or(0);
                for (s, &ws) in w.iter().enumerate() {
                    if ws > 0.0 && x < ws {
                        pick = s;
                        break;
                    }
                    x -= ws;
                }
                ranks[pick] = place;
                w[pick] = 0.0;
            }
            let scores = ranks.map(|r| 50000 - 10000 * i32::from(r));
            out.push(GameRecord {
                index: set * 4 + g as u64,
                set,
                seats: seats.to_vec(),
                scores: scores.to_vec(),
                ranks: ranks.to_vec(),
                stats: vec![Default::default(); 4],
            });
        }
    }
    out
}

fn names() -> Vec<String> {
    (0..4).map(|b| format!("bot{b}")).collect()
}

#[test]
fn truth_is_a_distribution_of_ranks() {
    let (rank, pt) = truth();
    assert!((rank.iter().sum::<f64>() - 10.0).abs() < 1e-12);
    assert!(pt.iter().sum::<f64>().abs() < 1e-9);
    assert!(rank[0] < rank[1] && rank[1] < rank[2] && rank[2] < rank[3], "{rank:?}");
}

#[test]
fn intervals_narrow_as_sets_grow() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let runs = 10;
    let mut widths = Vec::new();
    for sets in [10, 40, 160, 640] {
        // Mean width over several tournaments of this size.
        let (mut rank_w, mut pt_w) = (0.0, 0.0);
        for run in 0..runs {
            let st = compute(&names(), &tournament(sets, &mut rng), &StandingsOptions::new(MORTAL_UMA.to_vec(), run));
            let [lo, hi] = st.bots[0].avg_rank_ci.unwrap();
            let [plo, phi] = st.bots[0].avg_pt_ci.unwrap();
            rank_w += (hi - lo) / runs as f64;
            pt_w += (phi - plo) / runs as f64;
        }
        widths.push((sets, rank_w, pt_w));
    }
    println!("sets, mean avg-rank CI width, mean avg-pt CI width: {widths:?}");
    for w in widths.windows(2) {
        assert!(w[1].1 < w[0].1 && w[1].2 < w[0].2, "{widths:?}");
    }
    // 64 times the sets: about 8 times narrower (1/√n).
    let ratio = widths[0].1 / widths[3].1;
    assert!((5.0..12.0).contains(&ratio), "width ratio {ratio}");
}

#[test]
fn ninety_five_percent_intervals_cover_the_truth() {
    let (rank, pt) = truth();
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    let runs = 300;
    let (mut covered_rank, mut covered_pt, mut total) = (0, 0, 0);
    for run in 0..runs {
        let records = tournament(40, &mut rng);
        let st = compute(&names(), &records, &StandingsOptions::new(MORTAL_UMA.to_vec(), run));
        for (b, bot) in st.bots.iter().enumerate() {
            let [lo, hi] = bot.avg_rank_ci.unwrap();
            let [plo, phi] = bot.avg_pt_ci.unwrap();
            covered_rank += usize::from(lo <= rank[b] && rank[b] <= hi);
            covered_pt += usize::from(plo <= pt[b] && pt[b] <= phi);
            total += 1;
        }
    }
    let (cr, cp) = (covered_rank as f64 / total as f64, covered_pt as f64 / total as f64);
    println!("coverage over {runs} tournaments of 40 sets × 4 bots: avg rank {cr:.3}, avg pt {cp:.3}");
    // 1,200 intervals: a true 95 % gives 0.937..0.962 two standard errors out; percentile
    // bootstrap intervals with 40 clusters run slightly narrow.
    assert!((0.92..=0.97).contains(&cr), "avg rank coverage {cr}");
    assert!((0.92..=0.97).contains(&cp), "avg pt coverage {cp}");
}
