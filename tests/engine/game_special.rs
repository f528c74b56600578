//! Scenario tests on arranged walls: pao for daisangen, ankan after riichi, kokushi
//! robbing an ankan (only under `Rules::kokushi_robs_ankan`; Tenhou allows no such ron).

use crate::game_support::*;
use mjai_sim::engine::event::Event;
use mjai_sim::engine::game::Rules;

const PAO_HANDS: [&str; 4] = ["2468m2468p2468s1z", "1234m19p9s556677z", "3579m3579p3579s2z", "1m13s1122333444z"];

/// Seat 1 pons P from seat 0, then F and C from seat 2 (the pao seat).
const PAO_CALLS: [(u8, &str); 9] = [
    (0, r#"{"type":"dahai","actor":0,"pai":"P","tsumogiri":true}"#),
    (1, r#"{"type":"pon","actor":1,"target":0,"pai":"P","consumed":["P","P"]}"#),
    (1, r#"{"type":"dahai","actor":1,"pai":"9p","tsumogiri":false}"#),
    (2, r#"{"type":"dahai","actor":2,"pai":"F","tsumogiri":true}"#),
    (1, r#"{"type":"pon","actor":1,"target":2,"pai":"F","consumed":["F","F"]}"#),
    (1, r#"{"type":"dahai","actor":1,"pai":"1p","tsumogiri":false}"#),
    (2, r#"{"type":"dahai","actor":2,"pai":"C","tsumogiri":true}"#),
    (1, r#"{"type":"pon","actor":1,"target":2,"pai":"C","consumed":["C","C"]}"#),
    (1, r#"{"type":"dahai","actor":1,"pai":"9s","tsumogiri":false}"#),
];

fn pao_game(live: &str) -> mjai_sim::engine::game::Game {
    let mut g = game(PAO_HANDS, live, "9m");
    for (seat, line) in PAO_CALLS {
        act(&mut g, seat, line);
    }
    g
}

#[test]
fn pao_seat_pays_a_daisangen_tsumo_alone() {
    let mut g = pao_game("5z6z7z8m8p8s4m");
    act(&mut g, 2, r#"{"type":"dahai","actor":2,"pai":"8m","tsumogiri":true}"#);
    act(&mut g, 3, r#"{"type":"dahai","actor":3,"pai":"8p","tsumogiri":true}"#);
    act(&mut g, 0, r#"{"type":"dahai","actor":0,"pai":"8s","tsumogiri":true}"#);
    act(&mut g, 1, r#"{"type":"hora","actor":1,"target":1,"pai":"4m"}"#);
    assert_eq!(last_deltas(&g), [0, 32000, -32000, 0]);
}

#[test]
fn pao_seat_and_discarder_split_a_daisangen_ron() {
    let mut g = pao_game("5z6z7z8m4m");
    act(&mut g, 2, r#"{"type":"dahai","actor":2,"pai":"8m","tsumogiri":true}"#);
    act(&mut g, 3, r#"{"type":"dahai","actor":3,"pai":"4m","tsumogiri":true}"#);
    act(&mut g, 1, r#"{"type":"hora","actor":1,"target":3}"#);
    assert_eq!(last_deltas(&g), [0, 32000, -16000, -16000]);
}

/// Tenhou: 「ロン＝折半で支払う。積み棒は包。」 The pao seat pays half the ron and all the honba.
#[test]
fn pao_seat_pays_the_honba_of_a_split_ron() {
    let start = mjai_sim::engine::game::StartState { honba: 2, ..Default::default() };
    let mut g = game_at(start, vec![wall(PAO_HANDS, "5z6z7z8m4m", "", "9m", "")]);
    for (seat, line) in PAO_CALLS {
        act(&mut g, seat, line);
    }
    act(&mut g, 2, r#"{"type":"dahai","actor":2,"pai":"8m","tsumogiri":true}"#);
    act(&mut g, 3, r#"{"type":"dahai","actor":3,"pai":"4m","tsumogiri":true}"#);
    act(&mut g, 1, r#"{"type":"hora","actor":1,"target":3}"#);
    assert_eq!(last_deltas(&g), [0, 32600, -16600, -16000]);
}

const OTHERS: [&str; 3] = ["258m12589p4567s1z", "369m258p339s2345z", "258m369p1478s167z"];

/// The dealer declares riichi on its first turn, everybody else discards F, the dealer
/// draws 1m.
fn riichi_then_1m(dealer: &str) -> mjai_sim::engine::game::Game {
    let mut g = game([dealer, OTHERS[0], OTHERS[1], OTHERS[2]], "7z6z6z6z1m", "4z");
    act(&mut g, 0, r#"{"type":"reach","actor":0}"#);
    act(&mut g, 0, r#"{"type":"dahai","actor":0,"pai":"C","tsumogiri":true}"#);
    for seat in 1..4u8 {
        act(&mut g, seat, &format!(r#"{{"type":"dahai","actor":{seat},"pai":"F","tsumogiri":true}}"#));
    }
    g
}

#[test]
fn ankan_after_riichi_only_when_the_waits_stay() {
    let ankan = Event::Ankan { actor: 0, consumed: [t("1m"); 4] };
    // 111m 456m 789m 11p 23p waits on 1p-4p with or without the 1m kan.
    let g = riichi_then_1m("111m456789m1123p");
    assert!(g.pending()[0].legal.contains(&ankan), "{:?}", g.pending()[0].legal);
    // 11123m 456p 789s 99s waits on 1m 4m 9s; the kan would drop 9s.
    let g = riichi_then_1m("11123m456p789s99s");
    let legal = &g.pending()[0].legal;
    assert!(!legal.contains(&ankan), "{legal:?}");
    assert!(legal.iter().any(|e| matches!(e, Event::Hora { .. })), "1m also wins: {legal:?}");
}

const KOKUSHI_HANDS: [&str; 4] = ["111z2345m2345p23s", "19m19p19s2345677z", "345678m345678p4s", "288m288p3456789s"];

#[test]
fn nobody_may_rob_an_ankan_under_tenhou_not_even_kokushi() {
    let mut g = game(KOKUSHI_HANDS, "1z", "9p");
    act(&mut g, 0, r#"{"type":"ankan","actor":0,"consumed":["E","E","E","E"]}"#);
    // Seat 1 is kokushi tenpai on East but is not asked: the rinshan tsumo follows.
    assert_eq!(pending_seats(&g), vec![0]);
}

#[test]
fn only_kokushi_may_rob_an_ankan_when_the_switch_is_on() {
    let rules = Rules { kokushi_robs_ankan: true, ..Rules::tenhou() };
    let mut g = game_with_rules(Default::default(), vec![wall(KOKUSHI_HANDS, "1z", "", "9p", "")], rules);
    act(&mut g, 0, r#"{"type":"ankan","actor":0,"consumed":["E","E","E","E"]}"#);
    assert_eq!(pending_seats(&g), vec![1]);
    act(&mut g, 1, r#"{"type":"hora","actor":1,"target":0,"pai":"E"}"#);
    assert_eq!(last_deltas(&g), [-32000, 32000, 0, 0]);
}

#[test]
fn apply_legal_takes_positions_in_the_legal_list_and_refuses_bad_ones() {
    let mut g = game(PAO_HANDS, "5z6z7z8m4m", "9m");
    assert_eq!(pending_seats(&g), vec![0]);
    let err = |r: Result<(), mjai_sim::engine::game::Illegal>| r.expect_err("must be refused").0;
    let n = g.pending()[0].legal.len();
    assert!(err(g.apply_legal(&[(0, n)])).contains("does not exist"));
    assert!(err(g.apply_legal(&[(1, 0)])).contains("was not asked"));
    assert!(err(g.apply_legal(&[])).contains("gave no answer"));
    assert!(err(g.apply_legal(&[(0, 0), (0, 1)])).contains("more than one answer"));
    // Nothing was applied by the refused calls: the chosen discard is the next event.
    let before = g.log().len();
    let tsumogiri = Event::Dahai { actor: 0, pai: t("P"), tsumogiri: true };
    let j = g.pending()[0].legal.iter().position(|e| *e == tsumogiri).expect("tsumogiri of P is legal");
    g.apply_legal(&[(0, j)]).unwrap();
    assert_eq!(g.log()[before], tsumogiri);
}
