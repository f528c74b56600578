//! tenhou.net/6 export of the 100 hanchans of Mortal's arena (`tests/data/mortal-arena-100.tar.xz`):
//! every win is scored by the engine to the logged deltas (no notes), final scores agree with
//! the replay, and the export converted back to mjai by mjai-reviewer's converter (built by
//! `scripts/build-convlog.sh`; `scripts/test` builds it when missing) matches the original
//! event by event up to convlog's listed conventions. Without the converter the round-trip
//! tests fail, naming the fix; they never skip.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::reference_support;

use mjai_sim::engine::event::Event;
use mjai_sim::engine::game::replay::replay;
use mjai_sim::export::tenhou6::{export, Tenhou6};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn parse(text: &str) -> Vec<Event> {
    text.lines().filter(|l| !l.trim().is_empty()).map(|l| serde_json::from_str(l).expect("mjai event")).collect()
}

fn mortal_games() -> Vec<(String, Vec<Event>)> {
    reference_support::mortal_arena_100()
}

#[test]
fn mortal_games_export_with_every_win_scored_to_its_deltas() {
    let games = mortal_games();
    assert_eq!(games.len(), 100);
    let mut statuses: BTreeMap<String, usize> = BTreeMap::new();
    let mut horas = 0;
    for (name, log) in &games {
        let game = export(log, &[]).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(game.notes.is_empty(), "{name}: {:?}", game.notes);
        let kyokus = log.iter().filter(|e| matches!(e, Event::StartKyoku { .. })).count();
        assert_eq!(game.log.len(), kyokus, "{name}");
        for k in &game.log {
            let k = k.as_array().unwrap();
            assert_eq!(k.len(), 17, "{name}: a kyoku has 17 parts");
            let result = k[16].as_array().unwrap();
            *statuses.entry(result[0].as_str().unwrap().to_string()).or_default() += 1;
            if result[0] == "和了" {
                horas += (result.len() - 1) / 2;
                for pair in result[1..].chunks(2) {
                    let entry = pair[1].as_array().unwrap();
                    assert!(entry.len() >= 5, "{name}: a win shows points and yaku: {entry:?}");
                    assert!(entry[3].as_str().unwrap().ends_with('点') || entry[3].as_str().unwrap().ends_with('∀'));
                }
            }
        }
        let scores: Vec<i64> = game.sc.iter().step_by(2).map(|v| v.as_i64().unwrap()).collect();
        let replayed = replay(log).unwrap_or_else(|d| panic!("{name}: {d}")).scores;
        assert_eq!(scores, replayed.iter().map(|&s| i64::from(s)).collect::<Vec<_>>(), "{name}: final scores");
    }
    // tests/data/README.md: 956 hands, 444 wins, 514 exhaustive draws, 2 abortive draws.
    let exhaustive: usize = ["流局", "全員聴牌", "全員不聴", "流し満貫"].iter().filter_map(|s| statuses.get(*s)).sum();
    eprintln!("result kinds: {statuses:?}");
    assert_eq!((horas, exhaustive, statuses.values().sum::<usize>()), (444, 514, 956));
}

/// mjai-reviewer's converter, built by `scripts/build-convlog.sh` (or `MJAI_SIM_CONVLOG`).
/// Panics (the test fails, it is never skipped) when the binary is missing.
fn convlog() -> PathBuf {
    let path = std::env::var_os("MJAI_SIM_CONVLOG")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target/convlog/bin/convlog"));
    assert!(
        path.is_file(),
        "no convlog binary at {}: run scripts/test (it builds convlog), or scripts/build-convlog.sh and set MJAI_SIM_CONVLOG",
        path.display()
    );
    path
}

/// Runs convlog on `game`; the mjai events it writes.
fn round_trip(bin: &Path, game: &Tenhou6, file: &Path) -> Vec<Event> {
    std::fs::write(file, serde_json::to_string(game).unwrap()).unwrap();
    let out = std::process::Command::new(bin).arg(file).output().expect("convlog runs");
    assert!(out.status.success(), "convlog failed on {}: {}", file.display(), String::from_utf8_lossy(&out.stderr));
    parse(&String::from_utf8(out.stdout).unwrap())
}

