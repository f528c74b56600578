//! Three-player games (sanma) through the built binary: `mjai-sim --rules riichi-dev-3p A B C`
//! with built-in bots, the seat-count errors, `verify`, `--from` on a three-player log,
//! `--scores` of three, and `selfplay` at three seats.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

/// Deterministic built-ins (rulebase sets every North aside), so a hand re-played from its
/// log with the same bots gives the same events.
const BOTS: [&str; 3] = ["builtin:rulebase", "builtin:tsumogiri", "builtin:rulebase"];

fn mjai_sim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mjai-sim")).args(args).output().expect("run mjai-sim")
}

fn play(dir: &Path, options: &[&str], bots: &[&str]) -> Output {
    let dir = dir.to_str().expect("a UTF-8 temp path");
    mjai_sim(&[options, &["--logs-dir", dir, "--no-html"], bots].concat())
}

fn ok(out: &Output) {
    assert!(out.status.success(), "exit {:?}: {}", out.status, String::from_utf8_lossy(&out.stderr));
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn log_of(dir: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(dir.join("mjai_log.json")).expect("mjai_log.json");
    text.lines().map(|l| serde_json::from_str(l).expect("a JSON line")).collect()
}

fn summary_of(dir: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).expect("summary.json")).unwrap()
}

fn ints(v: &Value) -> Vec<i64> {
    v.as_array().unwrap_or_else(|| panic!("{v} is an array")).iter().map(|x| x.as_i64().unwrap()).collect()
}

/// The events of each hand (`start_kyoku` through `end_kyoku`) by label, `E2-0`.
fn hands(log: &[Value]) -> Vec<(String, Vec<Value>)> {
    let mut out: Vec<(String, Vec<Value>)> = Vec::new();
    for e in log {
        if e["type"] == "start_kyoku" {
            out.push((format!("{}{}-{}", e["bakaze"].as_str().unwrap(), e["kyoku"], e["honba"]), Vec::new()));
        }
        if let Some((_, events)) = out.last_mut() {
            if events.last().is_none_or(|l: &Value| l["type"] != "end_kyoku") {
                events.push(e.clone());
            }
        }
    }
    out
}

#[test]
fn three_built_in_bots_play_a_three_player_hanchan() {
    let dir = tempfile::tempdir().unwrap();
    let out = play(dir.path(), &["--rules", "riichi-dev-3p", "--seed", "31"], &BOTS);
    ok(&out);
    let log = log_of(dir.path());
    assert_eq!(log[0]["names"].as_array().map(Vec::len), Some(3), "{}", log[0]);
    assert_eq!(log.last().unwrap()["type"], "end_game");
    let mut kitas = 0;
    for e in &log {
        for key in ["scores", "tehais", "deltas"] {
            if let Some(a) = e[key].as_array() {
                assert_eq!(a.len(), 3, "three seats on the wire: {e}");
            }
        }
        assert!(e["actor"].as_u64().is_none_or(|a| a < 3), "{e}");
        assert_ne!(e["type"], "chi", "no chi at three seats");
        kitas += usize::from(e["type"] == "kita");
    }
    assert!(kitas > 0, "rulebase sets Norths aside");
    let first = log.iter().find(|e| e["type"] == "start_kyoku").unwrap();
    assert_eq!(ints(&first["scores"]), [35000; 3], "sanma starts at 35000");
    let s = summary_of(dir.path());
    let scores = ints(&s["scores"]);
    assert_eq!(scores.iter().sum::<i64>(), 105_000, "{s}");
    let mut ranks = ints(&s["rank"]);
    ranks.sort_unstable();
    assert_eq!(ranks, [1, 2, 3]);
    assert_eq!(ints(&s["chombos"]), [0, 0, 0], "a built-in never errs");
    assert_eq!(s["bots"].as_array().map(Vec::len), Some(3));
    assert_eq!(s["decision_times"].as_array().map(Vec::len), Some(3));
    assert!(dir.path().join("player_logs.2.stdout.txt").exists());
    assert!(!dir.path().join("player_logs.3.stdout.txt").exists(), "no fourth seat");

    let log_path = dir.path().join("mjai_log.json");
    let log_arg = log_path.to_str().unwrap();
    let verified = mjai_sim(&["verify", log_arg, "--rules", "riichi-dev-3p"]);
    ok(&verified);
    let line = String::from_utf8_lossy(&verified.stdout);
    assert!(line.contains("ok under --rules riichi-dev-3p"), "{line}");
    assert!(line.contains(&format!("{scores:?}")), "the final scores of three: {line}");
    let four = mjai_sim(&["verify", log_arg]);
    assert!(!four.status.success());
    assert!(
        stderr(&four).contains("3-player game") && stderr(&four).contains("--rules riichi-dev-3p"),
        "{}",
        stderr(&four)
    );
}

