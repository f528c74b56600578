//! Three-player (sanma) tests: hand-made cases, each with its points worked out by hand
//! from the rules (docs/rules.md "Three-player (sanma)"), and the self-play invariants with
//! the log reader and the replayer on three-player logs.

mod cases;
mod selfplay;

use super::autoplay;
use super::play::Game;
use super::setup::{GameConfig, StartState};
use super::wall::Wall;
use crate::event::Event;
use crate::rules::{Players, Rules};
use crate::tile::{parse_compact, Tile};

pub(super) fn tiles(s: &str) -> Vec<Tile> {
    parse_compact(s).unwrap()
}

pub(super) fn config(start: StartState) -> GameConfig {
    GameConfig { seed: [7, 7], names: ["a", "b", "c", "d"].map(String::from), start }
}

/// A three-player game on `wall` from `start`.
pub(super) fn game(rules: Rules, wall: Wall, start: StartState) -> Game {
    Game::with_rules(config(start), vec![wall], rules)
}

/// Seat `seat` answers the first legal event `want` accepts; every other seat asked
/// passes, or discards its drawn tile on its turn.
pub(super) fn act(g: &mut Game, seat: u8, want: impl Fn(&Event) -> bool) {
    let mut choices = Vec::new();
    for d in g.pending() {
        let i = if d.seat == seat {
            d.legal.iter().position(&want).unwrap_or_else(|| panic!("seat {seat} may not: {:?}", d.legal))
        } else {
            auto_index(&d.legal)
        };
        choices.push((d.seat, i));
    }
    assert!(choices.iter().any(|&(s, _)| s == seat), "seat {seat} is not asked: {:?}", g.pending());
    g.apply_legal(&choices).unwrap();
}

/// Pass where one may, else discard the drawn tile.
pub(super) fn auto_index(legal: &[Event]) -> usize {
    legal
        .iter()
        .position(|e| *e == Event::None)
        .or_else(|| legal.iter().position(|e| matches!(e, Event::Dahai { tsumogiri: true, .. })))
        .unwrap_or(0)
}

/// Everyone asked passes or discards the drawn tile, `n` times.
pub(super) fn auto(g: &mut Game, n: usize) {
    for _ in 0..n {
        let choices: Vec<(u8, usize)> = g.pending().iter().map(|d| (d.seat, auto_index(&d.legal))).collect();
        g.apply_legal(&choices).unwrap();
    }
}

pub(super) fn is_kita(e: &Event) -> bool {
    matches!(e, Event::Kita { .. })
}

pub(super) fn is_hora(e: &Event) -> bool {
    matches!(e, Event::Hora { .. })
}

pub(super) fn last_deltas(g: &Game) -> [i32; 4] {
    g.log()
        .iter()
        .rev()
        .find_map(|e| match e {
            Event::Hora { deltas, .. } | Event::Ryukyoku { deltas, .. } => *deltas,
            _ => None,
        })
        .expect("the kyoku ended")
}
