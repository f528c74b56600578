//! End-to-end without Docker (fast): built-in bots in process and example bots as local
//! processes (`--runtime process`), through the `mjai-sim` binary.

use std::process::Command;

use crate::e2e_support::{bin, play, play_seats, repo};

#[test]
fn builtin_bots_play_a_full_hanchan_with_json_summary() {
    let run = play(
        ["builtin:tsumogiri", "builtin:rulebase", "builtin:tsumogiri", "builtin:rulebase"],
        &["--seed", "11", "--json"],
    );
    run.assert_complete_and_verified();
    let printed: serde_json::Value = serde_json::from_slice(&run.output.stdout).expect("--json prints the summary");
    assert_eq!(printed, run.summary());
    let s = run.summary();
    assert_eq!(s["bots"][1], "builtin:rulebase");
    assert_eq!(s["seed"], serde_json::json!([11, 0]));
    let ranks: Vec<u64> = s["rank"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
    let mut sorted = ranks.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, [1, 2, 3, 4]);
    assert!(run.stderr().contains("E1-0"), "progress shows hands: {}", run.stderr());
}

#[test]
fn same_seed_same_game() {
    let bots = ["builtin:rulebase", "builtin:rulebase", "builtin:tsumogiri", "builtin:rulebase"];
    let a = play(bots, &["--seed", "12,34"]);
    let b = play(bots, &["--seed", "12,34"]);
    a.assert_complete_and_verified();
    assert_eq!(a.read("mjai_log.json"), b.read("mjai_log.json"));
}

#[test]
fn example_bots_run_as_local_processes() {
    let t = repo("examples/tsumogiri");
    let run = play([&t, &t, &t, &t], &["--seed", "13", "--runtime", "process"]);
    run.assert_complete_and_verified();
    assert!(run.read("player_logs.0.stdout.txt").lines().count() > 10);
}

#[test]
fn three_example_bots_play_a_three_player_hanchan_as_local_processes() {
    let t = repo("examples/tsumogiri");
    let s = repo("examples/shanten");
    let run = play_seats(&[&t, &s, &t], &["--seed", "14", "--runtime", "process", "--rules", "riichi-dev-3p"]);
    run.assert_complete_and_verified_under("riichi-dev-3p");
    assert_eq!(run.summary()["chombos"], serde_json::json!([0, 0, 0]));
    let start = run.read("player_logs.1.stdout.txt");
    assert!(start.lines().count() > 10, "{start}");
    assert!(!run.dir.path().join("player_logs.3.stdout.txt").exists(), "three seats, three logs");
}

#[test]
fn an_invalid_bot_pays_a_chombo_at_a_three_player_table() {
    let (t, bad) = (repo("examples/tsumogiri"), repo("examples/invalid"));
    let run = play_seats(&[&t, &bad, &t], &["--seed", "15", "--runtime", "process", "--rules", "riichi-dev-3p"]);
    run.assert_complete_and_verified_under("riichi-dev-3p");
    let chombos = run.summary()["chombos"].clone();
    assert_eq!(chombos[0], 0);
    assert_eq!(chombos[2], 0);
    assert!(chombos[1].as_u64().unwrap() >= 1, "{chombos}");
    let errors: Vec<_> = run.log().into_iter().filter(|e| e["reason"] == "error").collect();
    assert_eq!(errors.len() as u64, chombos[1].as_u64().unwrap());
    for e in &errors {
        let deltas = e["deltas"].as_array().unwrap();
        assert_eq!(deltas.len(), 3, "{e}");
        assert!(deltas[1].as_i64().unwrap() < 0, "the offender pays: {e}");
        assert_eq!(deltas.iter().map(|d| d.as_i64().unwrap()).sum::<i64>(), 0, "{e}");
    }
}

