//! `mjai-sim --from LOG@HAND` and `--start`: the built binary with deterministic built-in
//! bots. A hand re-played from a log, with the same bots, gives exactly the logged events;
//! with a seeded log the rest of the game follows too (walls are a function of the seed,
//! the kyoku and the honba).

use std::path::Path;
use std::process::{Command, Output};

use mjai_sim::engine::event::Event;
use mjai_sim::engine::game::wall::{kyoku_count, Wall};

const BOTS: [&str; 4] = ["builtin:rulebase", "builtin:tsumogiri", "builtin:rulebase", "builtin:rulebase"];

fn play(dir: &Path, options: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mjai-sim"))
        .args(options)
        .arg("--logs-dir")
        .arg(dir)
        .args(BOTS)
        .output()
        .expect("run mjai-sim")
}

fn ok(out: &Output) {
    assert!(out.status.success(), "exit {:?}: {}", out.status, String::from_utf8_lossy(&out.stderr));
}

fn log_of(dir: &Path) -> Vec<Event> {
    let text = std::fs::read_to_string(dir.join("mjai_log.json")).expect("mjai_log.json");
    text.lines().map(|l| serde_json::from_str(l).expect("an mjai event")).collect()
}

fn summary_of(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).expect("summary.json")).unwrap()
}

/// Index and label (`S2-1`) of every `start_kyoku`.
fn hands(log: &[Event]) -> Vec<(usize, String)> {
    log.iter()
        .enumerate()
        .filter_map(|(i, e)| match e {
            Event::StartKyoku { bakaze, kyoku, honba, .. } => Some((i, format!("{bakaze}{kyoku}-{honba}"))),
            _ => None,
        })
        .collect()
}

/// The hand to re-play: the first after East 1 with honba or riichi sticks on the table (the
/// state the new game must carry), else the third.
fn pick(log: &[Event]) -> (usize, String) {
    let all = hands(log);
    assert!(all.len() >= 3, "a hanchan has at least 3 hands");
    all.iter()
        .skip(1)
        .find(|(i, _)| matches!(&log[*i], Event::StartKyoku { honba, kyotaku, .. } if honba + kyotaku > 0))
        .unwrap_or(&all[2])
        .clone()
}

/// Events of the hand starting at `start` through its `end_kyoku`.
fn hand_events(log: &[Event], start: usize) -> &[Event] {
    let end = start + log[start..].iter().position(|e| *e == Event::EndKyoku).expect("end_kyoku");
    &log[start..=end]
}

#[test]
fn a_logged_hand_replays_exactly_and_the_game_goes_on_as_logged() {
    let tmp = tempfile::tempdir().unwrap();
    let (first, again) = (tmp.path().join("first"), tmp.path().join("again"));
    ok(&play(&first, &["--seed", "7,3"]));
    let log = log_of(&first);
    let (at, label) = pick(&log);
    let from = format!("{}@{label}", first.join("mjai_log.json").display());
    let out = play(&again, &["--from", &from]);
    ok(&out);
    assert!(String::from_utf8_lossy(&out.stderr).contains("seeded wall"), "{}", String::from_utf8_lossy(&out.stderr));
    let replayed = log_of(&again);
    assert!(matches!(replayed[0], Event::StartGame { seed: Some([7, 3]), .. }), "the log's seed is kept");
    assert_eq!(hand_events(&replayed, 1), hand_events(&log, at), "hand {label} re-played");
    assert_eq!(replayed[1..], log[at..], "the hands after {label} follow the logged game too");
    let start = &summary_of(&again)["start"];
    assert_eq!(start["from"], from.as_str());
    let Event::StartKyoku { bakaze, kyoku, honba, kyotaku, scores, .. } = &log[at] else { unreachable!() };
    assert_eq!(
        (&start["bakaze"], &start["kyoku"], &start["honba"], &start["kyotaku"], &start["scores"]),
        (
            &serde_json::json!(bakaze.as_mjai()),
            &serde_json::json!(kyoku),
            &serde_json::json!(honba),
            &serde_json::json!(kyotaku),
            &serde_json::json!(scores)
        )
    );
}

