//! Scenario tests of [`PlayerState`] options and the built-in bots' choices.

use super::*;
use crate::engine::event::Event;
use crate::engine::tile::{parse_compact, Tile};

fn t(s: &str) -> Tile {
    s.parse().unwrap()
}

/// start_game for seat 0 and a start_kyoku where seat 0 holds `hand` (13 tiles, compact).
fn start(hand: &str) -> Vec<Event> {
    let tiles = parse_compact(hand).unwrap();
    let mut tehais = [[Tile::UNKNOWN; 13]; 4];
    tehais[0].copy_from_slice(&tiles);
    vec![
        Event::StartGame { names: None, seed: None, id: Some(0) },
        Event::StartKyoku {
            bakaze: t("E"),
            dora_marker: t("9p"),
            kyoku: 1,
            honba: 0,
            kyotaku: 0,
            oya: 0,
            scores: [25000; 4],
            tehais: Box::new(tehais),
        },
    ]
}

fn state_after(events: &[Event]) -> PlayerState {
    let mut s = PlayerState::new();
    for e in events {
        s.update(e);
    }
    s
}

fn dahai(actor: u8, pai: &str) -> Event {
    Event::Dahai { actor, pai: t(pai), tsumogiri: false }
}

#[test]
fn tsumo_win_riichi_and_discards_on_own_draw() {
    // 123m 456p 789s 11z 23s: tenpai on 1s/4s; draws 4s (riichi-less tsumo: menzen tsumo yaku).
    let mut ev = start("123m456p789s23s11z");
    ev.push(Event::Tsumo { actor: 0, pai: t("4s") });
    let s = state_after(&ev);
    let legal = s.legal_actions();
    assert!(legal.contains(&Event::Hora { actor: 0, target: 0, pai: Some(t("4s")), deltas: None, ura_markers: None }));
    assert!(legal.contains(&Event::Reach { actor: 0 }));
    assert!(legal.contains(&Event::Dahai { actor: 0, pai: t("4s"), tsumogiri: true }));
    assert!(legal.contains(&Event::Dahai { actor: 0, pai: t("E"), tsumogiri: false }));
    assert_eq!(legal.iter().filter(|e| matches!(e, Event::Dahai { .. })).count(), 13, "{legal:?}");
    assert!(!legal.contains(&Event::None), "a seat that must discard may not pass");
}

#[test]
fn ron_needs_a_yaku_and_no_furiten() {
    // Open tanyao-less hand after a chi has no yaku: no ron. Closed hand without yaku on ron: none.
    let mut ev = start("123m456p789s23s11z");
    ev.push(Event::Tsumo { actor: 0, pai: t("9m") });
    ev.push(dahai(0, "9m"));
    ev.push(Event::Tsumo { actor: 1, pai: Tile::UNKNOWN });
    ev.push(dahai(1, "1s"));
    let s = state_after(&ev);
    assert_eq!(s.waits, (1 << 18) | (1 << 21));
    assert_eq!(s.legal_actions(), vec![Event::None], "no yaku on ron for this closed hand");
    // With riichi the same ron is legal; after discarding a wait it is furiten.
    let mut ev = start("123m456p789s23s11z");
    ev.push(Event::Tsumo { actor: 0, pai: t("9m") });
    ev.push(Event::Reach { actor: 0 });
    ev.push(Event::Dahai { actor: 0, pai: t("9m"), tsumogiri: true });
    ev.push(Event::ReachAccepted { actor: 0 });
    ev.push(Event::Tsumo { actor: 1, pai: Tile::UNKNOWN });
    ev.push(dahai(1, "4s"));
    let s = state_after(&ev);
    assert!(s.ippatsu);
    let ron = Event::Hora { actor: 0, target: 1, pai: Some(t("4s")), deltas: None, ura_markers: None };
    assert_eq!(s.legal_actions(), vec![ron, Event::None]);
    // Pass it: riichi furiten for the rest of the hand.
    ev.push(Event::Tsumo { actor: 2, pai: Tile::UNKNOWN });
    ev.push(dahai(2, "1s"));
    let s = state_after(&ev);
    assert!(s.riichi_furiten && s.is_furiten());
    assert_eq!(s.legal_actions(), vec![Event::None]);
}

