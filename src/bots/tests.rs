//! Scenario tests of [`PlayerState`] bookkeeping and of the built-in bots' choices among
//! the legal answers the engine offers.

use super::*;
use mjai_sim_engine::event::Event;
use mjai_sim_engine::tile::{parse_compact, Tile};

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

fn dahais(actor: u8, tiles: &str, drawn: &str) -> Vec<Event> {
    let mut out: Vec<Event> =
        parse_compact(tiles).unwrap().into_iter().map(|pai| Event::Dahai { actor, pai, tsumogiri: false }).collect();
    out.push(Event::Dahai { actor, pai: t(drawn), tsumogiri: true });
    out
}

#[test]
fn state_tracks_hand_calls_visible_tiles_and_sticks() {
    let mut ev = start("45067m1199p199s1z");
    ev.push(Event::Tsumo { actor: 3, pai: Tile::UNKNOWN });
    ev.push(dahai(3, "6m"));
    ev.push(Event::Chi { actor: 0, target: 3, pai: t("6m"), consumed: [t("4m"), t("5m")] });
    let s = state_after(&ev);
    assert_eq!(s.tehai().len(), 11, "two tiles went into the chi");
    assert_eq!(s.meld_count(), 1);
    assert!(!s.is_menzen());
    assert_eq!(s.tehai_counts()[3], 0, "4m left the hand");
    assert_eq!(s.tehai_counts()[4], 1, "the red 5m stays");
    assert_eq!(s.river(3), vec![t("6m")]);
    ev.push(dahai(0, "1s"));
    ev.push(Event::Tsumo { actor: 1, pai: Tile::UNKNOWN });
    ev.push(dahai(1, "3p"));
    ev.push(Event::Pon { actor: 2, target: 1, pai: t("3p"), consumed: [t("3p"), t("3p")] });
    ev.push(Event::Reach { actor: 2 });
    ev.push(dahai(2, "N"));
    ev.push(Event::ReachAccepted { actor: 2 });
    let s = state_after(&ev);
    assert_eq!(s.visible()[11], 3, "3p: the discard and the two consumed");
    assert_eq!(s.visible()[17], 3, "9p: the dora marker and the two held");
    assert_eq!(s.table.tiles_left(), 68);
    assert_eq!((s.riichi(), s.table.kyotaku, s.table.scores[2]), ([false, false, true, false], 1, 24000));
}

#[test]
fn rulebase_wins_riichis_and_pons_yakuhai_among_the_offered_answers() {
    let mut bot = Rulebase::new();
    let mut ev = start("147m258p369s5566z");
    ev.push(Event::Tsumo { actor: 3, pai: Tile::UNKNOWN });
    ev.push(dahai(3, "P"));
    let pon = Event::Pon { actor: 0, target: 3, pai: t("P"), consumed: [t("P"), t("P")] };
    assert_eq!(bot.react(&ev, &[pon.clone(), Event::None]), pon);
    let mut bot = Rulebase::new();
    let mut ev = start("1234m147p258s369s");
    ev.push(Event::Tsumo { actor: 3, pai: Tile::UNKNOWN });
    ev.push(dahai(3, "5m"));
    let chi = Event::Chi { actor: 0, target: 3, pai: t("5m"), consumed: [t("3m"), t("4m")] };
    assert_eq!(bot.react(&ev, &[chi, Event::None]), Event::None, "declines chi");
    let mut bot = Rulebase::new();
    let mut ev = start("123m456p789s23s11z");
    ev.push(Event::Tsumo { actor: 0, pai: t("1s") });
    let tsumo = Event::Hora { actor: 0, target: 0, pai: Some(t("1s")), deltas: None, ura_markers: None };
    let mut legal = vec![tsumo.clone(), Event::Reach { actor: 0 }];
    legal.extend(dahais(0, "123m456p789s23s11z", "1s"));
    assert_eq!(bot.react(&ev, &legal), tsumo);
    // Without the win on offer (say, furiten), riichi.
    let mut bot = Rulebase::new();
    assert_eq!(bot.react(&ev, &legal[1..]), Event::Reach { actor: 0 });
}

#[test]
fn rulebase_sets_a_north_aside_when_kita_is_offered_and_wins_first() {
    let mut ev = start("19m19p19s1234z567z");
    ev.push(Event::Tsumo { actor: 0, pai: t("N") });
    let kita = Event::Kita { actor: 0, pai: t("N") };
    let mut legal = vec![Event::Reach { actor: 0 }, kita.clone()];
    legal.extend(dahais(0, "19m19p19s1234z567z", "N"));
    assert_eq!(Rulebase::new().react(&ev, &legal), kita, "kita before riichi or a discard");
    let tsumo = Event::Hora { actor: 0, target: 0, pai: Some(t("N")), deltas: None, ura_markers: None };
    legal.insert(0, tsumo.clone());
    assert_eq!(Rulebase::new().react(&ev, &legal), tsumo, "a win before kita");
}

#[test]
fn rulebase_discards_toward_lower_shanten() {
    let mut bot = Rulebase::new();
    // 123m 456p 789s 23s 5m E + draw N: 1-shanten whatever goes; an isolated honor goes
    // (most ukeire: 5m can still pair or become a tanki wait).
    let mut ev = start("1235m456p789s23s1z");
    ev.push(Event::Tsumo { actor: 0, pai: t("N") });
    let a = bot.react(&ev, &dahais(0, "1235m456p789s23s1z", "N"));
    assert!(matches!(a, Event::Dahai { pai, .. } if pai == t("N") || pai == t("E")), "{a:?}");
    // After riichi the engine offers only the discards that keep tenpai: one here.
    let mut bot = Rulebase::new();
    let mut ev = start("123m456p789s23s11z");
    ev.push(Event::Tsumo { actor: 0, pai: t("N") });
    bot.react(&ev, &[]);
    let only = Event::Dahai { actor: 0, pai: t("N"), tsumogiri: true };
    assert_eq!(bot.react(&[Event::Reach { actor: 0 }], std::slice::from_ref(&only)), only);
}

#[test]
fn random_wins_when_offered_and_otherwise_stays_within_the_offer() {
    let mut bot = Random::new();
    let ev = start("123m456p789s23s11z");
    assert_eq!(bot.react(&ev, &[]), Event::None, "informational line");
    let ron = Event::Hora { actor: 0, target: 1, pai: Some(t("1s")), deltas: None, ura_markers: None };
    let pon = Event::Pon { actor: 0, target: 1, pai: t("E"), consumed: [t("E"), t("E")] };
    assert_eq!(bot.react(&[dahai(1, "1s")], &[pon.clone(), ron.clone(), Event::None]), ron);
    let offer = [pon, Event::None];
    let picks: Vec<Event> = (0..64).map(|_| bot.react(&[dahai(1, "E")], &offer)).collect();
    assert!(picks.iter().all(|p| offer.contains(p)));
    assert!(offer.iter().all(|o| picks.contains(o)), "both answers get picked in 64 draws");
}

#[test]
fn registry_knows_both_bots() {
    for n in NAMES {
        assert!(by_name(n).is_ok());
    }
    assert_eq!(
        from_spec("builtin:nope").err().unwrap().to_string(),
        "unknown built-in bot 'nope' (known: tsumogiri, rulebase, random)"
    );
}