#[test]
fn a_hand_of_a_log_without_seed_is_dealt_the_tiles_it_shows() {
    let tmp = tempfile::tempdir().unwrap();
    let (first, again) = (tmp.path().join("first"), tmp.path().join("again"));
    ok(&play(&first, &["--seed", "11"]));
    let mut log = log_of(&first);
    let (at, label) = pick(&log);
    // The same log without its seed: the wall must come from the tiles it shows.
    let Event::StartGame { seed, .. } = &mut log[0] else { panic!("start_game first") };
    *seed = None;
    let unseeded = tmp.path().join("unseeded.json");
    std::fs::write(&unseeded, log.iter().map(|e| e.to_json() + "\n").collect::<String>()).unwrap();
    let from = format!("{}@{label}", unseeded.display());
    // --seed seeds the hands after the re-played one: the seed of the first game, so they
    // follow that game as well.
    let out = play(&again, &["--from", &from, "--seed", "11"]);
    ok(&out);
    assert!(String::from_utf8_lossy(&out.stderr).contains("the log has no seed"));
    let replayed = log_of(&again);
    assert_eq!(hand_events(&replayed, 1), hand_events(&log, at), "hand {label} re-played");
    assert_eq!(replayed[1..], log[at..], "later hands from --seed 11, as in the first game");
}

#[test]
fn a_made_up_start() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    let opts = ["--start", "S2-1", "--scores", "30000,20000,25000,24000", "--kyotaku", "1", "--seed", "3"];
    ok(&play(&dir, &opts));
    let log = log_of(&dir);
    let Event::StartKyoku { bakaze, kyoku, honba, kyotaku, scores, oya, tehais, .. } = &log[1] else {
        panic!("start_kyoku second")
    };
    assert_eq!((bakaze.as_mjai(), *kyoku, *honba, *kyotaku, *oya), ("S", 2, 1, 1, 1));
    assert_eq!(*scores, [30000, 20000, 25000, 24000]);
    assert_eq!(**tehais, Wall::seeded([3, 0], kyoku_count(*bakaze, 2), 1).haipai, "mjai.app's wall of S2-1");
    let summary = summary_of(&dir);
    assert_eq!(summary["start"]["from"], serde_json::Value::Null);
    assert_eq!(summary["start"]["scores"], serde_json::json!([30000, 20000, 25000, 24000]));
}

#[test]
fn bad_starts_are_one_line_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    // Exit 1 for a start that cannot be made and for a value clap refuses (usage errors
    // exit 1 like every error before a game starts; 2 means "abandoned").
    let failing = |code: i32, opts: &[&str]| {
        let out = play(&dir, opts);
        assert_eq!(out.status.code(), Some(code), "{opts:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let err = |opts: &[&str]| failing(1, opts);
    assert!(err(&["--from", "tests/data/README.md"]).contains("LOG@HAND"));
    assert!(err(&["--from", "tests/data/README.md@E1"]).contains("is not an mjai log"));
    assert!(failing(1, &["--start", "N1"]).contains("e.g. S2-1"));
    assert!(err(&["--start", "E2-1", "--honba", "2"]).contains("give the honba once"));
    assert!(failing(1, &["--scores", "1,2"]).contains("--scores 30000"));
    assert!(
        err(&["--scores", "1,2,3"]).contains("3 scores but the table has 4 seats"),
        "three scores need a three-player preset"
    );
    ok(&play(&dir, &["--seed", "5"]));
    let log = dir.join("mjai_log.json").display().to_string();
    let e = err(&["--from", &format!("{log}@W4-9")]);
    assert!(e.contains("the log has no hand W4-9 (its hands: E1-0"), "{e}");
    assert!(err(&["--from", &format!("{log}@E1"), "--seed", "6"]).contains("drop --seed"));
}