#[test]
fn the_table_size_and_the_bots_given_must_agree() {
    let dir = tempfile::tempdir().unwrap();
    let three = play(dir.path(), &[], &BOTS);
    assert_eq!(three.status.code(), Some(1));
    assert!(stderr(&three).contains("--rules riichi-dev-3p"), "{}", stderr(&three));
    assert_eq!(stderr(&three).trim().lines().count(), 1, "{}", stderr(&three));
    let four = play(dir.path(), &["--rules", "tenhou-3p"], &[&BOTS[..], &["builtin:tsumogiri"]].concat());
    assert_eq!(four.status.code(), Some(1));
    assert!(stderr(&four).contains("give 3 bots"), "{}", stderr(&four));
    let scores = play(dir.path(), &["--rules", "riichi-dev-3p", "--scores", "25000,25000,25000,25000"], &BOTS);
    assert_eq!(scores.status.code(), Some(1));
    assert!(stderr(&scores).contains("4 scores but the table has 3 seats"), "{}", stderr(&scores));
}

#[test]
fn three_scores_start_a_three_player_game() {
    let dir = tempfile::tempdir().unwrap();
    let opts = ["--rules", "tenhou-3p-east", "--seed", "5", "--scores", "50000,20000,35000", "--start", "E2"];
    ok(&play(dir.path(), &opts, &BOTS));
    let log = log_of(dir.path());
    let first = log.iter().find(|e| e["type"] == "start_kyoku").unwrap();
    assert_eq!(ints(&first["scores"]), [50000, 20000, 35000]);
    assert_eq!(first["kyoku"], 2);
    assert_eq!(ints(&summary_of(dir.path())["scores"]).iter().sum::<i64>(), 105_000);
}

#[test]
fn a_hand_of_a_three_player_log_plays_again_from_it() {
    let first = tempfile::tempdir().unwrap();
    ok(&play(first.path(), &["--rules", "riichi-dev-3p", "--seed", "9"], &BOTS));
    let logged = hands(&log_of(first.path()));
    assert!(logged.len() >= 3, "a hanchan has at least 3 hands");
    let label = logged[2].0.clone();
    let source = format!("{}@{label}", first.path().join("mjai_log.json").display());
    let again = tempfile::tempdir().unwrap();
    ok(&play(again.path(), &["--rules", "riichi-dev-3p", "--from", &source], &BOTS));
    let replayed = hands(&log_of(again.path()));
    assert_eq!(replayed[0].0, label);
    assert_eq!(replayed, logged[2..], "the seeded walls deal the same hands to the same bots");
    let wrong = tempfile::tempdir().unwrap();
    let four = play(wrong.path(), &["--from", &source], &[&BOTS[..], &["builtin:tsumogiri"]].concat());
    assert_eq!(four.status.code(), Some(1));
    assert!(stderr(&four).contains("is a 3-player game"), "{}", stderr(&four));
}

#[test]
fn selfplay_plays_three_player_games() {
    let dir = tempfile::tempdir().unwrap();
    let logs = dir.path().to_str().unwrap();
    let out = mjai_sim(&[
        "selfplay",
        "--rules",
        "riichi-dev-3p",
        "builtin:random",
        "builtin:rulebase",
        "builtin:random",
        "--games",
        "3",
        "--logs-dir",
        logs,
    ]);
    ok(&out);
    let table = String::from_utf8_lossy(&out.stdout);
    assert_eq!(table.lines().filter(|l| l.starts_with(char::is_numeric)).count(), 4, "3 games + 3 seats: {table}");
    for game in 0..3 {
        let path = dir.path().join(format!("game-{game:05}/mjai_log.json"));
        let verified = mjai_sim(&["verify", path.to_str().unwrap(), "--rules", "riichi-dev-3p"]);
        ok(&verified);
    }
    let four = mjai_sim(&["selfplay", "builtin:random", "builtin:rulebase", "builtin:random"]);
    assert!(!four.status.success());
    assert!(stderr(&four).contains("--rules riichi-dev-3p"), "{}", stderr(&four));
}
