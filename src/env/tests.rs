//! The environment against `selfplay` (same seeds and bots: the same logs, event for
//! event), its masks against the engine's legal answers, random play over the masks (no
//! chombo), rewards, refusals and determinism.

use mjai_sim_bots::selfplay::{play_with_rules, series_config_for, table_agents, IgnoreAnswers};
use mjai_sim_bots::Agent;
use mjai_sim_engine::event::{DrawReason, Event};
use mjai_sim_engine::game::{Rules, MAX_SEATS};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::action_space::{action_of, index_of, mask_of, NUM_ACTIONS};
use super::*;

const FOUR: [&str; 4] = ["builtin:rulebase", "builtin:tsumogiri", "builtin:random", "builtin:rulebase"];
const THREE: [&str; 4] = ["builtin:random", "builtin:rulebase", "builtin:tsumogiri", ""];

fn names(specs: &[&str; 4]) -> [String; MAX_SEATS] {
    specs.map(str::to_string)
}

/// `selfplay`'s log of game `g` of the series `seed` between `specs`.
fn selfplay_log(rules: Rules, seed: u64, g: u64, specs: &[&str; 4]) -> Vec<Event> {
    let n = rules.players.count();
    let agents: Vec<Box<dyn Agent>> = specs[..n].iter().map(|s| mjai_sim_bots::from_spec(s).unwrap()).collect();
    let mut agents = table_agents(agents).unwrap();
    let config = series_config_for(seed, g, names(specs), rules.players);
    play_with_rules(config, rules, &mut agents, &mut IgnoreAnswers).unwrap().log
}

/// Drives every learner row with the built-in bot `specs` names for its seat (a fresh one
/// per game, as selfplay makes them); every third answer goes in as mjai JSON instead of an
/// index. Returns the finished games (with logs) once `games` have ended.
fn drive_with_bots(config: EnvConfig, specs: &[&str; 4], games: u64) -> Vec<GameEnd> {
    let tables = config.num_tables;
    let mut env = VecEnv::new(config).unwrap();
    let mut agents: Vec<[Option<Box<dyn Agent>>; MAX_SEATS]> = (0..tables).map(|_| Default::default()).collect();
    let mut batch = env.reset().unwrap();
    let mut ended = Vec::new();
    while env.games_finished() < games {
        let mut actions = Vec::new();
        for row in 0..env.len() {
            let (t, s) = (batch.table[row], usize::from(batch.seat[row]));
            let events = env.events(row).unwrap();
            if events.iter().any(|e| matches!(e, Event::StartGame { .. })) {
                agents[t][s] = Some(mjai_sim_bots::from_spec(specs[s]).unwrap());
            }
            let legal = env.legal(row).unwrap();
            let answer = agents[t][s].as_mut().unwrap().react(&events, legal);
            let index = index_of(&answer).unwrap() as i64;
            actions.push(if row % 3 == 2 { Action::Mjai(answer.to_json()) } else { Action::Index(index) });
        }
        batch = env.step(&actions).unwrap();
        ended.append(&mut batch.ended);
    }
    ended
}

fn check_against_selfplay(rules: Rules, specs: &[&str; 4], learners: Learners) {
    let mut config = EnvConfig::new(rules, 3, 17);
    config.names = Some(names(specs));
    config.keep_logs = true;
    config.learners = learners;
    for (opponent, spec) in config.opponents.iter_mut().zip(specs) {
        *opponent = if spec.is_empty() { "tsumogiri".into() } else { spec.to_string() };
    }
    let ended = drive_with_bots(config, specs, 6);
    assert!(ended.len() >= 6);
    for end in &ended {
        let expected = selfplay_log(rules, 17, end.game, specs);
        let log = end.log.as_ref().unwrap();
        assert_eq!(log.len(), expected.len(), "game {}: length", end.game);
        for (i, (a, b)) in log.iter().zip(&expected).enumerate() {
            assert_eq!(a, b, "game {} differs at event {i}", end.game);
        }
        assert_eq!(end.table as u64, end.game % 3, "game g is played at table g mod tables");
    }
}

#[test]
fn every_seat_from_outside_gives_selfplays_logs_four_players() {
    check_against_selfplay(Rules::tenhou(), &FOUR, Learners::All);
}

