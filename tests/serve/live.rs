//! Watching a running game one hand behind (issue 39, item 3): `GET /api/games/{id}/live`
//! (server-sent events) and the game's page in headless Chromium while the league plays.
//! alice's bot discards after a pause (0.1 s a draw), so its games take tens of seconds;
//! the house bots play in no time.
//! - The stream sends each finished hand once, in order, every hand ending at its
//!   `end_kyoku` (nothing of a hand in play), the first while the game still runs; put
//!   together they are the finished log but its `end_game`; then `end`, and the stream
//!   closes. Bad parameters 400, an unknown game 404, streams per address limited from
//!   both sides (8 open, the 9th 503).
//! - The page of the running game shows its finished hands and a live line, and advances
//!   by itself as hands end; once the game is over it shows the whole game.

use std::time::Duration;

use serde_json::Value;

use super::browser::spawn_browser;
use super::support::{poll, spawn_in, zip_of, Http, Server, SseEvent};

const VALIDATION: Duration = Duration::from_secs(240);
const PLAY: Duration = Duration::from_secs(300);

/// A tsumogiri that waits 0.1 s before each discard.
const SLOW_BOT: &str = r#"import json, sys, time
seat = int(sys.argv[1])
for line in sys.stdin:
    if not line.strip():
        continue
    last = json.loads(line)[-1]
    if last.get("type") == "tsumo" and last.get("actor") == seat:
        time.sleep(0.1)
        print(json.dumps({"type": "dahai", "actor": seat, "pai": last["pai"], "tsumogiri": True}), flush=True)
    else:
        print('{"type":"none"}', flush=True)
"#;

/// A league playing alice's slow bot: the server, and a running game of her bot with at
/// least one finished hand (its id).
fn league_with_a_running_game(http: &Http) -> (Server, u64) {
    let dir = std::sync::Arc::new(tempfile::tempdir().unwrap());
    let server = spawn_in(dir, &["--jobs", "1", "--seed", "5", "--rate-per-ip", "100000"]);
    let alice = server.author("alice", false);
    let up = http.upload(&server, Some(&alice), "alice-slow", zip_of(&[("bot.py", SLOW_BOT.as_bytes())]));
    assert_eq!(up.status, 202, "{}", up.body);
    http.wait_status(&server, "alice-slow", "active", VALIDATION);
    let id = poll(PLAY, "a running game of alice-slow", || {
        let a = http.get(&server.url("/api/games?status=running&bot=alice-slow"), None);
        a.json()["games"].as_array()?.first()?["id"].as_u64()
    });
    (server, id)
}

/// Whether game `id` is listed as running.
fn running(http: &Http, server: &Server, id: u64) -> bool {
    let a = http.get(&server.url("/api/games?status=running&limit=200"), None);
    a.json()["games"].as_array().unwrap().iter().any(|g| g["id"] == id)
}

/// The mjai events of a log (one JSON object per line), without the bots' `meta`.
fn events_of(log: &str) -> Vec<Value> {
    log.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            if let Some(map) = v.as_object_mut() {
                map.remove("meta");
                map.remove("meta_dropped");
            }
            v
        })
        .collect()
}

