//! riichi.dev's observation per row ([`EnvConfig::riichi_dev`]), four and three seats: each
//! row's text decodes (base64 → JSON), names the row's seat, and its hand's ids are the
//! seat's hand (as tiles: the engine's `PlayerState` built from the row's events; as ids:
//! the referee's ids of the unmasked log); off, there is none; on or off, the same games.

use std::collections::BTreeMap;

use base64::Engine;
use mjai_sim_bots::PlayerState;
use mjai_sim_engine::event::Event;
use mjai_sim_engine::game::tile_ids::{tile_of, TileIds};
use mjai_sim_engine::game::{Game, Rules};
use mjai_sim_engine::tile::Tile;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

use super::*;

fn decode(text: &str) -> Value {
    let bytes = base64::engine::general_purpose::STANDARD.decode(text).expect("padded standard base64");
    serde_json::from_slice(&bytes).expect("JSON")
}

/// The referee's ids of the kyoku in play at `game`, from its unmasked log.
fn truth(game: &Game) -> TileIds {
    let log = game.log();
    let start = log.iter().rposition(|e| matches!(e, Event::StartKyoku { .. })).expect("a kyoku in play");
    let mut ids = TileIds::deal(game.wall_ids().clone());
    for e in &log[start + 1..] {
        ids.apply(e);
    }
    ids
}

fn sorted(mut tiles: Vec<Tile>) -> Vec<Tile> {
    tiles.sort_by_key(|t| (t.kind(), t.is_red()));
    tiles
}

/// A random legal index of each row (the same `rng` draws: the same answers).
fn random_indices(env: &VecEnv, batch: &Batch, rng: &mut ChaCha8Rng) -> Vec<i64> {
    (0..env.len())
        .map(|row| {
            let mask = batch.mask[row];
            let indices: Vec<u32> = (0..NUM_ACTIONS as u32).filter(|&i| mask >> i & 1 == 1).collect();
            i64::from(indices[rng.random_range(0..indices.len())])
        })
        .collect()
}

/// Plays `games` games at 3 tables with random legal answers, riichi.dev's observation on,
/// and checks every row's. Returns counts of what was seen.
fn check_rows(rules: Rules, games: u64) -> BTreeMap<&'static str, usize> {
    let mut config = EnvConfig::new(rules, 3, 11);
    config.riichi_dev = true;
    let seats = rules.players.count();
    let mut env = VecEnv::new(config).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut states: Vec<Vec<PlayerState>> = (0..3).map(|_| vec![PlayerState::new(); seats]).collect();
    let mut counts = BTreeMap::new();
    let mut batch = env.reset().unwrap();
    while env.games_finished() < games {
        for row in 0..env.len() {
            let (t, seat) = (batch.table[row], batch.seat[row]);
            let s = usize::from(seat);
            for e in &env.events(row).unwrap() {
                if matches!(e, Event::StartGame { .. }) {
                    states[t][s] = PlayerState::new();
                }
                states[t][s].update(e);
            }
            let text = env.riichi_dev_observation(row).expect("an observation per row when on");
            let obs = decode(text);
            assert_eq!(obs["player_id"], u64::from(seat));
            assert_eq!(obs["scores"].as_array().unwrap().len(), seats, "one entry per seat");
            let hand: Vec<u64> = obs["hands"][s].as_array().unwrap().iter().map(|x| x.as_u64().unwrap()).collect();
            let mut distinct = hand.clone();
            distinct.sort_unstable();
            distinct.dedup();
            assert_eq!(distinct.len(), hand.len(), "each physical tile once: {hand:?}");
            let tiles: Vec<Tile> = hand.iter().map(|&id| tile_of(u8::try_from(id).unwrap()).unwrap()).collect();
            assert_eq!(sorted(tiles), sorted(states[t][s].tehai().to_vec()), "table {t} seat {seat}: {obs}");
            let ids = truth(env.game(t).unwrap());
            let want: Vec<u64> = ids.hand(seat).iter().map(|&x| u64::from(x)).collect();
            assert_eq!(hand, want, "the referee's ids of the seat's hand, in RiichiEnv's order");
            for other in (0..seats).filter(|&o| o != s) {
                assert_eq!(obs["hands"][other], Value::Array(vec![]), "others' hands are hidden");
            }
            let legal = obs["_legal_actions"].as_array().unwrap();
            assert!(!legal.is_empty(), "table {t} seat {seat}: no legal action in {obs}");
            for a in legal {
                let kind = a["action_type"].as_str().unwrap();
                *counts.entry(kind_key(kind)).or_default() += 1;
            }
            if obs["melds"].as_array().unwrap().iter().any(|m| !m.as_array().unwrap().is_empty()) {
                *counts.entry("rows with a meld").or_default() += 1;
            }
            *counts.entry("rows").or_default() += 1;
        }
        let indices = random_indices(&env, &batch, &mut rng);
        batch = env.step_indices(&indices).unwrap();
    }
    counts
}