#[test]
fn every_seat_from_outside_gives_selfplays_logs_three_players() {
    check_against_selfplay(Rules::riichi_dev_3p(), &THREE, Learners::All);
}

#[test]
fn built_in_opponents_inside_give_selfplays_logs() {
    check_against_selfplay(Rules::tenhou(), &FOUR, Learners::Seats(vec![2]));
    check_against_selfplay(Rules::riichi_dev_3p(), &THREE, Learners::Rotating);
}

/// Random legal indices from the masks for `games` games; checks every mask against the
/// legal answers on the way. Returns the finished games.
fn random_games(rules: Rules, games: u64, hand_rewards: bool) -> Vec<GameEnd> {
    let mut config = EnvConfig::new(rules, 4, 5);
    config.keep_logs = true;
    config.hand_rewards = hand_rewards;
    let mut env = VecEnv::new(config).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut batch = env.reset().unwrap();
    let mut ended = Vec::new();
    let mut rewards = [[0f32; MAX_SEATS]; 4];
    while env.games_finished() < games {
        let mut actions = Vec::new();
        for row in 0..env.len() {
            let legal = env.legal(row).unwrap();
            let mask = batch.mask[row];
            assert_eq!(mask, mask_of(legal));
            assert_eq!(mask.count_ones() as usize, legal.len(), "one index per legal answer: {legal:?}");
            let indices: Vec<usize> = (0..NUM_ACTIONS).filter(|i| mask >> i & 1 == 1).collect();
            for &i in &indices {
                assert_eq!(index_of(action_of(legal, i).unwrap()), Some(i));
            }
            assert_eq!(batch.obs.len(), env.len() * env.obs_len());
            actions.push(indices[rng.random_range(0..indices.len())] as i64);
        }
        batch = env.step_indices(&actions).unwrap();
        credit_rewards(rules, &batch, &mut rewards, hand_rewards);
        ended.append(&mut batch.ended);
    }
    ended
}

/// Adds a call's rewards to each table's running total for its current game; checks each
/// game that ended ([`check_rewards`]) with its own part ([`GameEnd::rewards`]) and moves
/// the rest of the call's rewards to the games after it.
fn credit_rewards(rules: Rules, batch: &Batch, totals: &mut [[f32; MAX_SEATS]], hand_rewards: bool) {
    for (t, r) in batch.rewards.iter().enumerate() {
        let mut rest = *r;
        for end in batch.ended.iter().filter(|e| e.table == t) {
            let got = std::array::from_fn(|s| totals[t][s] + end.rewards[s]);
            check_rewards(rules, end, got, hand_rewards);
            totals[t] = [0.0; MAX_SEATS];
            for (r, paid) in rest.iter_mut().zip(end.rewards) {
                *r -= paid;
            }
        }
        for s in 0..MAX_SEATS {
            totals[t][s] += rest[s];
        }
        assert_eq!(batch.dones[t], batch.ended.iter().any(|e| e.table == t));
    }
}

/// Games that end inside one call (here the learner's game, then two games of bots alone
/// played whole by the same step) each get their own rewards: placement and hand deltas
/// of that game only; what is left is the next game's.
#[test]
fn each_game_ended_in_one_call_gets_its_own_rewards() {
    let rules = Rules::tenhou();
    let spec = |learner: bool, key: u64| GameSpec {
        seed: [21, key],
        seats: (0..4).map(|s| (!(learner && s == 0)).then(|| "rulebase".to_string())).collect(),
        names: vec!["p".into(); 4],
    };
    let mut config = EnvConfig::new(rules, 1, 0);
    config.games = Some(vec![spec(true, 0), spec(false, 1), spec(false, 2), spec(true, 3)]);
    config.keep_logs = true;
    config.hand_rewards = true;
    let mut env = VecEnv::new(config).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut batch = env.reset().unwrap();
    let mut totals = [[0f32; MAX_SEATS]; 1];
    let mut most_in_one_call = 0;
    while !env.is_empty() {
        let actions: Vec<i64> = batch
            .mask
            .iter()
            .map(|&m| {
                let legal: Vec<usize> = (0..NUM_ACTIONS).filter(|i| m >> i & 1 == 1).collect();
                legal[rng.random_range(0..legal.len())] as i64
            })
            .collect();
        batch = env.step_indices(&actions).unwrap();
        credit_rewards(rules, &batch, &mut totals, true);
        most_in_one_call = most_in_one_call.max(batch.ended.len());
    }
    assert_eq!(env.games_finished(), 4);
    assert_eq!(most_in_one_call, 3, "the learner's game and both games of bots end in one step");
}

