//! A three-player league (issue 38): `serve --rules riichi-dev-3p` validates an upload in
//! every seat of a three-seat table, refuses an upload declaring the other mode, plays
//! three-seat league games and shows three places on every page and in every answer.

use std::sync::Arc;
use std::time::Duration;

use super::support::{example_zip, poll, spawn_in, zip_of, Answer, Http, Server};

/// Bound on a validation (two hanchans of Python bots, one after the other at worst).
const VALIDATION: Duration = Duration::from_secs(180);

/// `POST /api/bots` with `name`, `zip` and the field `mode` (when given).
fn upload_mode(http: &Http, server: &Server, token: &str, name: &str, zip: Vec<u8>, mode: Option<&str>) -> Answer {
    let mut form = reqwest::multipart::Form::new()
        .text("name", name.to_string())
        .part("file", reqwest::multipart::Part::bytes(zip).file_name("bot.zip"));
    if let Some(mode) = mode {
        form = form.text("mode", mode.to_string());
    }
    http.send(http.client().post(server.url("/api/bots")).multipart(form).bearer_auth(token))
}

/// The example tsumogiri, but answering `{"type":"bogus"}` (a chombo) whenever it sits in
/// `seat`: only a validation that seats it there rejects it.
fn failing_in_seat(seat: usize) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/tsumogiri/bot.py");
    let source = std::fs::read_to_string(path).unwrap();
    let patched = source.replace(
        "def decide(seat, events):\n",
        &format!("def decide(seat, events):\n    if seat == {seat}:\n        return {{\"type\": \"bogus\"}}\n"),
    );
    assert_ne!(patched, source, "the example's decide() moved");
    zip_of(&[("bot.py", patched.as_bytes())])
}

#[test]
fn a_three_player_league_validates_every_seat_and_plays_three_seat_games() {
    let server = spawn_in(Arc::new(tempfile::tempdir().unwrap()), &["--rules", "riichi-dev-3p", "--jobs", "1"]);
    let a = server.author("alice", false);
    let http = Http::new();

    // the mode: the leaderboard says it, and an upload declaring the other one is refused
    assert_eq!(http.get(&server.url("/api/leaderboard"), None).json()["players"], 3);
    let front = http.get(&server.url("/"), None);
    assert!(front.body.contains("A three-player league (sanma, mode 3p)"), "{}", front.body);
    let four = upload_mode(&http, &server, &a, "tbot", example_zip("tsumogiri"), Some("4p"));
    assert_eq!(four.status, 409, "{}", four.body);
    assert!(four.body.contains("plays 3-player games (mode=3p)"), "{}", four.body);
    let bad = upload_mode(&http, &server, &a, "tbot", example_zip("tsumogiri"), Some("sanma"));
    assert_eq!(bad.status, 400, "{}", bad.body);
    // nothing of the refused uploads was kept
    assert_eq!(http.get(&server.url("/api/bots/tbot"), Some(&a)).status, 404);

    // validation seats the bot in seats 0 and 2, then 1: a bot failing only in seat 1 is
    // caught, and one failing only in seat 3 (no such seat) passes
    let up = upload_mode(&http, &server, &a, "seat1", failing_in_seat(1), Some("3p"));
    assert_eq!(up.status, 202, "{}", up.body);
    let rejected = http.wait_status_as(&server, "seat1", "rejected", Some(&a), VALIDATION);
    let reason = rejected["reason"].as_str().unwrap();
    assert!(reason.contains("(the bot in seat 1)") && reason.contains("seat 1"), "{reason}");
    assert_eq!(upload_mode(&http, &server, &a, "seat3", failing_in_seat(3), None).status, 202);
    http.wait_status(&server, "seat3", "active", VALIDATION);
    let up = upload_mode(&http, &server, &a, "tbot", example_zip("tsumogiri"), Some("3p"));
    assert_eq!(up.status, 202, "{}", up.body);
    http.wait_status(&server, "tbot", "active", VALIDATION);

    // the validation game the author reads back is a three-player game
    let log = http.get(&server.url("/api/bots/tbot/validation"), Some(&a));
    assert_eq!(log.status, 200);
    let start: serde_json::Value = serde_json::from_str(log.body.lines().next().unwrap()).unwrap();
    assert_eq!(start["type"], "start_game");
    assert_eq!(start["names"].as_array().unwrap().len(), 3, "{start}");

    // league games: three seats each, 105,000 points in all, three places
    let games = poll(Duration::from_secs(300), "two league games of tbot", || {
        let g = http.get(&server.url("/api/bots/tbot/games"), None).json();
        let list = g["games"].as_array().cloned().unwrap_or_default();
        (list.len() >= 2).then_some(list)
    });
    for g in &games {
        let scores: Vec<i64> = g["scores"].as_array().unwrap().iter().map(|s| s.as_i64().unwrap()).collect();
        assert_eq!(scores.len(), 3, "{g}");
        assert_eq!(scores.iter().sum::<i64>(), 105_000, "{g}");
        let mut ranks: Vec<u64> = g["ranks"].as_array().unwrap().iter().map(|r| r.as_u64().unwrap()).collect();
        ranks.sort_unstable();
        assert_eq!(ranks, [1, 2, 3], "{g}");
        assert_eq!(g["bots"].as_array().unwrap().len(), 3);
    }
    let page = http.get(&server.url("/api/bots/tbot"), None).json();
    let counts = page["rank_counts"].as_array().unwrap();
    assert_eq!(counts.len(), 3, "{page}");
    assert!(counts.iter().map(|c| c.as_u64().unwrap()).sum::<u64>() >= 2);

    // the game's page and its downloads show three seats
    let id = games[0]["id"].as_u64().unwrap();
    let html = http.get(&server.url(&format!("/games/{id}")), None);
    assert_eq!(html.status, 200);
    let log =
        http.send(http.client().get(server.url(&format!("/api/games/{id}"))).header("accept", "application/x-ndjson"));
    assert_eq!(log.status, 200);
    let first: serde_json::Value = serde_json::from_str(log.body.lines().next().unwrap()).unwrap();
    assert_eq!(first["names"].as_array().unwrap().len(), 3, "{first}");
    let tenhou = http.get(&server.url(&format!("/api/games/{id}/tenhou6.json")), None);
    assert_eq!(tenhou.status, 200, "{}", tenhou.body);
    // Tenhou's three-player form: seat 3 an empty place, "三" in the rule's name
    let t = tenhou.json();
    assert_eq!(t["name"][3], "", "{t}");
    assert!((0..3).all(|s| !t["name"][s].as_str().unwrap().is_empty()), "{t}");
    assert!(t["rule"]["disp"].as_str().unwrap().starts_with('三'), "{t}");
}
