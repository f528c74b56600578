//! Kans that follow each other (issue 53, item 7): where the dora of a daiminkan or kakan
//! that still waits for its maker's discard is shown when the maker makes another kan on
//! the rinshan tsumo, per preset ([`WaitingKanDora`], docs/rules.md "Kan dora"), at four
//! and three seats, on arranged walls.

use super::play::Game;
use super::sanma_tests::{act, auto, game, is_hora, tiles};
use super::setup::StartState;
use super::wall::Wall;
use crate::event::Event;
use crate::rules::{Players, Rules, WaitingKanDora};

/// The events from `from` on to the kyoku's end, briefly: kind, actor and tile; a `hora`
/// with its ura markers.
fn since(g: &Game, from: usize) -> Vec<String> {
    g.log()[from..]
        .iter()
        .take_while(|e| !matches!(e, Event::EndKyoku))
        .map(|e| match e {
            Event::Dora { dora_marker } => format!("dora {}", dora_marker.as_mjai()),
            Event::Tsumo { actor, pai } => format!("tsumo {actor} {}", pai.as_mjai()),
            Event::Dahai { actor, pai, .. } => format!("dahai {actor} {}", pai.as_mjai()),
            Event::Ankan { actor, consumed } => format!("ankan {actor} {}", consumed[0].as_mjai()),
            Event::Kakan { actor, pai, .. } => format!("kakan {actor} {}", pai.as_mjai()),
            Event::Hora { actor, target, ura_markers, .. } => {
                let ura: Vec<&str> = ura_markers.iter().flatten().map(|t| t.as_mjai()).collect();
                format!("hora {actor} {target} ura [{}]", ura.join(" "))
            }
            e => e.to_json(),
        })
        .collect()
}

fn is_dahai(pai: &'static str) -> impl Fn(&Event) -> bool {
    move |e| matches!(e, Event::Dahai { pai: p, .. } if p.as_mjai() == pai)
}

fn is_pon(e: &Event) -> bool {
    matches!(e, Event::Pon { .. })
}

fn is_kakan(e: &Event) -> bool {
    matches!(e, Event::Kakan { .. })
}

fn is_reach(e: &Event) -> bool {
    matches!(e, Event::Reach { .. })
}

/// Sequence (a): the dealer discards 3s, seat 2 daiminkans it, draws C from the dead wall
/// and ankans 1m (indicators E, S, W: the daiminkan's S still waits). Returns the events
/// from the `ankan` on, and those of the discard that follows.
fn daiminkan_then_ankan(rules: Rules, wall: Wall) -> (Vec<String>, Vec<String>) {
    let start = StartState::initial(rules.players);
    let mut g = game(rules, wall, start);
    act(&mut g, 0, is_dahai("3s"));
    act(&mut g, 2, |e| matches!(e, Event::Daiminkan { .. }));
    assert_eq!(since(&g, g.log().len() - 1), ["tsumo 2 C"], "the rinshan tsumo; the daiminkan's dora waits");
    let from = g.log().len();
    act(&mut g, 2, |e| matches!(e, Event::Ankan { .. }));
    let kan = since(&g, from);
    let from = g.log().len();
    act(&mut g, 2, is_dahai("9m"));
    (kan, since(&g, from)[..1].to_vec())
}

fn four_player_ankan_wall() -> Wall {
    let hands = ["23456789m11223p", "47m12589p4567s11z", "1111m333s456p789p", "258m369p1478s167z"];
    Wall::arranged(hands.map(tiles), tiles("3s"), tiles("7z9m"), tiles("4z2z3z"), vec![]).unwrap()
}

fn three_player_ankan_wall() -> Wall {
    Wall::arranged_3p(
        [tiles("9m9m1p1p2p2p3p4p5p6p7p8p9p"), tiles("1s2s4s5s7s8s9s1z2z3z5z6z7z"), tiles("1111m333s19p9s123z")],
        tiles("3s"),
        tiles("7z9m"),
        tiles("4z2z3z"),
        vec![],
    )
    .unwrap()
}

