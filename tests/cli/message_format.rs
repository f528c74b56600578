//! `--message-format json` (issue 28, item 4): the real binary's stdout is one JSON message per
//! line, each with a `reason`; the final `result` agrees with the files the command wrote
//! (`summary.json`, `standings.json`, the games' folders, the log itself), failures end with
//! an `error` of the documented `code` and a nonzero exit, and without the flag stdout stays
//! the human text. Built-in bots and the process runtime only (no Docker).

use std::path::Path;
use std::process::Output;

use serde_json::Value;

use crate::e2e_support::{mjai_sim, play, repo, Run};

const BOTS: [&str; 4] = ["builtin:rulebase", "builtin:random", "builtin:rulebase", "builtin:tsumogiri"];
const JSON: [&str; 2] = ["--message-format", "json"];

/// Every stdout line as JSON; panics on a line that is not an object with a `reason`.
fn messages(output: &Output) -> Vec<Value> {
    let text = String::from_utf8(output.stdout.clone()).expect("UTF-8 stdout");
    text.lines()
        .map(|line| {
            let v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
            assert!(v["reason"].is_string(), "no reason: {line}");
            v
        })
        .collect()
}

fn reasons(messages: &[Value]) -> Vec<&str> {
    messages.iter().map(|m| m["reason"].as_str().unwrap()).collect()
}

/// Runs the binary with `args` and the JSON flag.
fn run_json(args: &[&str]) -> (Output, Vec<Value>) {
    let output = mjai_sim().args(args).args(JSON).output().expect("the binary runs");
    let m = messages(&output);
    (output, m)
}

/// The last `mjai-sim: ` line of stderr, without its prefix (what a person reads).
fn own_stderr_line(output: &Output) -> String {
    let err = String::from_utf8_lossy(&output.stderr);
    let line = err.lines().rev().find_map(|l| l.strip_prefix("mjai-sim: ")).unwrap_or_else(|| panic!("no line: {err}"));
    line.to_string()
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))).unwrap()
}

#[test]
fn one_game_streams_each_hand_and_its_result_agrees_with_summary_json() {
    let game = play(BOTS, &["--seed", "7,3", "--no-html", "--message-format", "json"]);
    assert!(game.output.status.success(), "{}", game.stderr());
    let m = messages(&game.output);
    let summary = game.summary();
    assert_eq!(m.first().unwrap()["reason"], "game-started");
    assert_eq!(m[0]["seed"], serde_json::json!([7, 3]));
    assert_eq!(m[0]["logs_dir"], game.dir.path().display().to_string());
    assert_eq!(reasons(&m).last(), Some(&"result"));

    // One `hand` per kyoku of summary.json, with the scores the game recorded after it.
    let hands: Vec<&Value> = m.iter().filter(|v| v["reason"] == "hand").collect();
    let kyoku = summary["kyoku"].as_array().unwrap();
    assert_eq!(hands.len(), kyoku.len());
    assert!(hands.len() >= 4, "a hanchan has at least 4 hands");
    for (hand, k) in hands.iter().zip(kyoku) {
        assert_eq!(hand["scores"], k["end_kyoku_scores"], "{hand}");
        let info = &k["kyoku_info"];
        let label = format!("{}{}-{}", info["bakaze"].as_str().unwrap(), info["kyoku"], info["honba"]);
        assert_eq!(hand["kyoku"], label.as_str());
        assert!(!hand["results"].as_array().unwrap().is_empty(), "{hand}");
    }

    let result = m.last().unwrap();
    assert_eq!(result["command"], "play");
    for key in ["scores", "rank", "chombos", "restarts", "kyoku_count", "ending", "completed", "seed"] {
        assert_eq!(result[key], summary[key], "{key}");
    }
    assert_eq!(result["logs_dir"], game.dir.path().display().to_string());
    // The table goes nowhere with JSON messages: stderr has the per-hand lines, not the table.
    assert!(!game.stderr().contains("median ms"), "{}", game.stderr());
}

