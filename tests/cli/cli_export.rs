//! `mjai-sim export` and `verify` end to end: the built binary on logs written to a scratch
//! folder under `target/`.

use std::path::PathBuf;
use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mjai-sim")).args(args).output().expect("run mjai-sim")
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli_export").join(name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A short hand-made game: E1 where the dealer draws and wins by tsumo at once (tenhou).
const GAME: &str = r#"{"type":"start_game","names":["a","b","c","d"],"seed":[1,2]}
{"type":"start_kyoku","bakaze":"E","dora_marker":"9s","kyoku":1,"honba":0,"kyotaku":0,"oya":0,"scores":[25000,25000,25000,25000],"tehais":[["1m","2m","3m","4p","5p","6p","7s","8s","9s","E","E","E","P"],["1m","2m","3m","4p","5p","6p","7s","8s","9s","S","S","S","F"],["1m","2m","3m","4p","5p","6p","7s","8s","9s","W","W","W","C"],["4m","5m","6m","7p","8p","9p","1s","2s","3s","N","N","N","F"]]}
{"type":"tsumo","actor":0,"pai":"P"}
{"type":"hora","actor":0,"target":0,"deltas":[48000,-16000,-16000,-16000],"ura_markers":[]}
{"type":"end_kyoku"}
"#;

#[test]
fn export_writes_tenhou6_and_prints_urls() {
    let dir = scratch("tenhou");
    let log = dir.join("mjai_log.json");
    std::fs::write(&log, GAME).unwrap();
    let out_file = dir.join("game.json");
    let out = run(&["export", log.to_str().unwrap(), "--format", "tenhou6", "-o", out_file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&out_file).unwrap()).unwrap();
    assert_eq!(v["name"], serde_json::json!(["a", "b", "c", "d"]));
    // Tenhou (dealer, first draw): 役満 16000 from each, written as a dealer tsumo.
    assert_eq!(
        v["log"][0][16],
        serde_json::json!(["和了", [48000, -16000, -16000, -16000], [0, 0, 0, "役満16000点∀", "天和(役満)"]])
    );
    assert_eq!(v["log"][0][5], serde_json::json!([45]));
    let out = run(&["export", log.to_str().unwrap(), "--urls"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 1);
    assert!(text.starts_with("https://tenhou.net/6/#json={\"title\""), "{text}");
}

#[test]
fn verify_reports_a_partial_game() {
    let dir = scratch("partial");
    let log = dir.join("mjai_log.json");
    std::fs::write(&log, GAME).unwrap();
    let out = run(&["verify", log.to_str().unwrap()]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}");
    assert!(text.trim_end().ends_with("1 kyoku verified, partial game"), "{text}");
    assert!(text.contains("ok under --rules tenhou"), "{text}");
}

#[test]
fn a_file_that_is_not_a_log_gets_one_line() {
    let dir = scratch("bad");
    let log = dir.join("notes.txt");
    std::fs::write(&log, "hello\n").unwrap();
    let out = run(&["export", log.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("is not an mjai log"), "{err}");
}
