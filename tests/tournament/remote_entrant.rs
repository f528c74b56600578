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
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len() as u64, games, "one line per game: {out}");
    for line in &lines {
        assert!(line.starts_with("game over: seat ") && line.contains(", 0 chombos"), "{line}");
    }
    let seats: std::collections::BTreeSet<&str> = lines.iter().map(|l| &l[16..17]).collect();
    assert_eq!(seats.len(), 4, "alice played each seat once: {out}");
}
