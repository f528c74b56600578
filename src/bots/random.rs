//! `random`: a seeded random player, to stress referees and engines with the moves the
//! other built-ins never make (chi, every kan, kakan into chankan, kyuushu kyuuhai, riichi
//! at odd moments, calls that leave kuikae limits).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use mjai_sim_engine::event::Event;

use super::agent::Agent;

/// Wins whenever it can; otherwise picks uniformly among the legal answers the engine
/// offers (`none` included), so it calls, kans and declares riichi far more often than a
/// person would. The generator is ChaCha8 seeded with the seat (from `start_game.id`): the
/// same game against the same opponents replays exactly.
#[derive(Debug, Clone)]
pub struct Random {
    rng: ChaCha8Rng,
}

impl Default for Random {
    fn default() -> Self {
        Random::new()
    }
}

impl Random {
    /// A fresh bot; it reseeds from its seat at `start_game`.
    pub fn new() -> Random {
        Random { rng: ChaCha8Rng::seed_from_u64(0) }
    }
}

impl Agent for Random {
    fn react(&mut self, events: &[Event], legal: &[Event]) -> Event {
        for e in events {
            if let Event::StartGame { id: Some(id), .. } = e {
                self.rng = ChaCha8Rng::seed_from_u64(u64::from(*id));
            }
        }
        if let Some(h) = legal.iter().find(|e| matches!(e, Event::Hora { .. })) {
            return h.clone();
        }
        if legal.is_empty() {
            return Event::None;
        }
        let i = self.rng.random_range(0..legal.len());
        legal[i].clone()
    }
}