#[test]
fn a_running_game_streams_its_finished_hands_one_hand_behind_and_its_page_follows_it() {
    let http = Http::new();
    let (server, id) = league_with_a_running_game(&http);
    let live = server.url(&format!("/api/games/{id}/live"));

    // refused before any stream opens
    for bad in ["?from=x", "?from=-1", "?hand=1", "?from=1&from=2"] {
        let a = http.get(&format!("{live}{bad}"), None);
        assert_eq!(a.status, 400, "{bad}: {}", a.body);
    }
    assert_eq!(http.get(&server.url("/api/games/999999/live"), None).status, 404);

    // streams from one address: 8 at once, not 9
    let held: Vec<reqwest::Response> = (0..8).map(|_| http.open(&live)).collect();
    assert!(held.iter().all(|r| r.status() == 200), "{:?}", held.iter().map(|r| r.status()).collect::<Vec<_>>());
    assert_eq!(held[0].headers()["content-type"], "text/event-stream");
    let ninth = http.get(&live, None);
    assert_eq!(ninth.status, 503, "{}", ninth.body);
    drop(held);
    // the places come back once the server notices the watchers left (keep-alive writes)
    poll(Duration::from_secs(60), "a stream admitted again", || (http.open(&live).status() == 200).then_some(()));

    // the page while the game runs: its finished hands, the live line, and it advances
    let browser = spawn_browser();
    let page = server.url(&format!("/games/{id}"));
    let shown = poll(PLAY, "a finished hand on the live page", || {
        browser.goto(&page);
        let hands = browser.attr("#live", "data-hands")?.parse::<usize>().ok()?;
        (hands >= 1).then_some(hands)
    });
    assert_eq!(browser.count("#kyokus li"), shown, "the page shows the finished hands");
    assert_eq!(browser.attr("body", "data-live").as_deref(), Some("following"));
    assert!(running(&http, &server, id), "the game still runs");
    poll(PLAY, "the page to advance by itself", || (browser.count("#kyokus li") > shown).then_some(()));
    assert!(browser.path().ends_with(&format!("/games/{id}")));

    // the stream from the first hand: every finished hand, then the end
    let mut first_while_running = None;
    let (status, events) = http.events(&live, PLAY, |e: &SseEvent| {
        if e.event == "hand" && first_while_running.is_none() {
            // asked from another thread: this one is inside the stream's runtime
            let asked = std::thread::scope(|s| s.spawn(|| running(&Http::new(), &server, id)).join().unwrap());
            first_while_running = Some(asked);
        }
        e.event == "end"
    });
    assert_eq!(status, 200);
    assert_eq!(first_while_running, Some(true), "hand 0 came while the game ran");
    let (end, hands) = events.split_last().unwrap();
    assert_eq!((end.event.as_str(), end.json()["state"].as_str()), ("end", Some("finished")));
    let mut streamed = Vec::new();
    for (n, h) in hands.iter().enumerate() {
        assert_eq!(h.event, "hand", "{h:?}");
        let hand = h.json();
        assert_eq!(hand["hand"], n as u64, "hands in order, each once");
        let list = hand["events"].as_array().unwrap();
        assert_eq!(list.last().unwrap()["type"], "end_kyoku", "hand {n} ends at its end_kyoku");
        assert_eq!(list.iter().filter(|e| e["type"] == "end_kyoku").count(), 1, "hand {n}: one hand");
        assert_eq!(list.iter().filter(|e| e["type"] == "start_kyoku").count(), 1, "hand {n}: one hand");
        streamed.extend(list.iter().cloned());
    }
    assert_eq!(streamed[0]["type"], "start_game");

    // put together, the hands are the finished log but its end_game
    let log =
        http.send(http.client().get(server.url(&format!("/api/games/{id}"))).header("accept", "application/x-ndjson"));
    assert_eq!(log.status, 200);
    let mut finished = events_of(&log.body);
    assert_eq!(finished.pop().unwrap()["type"], "end_game");
    assert_eq!(streamed.len(), finished.len());
    assert!(streamed == finished, "the streamed hands differ from the finished log");

    // a finished game's stream: its hands from `from`, then `end`, at once
    let (_, again) = http.events(&live, Duration::from_secs(30), |_| false);
    let data = |list: &[SseEvent]| list.iter().map(|e| e.data.clone()).collect::<Vec<_>>();
    assert_eq!(data(&again), data(&events), "the same hands from the stored log");
    let (_, after) = http.events(&format!("{live}?from={}", hands.len()), Duration::from_secs(30), |_| false);
    assert_eq!(after.iter().map(|e| e.event.as_str()).collect::<Vec<_>>(), ["end"]);

    // and its page, followed to the end, shows the whole game
    poll(PLAY, "the page to show the finished game", || {
        (browser.count("#live") == 0 && browser.attr("#final", "data-scores").is_some()).then_some(())
    });
    assert_eq!(browser.count("#kyokus li"), hands.len());
}