#[test]
fn wrong_arguments_fail_with_one_clear_line() {
    let out = Command::new(bin()).args(["builtin:tsumogiri", "builtin:tsumogiri"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("4 needed"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");

    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(bin())
        .arg("--logs-dir")
        .arg(dir.path())
        .args(["builtin:nosuchbot", "builtin:tsumogiri", "builtin:tsumogiri", "builtin:tsumogiri"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("seat 0"));

    let out = Command::new(bin())
        .args(["/no/such/bot.zip", "builtin:tsumogiri", "builtin:tsumogiri", "builtin:tsumogiri"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/no/such/bot.zip"));
}

#[test]
fn check_accepts_a_good_submission() {
    let out =
        Command::new(bin()).args(["check", "--runtime", "process", &repo("examples/tsumogiri")]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("start_game -> none") && text.contains("\"type\":\"dahai\""), "{text}");
}

/// A stdlib tsumogiri bot that takes `slow` seconds over each of its first `count` discards
/// in the first hand (E1, honba 0) that are not the hand's start line (start lines have the
/// start timeout, not the decision timeout, and spend no time bank).
fn slow_start_bot(dir: &std::path::Path, slow: f64, count: u32) -> String {
    let source = format!(
        r#"import json, sys, time
seat = int(sys.argv[1])
slow_left, first_hand = {count}, False
for line in sys.stdin:
    if not line.strip():
        continue
    events = json.loads(line)
    for e in events:
        if e.get("type") == "start_kyoku":
            first_hand = (e["bakaze"], e["kyoku"], e["honba"]) == ("E", 1, 0)
    start = events[0].get("type") in ("start_game", "start_kyoku")
    last = events[-1]
    if last.get("type") == "tsumo" and last.get("actor") == seat:
        if first_hand and not start and slow_left > 0:
            slow_left -= 1
            time.sleep({slow})
        out = {{"type": "dahai", "actor": seat, "pai": last["pai"], "tsumogiri": True}}
    else:
        out = {{"type": "none"}}
    print(json.dumps(out), flush=True)
"#
    );
    let bot = dir.join("slow");
    std::fs::create_dir_all(&bot).unwrap();
    std::fs::write(bot.join("bot.py"), source).unwrap();
    bot.display().to_string()
}

#[test]
fn the_time_bank_pays_for_slow_decisions_until_it_is_spent() {
    // --timeout 0.5 and two decisions of 1.5 s: each needs 1.0 s of bank
    let dir = tempfile::tempdir().unwrap();
    let bot = slow_start_bot(dir.path(), 1.5, 2);
    let t = "builtin:tsumogiri";
    let timeouts = |bank: &str| {
        let run =
            play([&bot, t, t, t], &["--seed", "21", "--runtime", "process", "--timeout", "0.5", "--time-bank", bank]);
        assert!(run.output.status.success(), "{}", run.stderr());
        let errors = run.errors();
        assert!(errors.iter().all(|e| e["player_id"] == 0), "only the slow seat errs: {errors:?}");
        errors.iter().filter(|e| e["error_type"] == "timeout").count()
    };
    assert_eq!(timeouts("0"), 1, "no bank: the first slow decision is late");
    assert_eq!(timeouts("2.5"), 0, "2.5 s of bank pays for both (about 2 s)");
    assert_eq!(timeouts("1.5"), 1, "1.5 s pays for the first; the second finds 0.5 s left");
}

#[test]
fn under_riichi_dev_a_late_answer_is_skipped_and_the_next_one_taken() {
    // one discard takes 1.3 s over a 1 s decision time with no bank: the default is played
    // at 1 s and the bot keeps running; its late answer (a discard of the earlier draw)
    // comes 0.3 s later, and must not be taken as its answer to the next line
    let dir = tempfile::tempdir().unwrap();
    let bot = slow_start_bot(dir.path(), 1.3, 1);
    let t = "builtin:tsumogiri";
    let options =
        ["--seed", "21", "--runtime", "process", "--clock", "riichi-dev", "--timeout", "1", "--time-bank", "0"];
    let run = play([&bot, t, t, t], &options);
    run.assert_complete_and_verified();
    let s = run.summary();
    assert_eq!(s["chombos"], serde_json::json!([0, 0, 0, 0]), "{}", run.stderr());
    assert_eq!(s["defaulted"], serde_json::json!([1, 0, 0, 0]));
    assert_eq!(s["restarts"], 0);
    let errors = run.errors();
    assert_eq!(errors.len(), 1, "the late answer was not taken as the next one: {errors:?}");
    assert_eq!(errors[0]["error_type"], "defaulted");
    let message = errors[0]["exception"].as_str().unwrap();
    assert!(message.starts_with("no answer within 1.0 s; the default {\"type\":\"dahai\",\"actor\":0"), "{message}");
    assert!(message.ends_with("was played (riichi-dev clock, no penalty)"), "{message}");
}
