//! Property tests: complete hands, waits against a brute-force agari check, the relation
//! between 14-tile and 13-tile shanten, and symmetries.

use proptest::prelude::*;

use crate::hand::{discard_choices, shanten, ukeire, waits};
use crate::tile::KINDS;

/// Brute-force agari test written independently of the tables: a pair plus mentsu by
/// backtracking, or (no melds) seven different pairs, or kokushi.
fn is_agari(counts: &[u8; KINDS], melds: u8) -> bool {
    fn mentsu_only(c: &mut [u8; KINDS]) -> bool {
        let Some(i) = c.iter().position(|&n| n > 0) else { return true };
        if c[i] >= 3 {
            c[i] -= 3;
            let ok = mentsu_only(c);
            c[i] += 3;
            if ok {
                return true;
            }
        }
        if i < 27 && i % 9 <= 6 && c[i + 1] > 0 && c[i + 2] > 0 {
            (c[i], c[i + 1], c[i + 2]) = (c[i] - 1, c[i + 1] - 1, c[i + 2] - 1);
            let ok = mentsu_only(c);
            (c[i], c[i + 1], c[i + 2]) = (c[i] + 1, c[i + 1] + 1, c[i + 2] + 1);
            return ok;
        }
        false
    }
    let total: u32 = counts.iter().map(|&c| u32::from(c)).sum();
    if total % 3 != 2 || counts.iter().any(|&c| c > 4) {
        return false;
    }
    if melds == 0 && total == 14 {
        if counts.iter().filter(|&&c| c == 2).count() == 7 {
            return true;
        }
        let yaochu = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];
        if yaochu.iter().all(|&k| counts[k] >= 1) && yaochu.iter().map(|&k| u32::from(counts[k])).sum::<u32>() == 14 {
            return true;
        }
    }
    let mut c = *counts;
    (0..KINDS).any(|head| {
        if c[head] < 2 {
            return false;
        }
        c[head] -= 2;
        let ok = mentsu_only(&mut c);
        c[head] += 2;
        ok
    })
}

/// A complete concealed part: `4 - melds` mentsu (block `< 34`: koutsu of that kind, else a
/// shuntsu) and a pair; `None` when some kind would exceed four tiles.
fn build(melds: u8, blocks: &[usize], pair: usize) -> Option<[u8; KINDS]> {
    let mut c = [0u8; KINDS];
    c[pair] += 2;
    for &b in blocks.iter().take(4 - melds as usize) {
        if b < 34 {
            c[b] += 3;
        } else {
            let start = (b - 34) / 7 * 9 + (b - 34) % 7;
            (start..start + 3).for_each(|k| c[k] += 1);
        }
    }
    c.iter().all(|&n| n <= 4).then_some(c)
}

fn complete_hand() -> impl Strategy<Value = ([u8; KINDS], u8)> {
    (0u8..=4, prop::collection::vec(0usize..55, 4), 0usize..KINDS)
        .prop_filter_map("a kind above four tiles", |(melds, blocks, pair)| {
            build(melds, &blocks, pair).map(|c| (c, melds))
        })
}

/// A concealed part of `n` tiles drawn from a shuffled 136-tile set.
fn random_hand(n: usize) -> impl Strategy<Value = [u8; KINDS]> {
    Just((0..136usize).collect::<Vec<_>>()).prop_shuffle().prop_map(move |wall| {
        let mut c = [0u8; KINDS];
        wall[..n].iter().for_each(|&t| c[t / 4] += 1);
        c
    })
}

/// Moves one tile of the first held kind at or after `from` to the first kind at or after
/// `to` that has room (wrapping), keeping the tile count.
fn swap(c: &mut [u8; KINDS], from: usize, to: usize) {
    let out = (0..KINDS).map(|i| (from + i) % KINDS).find(|&k| c[k] > 0).unwrap();
    c[out] -= 1;
    let into = (0..KINDS).map(|i| (to + i) % KINDS).find(|&k| c[k] < 4).unwrap();
    c[into] += 1;
}

fn remove(c: &mut [u8; KINDS], from: usize) {
    let out = (0..KINDS).map(|i| (from + i) % KINDS).find(|&k| c[k] > 0).unwrap();
    c[out] -= 1;
}

