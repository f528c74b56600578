//! Each hostile bot in a 2-set duplicate tournament against three built-in tsumogiri bots,
//! `--jobs 2`: 8 games, the hostile bot in every seat twice.

use std::time::Duration;

use super::catalogue::{Expect, Hostile};
use super::harness::{check_game, json, run_bounded, Sandbox, OPPONENTS};

/// The longest the tournament may take here (seconds; healthy: well under a minute, a
/// bot stuck in every `start_game` about two).
pub const TOURNAMENT_BOUND: Duration = Duration::from_secs(420);

/// Plays the tournament over `transport` and checks every game.
pub fn play(h: &Hostile, transport: &str) {
    let sandbox = Sandbox::new();
    let bot = format!("hostile={}", sandbox.bot(h));
    let dir = sandbox.path("tournament");
    let start_timeout = if h.expect == Expect::EveryHand { "3" } else { "6" };
    let mut command = sandbox.command(&["tournament", "--sets", "2", "--jobs", "2", "--seed", "7"]);
    command
        .args(["--transport", transport, "--timeout", "2", "--start-timeout", start_timeout, "--dir"])
        .arg(&dir)
        .arg(bot.as_str())
        .args(OPPONENTS);
    let what = format!("{} over {transport}, tournament", h.name);
    let (output, took) = run_bounded(command, TOURNAMENT_BOUND, &what);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{what}: exit {:?}\n{stderr}", output.status);
    for g in 0..8 {
        let game = dir.join(format!("games/{g:06}"));
        let summary = json(&game.join("summary.json"));
        let seat = summary["bots"]
            .as_array()
            .unwrap()
            .iter()
            .position(|b| b == "hostile")
            .unwrap_or_else(|| panic!("{what}: game {g} has no hostile seat: {summary}"));
        check_game(&summary, &json(&game.join("errors.json")), seat, h, &format!("{what}, game {g}"));
    }
    let standings = json(&dir.join("standings.json"));
    let games: Vec<u64> = standings["bots"].as_array().unwrap().iter().map(|b| b["games"].as_u64().unwrap()).collect();
    assert_eq!(games, [8, 8, 8, 8], "{what}: every bot played all 8 games: {standings}");
    sandbox.assert_no_container_left(&what);
    eprintln!("{what}: 8 games in {:.1} s", took.as_secs_f64());
}
