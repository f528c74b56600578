//! Hand-built game records for examples and tests of standings (this crate's and the
//! pages'): games whose scores follow the ranks, duplicate sets of four bots.

use super::record::GameRecord;
use super::standings::{StandingsOptions, MORTAL_UMA};

/// `bot0`, `bot1`, … `bot{n-1}`.
pub fn names(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("bot{i}")).collect()
}

/// A game whose scores follow the ranks (1st 40000, 2nd 30000, 3rd 20000, 4th 10000).
pub fn rec(index: u64, set: u64, seats: [usize; 4], ranks: [u8; 4]) -> GameRecord {
    let scores = ranks.map(|r| 50000 - 10000 * i32::from(r));
    GameRecord {
        index,
        set,
        seats: seats.to_vec(),
        scores: scores.to_vec(),
        ranks: ranks.to_vec(),
        stats: vec![Default::default(); 4],
    }
}

/// One duplicate set of bots 0..4 rotated through the seats; bot 0 always 1st, bot 3
/// always 4th, bots 1 and 2 swap 2nd and 3rd.
pub fn set_of_four(set: u64) -> Vec<GameRecord> {
    (0..4u64)
        .map(|g| {
            let seats: [usize; 4] = std::array::from_fn(|s| (s + g as usize) % 4);
            let ranks = seats.map(|b| match b {
                0 => 1,
                3 => 4,
                1 => 2 + (g % 2) as u8,
                _ => 3 - (g % 2) as u8,
            });
            rec(set * 4 + g, set, seats, ranks)
        })
        .collect()
}

/// Standings options with Mortal's uma (`MORTAL_UMA`) and 5 as `StandingsOptions::new`'s
/// second argument, as the examples use them.
pub fn opts() -> StandingsOptions {
    StandingsOptions::new(MORTAL_UMA.to_vec(), 5)
}
