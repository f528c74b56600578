//! Helpers for game scenario tests: games on arranged walls and a tiny driver.
#![allow(dead_code)]

use mjai_sim::engine::event::{Event, Seat};
use mjai_sim::engine::game::{Game, GameConfig, Rules, StartState, Wall};
use mjai_sim::engine::tile::{parse_compact, Tile};

/// Tiles from compact notation (`"123m0p"`, `0` = red five).
pub fn tiles(s: &str) -> Vec<Tile> {
    parse_compact(s).unwrap()
}

/// A tile from mjai notation.
pub fn t(s: &str) -> Tile {
    s.parse().unwrap()
}

/// An arranged wall: four hands, the first live draws, dora indicator `dora` (ura: `ura`).
pub fn wall(hands: [&str; 4], live: &str, rinshan: &str, dora: &str, ura: &str) -> Wall {
    Wall::arranged(hands.map(tiles), tiles(live), tiles(rinshan), tiles(dora), tiles(ura)).unwrap()
}

/// A game starting at `start` on the given walls (seeded walls afterwards), Tenhou rules.
pub fn game_at(start: StartState, walls: Vec<Wall>) -> Game {
    game_with_rules(start, walls, Rules::default())
}

/// Like [`game_at`], under `rules`.
pub fn game_with_rules(start: StartState, walls: Vec<Wall>, rules: Rules) -> Game {
    let config = GameConfig { seed: [7, 7], names: ["a", "b", "c", "d"].map(String::from), start };
    Game::with_rules(config, walls, rules)
}

/// A game from East 1 on one arranged wall.
pub fn game(hands: [&str; 4], live: &str, dora: &str) -> Game {
    game_at(StartState::default(), vec![wall(hands, live, "", dora, "")])
}

/// Seats asked now.
pub fn pending_seats(g: &Game) -> Vec<Seat> {
    g.pending().iter().map(|d| d.seat).collect()
}

/// `seat` answers `line` (validated); every other pending seat passes.
pub fn act(g: &mut Game, seat: Seat, line: &str) {
    assert!(
        pending_seats(g).contains(&seat),
        "seat {seat} is not pending ({:?}); log ends {:?}",
        g.pending(),
        tail(g, 3)
    );
    let mut answers = Vec::new();
    for d in g.pending() {
        let a =
            if d.seat == seat { g.validate(seat, line).unwrap_or_else(|e| panic!("{line}: {e}")) } else { Event::None };
        answers.push((d.seat, a));
    }
    g.apply(&answers).unwrap();
}

/// Several seats answer at once (the others pass).
pub fn act_many(g: &mut Game, lines: &[(Seat, &str)]) {
    let mut answers = Vec::new();
    for d in g.pending() {
        let a = match lines.iter().find(|(s, _)| *s == d.seat) {
            Some((s, l)) => g.validate(*s, l).unwrap_or_else(|e| panic!("{l}: {e}")),
            None => Event::None,
        };
        answers.push((d.seat, a));
    }
    g.apply(&answers).unwrap();
}

/// Discards the drawn tile on a turn, passes on claims; one step.
pub fn autoplay_step(g: &mut Game) {
    let mut answers = Vec::new();
    for d in g.pending() {
        let a = d
            .legal
            .iter()
            .find(|e| matches!(e, Event::Dahai { tsumogiri: true, .. }))
            .or_else(|| d.legal.iter().find(|e| matches!(e, Event::None)))
            .or_else(|| d.legal.iter().find(|e| matches!(e, Event::Dahai { .. })))
            .cloned()
            .expect("a tsumogiri, a pass or a discard");
        answers.push((d.seat, a));
    }
    g.apply(&answers).unwrap();
}

/// Autoplays until the log has a new `end_kyoku`.
pub fn autoplay_kyoku(g: &mut Game) {
    let ends = |g: &Game| g.log().iter().filter(|e| matches!(e, Event::EndKyoku)).count();
    let before = ends(g);
    while ends(g) == before && !g.is_over() {
        autoplay_step(g);
    }
}

/// The last `n` events as JSON lines.
pub fn tail(g: &Game, n: usize) -> Vec<String> {
    let log = g.log();
    log[log.len().saturating_sub(n)..].iter().map(Event::to_json).collect()
}

/// The JSON of every event after index `from`.
pub fn since(g: &Game, from: usize) -> Vec<String> {
    g.log()[from..].iter().map(Event::to_json).collect()
}

/// The last hora or ryukyoku `deltas`.
pub fn last_deltas(g: &Game) -> [i32; 4] {
    g.log()
        .iter()
        .rev()
        .find_map(|e| match e {
            Event::Hora { deltas: Some(d), .. } | Event::Ryukyoku { deltas: Some(d), .. } => Some(*d),
            _ => None,
        })
        .expect("a hand end")
}

/// The last start_kyoku as (bakaze, kyoku, honba, kyotaku, oya, scores).
pub fn last_start(g: &Game) -> (String, u8, u8, u8, Seat, [i32; 4]) {
    g.log()
        .iter()
        .rev()
        .find_map(|e| match e {
            Event::StartKyoku { bakaze, kyoku, honba, kyotaku, oya, scores, .. } => {
                Some((bakaze.to_string(), *kyoku, *honba, *kyotaku, *oya, *scores))
            }
            _ => None,
        })
        .unwrap()
}
