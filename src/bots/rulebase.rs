//! `rulebase`: a simple, sound player: the engine's legal answers, chosen with what
//! [`PlayerState`] knows and the hand evaluator.

use mjai_sim_engine::event::Event;
use mjai_sim_engine::hand;
use mjai_sim_engine::tile::Tile;

use super::agent::Agent;
use super::state::PlayerState;

/// Wins whenever it can (tsumo or ron), declares riichi as soon as a closed hand is tenpai,
/// discards the tile that leaves the lowest shanten (ties: most ukeire, i.e. most unseen
/// tiles that lower the shanten; then terminals/honors first), pons a yakuhai when it holds
/// exactly a pair of it, and declines every other call, kan and kyuushu kyuuhai. At a
/// three-player table it sets every North aside (kita) when it may: each is a han of dora,
/// and North is never a yakuhai there (the seats are East, South and West).
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

    fn choose(&self, legal: &[Event]) -> Event {
        if let Some(h) = legal.iter().find(|e| matches!(e, Event::Hora { .. })) {
            return h.clone();
        }
        if let Some(k) = legal.iter().find(|e| matches!(e, Event::Kita { .. })) {
            return k.clone();
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
        self.best_discard(legal).unwrap_or(Event::None)
    }

    /// Pon of a dragon, the round wind or the own seat wind, holding exactly two.
    fn wants_pon(&self, e: &Event) -> bool {
        let Event::Pon { pai, .. } = e else { return false };
        let k = pai.kind();
        let yakuhai = k >= 31 || k == self.state.bakaze().kind() || k == self.state.jikaze();
        yakuhai && self.state.tehai_counts()[k as usize] == 2
    }

    /// Lowest shanten after the discard; ties by most ukeire tiles (computed only for the
    /// tied candidates), then terminals/honors first, then plain fives before red ones.
    fn best_discard(&self, legal: &[Event]) -> Option<Event> {
        let melds = self.state.meld_count();
        let counts = self.state.tehai_counts();
        let visible = self.state.visible();
        let after = |pai: Tile| {
            let mut c = counts;
            c[pai.kind() as usize] -= 1;
            c
        };
        let dahais: Vec<(Tile, &Event)> = legal
            .iter()
            .filter_map(|e| if let Event::Dahai { pai, .. } = e { Some((*pai, e)) } else { None })
            .collect();
        let shanten: Vec<i8> = dahais.iter().map(|(pai, _)| hand::shanten(&after(*pai), melds)).collect();
        let best = *shanten.iter().min()?;
        dahais
            .iter()
            .zip(&shanten)
            .filter(|(_, &s)| s == best)
            .map(|((pai, e), _)| {
                let (_, ukeire) = hand::ukeire(&after(*pai), melds, &visible);
                ((ukeire, pai.is_yaochuu(), !pai.is_red()), *e)
            })
            .max_by_key(|(key, _)| *key)
            .map(|(_, e)| e.clone())
    }
}

impl Agent for Rulebase {
    fn react(&mut self, events: &[Event], legal: &[Event]) -> Event {
        for e in events {
            self.state.update(e);
        }
        if legal.is_empty() {
            return Event::None;
        }
        self.choose(legal)
    }
}
