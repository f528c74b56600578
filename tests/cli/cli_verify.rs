//! `mjai-sim verify --rules`: the built binary names its preset, and a log of mjai.app's
//! engine that Tenhou rules refuse gets the hint to use `--rules mjai-app`.

use std::io::Read;
use std::path::PathBuf;
use std::process::Command;

use mjai_sim::engine::event::Event;
use mjai_sim::engine::game::replay::replay_with;
use mjai_sim::engine::game::Rules;

/// The first reference game (mjai.app's engine) that Tenhou rules refuse, as text.
fn mjai_app_only_log() -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/mortal-arena-100.tar.xz");
    let mut tar_bytes = Vec::new();
    lzma_rs::xz_decompress(&mut std::io::BufReader::new(std::fs::File::open(path).unwrap()), &mut tar_bytes).unwrap();
    let mut ar = tar::Archive::new(&tar_bytes[..]);
    for entry in ar.entries().unwrap() {
        let mut entry = entry.unwrap();
        let mut text = String::new();
        entry.read_to_string(&mut text).unwrap();
        let Ok(events) = text.lines().map(serde_json::from_str).collect::<Result<Vec<Event>, _>>() else { continue };
        if !events.is_empty() && replay_with(&events, Rules::tenhou()).is_err() {
            return text;
        }
    }
    panic!("no reference game needs mjai.app's rules");
}

fn verify(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mjai-sim")).arg("verify").args(args).output().expect("run mjai-sim");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn verify_names_the_preset_and_suggests_mjai_app() {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli_verify_mjai_app.json");
    std::fs::write(&path, mjai_app_only_log()).unwrap();
    let file = path.to_str().unwrap();

    let (code, out) = verify(&[file]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("under --rules tenhou: log line "), "{out}");
    assert!(out.contains("the log replays under --rules mjai-app"), "{out}");
    assert_eq!(out.lines().count(), 1, "{out}");

    let (code, out) = verify(&["--rules", "mjai-app", file]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("ok under --rules mjai-app"), "{out}");
}

#[test]
fn a_broken_log_gets_no_hint_when_no_preset_accepts_it() {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli_verify_broken.json");
    let text = mjai_app_only_log().replacen("\"kyoku\":1", "\"kyoku\":0", 1);
    std::fs::write(&path, text).unwrap();
    let (code, out) = verify(&[path.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("under --rules tenhou: log line 2: kyoku 0 is not 1..=4"), "{out}");
    assert!(!out.contains("mjai-app"), "{out}");
}
