use super::*;
use crate::event::Event;
use crate::game::wall::full_set_for;

#[test]
fn ids_name_riichienvs_tiles() {
    assert_eq!(tile_of(0), Some("1m".parse().unwrap()));
    assert_eq!(tile_of(16), Some("5mr".parse().unwrap()));
    assert_eq!(tile_of(17), Some("5m".parse().unwrap()));
    assert_eq!(tile_of(52), Some("5pr".parse().unwrap()));
    assert_eq!(tile_of(88), Some("5sr".parse().unwrap()));
    assert_eq!(tile_of(108), Some("E".parse().unwrap()));
    assert_eq!(tile_of(135), Some("C".parse().unwrap()));
    assert_eq!(tile_of(136), None);
    // The set order of the tiles is the order of the ids.
    for players in [Players::Four, Players::Three] {
        let tiles: Vec<Tile> = set_ids(players).into_iter().map(|id| tile_of(id).unwrap()).collect();
        assert_eq!(tiles, full_set_for(players));
    }
    // Three players: no 2m-8m, ids 4..32.
    assert!(set_ids(Players::Three).iter().all(|&id| !(4..32).contains(&id)));
    assert_eq!(set_ids(Players::Three).len(), 108);
}

#[test]
fn a_seeded_wall_has_its_ids_from_the_same_shuffle() {
    for players in [Players::Four, Players::Three] {
        for (seed, kyoku, honba) in [([1, 2], 0, 0), ([7, 9], 3, 1), ([u64::MAX, 0], 7, 4)] {
            let wall = Wall::seeded_for(players, seed, kyoku, honba);
            let ids = WallIds::seeded_for(players, seed, kyoku, honba);
            assert!(ids.fits(&wall), "{players:?} {seed:?}");
            assert_eq!(WallIds::for_wall(&wall, seed, kyoku, honba), ids);
            // Another kyoku's ids do not fit.
            assert!(!WallIds::seeded_for(players, seed, kyoku + 1, honba).fits(&wall));
            // Each id once (three-player indicators 4-5 are live tiles).
            let mut all: Vec<TileId> = ids.haipai[..players.count()].concat();
            all.extend(&ids.live);
            all.extend(&ids.rinshan);
            let own = if players == Players::Three { 3 } else { 5 };
            all.extend(&ids.dora_markers[..own]);
            all.extend(&ids.ura_markers[..own]);
            all.sort_unstable();
            assert_eq!(all, set_ids(players));
        }
    }
}

#[test]
fn a_wall_given_as_tiles_numbers_each_tiles_copies_in_order() {
    let wall = Wall::seeded_for(Players::Four, [3, 4], 0, 0);
    let ids = WallIds::of_wall(&wall);
    assert!(ids.fits(&wall));
    let mut all: Vec<TileId> = ids.haipai.concat();
    all.extend(ids.live.iter().chain(&ids.rinshan).chain(&ids.dora_markers).chain(&ids.ura_markers));
    all.sort_unstable();
    assert_eq!(all, set_ids(Players::Four));
    // Not a seeded wall of these arguments: numbered by order.
    let in_set_order = Wall::from_tiles(&full_set_for(Players::Four)).unwrap();
    let ids = WallIds::for_wall(&in_set_order, [3, 4], 0, 0);
    assert_eq!(ids, WallIds::of_wall(&in_set_order));
    assert_eq!(ids.haipai[0], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    // 5mr, then the plain fives: 16, 17, 18, 19.
    assert_eq!(ids.haipai[1][..6], [13, 14, 15, 16, 17, 18]);
}

#[test]
fn a_tedashi_of_a_tile_also_drawn_takes_the_older_copy() {
    let mut ids = WallIds::of_wall(&Wall::seeded_for(Players::Four, [1, 1], 0, 0));
    ids.haipai[0] = [0, 1, 36, 40, 44, 72, 76, 80, 108, 112, 116, 120, 124];
    ids.live[0] = 2; // another 1m
    let mut t = TileIds::deal(ids);
    let m1: Tile = "1m".parse().unwrap();
    t.apply(&Event::Tsumo { actor: 0, pai: m1 });
    assert_eq!(t.hand(0).last(), Some(&2), "the drawn tile last");
    t.apply(&Event::Dahai { actor: 0, pai: m1, tsumogiri: false });
    assert_eq!(t.discards(0), [0]);
    assert!(t.hand(0).contains(&2));
    assert_eq!(t.drawn(0), None);
}
