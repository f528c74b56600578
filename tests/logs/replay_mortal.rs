//! Replays the 100 hanchans Mortal's arena played (`tests/data/mortal-arena-100.tar.xz`) and 40 call-heavy ones from libriichi's arena
//! (`tests/data/libriichi-arena-callers-40.tar.xz`, see `tests/data/README.md`): every
//! logged action must be accepted and every event, deltas and start_kyoku included,
//! reproduced.

use crate::reference_support::{libriichi_callers_40, mortal_arena_100 as games};
use mjai_sim::engine::event::Event;
use mjai_sim::engine::game::replay::replay;

#[test]
fn all_100_mortal_games_replay_exactly() {
    let games = games();
    assert_eq!(games.len(), 100, "the archive holds 100 games");
    let mut failures = Vec::new();
    let (mut kyokus, mut events) = (0, 0);
    for (name, log) in &games {
        match replay(log) {
            Ok(r) => {
                kyokus += r.kyokus;
                events += r.events;
            }
            Err(d) => failures.push(format!("{name}: {d}")),
        }
    }
    assert!(failures.is_empty(), "{} of 100 games disagree:\n{}", failures.len(), failures.join("\n"));
    assert_eq!(kyokus, 956, "the README counts 956 hands");
    assert!(events > 100_000, "{events} events compared");
}

#[test]
fn a_tampered_delta_is_reported_at_its_line() {
    let (_, mut log) = games().remove(0);
    let i = log.iter().position(|e| matches!(e, Event::Hora { .. } | Event::Ryukyoku { .. })).expect("a hand end");
    match &mut log[i] {
        Event::Hora { deltas: Some(d), .. } | Event::Ryukyoku { deltas: Some(d), .. } => d[0] += 100,
        _ => unreachable!(),
    }
    let d = replay(&log).expect_err("a changed delta must be caught");
    assert_eq!(d.index, i, "{d}");
}

#[test]
fn call_heavy_libriichi_arena_games_replay_exactly() {
    let games = libriichi_callers_40();
    assert_eq!(games.len(), 40, "the archive holds 40 games");
    let kans = games
        .iter()
        .flat_map(|(_, log)| log)
        .filter(|e| matches!(e, Event::Daiminkan { .. } | Event::Kakan { .. } | Event::Ankan { .. }))
        .count();
    assert_eq!(kans, 246, "tests/data/README.md counts 246 kans");
    let failures: Vec<String> =
        games.iter().filter_map(|(name, log)| replay(log).err().map(|d| format!("{name}: {d}"))).collect();
    assert!(failures.is_empty(), "{} of 40 games disagree:\n{}", failures.len(), failures.join("\n"));
}

/// Under `Rules::tenhou()` the games that use a freedom of mjai.app's engine (kuikae, a
/// noten riichi discard) are refused at that action; every other game replays as it does
/// under `Rules::mjai_app()`, and every refused one is a kuikae or riichi-discard refusal.
#[test]
fn under_tenhou_rules_only_the_games_using_mjai_app_freedoms_fail() {
    use mjai_sim::engine::game::replay::replay_with;
    use mjai_sim::engine::game::Rules;
    let games = games();
    let failures: Vec<String> = games
        .iter()
        .filter_map(|(name, log)| replay_with(log, Rules::tenhou()).err().map(|d| format!("{name}: {d}")))
        .collect();
    let explained = |f: &String| f.contains("kuikae") || f.contains("must leave the hand tenpai");
    assert!(failures.iter().all(explained), "{}", failures.join("\n"));
    eprintln!("{} of 100 games refused under tenhou", failures.len());
    assert_eq!(failures.len(), FAILING_UNDER_TENHOU, "{}", failures.join("\n"));
}

/// Reference games refused under Tenhou rules (measured; docs/rules.md "Rule presets").
const FAILING_UNDER_TENHOU: usize = 70;
