//! Differential test of `shanten` and `waits` against riichienv-core 0.4.11 (test oracle
//! only): its Nyanten-table shanten (`calc_shanten_from_counts`) and its brute-force waits
//! (`HandEvaluator::get_waits_u8`).
//!
//! 120,000 cases (about 60,000 waits comparisons, 26,000 of them tenpai) from a fixed seed, in four families: uniformly random hands of every
//! valid size (with the matching number of melds), near-complete hands (a complete hand
//! with a tile removed and up to three tiles swapped), single-suit hands, and pair-heavy
//! hands. Every disagreement must be listed in `KNOWN_DEVIATIONS` with the Tenhou rule
//! that makes ours right; there are none at present.

use mjai_sim::engine::hand::{shanten, waits};
use mjai_sim::engine::tile::KINDS;
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use riichienv_core::hand_evaluator::HandEvaluator;
use riichienv_core::shanten::calc_shanten_from_counts;
use riichienv_core::types::{Meld, MeldType};

/// Cases where the oracle departs from Tenhou rules: (hand in compact notation, melds,
/// one-line reason). Empty: no disagreement was found.
const KNOWN_DEVIATIONS: &[(&str, u8, &str)] = &[];

const CASES_PER_FAMILY: usize = 30_000;

fn compact(c: &[u8; KINDS]) -> String {
    let mut out = String::new();
    for (suit, letter) in ['m', 'p', 's', 'z'].iter().enumerate() {
        let len = if suit == 3 { 7 } else { 9 };
        let digits: String =
            (0..len).flat_map(|i| std::iter::repeat_n(char::from(b'1' + i as u8), c[suit * 9 + i] as usize)).collect();
        if !digits.is_empty() {
            out.push_str(&digits);
            out.push(*letter);
        }
    }
    out
}

/// Tiles drawn from a shuffled 136-tile set restricted to `kinds`.
fn draw(rng: &mut ChaCha8Rng, kinds: &[usize], n: usize) -> [u8; KINDS] {
    let mut wall: Vec<usize> = kinds.iter().flat_map(|&k| [k; 4]).collect();
    wall.shuffle(rng);
    let mut c = [0u8; KINDS];
    wall[..n].iter().for_each(|&k| c[k] += 1);
    c
}

/// A complete concealed part with `4 - melds` mentsu and a pair, minus one tile, then up
/// to three tiles moved to random kinds (counts stay within four).
fn near_complete(rng: &mut ChaCha8Rng, melds: u8) -> [u8; KINDS] {
    loop {
        let mut c = [0u8; KINDS];
        c[rng.random_range(0..KINDS)] += 2;
        for _ in 0..4 - melds {
            if rng.random_bool(0.4) {
                c[rng.random_range(0..KINDS)] += 3;
            } else {
                let start = rng.random_range(0..3) * 9 + rng.random_range(0..7);
                (start..start + 3).for_each(|k| c[k] += 1);
            }
        }
        if c.iter().any(|&n| n > 4) {
            continue;
        }
        let held: Vec<usize> = (0..KINDS).filter(|&k| c[k] > 0).collect();
        c[*held.choose(rng).unwrap()] -= 1;
        for _ in 0..rng.random_range(0..=3) {
            let from: Vec<usize> = (0..KINDS).filter(|&k| c[k] > 0).collect();
            let to: Vec<usize> = (0..KINDS).filter(|&k| c[k] < 4).collect();
            c[*from.choose(rng).unwrap()] -= 1;
            c[*to.choose(rng).unwrap()] += 1;
        }
        if rng.random_bool(0.5) {
            // 14-tile form: draw one more.
            let to: Vec<usize> = (0..KINDS).filter(|&k| c[k] < 4).collect();
            c[*to.choose(rng).unwrap()] += 1;
        }
        return c;
    }
}

/// The oracle's waits for a `3k+1` part with `melds` pons of far-away kinds.
fn oracle_waits(c: &[u8; KINDS], melds: u8) -> u64 {
    let mut tiles = Vec::new();
    for (k, &n) in c.iter().enumerate() {
        (0..n).for_each(|copy| tiles.push((k * 4) as u8 + copy));
    }
    // The oracle counts meld tiles only toward the 13-tile total; their kinds do not matter.
    let melds: Vec<Meld> = (0..melds).map(|_| Meld::new(MeldType::Pon, vec![0, 1, 2], true, 1, Some(0))).collect();
    HandEvaluator::new(tiles, melds).get_waits_u8().iter().fold(0, |m, &k| m | 1 << k)
}

/// One case of `family` with `n` concealed tiles; `None` when a draw broke the four-tile
/// limit (the caller draws again, so every family yields its full count).
fn generate(rng: &mut ChaCha8Rng, family: usize, melds: u8, n: usize) -> Option<[u8; KINDS]> {
    let all: Vec<usize> = (0..KINDS).collect();
    match family {
        0 => Some(draw(rng, &all, n)),
        1 => Some(near_complete(rng, melds)),
        2 => {
            let suit = rng.random_range(0..3) * 9;
            let kinds: Vec<usize> = (suit..suit + 9).collect();
            Some(draw(rng, &kinds, n))
        }
        _ => {
            let mut c = [0u8; KINDS];
            while c.iter().map(|&x| x as usize).sum::<usize>() + 2 <= n {
                c[rng.random_range(0..KINDS)] += 2;
            }
            if c.iter().map(|&x| x as usize).sum::<usize>() < n {
                c[rng.random_range(0..KINDS)] += 1;
            }
            c.iter().all(|&x| x <= 4).then_some(c)
        }
    }
}

#[test]
fn shanten_and_waits_match_riichienv() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x005a_17e2);
    let mut disagreements = Vec::new();
    let (mut compared, mut compared_waits, mut tenpai) = (0usize, 0usize, 0usize);
    for family in 0..4 {
        for _ in 0..CASES_PER_FAMILY {
            let melds = rng.random_range(0..=4u8);
            let n = 14 - 3 * melds as usize - rng.random_range(0..=1);
            let c = loop {
                if let Some(c) = generate(&mut rng, family, melds, n) {
                    break c;
                }
            };
            compared += 1;
            let total: usize = c.iter().map(|&x| x as usize).sum();
            let ours = shanten(&c, melds);
            let theirs = calc_shanten_from_counts(&c, (total / 3) as u8);
            let mut bad = ours != theirs;
            if total % 3 == 1 {
                compared_waits += 1;
                let w = waits(&c, melds);
                tenpai += usize::from(w != 0);
                bad |= w != oracle_waits(&c, melds);
            }
            let known = KNOWN_DEVIATIONS.iter().any(|&(h, m, _)| h == compact(&c) && m == melds);
            if bad && !known {
                disagreements.push(format!("{} melds={melds}: ours {ours}, oracle {theirs}", compact(&c)));
            }
        }
    }
    assert!(
        disagreements.is_empty(),
        "{} disagreements, first: {:#?}",
        disagreements.len(),
        &disagreements[..disagreements.len().min(10)]
    );
    assert_eq!(compared, 4 * CASES_PER_FAMILY);
    println!("compared {compared} hands, waits of {compared_waits} (tenpai {tenpai})");
    // The families must really reach tenpai hands, or the waits comparison proves little.
    assert!(compared_waits > 50_000 && tenpai > 10_000, "waits compared {compared_waits}, tenpai {tenpai}");
}
