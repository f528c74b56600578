//! Each hostile bot alone against three built-in tsumogiri bots, as the main job.

use std::time::Duration;

use super::catalogue::{Expect, Hostile};
use super::harness::{check_game, json, run_bounded, seats_with, Sandbox};

/// The longest one game may take here (seconds; a healthy game of these bots takes a few).
pub const GAME_BOUND: Duration = Duration::from_secs(120);

/// Plays `h` in seat 1 over `transport` and checks the outcome.
pub fn play(h: &Hostile, transport: &str) {
    let sandbox = Sandbox::new();
    let bot = sandbox.bot(h);
    let logs = sandbox.path("logs");
    let mut args = vec!["--seed", "11", "--transport", transport, "--timeout", "2", "--start-timeout", "6"];
    if h.expect == Expect::EveryHand {
        // Every incarnation pays: start at South 4 with seat 3 far ahead, so that the first
        // chombo ends the game (issue 19: "sleep in start_game").
        args = vec!["--seed", "11", "--transport", transport, "--start-timeout", "3"];
        args.extend(["--start", "S4", "--scores", "20000,20000,20000,40000"]);
    }
    let mut command = sandbox.command(&args);
    command.arg("--logs-dir").arg(&logs).args(seats_with(&bot));
    let what = format!("{} over {transport}, alone", h.name);
    let (output, took) = run_bounded(command, GAME_BOUND, &what);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{what}: exit {:?}\n{stderr}", output.status);
    check_game(&json(&logs.join("summary.json")), &json(&logs.join("errors.json")), 1, h, &what);
    sandbox.assert_no_container_left(&what);
    eprintln!("{what}: finished in {:.1} s", took.as_secs_f64());
}