#[test]
fn chi_options_include_red_fives_and_respect_kuikae() {
    // Seat 0 holds 4m 5m 5mr 6m 7m; the kamicha (seat 3) discards 6m.
    let mut ev = start("45067m1199p199s1z");
    ev.push(Event::Tsumo { actor: 3, pai: Tile::UNKNOWN });
    ev.push(dahai(3, "6m"));
    let s = state_after(&ev);
    let chis: Vec<[Tile; 2]> = s
        .legal_actions()
        .into_iter()
        .filter_map(|e| if let Event::Chi { consumed, .. } = e { Some(consumed) } else { None })
        .collect();
    assert!(chis.contains(&[t("4m"), t("5m")]) && chis.contains(&[t("4m"), t("5mr")]), "{chis:?}");
    assert!(chis.contains(&[t("5m"), t("7m")]) && chis.contains(&[t("5mr"), t("7m")]), "{chis:?}");
    assert!(!s.legal_actions().iter().any(|e| matches!(e, Event::Pon { .. })), "one 6m only: no pon");
    // Not from the toimen.
    let mut ev2 = start("45067m1199p199s1z");
    ev2.push(Event::Tsumo { actor: 2, pai: Tile::UNKNOWN });
    ev2.push(dahai(2, "6m"));
    assert!(!state_after(&ev2).legal_actions().iter().any(|e| matches!(e, Event::Chi { .. })));
    // After chi 6m with 4m5m: 6m (genbutsu) and 3m (suji) are banned; 3m is not held, 6m is.
    ev.push(Event::Chi { actor: 0, target: 3, pai: t("6m"), consumed: [t("4m"), t("5m")] });
    let s = state_after(&ev);
    assert_eq!(s.kuikae, vec![5, 2]);
    let legal = s.legal_actions();
    assert!(!legal.contains(&Event::Dahai { actor: 0, pai: t("6m"), tsumogiri: false }));
    assert!(legal.contains(&Event::Dahai { actor: 0, pai: t("7m"), tsumogiri: false }));
    assert_eq!(s.tehai.len(), 11);
}

#[test]
fn visible_counts_and_tiles_left_track_the_table() {
    let mut ev = start("123m456p789s23s11z");
    ev.push(Event::Tsumo { actor: 1, pai: Tile::UNKNOWN });
    ev.push(dahai(1, "9p"));
    ev.push(Event::Pon { actor: 2, target: 1, pai: t("9p"), consumed: [t("9p"), t("9p")] });
    let s = state_after(&ev);
    assert_eq!(s.visible[17], 4, "dora marker 9p, discard, two consumed");
    assert_eq!(s.tiles_left, 69);
    assert!(!s.no_calls);
    assert_eq!(s.legal_actions(), Vec::<Event>::new());
}

#[test]
fn rulebase_pons_yakuhai_wins_and_declines_other_calls() {
    let mut bot = Rulebase::new();
    let mut ev = start("147m258p369s5566z");
    ev.push(Event::Tsumo { actor: 3, pai: Tile::UNKNOWN });
    ev.push(dahai(3, "P"));
    let a = bot.react(&ev);
    assert_eq!(a, Event::Pon { actor: 0, target: 3, pai: t("P"), consumed: [t("P"), t("P")] });
    let mut bot = Rulebase::new();
    let mut ev = start("1234m147p258s369s");
    ev.push(Event::Tsumo { actor: 3, pai: Tile::UNKNOWN });
    ev.push(dahai(3, "5m"));
    assert_eq!(bot.react(&ev), Event::None, "declines chi");
    let mut bot = Rulebase::new();
    let mut ev = start("123m456p789s23s11z");
    ev.push(Event::Tsumo { actor: 0, pai: t("1s") });
    assert!(matches!(bot.react(&ev), Event::Hora { actor: 0, target: 0, .. }));
}

#[test]
fn rulebase_discards_toward_lower_shanten_and_riichis_when_tenpai() {
    let mut bot = Rulebase::new();
    // 123m 456p 789s 23s 5m E + draw N: 1-shanten whatever goes; an isolated honor goes
    // (most ukeire: 5m can still pair or become a tanki wait).
    let mut ev = start("1235m456p789s23s1z");
    ev.push(Event::Tsumo { actor: 0, pai: t("N") });
    let a = bot.react(&ev);
    assert!(matches!(a, Event::Dahai { pai, .. } if pai == t("N") || pai == t("E")), "{a:?}");
    let mut bot = Rulebase::new();
    let mut ev = start("123m456p789s23s11z");
    ev.push(Event::Tsumo { actor: 0, pai: t("N") });
    assert_eq!(bot.react(&ev), Event::Reach { actor: 0 });
    ev.clear();
    let a = bot.react(&[Event::Reach { actor: 0 }]);
    assert_eq!(a, Event::Dahai { actor: 0, pai: t("N"), tsumogiri: true });
}

#[test]
fn registry_knows_both_bots() {
    for n in NAMES {
        assert!(by_name(n).is_ok());
    }
    assert_eq!(from_spec("builtin:nope").err().unwrap().to_string(), "unknown built-in bot 'nope' (known: tsumogiri, rulebase, random)");
}
