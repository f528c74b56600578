//! Nothing a bot wrote is lost (issue 15): stderr of every incarnation kept in one file
//! with restart markers, `stderr_tail` on errors, the `meta` of answers on the logged
//! actions, and the runtime's warnings shown on stderr (`-v/-q`). Real binary, real bots.

use std::path::Path;
use std::process::Command;

use crate::e2e_support::{bin, play, repo, require_docker, require_image, Run};

const CRASH_LINE: &str = "crash bot: exiting on purpose at its 3rd draw";

/// Seat 2 is the crash bot: three incarnations, each crashing at its third draw (the third
/// chombo ends the game, by its score below 0 or by `--max-restarts 2`).
fn assert_every_incarnation_kept(run: &Run) {
    assert_eq!(run.summary()["chombos"][2], 3, "{}", run.stderr());
    let stderr = run.read("player_logs.2.stderr.txt");
    assert_eq!(stderr.matches(CRASH_LINE).count(), 3, "one crash per incarnation:\n{stderr}");
    assert_eq!(stderr.matches("[mjai-sim: restart ").count(), 2, "{stderr}");
    let first = stderr.find(CRASH_LINE).unwrap();
    let marker = stderr.find("[mjai-sim: restart 1: the bots start again at kyoku ").unwrap();
    assert!(first < marker, "the first bot's last words come before the first restart:\n{stderr}");
    let errors = run.errors();
    assert_eq!(errors.len(), 3, "{errors:#?}");
    for e in &errors {
        assert_eq!(e["error_type"], "crashed", "{e}");
        let tail: Vec<&str> = e["stderr_tail"].as_array().unwrap().iter().map(|l| l.as_str().unwrap()).collect();
        assert_eq!(tail, [CRASH_LINE], "the crashed bot's own last line, once: {e}");
    }
    // The other seats' logs hold only the markers.
    let other = run.read("player_logs.0.stderr.txt");
    assert_eq!(other.matches("[mjai-sim: restart ").count(), 2, "{other}");
}

fn crash_game(runtime: &str) -> Run {
    let t = repo("examples/tsumogiri");
    play([&t, &t, &repo("examples/crash"), &t], &["--seed", "4", "--max-restarts", "2", "--runtime", runtime])
}

#[test]
fn a_crashed_bot_keeps_its_stderr_across_restarts_in_process() {
    assert_every_incarnation_kept(&crash_game("process"));
}

#[test]
fn a_crashed_bot_keeps_its_stderr_across_restarts_in_docker() {
    require_docker();
    require_image();
    assert_every_incarnation_kept(&crash_game("docker"));
}

/// A tsumogiri bot whose answers carry a `meta`; at its 2nd draw the meta is 20,000 bytes.
const META_BOT: &str = r#"
import json, sys
seat = int(sys.argv[1])
draws = 0
for line in sys.stdin:
    last = json.loads(line)[-1]
    answer = {"type": "none", "meta": {"note": "informational"}}
    if last["type"] == "tsumo" and last["actor"] == seat:
        draws += 1
        meta = {"q_values": [draws, -1.5], "mask_bits": 7}
        if draws == 2:
            meta = {"big": "x" * 20000}
        answer = {"type": "dahai", "actor": seat, "pai": last["pai"], "tsumogiri": True, "meta": meta}
    print(json.dumps(answer), flush=True)
"#;

fn bot_dir(source: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bot.py"), source).unwrap();
    dir
}

#[test]
fn the_meta_of_an_answer_is_kept_on_its_action_in_the_log() {
    let bot = bot_dir(META_BOT);
    let t = repo("examples/tsumogiri");
    let b = bot.path().display().to_string();
    let run = play([&b, &t, &t, &t], &["--seed", "7", "--runtime", "process"]);
    run.assert_complete_and_verified();
    let log = run.log();
    let own: Vec<&serde_json::Value> = log.iter().filter(|e| e["type"] == "dahai" && e["actor"] == 0).collect();
    assert!(own.len() > 10);
    assert_eq!(own[0]["meta"], serde_json::json!({"q_values": [1, -1.5], "mask_bits": 7}));
    assert_eq!(own[1].get("meta"), None, "a meta over 16 KiB is not kept: {}", own[1]);
    assert!(own[1]["meta_dropped"].as_u64().unwrap() > 20000, "{}", own[1]);
    assert_eq!(own[2]["meta"]["q_values"][0], 3);
    // start_game's meta is the engine's stamp, not a bot's
    assert_eq!(
        (log[0]["type"].as_str(), log[0]["meta"]["engine"]["runtime"].as_str()),
        (Some("start_game"), Some("process"))
    );
    assert!(
        log.iter().skip(1).filter(|e| e.get("meta").is_some()).all(|e| e["actor"] == 0 && e["type"] == "dahai"),
        "metas only on the bot's own actions (a `none` is not logged)"
    );
}

/// Answers `none` twice to every line (one write): the second answer is unrequested.
const CHATTY_BOT: &str = r#"
import json, sys
seat = int(sys.argv[1])
for line in sys.stdin:
    last = json.loads(line)[-1]
    if last["type"] == "tsumo" and last["actor"] == seat:
        print(json.dumps({"type": "dahai", "actor": seat, "pai": last["pai"], "tsumogiri": True}), flush=True)
    else:
        sys.stdout.write('{"type":"none"}\n{"type":"none"}\n')
        sys.stdout.flush()
"#;

fn check(bot: &Path, flags: &[&str]) -> (bool, String) {
    let out = Command::new(bin()).args(["check", "--runtime", "process"]).args(flags).arg(bot).output().unwrap();
    (out.status.success(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn runtime_warnings_reach_stderr_unless_quiet() {
    let bot = bot_dir(CHATTY_BOT);
    let (ok, stderr) = check(bot.path(), &[]);
    assert!(ok, "{stderr}");
    assert!(stderr.contains("WARN") && stderr.contains("unrequested line"), "{stderr}");
    let (ok, stderr) = check(bot.path(), &["-q"]);
    assert!(ok, "{stderr}");
    assert!(!stderr.contains("unrequested"), "{stderr}");
}