/// One event in the form both sides can show: consumed tiles sorted, no seed, no chombo reason.
fn normal(e: &Event) -> Event {
    let sorted = |mut v: Vec<mjai_sim::engine::tile::Tile>| {
        v.sort();
        v
    };
    match e.clone() {
        Event::StartGame { names, .. } => Event::StartGame { names, seed: None, id: None },
        Event::StartKyoku { bakaze, dora_marker, kyoku, honba, kyotaku, oya, scores, mut tehais } => {
            for h in tehais.iter_mut() {
                h.sort();
            }
            Event::StartKyoku { bakaze, dora_marker, kyoku, honba, kyotaku, oya, scores, tehais }
        }
        Event::Chi { actor, target, pai, consumed } => {
            let c = sorted(consumed.to_vec());
            Event::Chi { actor, target, pai, consumed: [c[0], c[1]] }
        }
        Event::Pon { actor, target, pai, consumed } => {
            let c = sorted(consumed.to_vec());
            Event::Pon { actor, target, pai, consumed: [c[0], c[1]] }
        }
        Event::Daiminkan { actor, target, pai, consumed } => {
            let c = sorted(consumed.to_vec());
            Event::Daiminkan { actor, target, pai, consumed: [c[0], c[1], c[2]] }
        }
        Event::Kakan { actor, pai, consumed } => {
            let c = sorted(consumed.to_vec());
            Event::Kakan { actor, pai, consumed: [c[0], c[1], c[2]] }
        }
        Event::Ankan { actor, consumed } => {
            let c = sorted(consumed.to_vec());
            Event::Ankan { actor, consumed: [c[0], c[1], c[2], c[3]] }
        }
        Event::Hora { actor, target, deltas, .. } => {
            Event::Hora { actor, target, pai: None, deltas, ura_markers: None }
        }
        Event::Ryukyoku { deltas, .. } => Event::Ryukyoku { actor: None, deltas, reason: None },
        e => e,
    }
}

/// Compares `ours` with convlog's `back`; counts each known convention in `kinds` and
/// returns the first unexplained difference.
fn compare(ours: &[Event], back: &[Event], kinds: &mut BTreeMap<&'static str, usize>) -> Option<String> {
    let mut a = Vec::new();
    for (i, e) in ours.iter().enumerate() {
        // convlog writes no reach_accepted before a four-riichi abortive draw.
        if matches!(e, Event::ReachAccepted { .. }) && matches!(ours.get(i + 1), Some(Event::Ryukyoku { .. })) {
            *kinds.entry("no reach_accepted before a four-riichi draw").or_default() += 1;
            continue;
        }
        a.push(e);
    }
    if a.len() != back.len() {
        return Some(format!("{} events here, {} after the round trip", a.len(), back.len()));
    }
    for (i, (x, y)) in a.iter().zip(back).enumerate() {
        if let (Event::StartGame { seed: Some(_), .. }, Event::StartGame { seed: None, .. }) = (x, y) {
            *kinds.entry("start_game without seed").or_default() += 1;
        }
        if matches!(x, Event::StartKyoku { .. }) && **x != *y {
            *kinds.entry("tehais in Tenhou's sorted order").or_default() += 1;
        }
        if let (Event::Hora { ura_markers: u, .. }, Event::Hora { ura_markers: v, .. }) = (x, y) {
            if u != v {
                *kinds.entry("ura_markers of the kyoku listed for a winner without riichi").or_default() += 1;
            }
        }
        // Mortal's logs list a kakan's added tile among `consumed` (two red fives, even);
        // convlog rebuilds `consumed` from the pon. Compared by actor and added tile.
        if let (Event::Kakan { actor, pai, consumed }, Event::Kakan { actor: a2, pai: p2, consumed: c2 }) = (x, y) {
            let (mut c, mut c2) = (consumed.to_vec(), c2.to_vec());
            c.sort();
            c2.sort();
            if actor == a2 && pai == p2 && c != c2 {
                *kinds.entry("kakan consumed as the pon's tiles (Mortal logs list the added tile)").or_default() += 1;
                continue;
            }
        }
        if matches!(x, Event::Ryukyoku { reason: Some(r), .. } if r == "error") {
            *kinds.entry("chombo: plain ryukyoku with its deltas").or_default() += 1;
        }
        if normal(x) != normal(y) {
            return Some(format!("event {i}: ours {} / round trip {}", x.to_json(), y.to_json()));
        }
    }
    None
}

