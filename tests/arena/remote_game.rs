//! Remote seats (`remote:NAME`) end to end: the game binary listens, `mjai-sim connect`
//! runs the bot as a local process and relays it over a WebSocket on 127.0.0.1.

use std::time::{Duration, Instant};

use crate::e2e_support::{play, play_seats, repo, require_docker, require_image};
use crate::remote_support::{finish_bridge, slow_tsumogiri, RemoteGame};

#[test]
fn a_remote_tsumogiri_plays_the_same_hanchan_as_in_a_container() {
    require_docker();
    require_image();
    let (shanten, mjaibot, tsumogiri) =
        (repo("examples/shanten"), repo("examples/mjaibot"), repo("examples/tsumogiri"));
    let mut game = RemoteGame::start(["remote:author", &shanten, &mjaibot, &tsumogiri], &["--seed", "3"]);
    let bridge = game.bridge(0, &[&tsumogiri]);
    let status = game.wait(Duration::from_secs(600));
    assert!(status.success(), "{:?}", game.stderr_lines);
    let (bridge_status, bridge_out, bridge_err) = finish_bridge(bridge, Duration::from_secs(30));
    assert!(bridge_status.success(), "the bridge exits 0 after `bye`: {bridge_err}");

    let contained = play([&tsumogiri, &shanten, &mjaibot, &tsumogiri], &["--seed", "3", "--no-html"]);
    contained.assert_complete_and_verified();
    assert_eq!(game.log_text(), contained.read("mjai_log.json"), "the remote seat's game differs from the container's");
    assert_eq!(game.json("errors.json"), serde_json::json!([]));
    let summary = game.json("summary.json");
    assert_eq!(summary["chombos"], serde_json::json!([0, 0, 0, 0]));
    let rank = summary["rank"][0].as_u64().expect("the summary ranks seat 0");
    let score = summary["scores"][0].as_i64().unwrap();
    let lines: Vec<&str> = bridge_out.lines().collect();
    assert_eq!(lines.len(), 2, "one line on connecting, one per game: {bridge_out}");
    assert!(lines[0].starts_with("connected to ws://127.0.0.1:"), "{bridge_out}");
    assert!(
        lines[1].starts_with(&format!("game over: seat 0, rank {rank}, {score} points, 0 chombos")),
        "{bridge_out}"
    );
}

/// A remote seat at a three-player table (`--rules riichi-dev-3p`): the bridge plays
/// examples/tsumogiri (a local process) for seat 1, the game is the one three built-in
/// tsumogiri play on the seed, and the bridge's `game_over` line lists three scores and three
/// chombo counts.
#[test]
fn a_remote_seat_plays_a_three_player_game_and_hears_three_scores() {
    let t = "builtin:tsumogiri";
    let options = ["--rules", "riichi-dev-3p", "--seed", "8"];
    let mut game = RemoteGame::start([t, "remote:author", t], &options);
    let tsumogiri = repo("examples/tsumogiri");
    let bridge = game.bridge(1, &[&tsumogiri]);
    let status = game.wait(Duration::from_secs(300));
    assert!(status.success(), "{:?}", game.stderr_lines);
    let (bridge_status, bridge_out, bridge_err) = finish_bridge(bridge, Duration::from_secs(30));
    assert!(bridge_status.success(), "the bridge exits 0 after `bye`: {bridge_err}");
    let local = play_seats(&[t, t, t], &[&options[..], &["--no-html"]].concat());
    assert_eq!(game.log_text(), local.read("mjai_log.json"), "the remote seat's game differs from three built-ins'");
    let summary = game.json("summary.json");
    let scores: Vec<String> =
        summary["scores"].as_array().unwrap().iter().map(|s| s.as_i64().unwrap().to_string()).collect();
    assert_eq!(scores.len(), 3);
    let (rank, score) = (summary["rank"][1].as_u64().unwrap(), &scores[1]);
    let line = bridge_out.lines().nth(1).unwrap_or_default().to_string();
    assert_eq!(
        line,
        format!(
            "game over: seat 1, rank {rank}, {score} points, 0 chombos (scores {}; chombos 0,0,0)",
            scores.join(",")
        )
    );
}

#[test]
fn killing_the_bridge_ends_the_game_in_bounded_time_with_chombos_on_its_seat_only() {
    let scratch = tempfile::tempdir().unwrap();
    let bot = slow_tsumogiri(scratch.path(), 20);
    let t = "builtin:tsumogiri";
    let mut game = RemoteGame::start(["remote:author", t, t, t], &["--seed", "5", "--start-timeout", "2"]);
    let mut bridge = game.bridge(0, &["--", "python3", bot.to_str().unwrap()]);
    game.wait_for_events(60);
    bridge.kill().unwrap();
    let killed = Instant::now();
    let _ = bridge.wait();
    let status = game.wait(Duration::from_secs(120));
    // Each hand from here: at most the start timeout (2 s) to find no bridge, then a chombo
    // of a mangan; 25000 points last at most 4 of them.
    assert!(killed.elapsed() < Duration::from_secs(30), "the game took {:?} after the kill", killed.elapsed());
    assert!(status.success(), "{:?}", game.stderr_lines);
    let summary = game.json("summary.json");
    assert_eq!(summary["completed"], true, "{summary}");
    let chombos: Vec<u64> = summary["chombos"].as_array().unwrap().iter().map(|c| c.as_u64().unwrap()).collect();
    assert!(chombos[0] >= 1, "{chombos:?}");
    assert_eq!(&chombos[1..], &[0, 0, 0], "only the remote seat pays");
    let errors = game.json("errors.json");
    let errors = errors.as_array().unwrap();
    assert!(!errors.is_empty());
    for e in errors {
        assert_eq!(e["player_id"], 0, "{e}");
    }
    assert!(
        errors.iter().skip(1).all(|e| e["error_type"] == "start"),
        "after the drop, the seat pays for a bridge that is not back: {errors:?}"
    );
}

/// The bridge's first SIGTERM drains: the game side is told, the game in play is finished
/// with no chombo for the seat (before, SIGTERM killed the bridge and every hand after
/// was a chombo), and the bridge exits 0 once the game is over.
#[test]
fn a_sigterm_drains_the_bridge_which_finishes_the_game_in_play_without_a_chombo() {
    let scratch = tempfile::tempdir().unwrap();
    let bot = slow_tsumogiri(scratch.path(), 10);
    let t = "builtin:tsumogiri";
    let mut game = RemoteGame::start(["remote:author", t, t, t], &["--seed", "5"]);
    let bridge = game.bridge(0, &["--", "python3", bot.to_str().unwrap()]);
    game.wait_for_events(60);
    let term = std::process::Command::new("kill").args(["-TERM", &bridge.id().to_string()]).status().unwrap();
    assert!(term.success());
    let status = game.wait(Duration::from_secs(600));
    assert!(status.success(), "{:?}", game.stderr_lines);
    let summary = game.json("summary.json");
    assert_eq!(summary["completed"], true, "{summary}");
    assert_eq!(summary["chombos"], serde_json::json!([0, 0, 0, 0]), "the drained seat played on: {summary}");
    let (bridge_status, out, err) = finish_bridge(bridge, Duration::from_secs(60));
    assert!(bridge_status.success(), "a drained bridge exits 0: {err}");
    assert!(out.contains("draining: finishing the game in play, then leaving (no new seat)"), "{out}");
    assert!(out.lines().last().unwrap_or_default().starts_with("game over: seat 0, rank "), "{out}");
}
