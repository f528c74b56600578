//! The observation riichi.dev's server sends, checked from its JSON over whole games of
//! the engine's reference policy, four and three players (issue 53).

use std::collections::BTreeMap;

use base64::Engine;
use serde_json::Value;

use super::observe::SeatView;
use super::wire::event_message;
use mjai_sim_engine::event::{Event, Seat};
use mjai_sim_engine::game::autoplay::play;
use mjai_sim_engine::game::tile_ids::{tile_of, TileIds, WallIds};
use mjai_sim_engine::game::wall::kyoku_count;
use mjai_sim_engine::game::{GameConfig, Players, Rules, StartState};

fn decode(observation: &str) -> Value {
    let bytes = base64::engine::general_purpose::STANDARD.decode(observation).expect("padded base64");
    serde_json::from_slice(&bytes).expect("JSON")
}

fn ids(v: &Value) -> Vec<u64> {
    v.as_array().unwrap().iter().map(|x| x.as_u64().unwrap()).collect()
}

/// Checks one observation of `seat` against the referee's own `truth` (unmasked ids).
fn check(obs: &Value, truth: &TileIds, seat: Seat, seats: u8, counts: &mut BTreeMap<&'static str, usize>) {
    assert!(obs.get("forced_tedashi").is_none(), "0.4.8 has no forced_tedashi: {obs}");
    assert_eq!(obs["player_id"], u64::from(seat));
    let hand = ids(&obs["hands"][usize::from(seat)]);
    assert_eq!(hand, truth.hand(seat).iter().map(|&x| u64::from(x)).collect::<Vec<_>>());
    let body = &hand[..hand.len() - usize::from(truth.drawn(seat).is_some())];
    assert!(body.windows(2).all(|w| w[0] < w[1]), "ascending but the drawn tile: {hand:?}");
    let mut places: BTreeMap<u64, usize> = BTreeMap::new();
    let mut called = Vec::new();
    for &id in &hand {
        *places.entry(id).or_default() += 1;
    }
    for o in 0..seats {
        let i = usize::from(o);
        if o != seat {
            assert_eq!(obs["hands"][i], Value::Array(vec![]), "others' hands are hidden");
        }
        assert_eq!(ids(&obs["discards"][i]), truth.discards(o).iter().map(|&x| u64::from(x)).collect::<Vec<_>>());
        for id in ids(&obs["discards"][i]) {
            *places.entry(id).or_default() += 1;
        }
        for m in obs["melds"][i].as_array().unwrap() {
            let tiles = ids(&m["tiles"]);
            for &id in &tiles {
                *places.entry(id).or_default() += 1;
            }
            assert!(tiles.windows(2).all(|w| w[0] < w[1]), "{m}");
            let kind = m["meld_type"].as_str().unwrap();
            *counts.entry(if kind == "Chi" { "chi" } else { "other meld" }).or_default() += 1;
            if kind == "Ankan" {
                assert_eq!((m["from_who"].as_i64(), m["opened"].as_bool()), (Some(-1), Some(false)), "{m}");
                assert!(m["called_tile"].is_null(), "{m}");
            } else {
                let from = m["from_who"].as_i64().unwrap();
                assert!((0..i64::from(seats)).contains(&from) && from != i64::from(o), "{m} of seat {o}");
                let c = m["called_tile"].as_u64().unwrap();
                assert!(tiles.contains(&c), "{m}");
                assert!(ids(&obs["discards"][from as usize]).contains(&c), "called tile in the river of {from}: {m}");
                assert_eq!(m["opened"], true);
                called.push(c);
            }
        }
    }
    for id in ids(&obs["dora_indicators"]) {
        *places.entry(id).or_default() += 1;
    }
    for (id, n) in places {
        assert!(id < 136, "{id}");
        assert_eq!(n, if called.contains(&id) { 2 } else { 1 }, "id {id} in {obs}");
    }
    match &obs["last_discard"] {
        Value::Null => {}
        v => {
            assert!(v.as_u64().unwrap() < u64::from(seats), "last_discard is a seat: {v}");
            *counts.entry("last_discard").or_default() += 1;
        }
    }
    let mut discard_ids = Vec::new();
    for a in obs["_legal_actions"].as_array().unwrap() {
        let tile = a["tile"].as_u64();
        match a["action_type"].as_str().unwrap() {
            "Discard" => {
                let id = tile.unwrap();
                assert!(hand.contains(&id) && !discard_ids.contains(&id), "one discard per physical tile: {a}");
                discard_ids.push(id);
            }
            "Chi" | "Pon" | "Daiminkan" | "Ron" => {
                let id = tile.unwrap();
                assert_eq!(Some(id as u8), truth.last_discard().map(|(_, d)| d), "the discard's own id: {a}");
                *counts.entry("call offered").or_default() += 1;
            }
            _ => {}
        }
        for c in ids(&a["consume_tiles"]) {
            let in_meld = (0..seats).any(|o| truth.melds(o).iter().any(|m| m.tiles.contains(&(c as u8))));
            assert!(hand.contains(&c) || in_meld, "{a}");
        }
    }
}

fn follow_game(players: Players, rules: Rules, seed: [u64; 2], policy_seed: u64) -> BTreeMap<&'static str, usize> {
    let config =
        GameConfig { seed, names: ["a", "b", "c", "d"].map(String::from), start: StartState::initial(players) };
    let game = play(config, Vec::new(), rules, policy_seed);
    let seats = players.count() as u8;
    let mut views: Vec<SeatView> = (0..seats).map(|s| SeatView::new(s, players)).collect();
    let mut truth: Option<TileIds> = None;
    let mut counts = BTreeMap::new();
    for event in game.log() {
        if let Event::StartKyoku { bakaze, kyoku, honba, .. } = event {
            let wall = WallIds::seeded_for(players, seed, kyoku_count(*bakaze, *kyoku), *honba);
            truth = Some(TileIds::deal(wall.clone()));
            for v in &mut views {
                v.deal(Some(wall.clone()));
            }
        } else if let Some(t) = truth.as_mut() {
            t.apply(event);
        }
        for s in 0..seats {
            let masked = event.masked_for(s);
            views[usize::from(s)].apply(&masked, &event_message(&masked, s, players));
        }
        if let (Some(t), Event::Tsumo { actor, .. } | Event::Dahai { actor, .. }) = (&truth, event) {
            // the drawing seat, and every seat after a discard
            for s in (0..seats).filter(|&s| matches!(event, Event::Dahai { .. }) || s == *actor) {
                let obs = decode(&views[usize::from(s)].observation(None));
                check(&obs, t, s, seats, &mut counts);
                *counts.entry("observations").or_default() += 1;
            }
        }
        assert!(tile_of(0).is_some());
    }
    counts
}

#[test]
fn every_observation_of_whole_games_names_each_physical_tile_once_in_riichienv_048s_form() {
    let mut counts = BTreeMap::new();
    for g in 0..3u64 {
        for (k, n) in follow_game(Players::Four, Rules::tenhou(), [g, 17], g) {
            *counts.entry(k).or_default() += n;
        }
        for (k, n) in follow_game(Players::Three, Rules::riichi_dev_3p(), [g, 19], g) {
            *counts.entry(k).or_default() += n;
        }
    }
    for k in ["observations", "chi", "other meld", "last_discard", "call offered"] {
        assert!(counts.get(k).copied().unwrap_or(0) > 0, "no {k}: {counts:?}");
    }
}
