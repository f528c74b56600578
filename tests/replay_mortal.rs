//! Replays the 100 hanchans Mortal's arena played (`shared/data/mortal-arena-100.tar.xz`
//! beside the repository) and 40 call-heavy ones from libriichi's arena
//! (`tests/data/libriichi-arena-callers-40.tar.xz`, see `tests/data/README.md`): every
//! logged action must be accepted and every event, deltas and start_kyoku included,
//! reproduced.

use std::io::Read;
use std::path::PathBuf;

use mjai_sim::engine::event::Event;
use mjai_sim::engine::game::replay::replay;

fn archive() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/mortal-arena-100.tar.xz")
}

fn games() -> Vec<(String, Vec<Event>)> {
    games_in(&archive())
}

/// Every `.jsonl` log in an xz-compressed tar, sorted by name.
fn games_in(path: &std::path::Path) -> Vec<(String, Vec<Event>)> {
    let file = std::fs::File::open(path)
        .unwrap_or_else(|e| panic!("cannot open {} ({e}): the shared data must sit beside the repository", path.display()));
    let mut tar_bytes = Vec::new();
    lzma_rs::xz_decompress(&mut std::io::BufReader::new(file), &mut tar_bytes).expect("valid xz archive");
    let mut out = Vec::new();
    let mut ar = tar::Archive::new(&tar_bytes[..]);
    for entry in ar.entries().expect("tar entries") {
        let mut entry = entry.expect("tar entry");
        let name = entry.path().expect("entry path").display().to_string();
        if !name.ends_with(".jsonl") {
            continue;
        }
        let mut text = String::new();
        entry.read_to_string(&mut text).expect("utf-8 log");
        let events = text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .enumerate()
            .map(|(i, l)| serde_json::from_str(l).unwrap_or_else(|e| panic!("{name} line {}: {e}", i + 1)))
            .collect();
        out.push((name, events));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

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
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/libriichi-arena-callers-40.tar.xz");
    let games = games_in(&path);
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
