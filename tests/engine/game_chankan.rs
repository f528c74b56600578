//! Chankan within the ippatsu turn (issue 15, item 0): a kakan is not complete while it can
//! be robbed, so a riichi player who robs it keeps ippatsu (Tenhou; libriichi keeps it too).
//! A kakan that goes through still ends every ippatsu.

use crate::game_support::*;
use mjai_sim::engine::event::Event;
use mjai_sim::engine::game::Game;

fn last_hora(g: &Game) -> String {
    g.log().iter().rev().find(|e| matches!(e, Event::Hora { .. })).expect("a hora").to_json()
}

/// The shared opening: seat 1 pons seat 0's 9p, seat 3 declares riichi on its first
/// discard, seat 0 discards, seat 1 adds the fourth 9p (kakan).
fn pon_riichi_then_kakan(g: &mut Game) {
    act(g, 0, r#"{"type":"dahai","actor":0,"pai":"9p","tsumogiri":true}"#);
    act(g, 1, r#"{"type":"pon","actor":1,"target":0,"pai":"9p","consumed":["9p","9p"]}"#);
    act(g, 1, r#"{"type":"dahai","actor":1,"pai":"S","tsumogiri":false}"#);
    act(g, 2, r#"{"type":"dahai","actor":2,"pai":"N","tsumogiri":true}"#);
    act(g, 3, r#"{"type":"reach","actor":3}"#);
    act(g, 3, r#"{"type":"dahai","actor":3,"pai":"9s","tsumogiri":true}"#);
    act(g, 0, r#"{"type":"dahai","actor":0,"pai":"1s","tsumogiri":true}"#);
    act(g, 1, r#"{"type":"kakan","actor":1,"pai":"9p","consumed":["9p","9p","9p"]}"#);
}

/// Seat 1 pons seat 0's 9p; seat 3 (not the dealer) declares riichi on its first discard;
/// seat 0 discards; seat 1 draws the fourth 9p and adds it (kakan): seat 3 waits on 6p-9p.
fn non_dealer_robs(seat3: &str) -> Game {
    let hands = ["2468m2468s35667z", "1357m99p1357s267z", "3579m1236p34455z", seat3];
    // Dora indicator P (dora F), ura indicator C (dora P): the robber holds neither.
    let mut g = game_at(Default::default(), vec![wall(hands, "9p4z9s1s9p", "", "5z", "7z")]);
    pon_riichi_then_kakan(&mut g);
    assert_eq!(pending_seats(&g), vec![3]);
    g
}

/// Seat 0 (the dealer) draws its tenpai tile on its second turn and declares riichi; seat 1
/// had ponned seat 3's 9p before and now draws the fourth 9p and adds it.
fn dealer_robs(seat0: &str, tenpai_tile: &str) -> Game {
    let hands = [seat0, "1479m99p1469s135z", "2358m12367p3456s", "1479m2358p2578s2z"];
    let live = format!("7z6z4z9p6z7z{tenpai_tile}9p");
    // Dora indicator W (dora N), ura indicator C (dora P): the robber holds neither.
    let mut g = game_at(Default::default(), vec![wall(hands, &live, "", "3z", "7z")]);
    act(&mut g, 0, r#"{"type":"dahai","actor":0,"pai":"C","tsumogiri":true}"#);
    act(&mut g, 1, r#"{"type":"dahai","actor":1,"pai":"F","tsumogiri":true}"#);
    act(&mut g, 2, r#"{"type":"dahai","actor":2,"pai":"N","tsumogiri":true}"#);
    act(&mut g, 3, r#"{"type":"dahai","actor":3,"pai":"9p","tsumogiri":true}"#);
    act(&mut g, 1, r#"{"type":"pon","actor":1,"target":3,"pai":"9p","consumed":["9p","9p"]}"#);
    act(&mut g, 1, r#"{"type":"dahai","actor":1,"pai":"E","tsumogiri":false}"#);
    act(&mut g, 2, r#"{"type":"dahai","actor":2,"pai":"F","tsumogiri":true}"#);
    act(&mut g, 3, r#"{"type":"dahai","actor":3,"pai":"C","tsumogiri":true}"#);
    act(&mut g, 0, r#"{"type":"reach","actor":0}"#);
    act(&mut g, 0, r#"{"type":"dahai","actor":0,"pai":"P","tsumogiri":false}"#);
    act(&mut g, 1, r#"{"type":"kakan","actor":1,"pai":"9p","consumed":["9p","9p","9p"]}"#);
    assert_eq!(pending_seats(&g), vec![0]);
    g
}

#[test]
fn non_dealer_chankan_keeps_ippatsu() {
    let mut g = non_dealer_robs("123m45678p789s11z");
    act(&mut g, 3, r#"{"type":"hora","actor":3,"target":1,"pai":"9p"}"#);
    // Riichi 1 + ippatsu 1 + chankan 1 = 3 han, 40 fu (closed ron 30 + East pair 2): 5200,
    // plus seat 3's own riichi stick. Without ippatsu it would be 2600.
    assert_eq!(last_hora(&g), r#"{"type":"hora","actor":3,"target":1,"deltas":[0,-5200,0,6200],"ura_markers":["C"]}"#);
}

#[test]
fn non_dealer_chankan_keeps_ippatsu_with_pinfu() {
    let mut g = non_dealer_robs("123m45678p22789s");
    act(&mut g, 3, r#"{"type":"hora","actor":3,"target":1,"pai":"9p"}"#);
    // Riichi + ippatsu + chankan + pinfu = 4 han 30 fu: 7700 (3900 without ippatsu).
    assert_eq!(last_hora(&g), r#"{"type":"hora","actor":3,"target":1,"deltas":[0,-7700,0,8700],"ura_markers":["C"]}"#);
}

#[test]
fn dealer_chankan_keeps_ippatsu() {
    let mut g = dealer_robs("123m45678p789s1z5z", "1z");
    act(&mut g, 0, r#"{"type":"hora","actor":0,"target":1,"pai":"9p"}"#);
    // Riichi + ippatsu + chankan = 3 han, 40 fu (double-East pair 4): dealer 7700 (3900
    // without ippatsu), plus the stick.
    assert_eq!(last_hora(&g), r#"{"type":"hora","actor":0,"target":1,"deltas":[8700,-7700,0,0],"ura_markers":["C"]}"#);
}

#[test]
fn dealer_chankan_keeps_ippatsu_with_pinfu() {
    let mut g = dealer_robs("123m45678p2789s5z", "2s");
    act(&mut g, 0, r#"{"type":"hora","actor":0,"target":1,"pai":"9p"}"#);
    // Riichi + ippatsu + chankan + pinfu = 4 han 30 fu: dealer 11600 (5800 without ippatsu).
    assert_eq!(
        last_hora(&g),
        r#"{"type":"hora","actor":0,"target":1,"deltas":[12600,-11600,0,0],"ura_markers":["C"]}"#
    );
}

/// A kakan that nobody robs is complete: it ends the riichi player's ippatsu, so a ron on
/// the discard after the rinshan tsumo has none.
#[test]
fn a_kakan_that_goes_through_ends_ippatsu() {
    // Seat 3 waits on 4p-7p (East triplet): nobody can rob the 9p, and the rinshan tile is
    // a 7p, which seat 1 discards into seat 3's riichi.
    let hands = ["2468m2468s35667z", "1357m99p1357s267z", "3579m1236p34455z", "123m4567p789s111z"];
    let mut g = game_at(Default::default(), vec![wall(hands, "9p4z9s1s9p", "7p", "5z2p", "7z1p")]);
    pon_riichi_then_kakan(&mut g);
    assert_eq!(tail(&g, 1), [r#"{"type":"tsumo","actor":1,"pai":"7p"}"#]);
    act(&mut g, 1, r#"{"type":"dahai","actor":1,"pai":"7p","tsumogiri":true}"#);
    assert_eq!(pending_seats(&g), vec![3]);
    act(&mut g, 3, r#"{"type":"hora","actor":3,"target":1,"pai":"7p"}"#);
    // Riichi 1 + East 1 = 2 han, 40 fu (closed ron 30, East ankou 8, tanki 2): 2600; with
    // ippatsu it would be 5200.
    assert_eq!(
        last_hora(&g),
        r#"{"type":"hora","actor":3,"target":1,"deltas":[0,-2600,0,3600],"ura_markers":["C","1p"]}"#
    );
}