/// The tables stepped over a pool of threads give the same batches as on one thread.
#[test]
fn threads_do_not_change_the_games() {
    let run = |threads: usize| {
        let mut config = EnvConfig::new(Rules::riichi_dev_3p(), 5, 8);
        config.learners = Learners::Seats(vec![1]);
        config.hand_rewards = true;
        config.threads = threads;
        let mut env = VecEnv::new(config).unwrap();
        assert_eq!(env.threads(), threads);
        let mut batch = env.reset().unwrap();
        let mut trace = Vec::new();
        while env.games_finished() < 12 {
            // the first legal index of each row: deterministic and always legal
            let actions: Vec<i64> = batch.mask.iter().map(|m| i64::from(m.trailing_zeros())).collect();
            batch = env.step_indices(&actions).unwrap();
            let ends: Vec<_> = batch.ended.iter().map(|e| (e.table, e.game, e.scores, e.rewards)).collect();
            trace.push((
                batch.table.clone(),
                batch.seat.clone(),
                batch.mask.clone(),
                batch.obs.clone(),
                batch.rewards.clone(),
                ends,
            ));
        }
        trace
    };
    assert_eq!(run(1), run(3));
}

/// The rewards of a game: its placement points, plus with hand rewards each seat's score
/// change in thousands (the first's final score also holds the sticks left at the end).
fn check_rewards(rules: Rules, end: &GameEnd, got: [f32; MAX_SEATS], hand_rewards: bool) {
    let n = rules.players.count();
    let start = rules.players.start_score();
    // Riichi sticks on the table at the end (they go to the first place), read off the log.
    let mut left = 0.0;
    for e in end.log.as_ref().unwrap() {
        match e {
            Event::StartKyoku { kyotaku, .. } => left = f32::from(*kyotaku),
            Event::ReachAccepted { .. } => left += 1.0,
            Event::Hora { .. } => left = 0.0,
            _ => {}
        }
    }
    for (s, got) in got.iter().enumerate().take(n) {
        let mut want = end.points[s];
        if hand_rewards {
            want += (end.scores[s] - start) as f32 / 1000.0 - if end.ranks[s] == 1 { left } else { 0.0 };
        }
        assert!((got - want).abs() < 1e-3, "game {} seat {s}: reward {got} want {want}", end.game);
    }
    let uma = super::reward::default_uma(rules.players);
    assert_eq!(end.points[..n].iter().map(|p| f64::from(*p)).sum::<f64>(), uma.iter().sum::<f64>());
}

fn assert_no_chombo(ended: &[GameEnd]) {
    for end in ended {
        assert!(end.chombos.is_empty(), "game {}: {:?}", end.game, end.chombos);
        let log = end.log.as_ref().unwrap();
        assert!(matches!(log.last(), Some(Event::EndGame)));
        assert!(!log.iter().any(|e| DrawReason::of(e) == Some(DrawReason::Chombo)), "game {}: a chombo", end.game);
    }
}

#[test]
fn random_play_over_the_masks_never_chombos_four_players() {
    let ended = random_games(Rules::tenhou(), 96, false);
    assert_no_chombo(&ended);
    let ended = random_games(Rules::mjai_app(), 32, true);
    assert_no_chombo(&ended);
}

#[test]
fn random_play_over_the_masks_never_chombos_three_players() {
    let ended = random_games(Rules::riichi_dev_3p(), 96, true);
    assert_no_chombo(&ended);
    assert!(ended.iter().flat_map(|e| e.log.as_ref().unwrap()).any(|e| matches!(e, Event::Kita { .. })), "kita played");
    let ended = random_games(Rules::tenhou_3p(), 32, false);
    assert_no_chombo(&ended);
}

