//! Shared by the aggregate tests (SQLite and PostgreSQL): a fixed schedule with random
//! results, and the check that the store's aggregates give the figures the standings
//! compute from the same rows.

#![allow(dead_code)]

use mjai_sim::tournament::config::TournamentConfig;
use mjai_sim::tournament::leaderboard::aggregate::PairAggregate;
use mjai_sim::tournament::leaderboard::PROVISIONAL_GAMES;
use mjai_sim::tournament::record::GameRecord;
use mjai_sim::tournament::schedule::ScheduledGame;
use mjai_sim::tournament::standings::{compute, StandingsOptions, MORTAL_UMA};
use mjai_sim::tournament::store::{AllAggregates, BotRow};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Options of a fixed tournament of `bots` bots, `sets` sets, wall seed `[nonce, 0]`
/// (the aggregates' bootstrap seed is the nonce).
pub fn config(bots: usize, sets: u64, nonce: u64) -> String {
    TournamentConfig {
        bots: vec!["builtin:tsumogiri".into(); bots],
        sets,
        seed: [nonce, 0],
        runtime: mjai_sim::arena::launch::RuntimeKind::Process,
        max_submission_mb: 100,
        logs: false,
        ..TournamentConfig::default()
    }
    .to_json()
}

/// `n` bots named `b0..`.
pub fn bot_rows(n: usize) -> Vec<BotRow> {
    (0..n)
        .map(|i| BotRow { idx: i, name: format!("b{i}"), spec: "builtin:tsumogiri".into(), sha256: "00".into() })
        .collect()
}

/// A result for each game: ranks a random permutation of 1..=4 (seeded), scores to match.
pub fn random_records(games: &[ScheduledGame], seed: u64) -> Vec<GameRecord> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    games
        .iter()
        .map(|g| {
            let mut ranks = [1u8, 2, 3, 4];
            ranks.shuffle(&mut rng);
            let base = rng.random_range(0..10_000);
            GameRecord {
                index: g.index,
                set: g.set,
                seats: g.seats.clone(),
                scores: ranks.iter().map(|&k| 60_000 - 15_000 * i32::from(k) + base).collect(),
                ranks: ranks.to_vec(),
                // a chombo now and then (every 7th seat), for the chombos' sums
                stats: (0..4)
                    .map(|seat| mjai_sim::tournament::record::SeatStats {
                        chombos: u32::from((g.index as usize + seat).is_multiple_of(7)),
                        ..Default::default()
                    })
                    .collect(),
            }
        })
        .collect()
}

/// Asserts that `agg` holds what [`compute`] gives over `records` (every game folded so
/// far, any order): counts and means exactly, Weng-Lin within 1e-9, the bootstrap intervals
/// exactly (same seed), head-to-head, and each bot's peak against the standings of every
/// prefix of the games.
pub fn assert_matches(agg: &AllAggregates, bots: usize, records: &[GameRecord], nonce: u64) {
    let names: Vec<String> = (0..bots).map(|i| format!("b{i}")).collect();
    let mut sorted: Vec<GameRecord> = records.to_vec();
    sorted.sort_by_key(|r| r.index);
    assert_eq!(agg.folded, sorted.len() as u64, "games folded");
    let s = compute(&names, &sorted, &StandingsOptions::new(MORTAL_UMA.to_vec(), nonce));
    for (b, st) in s.bots.iter().enumerate() {
        let Some(a) = agg.bots.get(&b) else {
            assert_eq!(st.games, 0, "bot {b} has games but no aggregate");
            continue;
        };
        assert_eq!(a.games, st.games, "bot {b} games");
        assert_eq!(a.rank_counts.to_vec(), st.rank_counts, "bot {b} ranks");
        assert_eq!(Some(a.rank_sum as f64 / a.games as f64), st.avg_rank, "bot {b} mean rank");
        assert_eq!(Some(a.pt_sum / a.games as f64), st.avg_pt, "bot {b} mean pt");
        assert!((a.rating.mu - st.weng_lin.mu).abs() < 1e-9, "bot {b} mu {} vs {}", a.rating.mu, st.weng_lin.mu);
        assert!((a.rating.sigma - st.weng_lin.sigma).abs() < 1e-9, "bot {b} sigma");
        assert_eq!(a.ci, [st.avg_rank_ci, st.avg_pt_ci], "bot {b} intervals");
        assert_eq!(a.chombos, st.chombos, "bot {b} chombos");
        assert_eq!(a.last_game, sorted.iter().rev().find(|r| r.seats.contains(&b)).map(|r| r.index));
    }
    for p in s.pairs.iter().filter(|p| p.games > 0) {
        let key = (names.iter().position(|n| *n == p.a).unwrap(), names.iter().position(|n| *n == p.b).unwrap());
        let q: PairAggregate = agg.pairs[&key];
        assert_eq!((q.games, q.a_above), (p.games, p.a_above), "pair {key:?}");
        assert!((q.diff / q.games as f64 - p.rank_diff.unwrap()).abs() < 1e-9, "pair {key:?} rank diff");
    }
    // peak: the best μ − 3σ over the standings of every prefix, from a bot's 40th game on
    let mut peak = vec![None::<f64>; bots];
    let quick = StandingsOptions { resamples: 0, ..StandingsOptions::new(MORTAL_UMA.to_vec(), nonce) };
    for k in 1..=sorted.len() {
        let p = compute(&names, &sorted[..k], &quick);
        let mut present = sorted[k - 1].seats.to_vec();
        present.sort_unstable();
        present.dedup();
        for &b in &present {
            let st = &p.bots[b];
            if st.games >= PROVISIONAL_GAMES {
                let score = st.weng_lin.mu - 3.0 * st.weng_lin.sigma;
                peak[b] = Some(peak[b].map_or(score, |x: f64| x.max(score)));
            }
        }
    }
    for (b, expected) in peak.iter().enumerate() {
        let got = agg.bots.get(&b).and_then(|a| a.peak);
        match (got, expected) {
            (Some(g), Some(e)) => assert!((g - e).abs() < 1e-9, "bot {b} peak {g} vs {e}"),
            (g, e) => assert_eq!(g, *e, "bot {b} peak"),
        }
    }
}