/// Maps kinds by `suits` (a permutation of the three suits), optionally mirrors numbers
/// (n -> 10 - n), and permutes the honors by `honors`.
fn relabel(c: &[u8; KINDS], suits: [usize; 3], mirror: bool, honors: &[usize]) -> [u8; KINDS] {
    let mut out = [0u8; KINDS];
    for k in 0..27 {
        let n = if mirror { 8 - k % 9 } else { k % 9 };
        out[suits[k / 9] * 9 + n] = c[k];
    }
    for h in 0..7 {
        out[27 + honors[h]] = c[27 + h];
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn complete_hands_are_minus_one((c, melds) in complete_hand()) {
        prop_assert!(is_agari(&c, melds));
        prop_assert_eq!(shanten(&c, melds), -1);
    }

    #[test]
    fn waits_match_brute_force(
        (c, melds) in complete_hand(),
        out in 0usize..KINDS,
        swaps in prop::collection::vec((0usize..KINDS, 0usize..KINDS), 0..2),
    ) {
        let mut h = c;
        remove(&mut h, out);
        for &(a, b) in &swaps {
            swap(&mut h, a, b);
        }
        let mut expected = 0u64;
        for k in 0..KINDS {
            let mut d = h;
            d[k] += 1;
            if h[k] < 4 && is_agari(&d, melds) {
                expected |= 1 << k;
            }
        }
        prop_assert_eq!(waits(&h, melds), expected, "hand {:?} melds {}", h, melds);
        prop_assert_eq!(shanten(&h, melds) == 0, expected != 0);
        if expected != 0 {
            prop_assert_eq!(ukeire(&h, melds, &h).0, expected, "tenpai ukeire are the waits");
        }
    }

    #[test]
    fn fourteen_tiles_is_best_discard(h in random_hand(14), (c, _) in complete_hand(), swaps in 0usize..3, seed in 0usize..KINDS) {
        // Random hands and near-complete 14-tile hands (no melds).
        let mut near = c;
        if c.iter().map(|&n| n as usize).sum::<usize>() == 14 {
            for s in 0..swaps {
                swap(&mut near, seed * (s + 1), seed + 7 * s);
            }
        } else {
            near = h;
        }
        for hand in [h, near] {
            let mut best = i8::MAX;
            for k in (0..KINDS).filter(|&k| hand[k] > 0) {
                let mut d = hand;
                d[k] -= 1;
                best = best.min(shanten(&d, 0));
            }
            prop_assert_eq!(best, shanten(&hand, 0).max(0), "hand {:?}", hand);
        }
    }

    #[test]
    fn a_swap_moves_by_at_most_one(h in random_hand(13), from in 0usize..KINDS, to in 0usize..KINDS) {
        let mut d = h;
        swap(&mut d, from, to);
        prop_assert!((shanten(&h, 0) - shanten(&d, 0)).abs() <= 1);
    }

    #[test]
    fn every_unfinished_hand_has_ukeire(h in random_hand(13), melds in 0u8..=4) {
        // Drop tiles to the concealed size for `melds` calls.
        let mut c = h;
        for i in 0..3 * melds as usize {
            remove(&mut c, i * 5);
        }
        let (kinds, tiles) = ukeire(&c, melds, &c);
        prop_assert!(kinds != 0, "hand {:?}", c);
        prop_assert!((0..KINDS).all(|k| kinds & (1 << k) == 0 || c[k] < 4));
        let unseen: u32 = (0..KINDS).filter(|&k| kinds & (1 << k) != 0).map(|k| 4 - u32::from(c[k])).sum();
        prop_assert_eq!(tiles, unseen);
    }

    #[test]
    fn discard_choices_match_fresh_evaluation(h in random_hand(14)) {
        let choices = discard_choices(&h, 0, &h);
        prop_assert_eq!(choices.len(), h.iter().filter(|&&c| c > 0).count());
        let best = choices.iter().map(|c| c.shanten).min().unwrap();
        prop_assert_eq!(best, shanten(&h, 0).max(0));
        // Each entry equals fresh whole-hand computations (the scan updates incrementally).
        for choice in &choices {
            let mut d = h;
            d[choice.discard as usize] -= 1;
            let s = shanten(&d, 0);
            prop_assert_eq!(choice.shanten, s);
            let mut kinds = 0u64;
            for k in (0..KINDS).filter(|&k| d[k] < 4) {
                let mut e = d;
                e[k] += 1;
                if shanten(&e, 0) < s {
                    kinds |= 1 << k;
                }
            }
            prop_assert_eq!(choice.ukeire_kinds, kinds, "discard {} from {:?}", choice.discard, h);
        }
    }

    #[test]
    fn a_draw_lowers_by_at_most_one(h in random_hand(13), draw in 0usize..KINDS) {
        prop_assume!(h[draw] < 4);
        let before = shanten(&h, 0);
        let mut d = h;
        d[draw] += 1;
        let after = shanten(&d, 0);
        prop_assert!(after == before || after == before - 1, "{} -> {}", before, after);
    }

    #[test]
    fn invariant_under_relabelling(
        h in random_hand(13),
        suits in Just(vec![0usize, 1, 2]).prop_shuffle(),
        honors in Just((0..7usize).collect::<Vec<_>>()).prop_shuffle(),
        mirror in any::<bool>(),
        melds in 0u8..=1,
    ) {
        let r = relabel(&h, [suits[0], suits[1], suits[2]], mirror, &honors);
        prop_assert_eq!(shanten(&h, melds), shanten(&r, melds));
        prop_assert_eq!(waits(&h, melds).count_ones(), waits(&r, melds).count_ones());
    }
}