#[test]
fn without_the_flag_stdout_is_the_table_and_no_json() {
    let game = play(BOTS, &["--seed", "7,3", "--no-html"]);
    assert!(game.output.status.success(), "{}", game.stderr());
    let out = String::from_utf8(game.output.stdout.clone()).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    assert!(lines[0].starts_with("seat ") && lines[0].ends_with("max ms"), "{out}");
    let scores = game.summary()["scores"].clone();
    for (seat, line) in lines[1..].iter().enumerate() {
        assert!(line.starts_with(&seat.to_string()), "{line}");
        assert!(line.split_whitespace().any(|w| w.parse::<i64>().ok() == scores[seat].as_i64()), "{line}");
    }
    assert!(!out.contains('{'), "{out}");
}

#[test]
fn a_refused_bot_is_a_bad_submission_naming_its_seat() {
    let bots = ["builtin:tsumogiri", "builtin:tsumogiri", "builtin:no-such-bot", "builtin:tsumogiri"];
    let game = play(bots, &JSON);
    assert_eq!(game.output.status.code(), Some(1));
    let m = messages(&game.output);
    assert_eq!(reasons(&m), ["error"]);
    assert_eq!(m[0]["code"], "bad_submission");
    assert_eq!(m[0]["seat"], 2);
    assert_eq!(m[0]["message"], own_stderr_line(&game.output));
    assert!(!game.dir.path().join("summary.json").exists());

    // The same refusal in a tournament names the bot.
    let dir = tempfile::tempdir().unwrap();
    let t = dir.path().join("t");
    let (out, m) = run_json(&[
        "tournament",
        "builtin:rulebase",
        "nope=builtin:nope",
        "builtin:random",
        "builtin:tsumogiri",
        "--dir",
        t.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(reasons(&m), ["error"]);
    assert_eq!((m[0]["code"].as_str(), m[0]["bot"].as_str()), (Some("bad_submission"), Some("nope")));
}

#[test]
fn option_errors_are_bad_option_even_when_clap_refuses_the_line() {
    // Out of range: clap's own refusal, before any command runs.
    let (out, m) = run_json(&[
        "--timeout",
        "0",
        "builtin:tsumogiri",
        "builtin:tsumogiri",
        "builtin:tsumogiri",
        "builtin:tsumogiri",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(reasons(&m), ["error"]);
    assert_eq!(m[0]["code"], "bad_option");
    assert!(m[0]["message"].as_str().unwrap().contains("--timeout"), "{}", m[0]);
    // Three bots: the command's own check.
    let (out, m) = run_json(&["builtin:tsumogiri", "builtin:tsumogiri", "builtin:tsumogiri"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!((m.len(), m[0]["code"].as_str()), (1, Some("bad_option")));
    assert_eq!(m[0]["message"], own_stderr_line(&out));
    // --json (pretty JSON) and JSON messages exclude each other.
    let (out, m) = run_json(&["standings", "--json", "x"]);
    assert_eq!((out.status.code(), m[0]["code"].as_str()), (Some(1), Some("bad_option")));
}

#[test]
fn an_abandoned_game_gives_its_result_then_restart_limit_and_exit_2() {
    let bots = [&repo("examples/crash"), "builtin:tsumogiri", "builtin:tsumogiri", "builtin:tsumogiri"];
    let game = play(bots, &["--runtime", "process", "--max-restarts", "1", "--no-html", "--message-format", "json"]);
    assert_eq!(game.output.status.code(), Some(2), "{}", game.stderr());
    let m = messages(&game.output);
    let r = reasons(&m);
    assert_eq!(&r[r.len() - 2..], ["result", "error"], "{r:?}");
    let (result, error) = (&m[m.len() - 2], &m[m.len() - 1]);
    assert_eq!(error["code"], "restart_limit");
    assert_eq!(error["message"], own_stderr_line(&game.output));
    let summary = game.summary();
    assert_eq!(result["ending"], "restart_limit");
    assert_eq!((&result["chombos"], &result["restarts"]), (&summary["chombos"], &summary["restarts"]));
    // The chombos as they happened: a bot-error of seat 0 and a restart.
    let errors: Vec<&Value> = m.iter().filter(|v| v["reason"] == "bot-error").collect();
    assert!(!errors.is_empty() && errors.iter().all(|e| e["player_id"] == 0), "{errors:?}");
    assert_eq!(errors.len(), game.errors().len());
    assert!(r.contains(&"restart"), "{r:?}");
}

/// A finished game of built-in bots for the log commands.
fn finished_game() -> Run {
    let game = play(BOTS, &["--seed", "11,2", "--no-html"]);
    assert!(game.output.status.success(), "{}", game.stderr());
    game
}

#[test]
fn verify_gives_the_reproduced_scores_or_the_first_different_line() {
    let game = finished_game();
    let log = game.log_path();
    let (out, m) = run_json(&["verify", log.to_str().unwrap()]);
    assert!(out.status.success());
    assert_eq!(reasons(&m), ["result"]);
    let summary = game.summary();
    assert_eq!(m[0]["command"], "verify");
    assert_eq!(m[0]["final_scores"], summary["scores"]);
    assert_eq!(m[0]["kyokus"], summary["kyoku_count"]);
    assert_eq!(m[0]["events"], game.log().len());
    assert_eq!(m[0]["partial"], false);

    // A changed discard: verify_mismatch at or before its line.
    let mut lines: Vec<String> = game.read("mjai_log.json").lines().map(String::from).collect();
    let n = lines.iter().position(|l| l.contains("\"type\":\"dahai\"")).unwrap();
    let mut event: Value = serde_json::from_str(&lines[n]).unwrap();
    event["pai"] = Value::from(if event["pai"] == "E" { "N" } else { "E" });
    lines[n] = event.to_string();
    let bad = game.dir.path().join("bad.json");
    std::fs::write(&bad, lines.join("\n") + "\n").unwrap();
    let (out, m) = run_json(&["verify", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(reasons(&m), ["error"]);
    assert_eq!(m[0]["code"], "verify_mismatch");
    let line = m[0]["line"].as_u64().unwrap() as usize;
    assert!(line >= 2 && line <= n + 1, "line {line}, changed {}", n + 1);
    // The human verdict line is the same text after the log's path.
    let human = mjai_sim().arg("verify").arg(&bad).output().unwrap();
    let text = String::from_utf8(human.stdout).unwrap();
    assert_eq!(text.trim_end(), format!("{}: {}", bad.display(), m[0]["message"].as_str().unwrap()));

    // Not an mjai log: not_mjai_log naming line 2; a missing file: io_error.
    let garbage = game.dir.path().join("garbage.json");
    std::fs::write(&garbage, format!("{}\nnot json\n", lines[0])).unwrap();
    let (out, m) = run_json(&["verify", garbage.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!((m[0]["code"].as_str(), m[0]["line"].as_u64()), (Some("not_mjai_log"), Some(2)));
    let (out, m) = run_json(&["verify", game.dir.path().join("missing.json").to_str().unwrap()]);
    assert_eq!((out.status.code(), m[0]["code"].as_str()), (Some(1), Some("io_error")));
}

#[test]
fn export_view_and_dataset_give_what_they_wrote() {
    let game = finished_game();
    let dir = game.dir.path();
    let log = game.log_path();

    let (out, m) = run_json(&["export", log.to_str().unwrap()]);
    assert!(out.status.success());
    assert_eq!(reasons(&m), ["result"]);
    let summary = game.summary();
    let sc: Vec<Value> = m[0]["game"]["sc"].as_array().unwrap().iter().step_by(2).cloned().collect();
    assert_eq!(Value::from(sc), summary["scores"]);
    assert_eq!(m[0]["game"]["log"].as_array().unwrap().len(), summary["kyoku_count"].as_u64().unwrap() as usize);

    let page = dir.join("page.html");
    let (out, m) = run_json(&["view", dir.to_str().unwrap(), "-o", page.to_str().unwrap()]);
    assert!(out.status.success());
    assert_eq!(m[0]["path"], page.display().to_string());
    assert!(std::fs::read_to_string(&page).unwrap().to_lowercase().starts_with("<!doctype html"));

    let table = dir.join("d.parquet");
    let (out, m) = run_json(&["dataset", dir.to_str().unwrap(), "--kind", "decisions", "-o", table.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(reasons(&m), ["result"]);
    assert_eq!((m[0]["logs"].as_u64(), m[0]["skipped"].as_array().map(Vec::len)), (Some(1), Some(0)));
    assert!(m[0]["rows"].as_u64().unwrap() > 0);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&format!("wrote {} rows", m[0]["rows"])), "{err}");
    assert!(table.exists());

    let (out, m) =
        run_json(&["dataset", dir.join("none").to_str().unwrap(), "--kind", "riichi", "-o", table.to_str().unwrap()]);
    assert_eq!((out.status.code(), m[0]["code"].as_str()), (Some(1), Some("not_found")));
}

#[test]
fn a_tournament_streams_progress_and_its_result_is_standings_json() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("t");
    let d = dir.to_str().unwrap();
    let (out, m) = run_json(&[
        "tournament",
        "builtin:rulebase",
        "builtin:random",
        "builtin:tsumogiri",
        "builtin:rulebase",
        "--sets",
        "1",
        "--seed",
        "3",
        "--jobs",
        "1",
        "--dir",
        d,
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let r = reasons(&m);
    assert_eq!((r.first(), r.last()), (Some(&"tournament-started"), Some(&"result")));
    assert_eq!(m[0]["total"], 4);
    assert_eq!(m[0]["bots"], serde_json::json!(["rulebase", "random", "tsumogiri", "rulebase#2"]));

    let progress: Vec<(u64, u64)> = m
        .iter()
        .filter(|v| v["reason"] == "progress")
        .map(|v| (v["done"].as_u64().unwrap(), v["total"].as_u64().unwrap()))
        .collect();
    assert_eq!(progress.last(), Some(&(4, 4)));
    assert!(progress.windows(2).all(|w| w[0].0 < w[1].0), "{progress:?}");

    // Each finished game agrees with its own folder's summary.json.
    let finished: Vec<&Value> = m.iter().filter(|v| v["reason"] == "game-finished").collect();
    assert_eq!(finished.len(), 4);
    for g in finished {
        let folder = std::fs::read_dir(dir.join("games"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.file_name().unwrap().to_string_lossy().parse::<u64>().ok() == g["index"].as_u64())
            .unwrap_or_else(|| panic!("no folder for {g}"));
        let summary = read_json(&folder.join("summary.json"));
        assert_eq!((&g["scores"], &g["ranks"]), (&summary["scores"], &summary["rank"]), "{g}");
    }

    let result = m.last().unwrap();
    assert_eq!(result["command"], "tournament");
    assert_eq!(result["standings"], read_json(&dir.join("standings.json")));
    assert_eq!(result["failed"], serde_json::json!([]));

    // `standings` reads the same back; a folder without a tournament is not_found.
    let (out, m) = run_json(&["standings", d]);
    assert!(out.status.success());
    assert_eq!(m[0]["standings"], read_json(&dir.join("standings.json")));
    let (out, m) = run_json(&["standings", tmp.path().to_str().unwrap()]);
    assert_eq!((out.status.code(), m[0]["code"].as_str()), (Some(1), Some("not_found")));
    assert_eq!(m[0]["message"], own_stderr_line(&out));
}
