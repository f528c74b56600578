//! `rulebase`: a simple, sound player built on [`PlayerState`] and the hand evaluator.

use crate::engine::event::Event;
use crate::engine::hand;
use crate::engine::tile::KINDS;

use super::agent::Agent;
use super::state::PlayerState;

/// Wins whenever it can (tsumo or ron), declares riichi as soon as a closed hand is tenpai,
/// discards the tile that leaves the lowest shanten (ties: most ukeire, i.e. most unseen
/// tiles that lower the shanten; then terminals/honors first), pons a yakuhai when it holds
/// exactly a pair of it, and declines every other call, kan and kyuushu kyuuhai.
#[derive(Debug, Clone, Default)]
pub struct Rulebase {
    state: PlayerState,
}

impl Rulebase {
    /// A fresh bot; the seat comes from `start_game.id`.
    pub fn new() -> Rulebase {
        Rulebase::default()
    }

    /// The state this bot has built from the events so far.
    pub fn state(&self) -> &PlayerState {
        &self.state
    }

    fn choose(&self, legal: Vec<Event>) -> Event {
        if let Some(h) = legal.iter().find(|e| matches!(e, Event::Hora { .. })) {
            return h.clone();
        }
        if let Some(r) = legal.iter().find(|e| matches!(e, Event::Reach { .. })) {
            return r.clone();
        }
        if let Some(p) = legal.iter().find(|e| self.wants_pon(e)) {
            return p.clone();
        }
        if legal.contains(&Event::None) {
            return Event::None;
        }
        self.best_discard(&legal).unwrap_or(Event::None)
    }

    /// Pon of a dragon, the round wind or the own seat wind, holding exactly two.
    fn wants_pon(&self, e: &Event) -> bool {
        let Event::Pon { pai, .. } = e else { return false };
        let k = pai.kind();
        let yakuhai = k >= 31 || k == self.state.bakaze.kind() || k == self.state.jikaze();
        yakuhai && self.state.tehai_counts()[k as usize] == 2
    }

    fn best_discard(&self, legal: &[Event]) -> Option<Event> {
        let melds = self.state.meld_count();
        let counts = self.state.tehai_counts();
        let mut scored: Vec<(i8, &Event)> = legal
            .iter()
            .filter_map(|e| match e {
                Event::Dahai { pai, .. } => {
                    let mut c = counts;
                    c[pai.kind() as usize] -= 1;
                    Some((hand::shanten(&c, melds), e))
                }
                _ => None,
            })
            .collect();
        let best = scored.iter().map(|(s, _)| *s).min()?;
        scored.retain(|(s, _)| *s == best);
        scored
            .into_iter()
            .map(|(s, e)| {
                let Event::Dahai { pai, .. } = e else { unreachable!("filtered to dahai above") };
                let mut c = counts;
                c[pai.kind() as usize] -= 1;
                (self.ukeire(&c, s), pai.is_yaochuu(), e)
            })
            .max_by_key(|(u, y, _)| (*u, *y))
            .map(|(_, _, e)| e.clone())
    }

    /// Unseen tiles that lower the shanten of a 13-tile (3k+1) hand.
    fn ukeire(&self, counts: &[u8; KINDS], shanten: i8) -> u32 {
        let melds = self.state.meld_count();
        let mut c = *counts;
        let mut total = 0;
        for k in 0..KINDS {
            let unseen = 4u8.saturating_sub(self.state.visible[k]);
            if unseen == 0 || c[k] >= 4 {
                continue;
            }
            c[k] += 1;
            if hand::shanten(&c, melds) < shanten {
                total += u32::from(unseen);
            }
            c[k] -= 1;
        }
        total
    }
}

impl Agent for Rulebase {
    fn react(&mut self, events: &[Event]) -> Event {
        for e in events {
            self.state.update(e);
        }
        let legal = self.state.legal_actions();
        if legal.is_empty() {
            return Event::None;
        }
        self.choose(legal)
    }
}
