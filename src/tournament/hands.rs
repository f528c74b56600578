//! The four concealed hands followed through a full (unmasked) mjai log, to tell who was
//! tenpai at an exhaustive draw: the log's `ryukyoku` carries only `deltas`, which cannot
//! tell "all tenpai" from "all noten" (no payments either way).

use crate::bots::WALL_DRAWS;
use crate::engine::event::Event;
use crate::engine::game::Rules;
use crate::engine::hand::waits;
use crate::engine::tile::{Tile, KINDS};

/// Concealed tiles (counts per kind) and calls of the four seats in the current kyoku,
/// and what is needed to recognise an exhaustive draw.
#[derive(Debug, Clone)]
pub struct Hands {
    counts: [[u8; KINDS]; 4],
    melds: [u8; 4],
    riichi: [bool; 4],
    /// `tsumo` events this kyoku (rinshan draws included: each kan moves one live tile to
    /// the dead wall, so the live wall is empty after [`WALL_DRAWS`] draws in all).
    draws: u8,
    /// Kans this kyoku, and whether more than one seat made them.
    kans: u8,
    kan_seats: u8,
    /// The latest event was a `dahai` (or the `reach_accepted` after it).
    last_was_discard: bool,
}

impl Default for Hands {
    fn default() -> Hands {
        Hands {
            counts: [[0; KINDS]; 4],
            melds: [0; 4],
            riichi: [false; 4],
            draws: 0,
            kans: 0,
            kan_seats: 0,
            last_was_discard: false,
        }
    }
}

impl Hands {
    /// Follows one event. Tiles that are not in the hand are ignored (bad logs never panic).
    pub fn apply(&mut self, event: &Event) {
        self.last_was_discard = matches!(event, Event::Dahai { .. } | Event::ReachAccepted { .. });
        match event {
            Event::StartKyoku { tehais, .. } => {
                *self = Hands::default();
                for (s, hand) in tehais.iter().enumerate() {
                    for &t in hand {
                        self.add(s, t);
                    }
                }
            }
            Event::Tsumo { actor, pai } => {
                self.draws = self.draws.saturating_add(1);
                self.add(usize::from(*actor), *pai);
            }
            Event::Dahai { actor, pai, .. } => self.remove(usize::from(*actor), *pai),
            Event::Chi { actor, consumed, .. } | Event::Pon { actor, consumed, .. } => {
                self.call(usize::from(*actor), consumed);
            }
            Event::Daiminkan { actor, consumed, .. } => {
                self.call(usize::from(*actor), consumed);
                self.kan(*actor);
            }
            Event::Ankan { actor, consumed } => {
                self.call(usize::from(*actor), consumed);
                self.kan(*actor);
            }
            Event::Kakan { actor, pai, .. } => {
                self.remove(usize::from(*actor), *pai);
                self.kan(*actor);
            }
            Event::ReachAccepted { actor } => {
                if let Some(r) = self.riichi.get_mut(usize::from(*actor)) {
                    *r = true;
                }
            }
            _ => {}
        }
    }

    /// True when a `ryukyoku` logged now (before [`Hands::apply`] sees it) is an exhaustive
    /// draw: the live wall is empty and the last discard passed. Abortive draws (kyuushu
    /// kyuuhai, four winds, four riichi, four kans by several seats, triple ron) are not.
    pub fn at_exhaustive_draw(&self) -> bool {
        let four_kans_abort = self.kans >= 4 && self.kan_seats.count_ones() > 1;
        let four_riichi = self.riichi.iter().all(|&r| r);
        self.draws >= WALL_DRAWS && self.last_was_discard && !four_kans_abort && !four_riichi
    }

    /// Seats whose concealed part waits on at least one kind (Tenhou: waiting only on a kind
    /// the hand holds all four of is not tenpai).
    pub fn tenpai(&self) -> [bool; 4] {
        std::array::from_fn(|s| waits(&self.counts[s], self.melds[s]) != 0)
    }

    /// Seats paid as tenpai at an exhaustive draw under `rules` ([`Rules::tenpai_at_draw`]:
    /// karaten counts when [`Rules::karaten_is_tenpai`]).
    pub fn tenpai_under(&self, rules: &Rules) -> [bool; 4] {
        std::array::from_fn(|s| rules.tenpai_at_draw(&self.counts[s], self.melds[s]))
    }

    fn add(&mut self, seat: usize, t: Tile) {
        if let Some(c) = self.counts.get_mut(seat).and_then(|c| c.get_mut(usize::from(t.kind()))) {
            *c = c.saturating_add(1);
        }
    }

    fn remove(&mut self, seat: usize, t: Tile) {
        if let Some(c) = self.counts.get_mut(seat).and_then(|c| c.get_mut(usize::from(t.kind()))) {
            *c = c.saturating_sub(1);
        }
    }

    fn call(&mut self, seat: usize, consumed: &[Tile]) {
        for &t in consumed {
            self.remove(seat, t);
        }
        if let Some(m) = self.melds.get_mut(seat) {
            *m = m.saturating_add(1);
        }
    }

    fn kan(&mut self, seat: u8) {
        self.kans = self.kans.saturating_add(1);
        self.kan_seats |= 1u8.checked_shl(u32::from(seat)).unwrap_or(0);
    }
}
