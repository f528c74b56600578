//! Hand-made three-player cases: kita (robbed, as dora, rinshan per preset, `nukidora`),
//! tsumo-son with honba, no chi, the dora wrap, the start, the seeded walls.

use super::*;

/// Seat 0 deals; seat 1 waits on N alone with 123456789p 234s (ittsu, 2 han).
fn robbed_kita_wall() -> Wall {
    Wall::arranged_3p(
        [tiles("123p456p789p11s9s4z"), tiles("123456789p234s4z"), tiles("1m1m1m9m9m9m2p2p3s3s5s5s6z")],
        tiles("5p"),
        vec![],
        tiles("1z"),
        vec![],
    )
    .unwrap()
}

#[test]
fn a_robbed_kita_is_a_ron_without_chankan_and_a_bust_ends_the_game() {
    // Seat 1: ron on the North, closed ittsu 2 han, 40 fu (20 + 10 closed ron + 2 tanki,
    // rounded up): 40 * 2^4 = 640 base, 4 * 640 = 2560 -> 2600. With a chankan han it
    // would be 3 han 40 fu, 5200. Seat 0 (2000 points) goes to -600: the game ends.
    let start = StartState { scores: [2000, 51500, 51500, 0], ..StartState::initial(Players::Three) };
    let mut g = game(Rules::riichi_dev_3p(), robbed_kita_wall(), start);
    act(&mut g, 0, is_kita);
    assert_eq!(g.log().last(), Some(&Event::Kita { actor: 0, pai: tiles("4z")[0] }));
    assert_eq!(g.pending().iter().map(|d| d.seat).collect::<Vec<_>>(), [1], "only the N-waiter is asked");
    act(&mut g, 1, is_hora);
    assert_eq!(last_deltas(&g), [-2600, 2600, 0, 0]);
    assert!(g.is_over(), "a score below 0 ends the game");
    assert_eq!(g.scores(), [-600, 54100, 51500, 0]);
    let hora = g.log().iter().find(|e| is_hora(e)).unwrap();
    assert_eq!(
        hora.to_json_for(Players::Three),
        r#"{"type":"hora","actor":1,"target":0,"deltas":[-2600,2600,0],"ura_markers":[]}"#
    );
}

/// Seat 0 deals 123456789p 11s 56s, draws N, sets it aside and draws 7s from the dead wall.
fn kita_tsumo_wall(dora: &str, hand: &str) -> Wall {
    Wall::arranged_3p(
        [tiles(hand), tiles("1m1m1m9m9m9m2p2p3s3s8s8s6z"), tiles("1m9m1s1s2s2s8s8s9s9s5z6z6z")],
        tiles("4z"),
        tiles("7s"),
        tiles(dora),
        vec![],
    )
    .unwrap()
}

#[test]
fn kita_counts_as_dora_under_a_north_indicator() {
    // Dealer tsumo on the replacement 7s (tenhou-3p: no rinshan): menzen tsumo 1, pinfu 1,
    // ittsu 2, nukidora 1, and the kita again as dora (indicator W -> N) 1: 6 han,
    // haneman, 6000 from each of the two others.
    let mut g =
        game(Rules::tenhou_3p(), kita_tsumo_wall("3z", "123456789p11s56s"), StartState::initial(Players::Three));
    act(&mut g, 0, is_kita);
    assert!(matches!(g.log().last(), Some(Event::Tsumo { actor: 0, .. })), "the replacement draw, no dora");
    assert!(!g.log().iter().any(|e| matches!(e, Event::Dora { .. })), "kita shows no dora indicator");
    act(&mut g, 0, is_hora);
    assert_eq!(last_deltas(&g), [12000, -6000, -6000, 0]);
    // Under another indicator (E -> S): 5 han, mangan, 4000 each.
    let mut g =
        game(Rules::tenhou_3p(), kita_tsumo_wall("1z", "123456789p11s56s"), StartState::initial(Players::Three));
    act(&mut g, 0, is_kita);
    act(&mut g, 0, is_hora);
    assert_eq!(last_deltas(&g), [8000, -4000, -4000, 0]);
}

