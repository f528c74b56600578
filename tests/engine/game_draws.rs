//! Scenario tests on arranged walls: abortive draws, double ron, nagashi mangan, tenpai
//! payments, chombo, the West extension, and whole seeded games.

use crate::game_support::*;
use mjai_sim::engine::event::Event;
use mjai_sim::engine::game::wall::{full_set, kyoku_count};
use mjai_sim::engine::game::{Game, GameConfig, StartState, Wall};
use mjai_sim::engine::tile::Tile;

#[test]
fn kyuushu_kyuuhai_is_the_dealers_choice() {
    let hands = ["19m19p19s123z2345m", "2345p2345s678m67z", "678p678s1234m445z", "1234p234s789m666z"];
    let mut g = game(hands, "7z", "3p");
    let legal = &g.pending()[0].legal;
    assert!(legal.contains(&Event::Ryukyoku { actor: Some(0), deltas: None, reason: None }), "{legal:?}");
    act(&mut g, 0, r#"{"type":"ryukyoku"}"#);
    assert_eq!(
        tail(&g, 4)[..2],
        [r#"{"type":"ryukyoku","deltas":[0,0,0,0],"reason":"kyuushu_kyuuhai"}"#, r#"{"type":"end_kyoku"}"#]
    );
    assert_eq!(last_start(&g), ("E".into(), 1, 1, 0, 0, [25000; 4]));
}

#[test]
fn four_winds_abort() {
    let hands = ["123456789m1123p", "147m258p369s1234z", "147m258p1369s567z", "258m369p147s1234z"];
    let mut g = game(hands, "1z6p1z6p", "4z");
    act(&mut g, 0, r#"{"type":"dahai","actor":0,"pai":"E","tsumogiri":true}"#);
    act(&mut g, 1, r#"{"type":"dahai","actor":1,"pai":"E","tsumogiri":false}"#);
    act(&mut g, 2, r#"{"type":"dahai","actor":2,"pai":"E","tsumogiri":true}"#);
    act(&mut g, 3, r#"{"type":"dahai","actor":3,"pai":"E","tsumogiri":false}"#);
    assert_eq!(
        tail(&g, 4)[..2],
        [r#"{"type":"ryukyoku","deltas":[0,0,0,0],"reason":"four_winds"}"#, r#"{"type":"end_kyoku"}"#]
    );
    assert_eq!(last_start(&g), ("E".into(), 1, 1, 0, 0, [25000; 4]));
}

#[test]
fn four_riichi_abort_keeps_the_sticks() {
    let hands = ["123456789m1123p", "123456789p1123s", "123456789s1123m", "1112223334455z"];
    let mut g = game(hands, "7z7z7z7z", "6z");
    for seat in 0..4u8 {
        act(&mut g, seat, &format!(r#"{{"type":"reach","actor":{seat}}}"#));
        act(&mut g, seat, &format!(r#"{{"type":"dahai","actor":{seat},"pai":"C","tsumogiri":true}}"#));
    }
    assert_eq!(
        tail(&g, 5)[..3],
        [
            r#"{"type":"reach_accepted","actor":3}"#,
            r#"{"type":"ryukyoku","deltas":[0,0,0,0],"reason":"four_riichi"}"#,
            r#"{"type":"end_kyoku"}"#
        ]
    );
    assert_eq!(last_start(&g), ("E".into(), 1, 1, 4, 0, [24000; 4]));
}

const TANKI_C: [&str; 4] = ["5m5p11223344556z", "123456789m123p7z", "123456789p123s7z", "123456789s123m7z"];

#[test]
fn triple_ron_aborts() {
    let mut g = game(TANKI_C, "7z", "4z");
    act(&mut g, 0, r#"{"type":"dahai","actor":0,"pai":"C","tsumogiri":true}"#);
    assert_eq!(pending_seats(&g), vec![1, 2, 3]);
    act_many(
        &mut g,
        &[
            (1, r#"{"type":"hora","actor":1,"target":0}"#),
            (2, r#"{"type":"hora","actor":2,"target":0}"#),
            (3, r#"{"type":"hora","actor":3,"target":0}"#),
        ],
    );
    assert!(!g.log().iter().any(|e| matches!(e, Event::Hora { .. })));
    assert_eq!(last_start(&g), ("E".into(), 1, 1, 0, 0, [25000; 4]));
}

#[test]
fn double_ron_gives_honba_and_sticks_to_the_first_after_the_discarder() {
    let start = StartState { honba: 2, kyotaku: 1, scores: [25000, 25000, 25000, 24000], ..Default::default() };
    let mut g = game_at(start, vec![wall(TANKI_C, "7z", "", "4z", "")]);
    act(&mut g, 0, r#"{"type":"dahai","actor":0,"pai":"C","tsumogiri":true}"#);
    act_many(
        &mut g,
        &[(3, r#"{"type":"hora","actor":3,"target":0}"#), (1, r#"{"type":"hora","actor":1,"target":0,"pai":"C"}"#)],
    );
    // Each: ittsu 2 han, 40 fu (closed ron 30 + tanki 2 + dragon pair 2): 2600.
    let horas: Vec<String> = g.log().iter().filter(|e| matches!(e, Event::Hora { .. })).map(Event::to_json).collect();
    assert_eq!(
        horas,
        [
            r#"{"type":"hora","actor":1,"target":0,"deltas":[-3200,4200,0,0],"ura_markers":[]}"#,
            r#"{"type":"hora","actor":3,"target":0,"deltas":[-2600,0,0,2600],"ura_markers":[]}"#,
        ]
    );
    assert_eq!(last_start(&g), ("E".into(), 2, 0, 0, 1, [19200, 29200, 25000, 26600]));
}

#[test]
fn nagashi_mangan_replaces_tenpai_payments() {
    let hands = ["2345678m234567p", "2345678p234567s", "2345678s234567m", "2345678m234567p"];
    let dealer_draws = tiles("19m19p19s1234567z19m19p1s");
    let mut left = full_set();
    for t in hands.iter().flat_map(|h| tiles(h)).chain(dealer_draws.iter().copied()) {
        left.remove(left.iter().position(|&x| x == t).unwrap());
    }
    left.sort_by_key(|t| t.is_yaochuu());
    let mut others = left.into_iter();
    let live: Vec<Tile> =
        (0..70).map(|i| if i % 4 == 0 { dealer_draws[i / 4] } else { others.next().unwrap() }).collect();
    let w = Wall::arranged(hands.map(tiles), live, vec![], vec![], vec![]).unwrap();
    let mut g = game_at(Default::default(), vec![w]);
    autoplay_kyoku(&mut g);
    assert_eq!(last_deltas(&g), [12000, -4000, -4000, -4000]);
    // The dealer is tenpai (8m tanki): the deal stays, honba +1.
    assert_eq!(last_start(&g), ("E".into(), 1, 1, 0, 0, [37000, 21000, 21000, 21000]));
}

#[test]
fn exhaustive_draw_pays_noten_and_passes_the_deal() {
    // Seat 1 is tenpai; tsumogiri all the way keeps every starting hand.
    let hands = ["147m258p369s1234z", "123456789m1123p", "147m258p1369s567z", "258m369p147s1234z"];
    let w = Wall::arranged(hands.map(tiles), tiles("6p6p"), vec![], tiles("4z"), vec![]).unwrap();
    let mut g = game_at(Default::default(), vec![w]);
    autoplay_kyoku(&mut g);
    assert_eq!(last_deltas(&g), [-1000, 3000, -1000, -1000]);
    assert_eq!(last_start(&g), ("E".into(), 2, 1, 0, 1, [24000, 28000, 24000, 24000]));
}

#[test]
fn chombo_pays_mangan_and_moves_the_deal_into_the_west_round() {
    let south4 = StartState {
        bakaze: "S".parse().unwrap(),
        kyoku: 4,
        honba: 3,
        kyotaku: 1,
        scores: [25000, 25000, 25000, 24000],
    };
    let mut g = game_at(south4, vec![]);
    g.chombo(&[0]);
    assert_eq!(tail(&g, 4)[0], r#"{"type":"ryukyoku","actor":0,"deltas":[-8000,2000,2000,4000],"reason":"error"}"#);
    // Nobody has 30000 after South 4: West 1, honba 0, the stick stays.
    assert_eq!(last_start(&g), ("W".into(), 1, 0, 1, 0, [17000, 27000, 27000, 28000]));
    g.chombo(&[0]);
    // Dealer chombo: 4000 to each; now someone has 30000 in the West: the game ends and
    // the stick goes to the first place.
    assert!(g.is_over());
    assert_eq!(tail(&g, 1), [r#"{"type":"end_game"}"#]);
    assert_eq!(g.scores(), [5000, 31000, 31000, 33000]);
}

fn seeded(seed: [u64; 2]) -> Game {
    Game::new(GameConfig { seed, names: ["a", "b", "c", "d"].map(String::from), start: StartState::default() })
}

#[test]
fn seeded_tsumogiri_games_end_and_replay() {
    for seed in [[1, 1], [2, 99], [2026, 7]] {
        let mut g = seeded(seed);
        let mut steps = 0;
        while !g.is_over() {
            autoplay_step(&mut g);
            steps += 1;
            assert!(steps < 100_000, "the game must end");
        }
        assert_eq!(g.scores().iter().sum::<i32>(), 100_000, "points are conserved");
        let log = g.log().to_vec();
        let starts: Vec<&Event> = log.iter().filter(|e| matches!(e, Event::StartKyoku { .. })).collect();
        for s in starts {
            let Event::StartKyoku { bakaze, kyoku, honba, tehais, .. } = s else { unreachable!() };
            let wall = Wall::seeded(seed, kyoku_count(*bakaze, *kyoku), *honba);
            assert_eq!(**tehais, wall.haipai, "{bakaze}{kyoku}-{honba} deals the seeded wall");
        }
        let r = mjai_sim::engine::game::replay::replay(&log).unwrap();
        assert_eq!(r.scores, g.scores());
        let mut again = seeded(seed);
        while !again.is_over() {
            autoplay_step(&mut again);
        }
        assert_eq!(again.log(), g.log(), "same seed, same answers, same log");
    }
}
