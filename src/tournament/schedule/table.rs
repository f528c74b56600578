//! The table choice of the duplicate scheduler: which bots fill the next set's table (4, or
//! 3 at a three-player table: fewest games first, then the fewest tables already shared,
//! then a seeded order), and the set's games (one per seat) with the table's bots rotated
//! through the seats.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::{set_seed, ScheduledGame};

/// A permutation of `0..bots` drawn from the tournament seed (the last tie-break).
pub(super) fn seeded_order(bots: usize, seed: [u64; 2]) -> Vec<usize> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed[0] ^ seed[1].rotate_left(32) ^ 0x005e_ed7a_61e5);
    let mut order: Vec<usize> = (0..bots).collect();
    order.shuffle(&mut rng);
    order
}

/// Largest candidate pool searched exhaustively (C(12, 4) = 495 tables per set).
const EXHAUSTIVE: usize = 12;

/// The `size` bots of the next set (`size`: the table's seats, 4 or 3; at least `size` bots
/// in `order`). Candidates are the bots with the fewest games (all bots with fewer games
/// than the `size`-th fewest, plus those tied with it). When there are at most
/// [`EXHAUSTIVE`] of them, every `size`-subset that keeps the bots with fewer games is scored
/// by the sum of the squares of its pairs' shared tables and the lowest wins (ties:
/// earliest in `order`);
/// otherwise the bots are picked greedily by (games, shared tables with those picked, order).
pub(super) fn pick_table(order: &[usize], games: &[u64], shared: &[Vec<u64>], size: usize) -> Vec<usize> {
    let mut by_games: Vec<usize> = order.to_vec();
    by_games.sort_by_key(|&b| games[b]); // stable: ties keep the seeded order
    let cut = games[by_games[size - 1]];
    let must: Vec<usize> = by_games.iter().copied().filter(|&b| games[b] < cut).collect();
    let tied: Vec<usize> = by_games.iter().copied().filter(|&b| games[b] == cut).collect();
    if must.len() + tied.len() <= EXHAUSTIVE {
        let need = size - must.len();
        let mut best: Option<(u64, Vec<usize>)> = None;
        for combo in subsets(tied.len(), need) {
            let table: Vec<usize> = must.iter().copied().chain(combo.iter().map(|&i| tied[i])).collect();
            let cost: u64 = (0..size)
                .flat_map(|i| (i + 1..size).map(move |j| (i, j)))
                .map(|(i, j)| shared[table[i]][table[j]].pow(2))
                .sum();
            if best.as_ref().is_none_or(|(c, _)| cost < *c) {
                best = Some((cost, table));
            }
        }
        if let Some((_, table)) = best {
            return table;
        }
    }
    let mut picked: Vec<usize> = Vec::with_capacity(size);
    while picked.len() < size {
        let best = order
            .iter()
            .enumerate()
            .filter(|(_, b)| !picked.contains(b))
            .min_by_key(|&(pos, &b)| (games[b], picked.iter().map(|&p| shared[b][p].pow(2)).sum::<u64>(), pos))
            .map(|(_, &b)| b);
        match best {
            Some(b) => picked.push(b),
            None => break,
        }
    }
    picked
}

/// Every `k`-subset of `0..n` as sorted index lists, in lexicographic order.
fn subsets(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut current = Vec::with_capacity(k);
    fn go(start: usize, n: usize, k: usize, current: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if current.len() == k {
            out.push(current.clone());
            return;
        }
        for i in start..n {
            current.push(i);
            go(i + 1, n, k, current, out);
            current.pop();
        }
    }
    go(0, n, k, &mut current, &mut out);
    out
}

/// The games of set `set` at `table` (one per seat, `table.len()` of them): game `g` seats
/// the table's bot `(s + g) % n` in seat `s` (`n`: the table's seats), index `n·set + g`.
pub(super) fn rotations(set: u64, table: &[usize], seed: [u64; 2]) -> Vec<ScheduledGame> {
    let n = table.len();
    (0..n)
        .map(|g| {
            let seats = (0..n).map(|s| table[(s + g) % n]).collect();
            ScheduledGame { index: set * n as u64 + g as u64, set, seats, seed: set_seed(seed, set) }
        })
        .collect()
}