#[test]
fn convlog_round_trip_of_mortal_games() {
    let bin = convlog();
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("export_tenhou6");
    std::fs::create_dir_all(&dir).unwrap();
    let mut kinds = BTreeMap::new();
    let mut failures = Vec::new();
    let games = mortal_games();
    for (name, log) in &games {
        let game = export(log, &[]).unwrap();
        let back = round_trip(&bin, &game, &dir.join(format!("{}.json", name.trim_start_matches("./"))));
        if let Some(d) = compare(log, &back, &mut kinds) {
            failures.push(format!("{name}: {d}"));
        }
    }
    eprintln!("{} games round-tripped; conventions seen: {kinds:?}", games.len());
    assert!(failures.is_empty(), "{} games differ:\n{}", failures.len(), failures.join("\n"));
}

/// Self-play games with many calls, kans and riichi (random and rulebase bots), played in
/// process: `MJAI_SIM_SELFPLAY_GAMES` of them (200 by default; docs/output-files.md's figure is 1,000).
#[test]
fn convlog_round_trip_of_selfplay_games_with_calls() {
    use mjai_sim::bots::selfplay::{play, series_config, IgnoreAnswers};
    use mjai_sim::bots::{by_name, Agent};
    let bin = convlog();
    let n: u64 = std::env::var("MJAI_SIM_SELFPLAY_GAMES").ok().and_then(|v| v.parse().ok()).unwrap_or(200);
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("export_tenhou6_selfplay");
    std::fs::create_dir_all(&dir).unwrap();
    let names = ["random", "rulebase", "random", "rulebase"];
    let (mut kinds, mut failures, mut events) = (BTreeMap::new(), Vec::new(), 0);
    for i in 0..n {
        let mut agents: [Box<dyn Agent>; 4] = std::array::from_fn(|s| by_name(names[s]).unwrap());
        let game =
            play(series_config(14, i, names.map(String::from)), &mut agents, &mut IgnoreAnswers).expect("game ends");
        let exported = export(&game.log, &[]).unwrap();
        assert!(exported.notes.is_empty(), "game {i}: {:?}", exported.notes);
        let back = round_trip(&bin, &exported, &dir.join(format!("game-{i}.json")));
        events += game.log.len();
        if let Some(d) = compare(&game.log, &back, &mut kinds) {
            failures.push(format!("game {i}: {d}"));
        }
    }
    eprintln!("{n} self-play games ({events} events) round-tripped; conventions seen: {kinds:?}");
    assert!(failures.is_empty(), "{} games differ:\n{}", failures.len(), failures.join("\n"));
}

/// A chombo hand: exported as 流局 with its deltas, explained by errors.json in `notes`.
#[test]
fn chombo_is_a_draw_with_its_deltas_and_a_note() {
    use mjai_sim::export::tenhou6::ErrorNote;
    let mut log = mortal_games().swap_remove(0).1;
    // Cut the first kyoku after its first draw and end it with a chombo by the dealer.
    let first_tsumo = log.iter().position(|e| matches!(e, Event::Tsumo { .. })).unwrap();
    let end = log.iter().position(|e| matches!(e, Event::EndKyoku)).unwrap();
    let chombo: Event =
        serde_json::from_str(r#"{"type":"ryukyoku","actor":0,"deltas":[-12000,4000,4000,4000],"reason":"error"}"#)
            .unwrap();
    log.splice(first_tsumo + 1..end, [chombo]);
    log.truncate(first_tsumo + 3);
    let errors = [ErrorNote {
        kyoku: "E1-0".into(),
        player_id: 0,
        error_type: "timeout".into(),
        exception: "no answer within 2.0 s".into(),
    }];
    let game = export(&log, &errors).unwrap();
    let k = game.log[0].as_array().unwrap();
    assert_eq!(k[16], serde_json::json!(["流局", [-12000, 4000, 4000, 4000]]));
    assert_eq!(k[5].as_array().unwrap().len(), 1, "the dealer's takes: its first draw only");
    assert_eq!(k[6], serde_json::json!([]), "no discard before the chombo");
    assert_eq!(game.notes.len(), 1, "{:?}", game.notes);
    assert!(game.notes[0].starts_with("E1-0: chombo by seat 0 (timeout: no answer within 2.0 s)"), "{:?}", game.notes);
}
