//! The table choice of the duplicate scheduler: which 4 bots sit at the next set's table
//! (fewest games first, then the fewest tables already shared, then a seeded order), and
//! the set's 4 games with the table's bots rotated through the seats.

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

/// The 4 bots of the next set. Candidates are the bots with the fewest games (all bots
/// with fewer games than the 4th-fewest, plus those tied with it). When there are at most
/// [`EXHAUSTIVE`] of them, every 4-subset that keeps the bots with fewer games is scored
/// by the sum of the squares of its pairs' shared tables and the lowest wins (ties:
/// earliest in `order`);
/// otherwise the bots are picked greedily by (games, shared tables with those picked, order).
pub(super) fn pick_table(order: &[usize], games: &[u64], shared: &[Vec<u64>]) -> [usize; 4] {
    let mut by_games: Vec<usize> = order.to_vec();
    by_games.sort_by_key(|&b| games[b]); // stable: ties keep the seeded order
    let cut = games[by_games[3]];
    let must: Vec<usize> = by_games.iter().copied().filter(|&b| games[b] < cut).collect();
    let tied: Vec<usize> = by_games.iter().copied().filter(|&b| games[b] == cut).collect();
    if must.len() + tied.len() <= EXHAUSTIVE {
        let need = 4 - must.len();
        let mut best: Option<(u64, [usize; 4])> = None;
        for combo in subsets(tied.len(), need) {
            let mut table = [0usize; 4];
            let chosen = must.iter().copied().chain(combo.iter().map(|&i| tied[i]));
            for (slot, b) in table.iter_mut().zip(chosen) {
                *slot = b;
            }
            let cost: u64 = (0..4)
                .flat_map(|i| (i + 1..4).map(move |j| (i, j)))
                .map(|(i, j)| shared[table[i]][table[j]].pow(2))
                .sum();
            if best.is_none_or(|(c, _)| cost < c) {
                best = Some((cost, table));
            }
        }
        if let Some((_, table)) = best {
            return table;
        }
    }
    let mut picked: Vec<usize> = Vec::with_capacity(4);
    while picked.len() < 4 {
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
    let mut table = [0usize; 4];
    table.copy_from_slice(&picked[..4]);
    table
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

/// The 4 games of set `set` at `table`: game `g` seats the table's bot `(s + g) % 4` in seat `s`.
pub(super) fn rotations(set: u64, table: [usize; 4], seed: [u64; 2]) -> [ScheduledGame; 4] {
    std::array::from_fn(|g| {
        let seats = std::array::from_fn(|s| table[(s + g) % 4]);
        ScheduledGame { index: set * 4 + g as u64, set, seats, seed: set_seed(seed, set) }
    })
}
