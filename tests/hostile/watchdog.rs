//! The bound over a whole game: `--game-timeout` shorter than a game of `slow_start` (it
//! sleeps 3 s in every `start_game`) ends the game as failed — never a hang — with its
//! logs kept and no container left; a tournament retries such a game once, then reports it.

use std::time::Duration;

use super::catalogue::by_name;
use super::harness::{json, run_bounded, seats_with, Sandbox, OPPONENTS};

const BOUND: Duration = Duration::from_secs(120);

/// The main job: exit 2, `summary.json` says `failed` and why.
pub fn game() {
    let sandbox = Sandbox::new();
    let bot = sandbox.bot(&by_name("slow_start"));
    let logs = sandbox.path("logs");
    let mut command = sandbox.command(&["--seed", "11", "--start-timeout", "10", "--game-timeout", "2"]);
    command.arg("--logs-dir").arg(&logs).args(seats_with(&bot));
    let (output, took) = run_bounded(command, BOUND, "a game over its --game-timeout");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("game failed: over its time limit of 2 s (--game-timeout)"), "{stderr}");
    let summary = json(&logs.join("summary.json"));
    assert_eq!(summary["ending"], "failed", "{summary}");
    assert!(summary["failure"].as_str().unwrap().contains("--game-timeout"), "{summary}");
    assert!(std::fs::read_to_string(logs.join("mjai_log.json")).unwrap().starts_with("{\"type\":\"start_game\""));
    sandbox.assert_no_container_left("a game over its --game-timeout");
    assert!(took < Duration::from_secs(2) + super::signals::SIGNAL_BOUND, "ended {took:?} after its start");
}

/// A 1-set tournament whose every game is over the limit: each is tried twice, then
/// reported failed (exit 2).
pub fn tournament() {
    let sandbox = Sandbox::new();
    let bot = format!("slow={}", sandbox.bot(&by_name("slow_start")));
    let dir = sandbox.path("tournament");
    let mut command = sandbox.command(&["tournament", "--sets", "1", "--jobs", "2", "--seed", "7"]);
    command.args(["--start-timeout", "10", "--game-timeout", "2", "--dir"]).arg(&dir).arg(bot.as_str()).args(OPPONENTS);
    let (output, _) = run_bounded(command, BOUND, "a tournament whose games are over their --game-timeout");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    let failures = stderr.matches("failed 2 times: over its time limit of 2 s (--game-timeout)").count();
    assert_eq!(failures, 4, "every game is tried twice, then reported with the reason:\n{stderr}");
    sandbox.assert_no_container_left("a tournament whose games are over their --game-timeout");
}
