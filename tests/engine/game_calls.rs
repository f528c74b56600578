//! Scenario tests on arranged walls: claim priority, chi shapes and seats, kuikae, kan
//! dora timing, chankan.

use crate::game_support::*;
use mjai_sim::engine::event::Event;

const CALL_HANDS: [&str; 4] = ["123456789m1123p", "147m12589p4567s1z", "147m258p339s2345z", "258m369p1478s167z"];

fn call_game() -> mjai_sim::engine::game::Game {
    let mut g = game(CALL_HANDS, "3s", "4z");
    act(&mut g, 0, r#"{"type":"dahai","actor":0,"pai":"3s","tsumogiri":true}"#);
    g
}

#[test]
fn pon_beats_chi_and_chi_is_checked() {
    let mut g = call_game();
    assert_eq!(pending_seats(&g), vec![1, 2]);
    let chi = Event::Chi { actor: 1, target: 0, pai: t("3s"), consumed: [t("4s"), t("5s")] };
    assert_eq!(g.pending()[0].legal, vec![chi, Event::None]);
    let e = g.validate(2, r#"{"type":"chi","actor":2,"target":0,"pai":"3s","consumed":["4s","5s"]}"#).unwrap_err().0;
    assert!(e.contains("chi only from the left seat"), "{e}");
    let e = g.validate(1, r#"{"type":"chi","actor":1,"target":0,"pai":"3s","consumed":["4s","7s"]}"#).unwrap_err().0;
    assert!(e.contains("is not a sequence"), "{e}");
    let e = g.validate(1, r#"{"type":"chi","actor":1,"target":0,"pai":"3s","consumed":["1s","2s"]}"#).unwrap_err().0;
    assert!(e.contains("consumed 1s is not in your hand"), "{e}");
    act_many(
        &mut g,
        &[
            (1, r#"{"type":"chi","actor":1,"target":0,"pai":"3s","consumed":["5s","4s"]}"#),
            (2, r#"{"type":"pon","actor":2,"target":0,"pai":"3s","consumed":["3s","3s"]}"#),
        ],
    );
    assert_eq!(tail(&g, 1), [r#"{"type":"pon","actor":2,"target":0,"pai":"3s","consumed":["3s","3s"]}"#]);
    assert_eq!(pending_seats(&g), vec![2]);
    assert!(g.pending()[0].legal.iter().all(|e| matches!(e, Event::Dahai { tsumogiri: false, .. })));
}

#[test]
fn kuikae_is_refused_after_chi() {
    let mut g = call_game();
    act(&mut g, 1, r#"{"type":"chi","actor":1,"target":0,"pai":"3s","consumed":["4s","5s"]}"#);
    // 3s-4s-5s called on its low end: neither 3s nor 6s may go now (Tenhou).
    let e = g.validate(1, r#"{"type":"dahai","actor":1,"pai":"6s","tsumogiri":false}"#).unwrap_err().0;
    assert!(e.contains("kuikae"), "{e}");
    let legal = &g.pending()[0].legal;
    assert!(!legal.iter().any(|e| matches!(e, Event::Dahai { pai, .. } if pai.kind() == t("6s").kind())));
    act(&mut g, 1, r#"{"type":"dahai","actor":1,"pai":"7s","tsumogiri":false}"#);
}

/// Tenhou and Mortal's arena: a daiminkan's dora is shown when its maker discards, so the
/// seat deciding on the rinshan tsumo sees the `tsumo` last (libriichi-based bots, such as
/// mjai.app's `mjai.Bot`, read their options from the last event).
#[test]
fn daiminkan_dora_comes_with_the_discard_after_the_rinshan_tsumo() {
    let hands = ["123456789m1123p", "147m12589p4567s1z", "147m258p3339s245z", "258m369p1478s167z"];
    let w = mjai_sim::engine::game::Wall::arranged(hands.map(tiles), tiles("3s"), tiles("9m"), tiles("4z1z"), vec![])
        .unwrap();
    let mut g = game_at(Default::default(), vec![w]);
    act(&mut g, 0, r#"{"type":"dahai","actor":0,"pai":"3s","tsumogiri":true}"#);
    act(&mut g, 2, r#"{"type":"daiminkan","actor":2,"target":0,"pai":"3s","consumed":["3s","3s","3s"]}"#);
    assert_eq!(
        tail(&g, 2),
        [
            r#"{"type":"daiminkan","actor":2,"target":0,"pai":"3s","consumed":["3s","3s","3s"]}"#,
            r#"{"type":"tsumo","actor":2,"pai":"9m"}"#,
        ]
    );
    assert_eq!(pending_seats(&g), vec![2]);
    let from = g.log().len() - 1;
    act(&mut g, 2, r#"{"type":"dahai","actor":2,"pai":"9m","tsumogiri":true}"#);
    assert_eq!(
        since(&g, from)[..3],
        [
            r#"{"type":"tsumo","actor":2,"pai":"9m"}"#,
            r#"{"type":"dora","dora_marker":"E"}"#,
            r#"{"type":"dahai","actor":2,"pai":"9m","tsumogiri":true}"#,
        ]
    );
}

/// Rinshan kaihou on a daiminkan: the kan's dora was never shown, so it does not count
/// (the second indicator, 2s, would make the four 3s dora).
#[test]
fn rinshan_kaihou_after_daiminkan_does_not_count_the_unshown_kan_dora() {
    let hands = ["123456789m1123p", "147m12589p4567s1z", "123456m789p333s1z", "258m369p1478s167z"];
    let w = mjai_sim::engine::game::Wall::arranged(hands.map(tiles), tiles("3s"), tiles("1z"), tiles("4z2s"), vec![])
        .unwrap();
    let mut g = game_at(Default::default(), vec![w]);
    act(&mut g, 0, r#"{"type":"dahai","actor":0,"pai":"3s","tsumogiri":true}"#);
    act(&mut g, 2, r#"{"type":"daiminkan","actor":2,"target":0,"pai":"3s","consumed":["3s","3s","3s"]}"#);
    act(&mut g, 2, r#"{"type":"hora","actor":2,"target":2,"pai":"E"}"#);
    assert!(!g.log().iter().any(|e| matches!(e, Event::Dora { .. })), "no kan dora was shown: {:?}", tail(&g, 4));
    // Rinshan kaihou 1 + dora 2 (indicator N, pair of E) = 3 han; 20 + open kan of 3s 8 +
    // tsumo 2 + tanki 2 + round-wind pair 2 = 34 -> 40 fu: 1300/2600.
    assert_eq!(last_deltas(&g), [-2600, -1300, 5200, -1300]);
}

#[test]
fn ankan_dora_comes_before_the_rinshan_tsumo() {
    let hands = ["111m456789m1123p", "258m12589p4567s1z", "369m258p339s2345z", "258m369p1478s167z"];
    let w = mjai_sim::engine::game::Wall::arranged(hands.map(tiles), tiles("1m"), tiles("7z"), tiles("4z1z"), vec![])
        .unwrap();
    let mut g = game_at(Default::default(), vec![w]);
    act(&mut g, 0, r#"{"type":"ankan","actor":0,"consumed":["1m","1m","1m","1m"]}"#);
    assert_eq!(
        tail(&g, 3),
        [
            r#"{"type":"ankan","actor":0,"consumed":["1m","1m","1m","1m"]}"#,
            r#"{"type":"dora","dora_marker":"E"}"#,
            r#"{"type":"tsumo","actor":0,"pai":"C"}"#,
        ]
    );
}

#[test]
fn chankan_robs_a_kakan() {
    let hands = ["2468m2468s35667z", "1357m99p1357s267z", "3579m1236p34455z", "123m45678p789s11z"];
    let mut g = game(hands, "9p4z9s1s9p", "4z");
    act(&mut g, 0, r#"{"type":"dahai","actor":0,"pai":"9p","tsumogiri":true}"#);
    // Seat 3 waits on 6p-9p but has no yaku for a plain ron: only seat 1 (pon) is asked.
    assert_eq!(pending_seats(&g), vec![1]);
    act(&mut g, 1, r#"{"type":"pon","actor":1,"target":0,"pai":"9p","consumed":["9p","9p"]}"#);
    act(&mut g, 1, r#"{"type":"dahai","actor":1,"pai":"S","tsumogiri":false}"#);
    act(&mut g, 2, r#"{"type":"dahai","actor":2,"pai":"N","tsumogiri":true}"#);
    act(&mut g, 3, r#"{"type":"dahai","actor":3,"pai":"9s","tsumogiri":true}"#);
    act(&mut g, 0, r#"{"type":"dahai","actor":0,"pai":"1s","tsumogiri":true}"#);
    act(&mut g, 1, r#"{"type":"kakan","actor":1,"pai":"9p","consumed":["9p","9p","9p"]}"#);
    // Chankan is a yaku: now seat 3 may win on the added 9p.
    assert_eq!(pending_seats(&g), vec![3]);
    act(&mut g, 3, r#"{"type":"hora","actor":3,"target":1,"pai":"9p"}"#);
    // Chankan 1 + dora 2 (indicator N, pair of E) = 3 han; 40 fu (closed ron 30 + East
    // pair 2, rounded up): 5200.
    let hora = g.log().iter().rev().find(|e| matches!(e, Event::Hora { .. })).unwrap().to_json();
    assert_eq!(hora, r#"{"type":"hora","actor":3,"target":1,"deltas":[0,-5200,0,5200],"ura_markers":[]}"#);
}

/// A kan while a daiminkan's dora still waits: Tenhou's mjlog writes the ankan, then the
/// waiting dora and the ankan's own, then the rinshan tsumo (kobalab/tenhou-log issue #11;
/// RiichiEnv the same); Mortal's arena, so `mjai-app`, shows the waiting dora before the
/// ankan. The discard that follows has no dora left to show.
#[test]
fn ankan_after_daiminkan_shows_the_waiting_dora_after_it_under_tenhou_before_it_under_mjai_app() {
    let hands = ["23456789m11223p", "47m12589p4567s11z", "1111m333s456p789p", "258m369p1478s167z"];
    let ankan = r#"{"type":"ankan","actor":2,"consumed":["1m","1m","1m","1m"]}"#;
    let (s, w) = (r#"{"type":"dora","dora_marker":"S"}"#, r#"{"type":"dora","dora_marker":"W"}"#);
    let tsumo = r#"{"type":"tsumo","actor":2,"pai":"9m"}"#;
    for (rules, want) in [
        (mjai_sim::engine::game::Rules::tenhou(), [ankan, s, w, tsumo]),
        (mjai_sim::engine::game::Rules::mjai_app(), [s, ankan, w, tsumo]),
    ] {
        let wall = mjai_sim::engine::game::Wall::arranged(
            hands.map(tiles),
            tiles("3s"),
            tiles("7z9m"),
            tiles("4z2z3z"),
            vec![],
        )
        .unwrap();
        let mut g = game_with_rules(Default::default(), vec![wall], rules);
        act(&mut g, 0, r#"{"type":"dahai","actor":0,"pai":"3s","tsumogiri":true}"#);
        act(&mut g, 2, r#"{"type":"daiminkan","actor":2,"target":0,"pai":"3s","consumed":["3s","3s","3s"]}"#);
        assert_eq!(tail(&g, 1), [r#"{"type":"tsumo","actor":2,"pai":"C"}"#]);
        let from = g.log().len();
        act(&mut g, 2, r#"{"type":"ankan","actor":2,"consumed":["1m","1m","1m","1m"]}"#);
        assert_eq!(since(&g, from), want);
        let from = g.log().len();
        act(&mut g, 2, r#"{"type":"dahai","actor":2,"pai":"9m","tsumogiri":true}"#);
        assert_eq!(since(&g, from)[0], r#"{"type":"dahai","actor":2,"pai":"9m","tsumogiri":true}"#);
    }
}
