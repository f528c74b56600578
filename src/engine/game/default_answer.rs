//! The answer played for a seat that gave none in time under a clock that forgives
//! timeouts (riichi.dev's: "on timeout the server plays the default action").

use crate::event::Event;

/// The default answer among `legal` (a [`Decision`](super::decision::Decision)'s list): the drawn tile on a
/// draw (`dahai` with `tsumogiri: true`; riichi.dev: "tsumogiri on a draw"), `none` where
/// passing is legal (a claim, riichi.dev: "`none` on a claim"), and after a call, where
/// there is no drawn tile, the first legal `dahai` (the lowest tile the engine lists).
/// An empty list gives `none`. Never a win, a call or a riichi.
pub fn default_answer(legal: &[Event]) -> Event {
    let drawn = legal.iter().find(|e| matches!(e, Event::Dahai { tsumogiri: true, .. }));
    match drawn {
        Some(e) => e.clone(),
        None if legal.is_empty() || legal.contains(&Event::None) => Event::None,
        None => legal.iter().find(|e| matches!(e, Event::Dahai { .. })).unwrap_or(&legal[0]).clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tile::Tile;

    fn tile(s: &str) -> Tile {
        s.parse().unwrap()
    }

    #[test]
    fn draw_claim_and_after_call() {
        let p = tile("7p");
        let keep = Event::Dahai { actor: 2, pai: tile("E"), tsumogiri: false };
        let drawn = Event::Dahai { actor: 2, pai: p, tsumogiri: true };
        let tsumo = Event::Hora { actor: 2, target: 2, pai: Some(p), deltas: None, ura_markers: None };
        let reach = Event::Reach { actor: 2 };
        assert_eq!(default_answer(&[tsumo, reach, keep.clone(), drawn.clone()]), drawn);
        let ron = Event::Hora { actor: 2, target: 1, pai: Some(p), deltas: None, ura_markers: None };
        assert_eq!(default_answer(&[ron, Event::None]), Event::None);
        let other = Event::Dahai { actor: 2, pai: tile("1m"), tsumogiri: false };
        assert_eq!(default_answer(&[other.clone(), keep]), other, "after a call: the first discard");
        assert_eq!(default_answer(&[]), Event::None);
    }
}
