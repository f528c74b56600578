//! A tournament with a remote entrant (`remote:NAME`): one `mjai-sim connect` plays each
//! of its games over a WebSocket on 127.0.0.1 and exits when the tournament ends.

use std::time::Duration;

use crate::e2e_support::repo;
use crate::remote_support::{finish_bridge, RemoteGame};

#[test]
fn one_bridge_plays_every_game_of_a_remote_entrant() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("t");
    let args: Vec<String> = [
        "tournament",
        "alice=remote:alice",
        "builtin:tsumogiri",
        "builtin:rulebase",
        "builtin:random",
        "--sets",
        "1",
        "--seed",
        "9",
        "--no-html",
        "--dir",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([folder.display().to_string()])
    .collect();
    let mut tournament = RemoteGame::spawn(&args, 1, dir);
    let bridge = tournament.bridge(0, &[&repo("examples/tsumogiri")]);
    let status = tournament.wait(Duration::from_secs(300));
    assert!(status.success(), "{:?}", tournament.stderr_lines);
    let (bridge_status, out, err) = finish_bridge(bridge, Duration::from_secs(30));
    assert!(bridge_status.success(), "the bridge exits 0 on `bye`: {err}");

    let standings: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(folder.join("standings.json")).unwrap()).unwrap();
    let alice = standings["bots"].as_array().unwrap().iter().find(|b| b["name"] == "alice").expect("alice ranked");
    let games = alice["games"].as_u64().unwrap();
    assert_eq!(games, 4, "one duplicate set of four bots: {alice}");
    let lines: Vec<&str> = out.lines().filter(|l| !l.starts_with("connected to ws://127.0.0.1:")).collect();
    assert_eq!(lines.len() as u64, games, "one line per game beside the connection lines: {out}");
    for line in &lines {
        assert!(line.starts_with("game over: seat ") && line.contains(", 0 chombos"), "{line}");
    }
    let seats: std::collections::BTreeSet<&str> = lines.iter().map(|l| &l[16..17]).collect();
    assert_eq!(seats.len(), 4, "alice played each seat once: {out}");
}

#[test]
fn one_connect_plays_every_game_of_a_riichi_dev_entrant_reconnecting_between_games() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("t");
    let bot = crate::remote_support::slow_tsumogiri(dir.path(), 0);
    let args: Vec<String> =
        ["tournament", "bob=riichilab:bob", "builtin:tsumogiri", "builtin:rulebase", "builtin:random"]
            .iter()
            .chain(&["--sets", "1", "--seed", "9", "--jobs", "2", "--no-html", "--dir"])
            .map(|s| s.to_string())
            .chain([folder.display().to_string()])
            .collect();
    let mut tournament = RemoteGame::spawn(&args, 1, dir);
    let (url, token) = tournament.riichi_dev_url_and_token(0);
    let client = std::process::Command::new(crate::e2e_support::bin())
        .args(["connect", &url, "--token", &token, "--games", "4", "--bot-stderr"])
        .arg(tournament.dir.path().join("bot.stderr.txt"))
        .args(["--", "python3", bot.to_str().unwrap()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let status = tournament.wait(Duration::from_secs(300));
    assert!(status.success(), "{:?}", tournament.stderr_lines);
    let (client_status, out, err) = finish_bridge(client, Duration::from_secs(30));
    assert!(client_status.success(), "connect exits 0 after its four games: {err}");

    let standings: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(folder.join("standings.json")).unwrap()).unwrap();
    let bob = standings["bots"].as_array().unwrap().iter().find(|b| b["name"] == "bob").expect("bob ranked");
    assert_eq!(bob["games"], 4, "one duplicate set of four bots: {bob}");
    assert_eq!(bob["chombos"], 0, "{bob}");
    let over: Vec<&str> = out.lines().filter(|l| l.starts_with("game over: seat ")).collect();
    assert_eq!(over.len(), 4, "{out}");
    let seats: std::collections::BTreeSet<&str> = over.iter().map(|l| &l[16..17]).collect();
    assert_eq!(seats.len(), 4, "bob played each seat once: {out}");
}