/// Tenhou's mjlog writes the closed kan, then both indicators, then the rinshan draw
/// (kobalab/tenhou-log issue #11); RiichiEnv's `_resolve_kan` the same; Mortal's arena shows
/// the waiting one before the `ankan`.
const ANKAN_AFTER: [&str; 4] = ["ankan 2 1m", "dora S", "dora W", "tsumo 2 9m"];
const ANKAN_MORTAL: [&str; 4] = ["dora S", "ankan 2 1m", "dora W", "tsumo 2 9m"];

#[test]
fn an_ankan_on_a_daiminkans_rinshan_tsumo_shows_both_doras_after_it_but_under_mjai_app() {
    let discard = vec!["dahai 2 9m".to_string()];
    assert_eq!(
        daiminkan_then_ankan(Rules::tenhou(), four_player_ankan_wall()),
        (ANKAN_AFTER.map(String::from).to_vec(), discard.clone())
    );
    assert_eq!(
        daiminkan_then_ankan(Rules::mjai_app(), four_player_ankan_wall()),
        (ANKAN_MORTAL.map(String::from).to_vec(), discard.clone())
    );
    for rules in [Rules::tenhou_3p(), Rules::riichi_dev_3p()] {
        assert_eq!(
            daiminkan_then_ankan(rules, three_player_ankan_wall()),
            (ANKAN_AFTER.map(String::from).to_vec(), discard.clone()),
            "{}",
            rules.name()
        );
    }
}

/// Sequence (b) at four seats: seat 1 pons 9s (from the dealer) and 6p (from seat 3);
/// seat 2 declares riichi waiting on 6p alone (123m 456m 789m EE 57p); seat 1 draws the
/// last 9s, kakans it, draws the last 6p from the dead wall and kakans that. Indicators
/// 4s, 3s, 1s; ura 7s, 8p.
fn four_player_kakan_wall() -> Wall {
    Wall::arranged(
        [
            tiles("147m258s2p34567z7z"),
            tiles("9s9s6p6p147m258s345z"),
            tiles("123456789m1z579p"),
            tiles("235689m13467s13p"),
        ],
        tiles("9s6z6p1z2p8s9s"),
        tiles("6p"),
        tiles("4s3s1s"),
        tiles("7s8p"),
    )
    .unwrap()
}

/// Sequence (b) at three seats: seat 1 pons 9m and 6s (both from the dealer); seat 2
/// declares riichi waiting on 6s alone (123p 456p 789p EE 57s); seat 1 draws the last 9m,
/// kakans it, draws the last 6s from the dead wall and kakans that. Indicators 3s, 7s, 2s;
/// ura 4s, 8p.
fn three_player_kakan_wall() -> Wall {
    Wall::arranged_3p(
        [tiles("1m12345p89s22z67z7z"), tiles("9m9m6s6s1m1238s9s357z"), tiles("123456789p1z1s5s7s")],
        tiles("9m6z6s1z2z9m"),
        tiles("6s"),
        tiles("3s7s2s"),
        tiles("4s8p"),
    )
    .unwrap()
}

