//! Scenario tests on arranged walls: riichi (double riichi, ippatsu, ura), the validator's
//! reasons at a turn, and the hanchan bookkeeping after a dealer win.

use crate::game_support::*;
use mjai_sim::engine::event::Event;

const HANDS: [&str; 4] = ["123456789m1123p", "147m258p369s1234z", "147m258p1369s567z", "258m369p147s1234z"];

fn riichi_game(live: &str) -> mjai_sim::engine::game::Game {
    game_at(Default::default(), vec![wall(HANDS, live, "", "4z", "4z")])
}

#[test]
fn double_riichi_ippatsu_ron_pays_haneman_and_the_stick() {
    let mut g = riichi_game("7z4p");
    assert_eq!(pending_seats(&g), vec![0]);
    let legal = &g.pending()[0].legal;
    assert!(legal.contains(&Event::Reach { actor: 0 }), "{legal:?}");
    let before = g.log().len();
    act(&mut g, 0, r#"{"type":"reach","actor":0}"#);
    act(&mut g, 0, r#"{"type":"dahai","actor":0,"pai":"C","tsumogiri":true}"#);
    // Seat 1 has nothing but the discard: it is not asked until its own turn.
    assert_eq!(pending_seats(&g), vec![1]);
    act(&mut g, 1, r#"{"type":"dahai","actor":1,"pai":"4p","tsumogiri":true}"#);
    assert_eq!(pending_seats(&g), vec![0]);
    act(&mut g, 0, r#"{"type":"hora","actor":0,"target":1}"#);
    assert_eq!(
        since(&g, before)[..7],
        [
            r#"{"type":"reach","actor":0}"#,
            r#"{"type":"dahai","actor":0,"pai":"C","tsumogiri":true}"#,
            r#"{"type":"reach_accepted","actor":0}"#,
            r#"{"type":"tsumo","actor":1,"pai":"4p"}"#,
            r#"{"type":"dahai","actor":1,"pai":"4p","tsumogiri":true}"#,
            // Double riichi 2 + ippatsu 1 + pinfu 1 + ittsu 2 = 6 han: dealer haneman
            // 18000, plus the riichi stick.
            r#"{"type":"hora","actor":0,"target":1,"deltas":[19000,-18000,0,0],"ura_markers":["N"]}"#,
            r#"{"type":"end_kyoku"}"#,
        ]
    );
    // Dealer win: renchan, honba 1, the stick was taken.
    assert_eq!(last_start(&g), ("E".into(), 1, 1, 0, 0, [43000, 7000, 25000, 25000]));
}

#[test]
fn riichi_discard_must_keep_tenpai_and_later_only_tsumogiri() {
    let mut g = riichi_game("7z6p6p6p2m");
    act(&mut g, 0, r#"{"type":"reach","actor":0}"#);
    let e = g.validate(0, r#"{"type":"dahai","actor":0,"pai":"1m","tsumogiri":false}"#).unwrap_err().0;
    assert!(e.contains("must leave the hand tenpai"), "{e}");
    act(&mut g, 0, r#"{"type":"dahai","actor":0,"pai":"C","tsumogiri":true}"#);
    assert_eq!(g.scores(), [24000, 25000, 25000, 25000]);
    for seat in 1..4 {
        act(&mut g, seat, &format!(r#"{{"type":"dahai","actor":{seat},"pai":"6p","tsumogiri":true}}"#));
    }
    assert_eq!(tail(&g, 1), [r#"{"type":"tsumo","actor":0,"pai":"2m"}"#]);
    let e = g.validate(0, r#"{"type":"dahai","actor":0,"pai":"1m","tsumogiri":false}"#).unwrap_err().0;
    assert!(e.contains("after riichi only the drawn tile"), "{e}");
    assert_eq!(g.pending()[0].legal, vec![Event::Dahai { actor: 0, pai: t("2m"), tsumogiri: true }]);
}

#[test]
fn validator_names_the_cause() {
    let g = riichi_game("7z4p");
    let err = |line: &str| g.validate(0, line).unwrap_err().0;
    assert!(err("{not json").starts_with("unparsable JSON"));
    assert!(err(r#"{"pai":"C"}"#).contains("no \"type\""));
    assert!(err(r#"{"type":"dahai","actor":0}"#).starts_with("malformed dahai"));
    assert!(err(r#"{"type":"dahai","actor":1,"pai":"C","tsumogiri":true}"#).contains("not your seat 0"));
    assert!(err(r#"{"type":"dahai","actor":0,"pai":"E","tsumogiri":false}"#).contains("not in your hand"));
    assert!(err(r#"{"type":"dahai","actor":0,"pai":"1m","tsumogiri":true}"#).contains("not the drawn tile"));
    assert!(err(r#"{"type":"dahai","actor":0,"pai":"C","tsumogiri":false}"#).contains("only C held is the drawn tile"));
    assert!(err(r#"{"type":"none"}"#).contains("a discard is required"));
    assert!(err(r#"{"type":"hora","actor":0,"target":0}"#).contains("hora is not legal now"));
    assert!(g.validate(1, r#"{"type":"none"}"#).unwrap_err().0.contains("seat 1 was not asked"));
    // Harmless variations pass and come back canonical.
    let ok = g.validate(0, r#"{"type":"dahai","actor":0,"pai":"C","tsumogiri":true,"meta":{"q":[0.5]}}"#).unwrap();
    assert_eq!(ok, Event::Dahai { actor: 0, pai: t("C"), tsumogiri: true });
}

#[test]
fn hora_without_pai_and_a_passed_ron_makes_temporary_furiten() {
    // Seat 0 is tenpai on 1p/4p (pinfu, ittsu) without riichi: it passes the 4p from
    // seat 1, then may not ron the 4p seat 2 discards before its own next discard.
    let mut g = riichi_game("7z4p4p");
    act(&mut g, 0, r#"{"type":"dahai","actor":0,"pai":"C","tsumogiri":true}"#);
    act(&mut g, 1, r#"{"type":"dahai","actor":1,"pai":"4p","tsumogiri":true}"#);
    assert_eq!(pending_seats(&g), vec![0]);
    act(&mut g, 0, r#"{"type":"none"}"#);
    // Seat 2 draws the next 4p and discards it: seat 0 is in temporary furiten.
    act(&mut g, 2, r#"{"type":"dahai","actor":2,"pai":"4p","tsumogiri":true}"#);
    assert_eq!(pending_seats(&g), vec![3], "seat 0 must not be asked");
}

#[test]
fn own_discards_make_furiten() {
    // The dealer lets its winning 4p go; the 1p seat 1 discards would win too, but the
    // dealer is furiten on its own discard: no ron is offered.
    let mut g = riichi_game("4p1p");
    assert!(g.pending()[0].legal.iter().any(|e| matches!(e, Event::Hora { .. })));
    act(&mut g, 0, r#"{"type":"dahai","actor":0,"pai":"4p","tsumogiri":true}"#);
    act(&mut g, 1, r#"{"type":"dahai","actor":1,"pai":"1p","tsumogiri":true}"#);
    // Asked only for the pon of 1p: no hora.
    assert_eq!(pending_seats(&g), vec![0]);
    let legal = &g.pending()[0].legal;
    assert!(!legal.iter().any(|e| matches!(e, Event::Hora { .. })), "{legal:?}");
    assert!(legal.iter().any(|e| matches!(e, Event::Pon { .. })), "{legal:?}");
}

#[test]
fn riichi_needs_1000_points() {
    let start = mjai_sim::engine::game::StartState { scores: [900, 33000, 33100, 33000], ..Default::default() };
    let g = game_at(start, vec![wall(HANDS, "7z", "", "4z", "")]);
    assert!(!g.pending()[0].legal.contains(&Event::Reach { actor: 0 }));
    let e = g.validate(0, r#"{"type":"reach","actor":0}"#).unwrap_err().0;
    assert!(e.contains("reach is not legal now"), "{e}");
}