#[test]
fn refused_steps_name_the_row_and_apply_nothing() {
    let mut env = VecEnv::new(EnvConfig::new(Rules::tenhou(), 2, 0)).unwrap();
    assert_eq!(env.step_indices(&[]).unwrap_err(), EnvError::NotReset);
    let batch = env.reset().unwrap();
    assert_eq!(env.len(), 2, "each table's dealer decides first");
    assert_eq!(batch.seat, vec![0, 0]);
    let err = env.step_indices(&[0]).unwrap_err();
    assert_eq!(err, EnvError::ActionCount { expected: 2, got: 1 });
    let legal = |row: usize| (0..NUM_ACTIONS as i64).find(|&i| batch.mask[row] >> i & 1 == 1).unwrap();
    let err = env.step_indices(&[legal(0), action_space::NONE as i64]).unwrap_err().to_string();
    assert!(err.starts_with("row 1 (table 1, seat 0): action index 119 is not legal now"), "{err}");
    let err = env.step_indices(&[legal(0), -1]).unwrap_err();
    assert!(matches!(err, EnvError::IllegalIndex { row: 1, index: -1, .. }), "{err}");
    let bad = [Action::Index(legal(0)), Action::Mjai("{\"type\":\"dahai\"".into())];
    let err = env.step(&bad).unwrap_err().to_string();
    assert!(err.starts_with("row 1 (table 1, seat 0): "), "{err}");
    let pon = [
        Action::Index(legal(0)),
        Action::Mjai(r#"{"type":"pon","actor":0,"target":1,"pai":"E","consumed":["E","E"]}"#.into()),
    ];
    assert!(env.step(&pon).is_err());
    let before: Vec<usize> = (0..2).map(|t| env.game(t).unwrap().log().len()).collect();
    assert!(env.step_indices(&[legal(0), 999]).is_err());
    assert_eq!(before, (0..2).map(|t| env.game(t).unwrap().log().len()).collect::<Vec<_>>(), "nothing applied");
    env.step_indices(&[legal(0), legal(1)]).unwrap();
    assert!(env.game(0).unwrap().log().len() > before[0]);
}

#[test]
fn the_same_seed_gives_the_same_batches_and_tables_restart_by_themselves() {
    let run = |seed: u64| {
        let mut config = EnvConfig::new(Rules::tenhou(), 3, seed);
        config.learners = Learners::Seats(vec![0, 1]);
        config.opponents = ["tsumogiri", "tsumogiri", "tsumogiri", "tsumogiri"].map(String::from);
        let mut env = VecEnv::new(config).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut batch = env.reset().unwrap();
        let mut trace = Vec::new();
        let mut dones = 0;
        while env.games_finished() < 4 {
            let actions: Vec<i64> = batch
                .mask
                .iter()
                .map(|m| {
                    let idx: Vec<usize> = (0..NUM_ACTIONS).filter(|i| m >> i & 1 == 1).collect();
                    idx[rng.random_range(0..idx.len())] as i64
                })
                .collect();
            trace.push((batch.table.clone(), batch.seat.clone(), batch.mask.clone(), batch.obs.clone()));
            batch = env.step_indices(&actions).unwrap();
            dones += batch.dones.iter().filter(|d| **d).count();
            for end in &batch.ended {
                assert_eq!(end.learners, [true, true, false, false]);
                let row = batch.table.iter().position(|&t| t == end.table).unwrap();
                let first = env.events(row).unwrap();
                assert!(matches!(first[0], Event::StartGame { .. }), "the next game's rows start it");
            }
        }
        assert!(batch.seat.iter().all(|&s| s < 2), "only learner seats are asked");
        (trace, dones as u64 == env.games_finished())
    };
    let (a, counted) = run(9);
    assert!(counted);
    assert_eq!(a, run(9).0, "same seed, same batches");
    assert_ne!(a, run(10).0, "another seed, other games");
}

/// A fixed series ([`EnvConfig::games`]): each game on its own wall seed with its own
/// learner seats and bots gives the log selfplay gives for those bots on that wall; tables
/// stop once the list is played (no rows, empty steps accepted), every game ending once.
#[test]
fn a_fixed_series_plays_each_game_once_then_stops() {
    let rules = Rules::tenhou();
    let bots = ["builtin:tsumogiri", "builtin:rulebase", "builtin:rulebase", "builtin:rulebase"];
    // one-vs-three: the tsumogiri (driven from outside) in seat g % 4 on wall [9 + g / 4, 3]
    let games: Vec<GameSpec> = (0..6u64)
        .map(|g| {
            let challenger = (g % 4) as usize;
            let seats = (0..4).map(|s| (s != challenger).then(|| "rulebase".to_string())).collect();
            let names = (0..4).map(|s| if s == challenger { bots[0] } else { bots[1] }.to_string()).collect();
            GameSpec { seed: [9 + g / 4, 3], seats, names }
        })
        .collect();
    let mut config = EnvConfig::new(rules, 4, 0);
    config.games = Some(games.clone());
    config.keep_logs = true;
    let mut env = VecEnv::new(config).unwrap();
    let mut batch = env.reset().unwrap();
    let mut ended = Vec::new();
    let mut tsumogiri: Vec<Box<dyn Agent>> = (0..4).map(|_| mjai_sim_bots::from_spec("tsumogiri").unwrap()).collect();
    let mut steps = 0;
    while !env.is_empty() {
        let actions: Vec<Action> = (0..env.len())
            .map(|row| {
                let answer = tsumogiri[batch.table[row]].react(&env.events(row).unwrap(), env.legal(row).unwrap());
                Action::Index(index_of(&answer).unwrap() as i64)
            })
            .collect();
        batch = env.step(&actions).unwrap();
        ended.append(&mut batch.ended);
        steps += 1;
        assert!(steps < 100_000, "the series never ends");
    }
    let mut played: Vec<u64> = ended.iter().map(|e| e.game).collect();
    played.sort_unstable();
    assert_eq!(played, (0..6).collect::<Vec<_>>());
    for end in &ended {
        let spec = &games[end.game as usize];
        let challenger = (end.game % 4) as usize;
        assert_eq!(end.learners, std::array::from_fn(|s| s == challenger));
        let specs: [&str; 4] = std::array::from_fn(|s| if s == challenger { bots[0] } else { bots[1] });
        let agents = specs.iter().map(|s| mjai_sim_bots::from_spec(s).unwrap()).collect();
        let config = mjai_sim_engine::game::GameConfig {
            seed: spec.seed,
            names: names(&specs),
            start: mjai_sim_engine::game::StartState::initial(rules.players),
        };
        let expected = play_with_rules(config, rules, &mut table_agents(agents).unwrap(), &mut IgnoreAnswers).unwrap();
        assert_eq!(end.log.as_ref().unwrap(), &expected.log, "game {}", end.game);
    }
    assert!(env.step(&[]).unwrap().ended.is_empty(), "a stopped environment steps empty");
    // more tables than games, and a bad seat list, are refused
    let mut config = EnvConfig::new(rules, 7, 0);
    config.games = Some(games.clone());
    assert!(matches!(VecEnv::new(config), Err(EnvError::Config(m)) if m.contains("7 tables for 6 games")));
    let mut config = EnvConfig::new(rules, 1, 0);
    config.games = Some(vec![GameSpec { seed: [0, 0], seats: vec![None; 3], names: vec![String::new(); 4] }]);
    assert!(VecEnv::new(config).is_err());
}

/// A fixed series without learners is played whole by `reset`.
#[test]
fn a_fixed_series_of_bots_alone_ends_in_reset() {
    let spec = GameSpec { seed: [5, 1], seats: vec![Some("rulebase".into()); 4], names: vec!["b".into(); 4] };
    let mut config = EnvConfig::new(Rules::tenhou(), 2, 0);
    config.games = Some(vec![spec; 3]);
    let mut env = VecEnv::new(config).unwrap();
    let batch = env.reset().unwrap();
    assert!(env.is_empty());
    assert_eq!(batch.ended.len(), 3);
    assert_eq!(env.games_finished(), 3);
    assert!(batch.ended.iter().all(|e| e.scores == batch.ended[0].scores), "one wall, one game, three times");
}