/// Plays sequence (b) up to seat 1's second kakan; `rob`: seat 2 robs it (else passes and
/// seat 1 discards its rinshan tile). Returns the events from the first kakan on.
fn kakan_then_kakan(rules: Rules, wall: Wall, rob: bool) -> Vec<String> {
    let three = rules.players == Players::Three;
    let (a, b, d1, d2, riichi_discard) =
        if three { ("9m", "6s", "W", "P", "1s") } else { ("9s", "6p", "W", "N", "9p") };
    let mut g = game(rules, wall, StartState::initial(rules.players));
    act(&mut g, 0, is_dahai(a));
    act(&mut g, 1, is_pon);
    act(&mut g, 1, is_dahai(d1));
    act(&mut g, 2, is_dahai("F"));
    let b_discarder = if three { 0 } else { 3 };
    act(&mut g, b_discarder, is_dahai(b));
    act(&mut g, 1, is_pon);
    act(&mut g, 1, is_dahai(d2));
    act(&mut g, 2, is_reach);
    act(&mut g, 2, is_dahai(riichi_discard));
    let others: &[u8] = if three { &[0] } else { &[3, 0] };
    for &s in others {
        act(&mut g, s, |e| matches!(e, Event::Dahai { tsumogiri: true, .. }));
    }
    let from = g.log().len();
    act(&mut g, 1, is_kakan);
    act(&mut g, 1, is_kakan);
    assert_eq!(g.pending().iter().map(|d| d.seat).collect::<Vec<_>>(), [2], "only the riichi seat may rob the kakan");
    if rob {
        act(&mut g, 2, is_hora);
    } else {
        act(&mut g, 2, |e| *e == Event::None);
        act(&mut g, 1, |e| matches!(e, Event::Dahai { tsumogiri: true, .. }));
    }
    let got = since(&g, from);
    // The log replays under its rules (the replayer reads the robber's `hora` after a
    // `dora`, too).
    while !g.is_over() {
        auto(&mut g, 1);
    }
    if let Err(e) = super::replay::replay_with(g.log(), rules) {
        panic!("{}: the log does not replay: {e:?}", rules.name());
    }
    got
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

#[test]
fn a_robbed_kakan_after_a_kakan_counts_the_first_kans_dora_only_under_riichi_dev_3p() {
    // Tenhou and Mortal's arena: the first kakan's dora waits for the rinshan tsumo of the
    // second, which never comes: one indicator, one ura marker.
    let tenhou = strings(&["kakan 1 9s", "tsumo 1 6p", "kakan 1 6p", "hora 2 1 ura [7s]"]);
    assert_eq!(kakan_then_kakan(Rules::tenhou(), four_player_kakan_wall(), true), tenhou);
    assert_eq!(kakan_then_kakan(Rules::mjai_app(), four_player_kakan_wall(), true), tenhou);
    let tenhou_3p = strings(&["kakan 1 9m", "tsumo 1 6s", "kakan 1 6s", "hora 2 1 ura [4s]"]);
    assert_eq!(kakan_then_kakan(Rules::tenhou_3p(), three_player_kakan_wall(), true), tenhou_3p);
    // RiichiEnv shows it right after the second `kakan`, before the chankan: two
    // indicators, two ura markers (the same events as RiichiEnv's log).
    let riichienv = strings(&["kakan 1 9m", "tsumo 1 6s", "kakan 1 6s", "dora 7s", "hora 2 1 ura [4s 8p]"]);
    assert_eq!(kakan_then_kakan(Rules::riichi_dev_3p(), three_player_kakan_wall(), true), riichienv);
    let four = Rules { waiting_kan_dora: WaitingKanDora::RiichiEnv, ..Rules::tenhou() };
    let riichienv_4p = strings(&["kakan 1 9s", "tsumo 1 6p", "kakan 1 6p", "dora 3s", "hora 2 1 ura [7s 8p]"]);
    assert_eq!(kakan_then_kakan(four, four_player_kakan_wall(), true), riichienv_4p);
}

#[test]
fn a_kakan_after_a_kakan_not_robbed_shows_the_first_dora_before_the_rinshan_tsumo_everywhere() {
    for (rules, wall, a, b, first, second) in [
        (Rules::tenhou(), four_player_kakan_wall(), "9s", "6p", "3s", "1s"),
        (Rules::mjai_app(), four_player_kakan_wall(), "9s", "6p", "3s", "1s"),
        (Rules::tenhou_3p(), three_player_kakan_wall(), "9m", "6s", "7s", "2s"),
        (Rules::riichi_dev_3p(), three_player_kakan_wall(), "9m", "6s", "7s", "2s"),
    ] {
        let got = kakan_then_kakan(rules, wall, false);
        let rinshan = if let Some(t) = got.get(4).and_then(|s| s.strip_prefix("tsumo 1 ")) {
            t.to_string()
        } else {
            String::new()
        };
        let want = strings(&[
            &format!("kakan 1 {a}"),
            &format!("tsumo 1 {b}"),
            &format!("kakan 1 {b}"),
            &format!("dora {first}"),
            // The second kakan's own dora comes with its maker's discard.
            &format!("tsumo 1 {rinshan}"),
            &format!("dora {second}"),
            &format!("dahai 1 {rinshan}"),
        ]);
        assert_eq!(got[..7], want[..], "{}", rules.name());
    }
}
