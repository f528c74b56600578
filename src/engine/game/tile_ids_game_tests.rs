//! Physical tile ids ([`super::tile_ids`]) through whole games the engine plays: every seat
//! follows the same ids from the events it sees, and a game knows its current wall's ids.
//! Here beside `tile_ids`, not inside it: these tests play games (`autoplay`, [`Game`]),
//! which `tile_ids` sits below.

use std::collections::BTreeMap;

use super::autoplay::play;
use super::play::Game;
use super::setup::{GameConfig, StartState};
use super::tile_ids::{tile_of, TileId, TileIds, WallIds};
use super::wall::kyoku_count;
use crate::event::Event;
use crate::rules::{Players, Rules};
use crate::tile::Tile;

fn config(seed: [u64; 2], players: Players) -> GameConfig {
    GameConfig { seed, names: ["a", "b", "c", "d"].map(String::from), start: StartState::initial(players) }
}

fn rules(players: Players) -> Rules {
    match players {
        Players::Four => Rules::tenhou(),
        Players::Three => Rules::riichi_dev_3p(),
    }
}

/// Follows every kyoku of `log`, unmasked and as each seat sees it, and checks: no event
/// is off the wall, each id is in one place (a called tile also in its river), every seat
/// sees the same rivers, melds and indicators, and its own hand.
fn follow(log: &[Event], seed: [u64; 2], players: Players) -> usize {
    let seats = players.count() as u8;
    let mut kyoku_seen = 0;
    let mut trackers: Vec<TileIds> = Vec::new();
    for event in log {
        if let Event::StartKyoku { bakaze, kyoku, honba, .. } = event {
            let ids = WallIds::seeded_for(players, seed, kyoku_count(*bakaze, *kyoku), *honba);
            trackers = (0..=seats).map(|_| TileIds::deal(ids.clone())).collect();
            kyoku_seen += 1;
            continue;
        }
        if trackers.is_empty() {
            continue;
        }
        trackers[0].apply(event);
        for s in 0..seats {
            trackers[usize::from(s) + 1].apply(&event.masked_for(s));
        }
        let full = &trackers[0];
        assert_eq!(full.desync(), None, "{event:?}");
        let mut places: BTreeMap<TileId, usize> = BTreeMap::new();
        let mut called = Vec::new();
        for s in 0..seats {
            let view = &trackers[usize::from(s) + 1];
            assert_eq!(view.desync(), None, "seat {s}: {event:?}");
            assert_eq!(view.hand(s), full.hand(s), "seat {s}'s own hand");
            for o in 0..seats {
                assert_eq!(view.discards(o), full.discards(o));
                assert_eq!(view.melds(o), full.melds(o));
                assert_eq!(view.kita(o), full.kita(o));
            }
            assert_eq!(view.dora_indicators(), full.dora_indicators());
            let ids =
                full.hand(s).into_iter().chain(full.discards(s).iter().copied()).chain(full.kita(s).iter().copied());
            for id in ids.chain(full.melds(s).iter().flat_map(|m| m.tiles.iter().copied())) {
                *places.entry(id).or_default() += 1;
            }
            called.extend(full.melds(s).iter().filter_map(|m| m.called_tile));
            let hand_tiles: Vec<Tile> = full.hand(s).iter().map(|&id| tile_of(id).unwrap()).collect();
            assert!(hand_tiles.iter().all(|t| !t.is_unknown()));
        }
        for (id, n) in places {
            let want = if called.contains(&id) { 2 } else { 1 };
            assert_eq!(n, want, "id {id} after {event:?}");
        }
    }
    kyoku_seen
}

#[test]
fn ids_follow_whole_games_the_same_for_every_seat() {
    let mut kinds = BTreeMap::<&str, usize>::new();
    for players in [Players::Four, Players::Three] {
        for g in 0..12u64 {
            let seed = [g, 11 * g + 1];
            let game = play(config(seed, players), Vec::new(), rules(players), g);
            assert!(follow(game.log(), seed, players) >= 4);
            for e in game.log() {
                let k = match e {
                    Event::Chi { .. } => "chi",
                    Event::Pon { .. } => "pon",
                    Event::Daiminkan { .. } => "daiminkan",
                    Event::Kakan { .. } => "kakan",
                    Event::Ankan { .. } => "ankan",
                    Event::Kita { .. } => "kita",
                    _ => continue,
                };
                *kinds.entry(k).or_default() += 1;
            }
        }
    }
    // The games reached every kind of call.
    for k in ["chi", "pon", "daiminkan", "kakan", "ankan", "kita"] {
        assert!(kinds.get(k).copied().unwrap_or(0) > 0, "no {k} in {kinds:?}");
    }
}

#[test]
fn a_game_knows_its_current_walls_ids() {
    let g = Game::with_rules(config([5, 6], Players::Four), Vec::new(), Rules::default());
    let ids = g.wall_ids();
    assert_eq!(*ids, WallIds::seeded_for(Players::Four, [5, 6], 0, 0));
    let Some(Event::Tsumo { pai, .. }) = g.log().get(2) else { panic!("{:?}", g.log()) };
    assert_eq!(tile_of(ids.live[0]), Some(*pai));
}
