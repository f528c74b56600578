//! Places and final scores at the end of a game, from per-seat scores in points
//! ([`MAX_SEATS`] wide): equal scores rank by seat order from the starting dealer (seat 0),
//! as Tenhou and mjai.app rank; riichi sticks left on the table go to the first place
//! (Tenhou). At a three-player table the empty seat 3 comes last and has no place. Read by
//! `game` (the game's end) and `log` (a read log's final scores); `game` re-exports it.

use crate::rules::{Players, MAX_SEATS};

/// Mortal's uma (placement points by rank 1..4), as its `one_vs_three.py`: the default of
/// tournaments, leagues and the training environment's rewards (no oka).
pub const MORTAL_UMA: [f64; 4] = [90.0, 45.0, 0.0, -135.0];

/// The default uma at a three-player table (placement points by rank 1..3): 90, 0, −90.
/// Our choice: neither riichi.dev nor RiichiEnv publishes a pt table for three-player
/// games; this one sums to 0, keeps Mortal's 90 for a first place and is symmetric
/// (`--uma` changes it).
pub const SANMA_UMA: [f64; 3] = [90.0, 0.0, -90.0];

/// The default uma at a table of `players` seats: [`MORTAL_UMA`] or [`SANMA_UMA`].
pub fn default_uma(players: Players) -> Vec<f64> {
    match players {
        Players::Four => MORTAL_UMA.to_vec(),
        Players::Three => SANMA_UMA.to_vec(),
    }
}

/// Seats from first to last place; equal scores rank by seat order from the starting
/// dealer (seat 0).
pub fn rank_order(scores: [i32; MAX_SEATS]) -> [usize; MAX_SEATS] {
    rank_order_for(scores, Players::Four)
}

/// [`rank_order`] at a table of `players`: the seats at the table first, from first to
/// last place; the empty seat of a three-player table (seat 3) after them.
pub fn rank_order_for(scores: [i32; MAX_SEATS], players: Players) -> [usize; MAX_SEATS] {
    let seats = players.count();
    let mut order: [usize; MAX_SEATS] = std::array::from_fn(|s| s);
    order.sort_by_key(|&s| (s >= seats, -i64::from(scores[s]), s));
    order
}

/// [`ranks`] at a table of `players`: place per seat, 1 = top; 0 for the empty seat of a
/// three-player table.
pub fn ranks_for(scores: [i32; MAX_SEATS], players: Players) -> [u8; MAX_SEATS] {
    let mut out = [0u8; MAX_SEATS];
    for (place, seat) in rank_order_for(scores, players).into_iter().enumerate().take(players.count()) {
        out[seat] = place as u8 + 1;
    }
    out
}

/// [`final_scores`] at a table of `players`: leftover riichi sticks go to the first place
/// among the seats at the table.
pub fn final_scores_for(mut scores: [i32; MAX_SEATS], kyotaku: u8, players: Players) -> [i32; MAX_SEATS] {
    let top = rank_order_for(scores, players)[0];
    scores[top] += kyotaku as i32 * 1000;
    scores
}

/// Place per seat, 1 = top, from scores: equal scores rank by seat order from the starting
/// dealer (seat 0), as Tenhou and mjai.app rank ([`rank_order`] read per seat).
pub fn ranks(scores: [i32; MAX_SEATS]) -> [u8; MAX_SEATS] {
    ranks_for(scores, Players::Four)
}

/// Final scores: riichi sticks left on the table go to the first place (Tenhou).
pub fn final_scores(scores: [i32; MAX_SEATS], kyotaku: u8) -> [i32; MAX_SEATS] {
    final_scores_for(scores, kyotaku, Players::Four)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_and_leftover_sticks() {
        assert_eq!(rank_order([25000, 30000, 25000, 20000]), [1, 0, 2, 3]);
        assert_eq!(ranks([25000, 30000, 25000, 20000]), [2, 1, 3, 4]);
        assert_eq!(ranks([25000; 4]), [1, 2, 3, 4]);
        assert_eq!(ranks([25000, 25000, 30000, 20000]), [2, 3, 1, 4]);
        assert_eq!(ranks([10000, 20000, 30000, 40000]), [4, 3, 2, 1]);
        assert_eq!(final_scores([25000, 30000, 25000, 18000], 2), [25000, 32000, 25000, 18000]);
    }
}