#[test]
fn a_win_on_the_kita_replacement_is_rinshan_under_riichi_dev_3p_only() {
    // 234p 567p 345s 11s 56s + 7s: menzen tsumo 1, pinfu 1, nukidora 1 = 3 han 20 fu,
    // base 20 * 2^5 = 640, dealer tsumo 2 * 640 = 1280 -> 1300 each (tenhou-3p: Tenhou
    // gives no rinshan kaihou for a kita). riichi-dev-3p adds rinshan kaihou (RiichiEnv):
    // 4 han 20 fu, base 1280, 2560 -> 2600 each.
    let hand = "234567p345s11s56s";
    let mut g = game(Rules::tenhou_3p(), kita_tsumo_wall("1z", hand), StartState::initial(Players::Three));
    act(&mut g, 0, is_kita);
    act(&mut g, 0, is_hora);
    assert_eq!(last_deltas(&g), [2600, -1300, -1300, 0]);
    let mut g = game(Rules::riichi_dev_3p(), kita_tsumo_wall("1z", hand), StartState::initial(Players::Three));
    act(&mut g, 0, is_kita);
    act(&mut g, 0, is_hora);
    assert_eq!(last_deltas(&g), [5200, -2600, -2600, 0]);
}

#[test]
fn tsumo_son_with_honba_and_a_riichi_stick() {
    // Seat 1 (non-dealer) tsumo on 2s, second draw: tanyao 1, pinfu 1, menzen tsumo 1,
    // dora 1 (indicator 1s -> 2s), aka 1 (5sr) = mangan: the dealer pays 4000, seat 2
    // pays 2000 (tsumo-son: nobody pays the missing seat's 2000), each +100 per honba (2),
    // and the winner takes the stick: +6400 + 1000.
    let wall = Wall::arranged_3p(
        [tiles("1m1m9m9m1p1p9p9p1z1z2z2z3z"), tiles("234678p3405s678s"), tiles("1m1m9m9m1s1s9s9s2z3z5z5z6z")],
        tiles("7z7z7z7z2s"),
        vec![],
        tiles("1s"),
        vec![],
    )
    .unwrap();
    let start =
        StartState { honba: 2, kyotaku: 1, scores: [35000, 35000, 34000, 0], ..StartState::initial(Players::Three) };
    let mut g = game(Rules::riichi_dev_3p(), wall, start);
    auto(&mut g, 3); // the dealer's, seat 1's and seat 2's discards of C (North, 4z: the 7z)
    assert!(matches!(g.log().last(), Some(Event::Tsumo { actor: 0, .. })));
    auto(&mut g, 1); // the dealer's C
    act(&mut g, 1, is_hora);
    assert_eq!(last_deltas(&g), [-4200, 7400, -2200, 0]);
    assert_eq!(g.scores()[..3].iter().sum::<i32>(), 105000);
}

fn wall_for_chi() -> Wall {
    Wall::arranged_3p(
        [tiles("4p1m1m9m9m1s1s9s9s1z2z3z5z"), tiles("23p1m9m1s9s5s6s7s1z2z3z6z"), tiles("5p5p6p6p7p8p8p2s2s3s3s7z7z")],
        tiles("7z"),
        vec![],
        tiles("1z"),
        vec![],
    )
    .unwrap()
}