fn kind_key(kind: &str) -> &'static str {
    match kind {
        "Discard" => "Discard",
        "Pass" => "Pass",
        "Chi" | "Pon" | "Daiminkan" => "call",
        "Kita" => "Kita",
        _ => "other",
    }
}

#[test]
fn each_row_carries_riichi_devs_observation_of_its_seat_four_players() {
    let counts = check_rows(Rules::tenhou(), 6);
    for k in ["rows", "Discard", "Pass", "call", "rows with a meld"] {
        assert!(counts.get(k).copied().unwrap_or(0) > 0, "no {k}: {counts:?}");
    }
}

#[test]
fn each_row_carries_riichi_devs_observation_of_its_seat_three_players() {
    let counts = check_rows(Rules::riichi_dev_3p(), 6);
    for k in ["rows", "Discard", "Pass", "call", "Kita", "rows with a meld"] {
        assert!(counts.get(k).copied().unwrap_or(0) > 0, "no {k}: {counts:?}");
    }
}

/// What [`play`] saw: every batch's masks and features, the finished games, and every
/// row's observation.
struct Played {
    batches: Vec<(Vec<u128>, Vec<f32>)>,
    ended: Vec<GameEnd>,
    observations: Vec<Option<String>>,
}

/// Random play (one `rng`) of `games` games at 2 tables with the option `on`, stepped on
/// `threads` threads.
fn play(rules: Rules, on: bool, games: u64, threads: usize) -> Played {
    let mut config = EnvConfig::new(rules, 2, 23);
    config.keep_logs = true;
    config.riichi_dev = on;
    config.threads = threads;
    let mut env = VecEnv::new(config).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let mut played = Played { batches: Vec::new(), ended: Vec::new(), observations: Vec::new() };
    let mut batch = env.reset().unwrap();
    while env.games_finished() < games {
        played.observations.extend((0..env.len()).map(|row| env.riichi_dev_observation(row).map(str::to_string)));
        played.batches.push((batch.mask.clone(), batch.obs.clone()));
        let indices = random_indices(&env, &batch, &mut rng);
        batch = env.step_indices(&indices).unwrap();
        played.ended.append(&mut batch.ended);
    }
    played
}

#[test]
fn the_option_changes_no_game_and_off_gives_none() {
    for rules in [Rules::tenhou(), Rules::riichi_dev_3p()] {
        let (off, on) = (play(rules, false, 3, 1), play(rules, true, 3, 1));
        assert!(off.observations.iter().all(Option::is_none), "off: no observation");
        assert!(on.observations.iter().all(|o| o.as_ref().is_some_and(|t| !t.is_empty())), "on: one per row");
        assert!(on.observations.len() > 100, "{} rows", on.observations.len());
        let pooled = play(rules, true, 3, 2);
        assert_eq!(pooled.observations, on.observations, "the same observations on a pool of two threads");
        assert_eq!(off.batches, on.batches, "the same masks and features at every step");
        assert_eq!(off.ended.len(), on.ended.len());
        for (a, b) in off.ended.iter().zip(&on.ended) {
            assert_eq!((a.game, a.scores), (b.game, b.scores));
            assert_eq!(a.log, b.log, "game {}: the same log", a.game);
            assert!(a.log.as_ref().is_some_and(|l| l.len() > 50));
        }
    }
    let mut env = VecEnv::new(EnvConfig::new(Rules::tenhou(), 1, 0)).unwrap();
    env.reset().unwrap();
    assert!(!env.is_empty() && env.riichi_dev_observation(0).is_none(), "off by default");
    let mut config = EnvConfig::new(Rules::tenhou(), 1, 0);
    config.riichi_dev = true;
    let mut env = VecEnv::new(config).unwrap();
    env.reset().unwrap();
    assert!(env.riichi_dev_observation(0).is_some() && env.riichi_dev_observation(env.len()).is_none());
}
