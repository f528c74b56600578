//! `tsumogiri`: discards every drawn tile, never calls, never wins.

use crate::engine::event::{Event, Seat};

use super::agent::Agent;

/// Discards the drawn tile on its own turn (`tsumogiri: true`); answers `none` to
/// everything else (calls and wins included). Keeps only its seat, so it costs nothing.
#[derive(Debug, Clone, Default)]
pub struct Tsumogiri {
    seat: Seat,
}

impl Tsumogiri {
    /// A fresh bot; the seat comes from `start_game.id`.
    pub fn new() -> Tsumogiri {
        Tsumogiri::default()
    }
}

impl Agent for Tsumogiri {
    fn react(&mut self, events: &[Event]) -> Event {
        for e in events {
            if let Event::StartGame { id: Some(id), .. } = e {
                self.seat = *id;
            }
        }
        match events.last() {
            Some(&Event::Tsumo { actor, pai }) if actor == self.seat => Event::Dahai { actor, pai, tsumogiri: true },
            _ => Event::None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn discards_own_draw_and_passes_otherwise() {
        let mut bot = Tsumogiri::new();
        let start = Event::StartGame { names: None, seed: None, id: Some(2) };
        assert_eq!(bot.react(&[start]), Event::None);
        let p: crate::engine::tile::Tile = "7p".parse().unwrap();
        assert_eq!(bot.react(&[Event::Tsumo { actor: 2, pai: p }]), Event::Dahai { actor: 2, pai: p, tsumogiri: true });
        let other = Event::Dahai { actor: 1, pai: p, tsumogiri: false };
        assert_eq!(bot.react(&[Event::Tsumo { actor: 1, pai: crate::engine::tile::Tile::UNKNOWN }, other]), Event::None);
    }
}