#[test]
fn no_chi_is_offered_at_three_seats() {
    // Seat 1 holds 2p3p; the dealer discards 4p: four-player would offer seat 1 a chi.
    let wall = Wall::arranged_3p(
        [tiles("4p1m1m9m9m1s1s9s9s1z2z3z5z"), tiles("23p1m9m1s9s5s6s7s1z2z3z6z"), tiles("5p5p6p6p7p8p8p2s2s3s3s7z7z")],
        tiles("7z"),
        vec![],
        tiles("1z"),
        vec![],
    )
    .unwrap();
    let mut g = game(Rules::riichi_dev_3p(), wall, StartState::initial(Players::Three));
    act(&mut g, 0, |e| matches!(e, Event::Dahai { pai, .. } if pai.as_mjai() == "4p"));
    // Nobody was asked about the 4p: seat 1 drew at once.
    let n = g.log().len();
    assert!(matches!(g.log()[n - 2], Event::Dahai { actor: 0, .. }), "{:?}", &g.log()[n - 2..]);
    assert!(matches!(g.log()[n - 1], Event::Tsumo { actor: 1, .. }), "{:?}", &g.log()[n - 2..]);
    // A chi answer is refused with the reason.
    let mut g = game(Rules::riichi_dev_3p(), wall_for_chi(), StartState::initial(Players::Three));
    act(&mut g, 0, |e| matches!(e, Event::Dahai { pai, .. } if pai.as_mjai() == "4p"));
    let e = g.validate(1, r#"{"type":"chi","actor":1,"target":0,"pai":"4p","consumed":["2p","3p"]}"#).unwrap_err();
    assert!(e.0.contains("not legal"), "{e}");
}

#[test]
fn a_three_player_game_starts_at_35000_and_asks_three_seats() {
    let g = Game::with_rules(config(StartState::initial(Players::Three)), Vec::new(), Rules::tenhou_3p());
    match &g.log()[1] {
        Event::StartKyoku { scores, tehais, oya, .. } => {
            assert_eq!(*scores, [35000, 35000, 35000, 0]);
            assert_eq!(*oya, 0);
            assert_eq!(tehais[3], [Tile::UNKNOWN; 13]);
            assert!(tehais[..3].iter().flatten().all(|t| !(1..=7).contains(&t.kind())), "no 2m-8m dealt");
        }
        e => panic!("{e:?}"),
    }
    assert!(g.log()[1].to_json_for(Players::Three).contains(r#""scores":[35000,35000,35000]"#));
}

#[test]
fn seeded_three_player_walls_are_the_108_tile_set() {
    for (kyoku, honba) in [(0, 0), (5, 2), (9, 1)] {
        let w = Wall::seeded_for(Players::Three, [3, 4], kyoku, honba);
        w.check().unwrap();
        assert_eq!(w.tiles().len(), 108);
        assert_eq!(Wall::from_tiles_3p(&w.tiles()).unwrap(), w, "tiles() and from_tiles_3p round-trip");
        assert!(w.tiles().iter().all(|t| !(1..=7).contains(&t.kind())));
        assert_eq!(w.tiles().iter().filter(|t| t.is_red()).count(), 2, "5pr and 5sr only");
    }
}

#[test]
fn sanma_dora_wraps_1m_to_9m_and_9m_to_1m() {
    use crate::hand::{evaluate_with, Extra, Riichi, WinContext};
    // Riichi ron on 1m (tanki) with 1m 999m 123456789p: riichi 1 + ittsu 2 = 3 han.
    let han = |indicator: &str, sanma: bool| {
        let ctx = WinContext {
            tehai: tiles("1m9m9m9m123456789p"),
            win_tile: tiles("1m")[0],
            melds: vec![],
            tsumo: false,
            riichi: Riichi::Riichi,
            ippatsu: false,
            last_tile: false,
            rinshan: false,
            chankan: false,
            first_draw: false,
            bakaze: 27,
            jikaze: 28,
            dora_markers: tiles(indicator),
            ura_markers: vec![],
        };
        evaluate_with(&ctx, &Extra { sanma, kita: 0 }).unwrap().han
    };
    assert_eq!(han("1m", true), 6, "sanma: 1m indicates 9m, three held");
    assert_eq!(han("1m", false), 3, "four-player: 1m indicates 2m");
    assert_eq!(han("9m", true), 5, "9m indicates 1m, two held");
    assert_eq!(han("9m", false), 5);
}

#[test]
fn nukidora_answers_are_read_as_kita() {
    let mut g =
        game(Rules::tenhou_3p(), kita_tsumo_wall("1z", "123456789p11s56s"), StartState::initial(Players::Three));
    let kita = g.validate(0, r#"{"type":"nukidora","actor":0,"pai":"N"}"#).unwrap();
    assert_eq!(kita, Event::Kita { actor: 0, pai: tiles("4z")[0] });
    g.apply(&[(0, kita)]).unwrap();
    assert_eq!(g.log()[g.log().len() - 2].to_json(), r#"{"type":"kita","actor":0,"pai":"N"}"#);
}
