//! Rewards: placement points by final rank (uma) when a game ends, and optionally each
//! hand's score change.

use mjai_sim_engine::event::Event;
use mjai_sim_engine::game::{ranks_for, Players, MAX_SEATS};

/// The default umas, the tournaments' (the engine's).
pub use mjai_sim_engine::game::{default_uma, MORTAL_UMA, SANMA_UMA};

/// Final ranks (1-based; ties by seat order, the engine's rule) and each seat's
/// placement points under `uma` (seats past the table's are 0).
pub fn placement(scores: [i32; MAX_SEATS], players: Players, uma: &[f64]) -> ([u8; MAX_SEATS], [f32; MAX_SEATS]) {
    let ranks = ranks_for(scores, players);
    let mut pt = [0f32; MAX_SEATS];
    for s in 0..players.count() {
        pt[s] = uma.get(usize::from(ranks[s]).saturating_sub(1)).copied().unwrap_or(0.0) as f32;
    }
    (ranks, pt)
}

/// Adds to `acc` each seat's score change that `event` makes, in thousands of points:
/// `hora` and `ryukyoku` deltas, and the 1000 of an accepted riichi.
pub fn add_hand_delta(event: &Event, acc: &mut [f32; MAX_SEATS]) {
    match event {
        Event::Hora { deltas: Some(d), .. } | Event::Ryukyoku { deltas: Some(d), .. } => {
            for (a, d) in acc.iter_mut().zip(d) {
                *a += *d as f32 / 1000.0;
            }
        }
        Event::ReachAccepted { actor } => acc[usize::from(*actor) % MAX_SEATS] -= 1.0,
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placement_follows_ranks_with_ties_by_seat() {
        let (ranks, pt) = placement([25000, 40000, 25000, 10000], Players::Four, &MORTAL_UMA);
        assert_eq!(ranks, [2, 1, 3, 4]);
        assert_eq!(pt, [45.0, 90.0, 0.0, -135.0]);
        let (ranks, pt) = placement([30000, 45000, 30000, 0], Players::Three, &SANMA_UMA);
        assert_eq!(&ranks[..3], &[2, 1, 3]);
        assert_eq!(pt, [0.0, 90.0, -90.0, 0.0]);
    }

    #[test]
    fn hand_deltas_count_sticks() {
        let mut acc = [0.0; 4];
        add_hand_delta(&Event::ReachAccepted { actor: 2 }, &mut acc);
        let hora = Event::Hora { actor: 2, target: 0, pai: None, deltas: Some([-8000, 0, 9000, 0]), ura_markers: None };
        add_hand_delta(&hora, &mut acc);
        assert_eq!(acc, [-8.0, 0.0, 8.0, 0.0]);
    }
}
