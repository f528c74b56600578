//! `tsumogiri`: discards every drawn tile, never calls, never wins.

use mjai_sim_engine::event::Event;

use super::agent::Agent;

/// Discards the drawn tile on its own turn (the legal `dahai` with `tsumogiri: true`);
/// passes (`none`) whenever passing is legal, calls and wins included. Keeps no state, so
/// it costs nothing.
#[derive(Debug, Clone, Default)]
pub struct Tsumogiri;

impl Tsumogiri {
    /// A fresh bot.
    pub fn new() -> Tsumogiri {
        Tsumogiri
    }
}

impl Agent for Tsumogiri {
    /// The referee's default answer ([`mjai_sim_engine::game::default_answer`]): the drawn
    /// tile, `none` where passing is legal, the first discard after a call.
    fn react(&mut self, _events: &[Event], legal: &[Event]) -> Event {
        mjai_sim_engine::game::default_answer(legal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mjai_sim_engine::tile::Tile;

    #[test]
    fn discards_own_draw_and_passes_otherwise() {
        let mut bot = Tsumogiri::new();
        let start = Event::StartGame { names: None, seed: None, id: Some(2) };
        assert_eq!(bot.react(&[start], &[]), Event::None);
        let p: Tile = "7p".parse().unwrap();
        let e: Tile = "E".parse().unwrap();
        let keep = Event::Dahai { actor: 2, pai: e, tsumogiri: false };
        let drawn = Event::Dahai { actor: 2, pai: p, tsumogiri: true };
        let hora = Event::Hora { actor: 2, target: 2, pai: Some(p), deltas: None, ura_markers: None };
        let legal = [hora, keep.clone(), drawn.clone()];
        assert_eq!(bot.react(&[Event::Tsumo { actor: 2, pai: p }], &legal), drawn);
        let ron = Event::Hora { actor: 2, target: 1, pai: Some(p), deltas: None, ura_markers: None };
        let other = Event::Dahai { actor: 1, pai: p, tsumogiri: false };
        assert_eq!(
            bot.react(&[Event::Tsumo { actor: 1, pai: Tile::UNKNOWN }, other], &[ron, Event::None]),
            Event::None
        );
        assert_eq!(bot.react(&[Event::None], std::slice::from_ref(&keep)), keep, "a discard that is due is made");
    }
}
