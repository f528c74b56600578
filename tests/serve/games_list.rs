//! The list of games (issue 39, item 2): `GET /api/games` and the page `/games` over HTTP.
//! A league of the house bots and alice's uploaded bot plays (`--jobs 1`, paced); a running
//! game is listed as running while it plays; then the server is started again without
//! play (`--jobs 0`: the league holds still), and the list is walked page by page (every
//! game once), each filter checked from both sides against the whole list, bad
//! parameters refused (400), and the page renders every game with a link to its viewer.

use std::time::Duration;

use serde_json::Value;

use super::support::{example_zip, poll, spawn_in, Http, Server};

/// Limits for polling: validation of alice's bot, games to be played.
const VALIDATION: Duration = Duration::from_secs(180);
const PLAY: Duration = Duration::from_secs(300);

/// `GET /api/games?QUERY`: status 200 and the answer.
fn list(http: &Http, server: &Server, query: &str) -> Value {
    let a = http.get(&server.url(&format!("/api/games?{query}")), None);
    assert_eq!(a.status, 200, "?{query}: {}", a.body);
    a.json()
}

/// The games of one answer.
fn games(answer: &Value) -> Vec<Value> {
    answer["games"].as_array().cloned().unwrap_or_default()
}

/// The ids of `games`.
fn ids(games: &[Value]) -> Vec<u64> {
    games.iter().map(|g| g["id"].as_u64().unwrap()).collect()
}

/// Every game `query` lists, page by page (`limit` per page), following `next_cursor`;
/// asserts that no page is over `limit` and no game comes twice.
fn walk(http: &Http, server: &Server, query: &str, limit: u32) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    let mut cursor: Option<String> = None;
    for _ in 0..10_000 {
        let page_query = match &cursor {
            Some(c) => format!("{query}&limit={limit}&cursor={c}"),
            None => format!("{query}&limit={limit}"),
        };
        let answer = list(http, server, &page_query);
        let page = games(&answer);
        assert!(page.len() <= limit as usize, "{page_query}: {} games", page.len());
        out.extend(page);
        match answer["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => break,
        }
    }
    let all = ids(&out);
    assert!(all.windows(2).all(|w| w[0] > w[1]), "not newest first, or a game twice: {all:?}");
    out
}

/// Whether `game` has a seat with `field` equal to `value`.
fn seated(game: &Value, field: &str, value: &str) -> bool {
    game["seats"].as_array().is_some_and(|s| s.iter().any(|seat| seat[field] == value))
}

#[test]
fn games_are_listed_newest_first_with_times_filters_and_pages() {
    let dir = std::sync::Arc::new(tempfile::tempdir().unwrap());
    let live = ["--jobs", "1", "--seed", "11", "--pace", "3600", "--rate-per-ip", "100000"];
    let mut server = spawn_in(dir.clone(), &live);
    let alice = server.author("alice", false);
    let http = Http::new();
    let up = http.upload(&server, Some(&alice), "alice-t", example_zip("tsumogiri"));
    assert_eq!(up.status, 202, "{}", up.body);
    http.wait_status(&server, "alice-t", "active", VALIDATION);

    // while the league plays: a running game is listed as running, with a start and no end
    let running = poll(PLAY, "a running game in the list", || {
        games(&list(&http, &server, "limit=200")).into_iter().find(|g| g["status"] == "running")
    });
    assert!(running["started_at"].is_string() && running["finished_at"].is_null(), "{running}");
    assert!(running["seats"].as_array().unwrap().iter().all(|s| s["score"].is_null() && s["rank"].is_null()));
    let only_running = games(&list(&http, &server, "status=running&limit=200"));
    assert!(only_running.iter().all(|g| g["status"] == "running"), "{only_running:?}");
    // until alice's bot has finished a league game
    poll(PLAY, "a finished game of alice's bot", || {
        (!games(&list(&http, &server, "author=alice&status=finished")).is_empty()).then_some(())
    });
    server.terminate();
    drop(server);

    // the league holds still from here (no play): every list is exact
    let server = spawn_in(dir, &["--rate-per-ip", "100000"]);
    let all = walk(&http, &server, "status=finished", 200);
    assert!(all.len() >= 5, "{} games", all.len());
    assert!(games(&list(&http, &server, "status=running")).is_empty(), "a game runs without --jobs");

    // pages of 3 walk every game exactly once, in the same order
    assert_eq!(ids(&walk(&http, &server, "status=finished", 3)), ids(&all));
    let default = list(&http, &server, "");
    assert_eq!(games(&default).len(), all.len().min(50), "the default limit is 50");

    // each finished game: four seats with names, versions, scores and ranks; start <= end
    for g in &all {
        assert_eq!(g["status"], "finished", "{g}");
        let (start, end) = (g["started_at"].as_str().unwrap(), g["finished_at"].as_str().unwrap());
        assert!(start.len() == 24 && start.ends_with('Z') && start <= end, "{g}");
        let seats = g["seats"].as_array().unwrap();
        let mut ranks: Vec<u64> = seats.iter().map(|s| s["rank"].as_u64().unwrap()).collect();
        ranks.sort_unstable();
        assert!(ranks.iter().all(|r| (1..=4).contains(r)) && seats.iter().all(|s| s["score"].is_i64()), "{g}");
        assert!(seats.iter().all(|s| s["bot"].is_string() && s["version"].as_u64() >= Some(1)), "{g}");
        assert!(!g.to_string().contains("stderr"), "{g}");
        for s in seats {
            let house = s["bot"] != "alice-t";
            assert!(s["house"] == house && s["author"].is_null() == house, "{g}");
        }
    }

    // each filter from both sides: exactly the games of `all` it matches
    let expect = |query: &str, keep: &dyn Fn(&Value) -> bool| {
        let got = ids(&walk(&http, &server, query, 200));
        let want: Vec<u64> = all.iter().filter(|g| keep(g)).map(|g| g["id"].as_u64().unwrap()).collect();
        assert_eq!(got, want, "?{query}");
        got.len()
    };
    assert!(expect("bot=alice-t", &|g| seated(g, "bot", "alice-t")) >= 1);
    assert!(expect("bot=alice-t&version=1", &|g| seated(g, "bot", "alice-t")) >= 1);
    assert_eq!(expect("bot=alice-t&version=2", &|_| false), 0);
    assert!(expect("bot=rulebase", &|g| seated(g, "bot", "rulebase")) >= 1);
    assert_eq!(expect("bot=nobody-here", &|_| false), 0);
    assert!(expect("author=alice", &|g| seated(g, "author", "alice")) >= 1);
    assert_eq!(expect("author=bob", &|_| false), 0);
    assert_eq!(expect("status=finished", &|_| true), all.len());
    let middle = &all[all.len() / 2];
    let at = middle["finished_at"].as_str().unwrap().to_string();
    let ended = |g: &Value| g["finished_at"].as_str().unwrap().to_string();
    assert!(expect(&format!("from={at}"), &|g| ended(g) >= at) >= 1);
    assert!(expect(&format!("to={at}"), &|g| ended(g) <= at) >= 1);
    assert!(expect(&format!("from={at}&to={at}"), &|g| ended(g) == at) >= 1);
    let day = &at[..10];
    assert!(expect(&format!("from={day}&to={day}"), &|g| ended(g).starts_with(day)) >= 1);
    assert_eq!(expect("to=2000-01-01", &|_| false), 0);
    assert_eq!(expect("from=2999-01-01T00:00:00%2B09:00", &|_| false), 0);
    assert!(expect("bot=alice-t&author=alice", &|g| seated(g, "bot", "alice-t")) >= 1);

    // bad parameters: 400 with a one-line reason
    for bad in [
        "limit=0",
        "limit=201",
        "limit=ten",
        "cursor=12",
        "cursor=g",
        "version=1",
        "bot=a&version=0",
        "from=yesterday",
        "to=2026-02-30",
        "status=done",
        "page=2",
        "limit=5&limit=6",
        "from=2026-11-28&to=2026-11-27",
    ] {
        let a = http.get(&server.url(&format!("/api/games?{bad}")), None);
        assert_eq!(a.status, 400, "?{bad}: {}", a.body);
        assert!(a.json()["error"].as_str().is_some_and(|e| !e.is_empty() && !e.contains('\n')), "{}", a.body);
    }

    // the page: every game of the first page linked to its viewer, with its times
    let page = http.get(&server.url("/games"), None);
    assert_eq!(page.status, 200);
    assert!(page.headers["content-type"].to_str().unwrap().starts_with("text/html"));
    for g in all.iter().take(50) {
        let id = g["id"].as_u64().unwrap();
        assert!(page.body.contains(&format!("<a href=\"/games/{id}\">{id}</a>")), "game {id} not linked");
        assert!(page.body.contains(&format!("<time datetime=\"{}\">", ended(g))), "game {id}'s end");
    }
    let viewer = http.get(&server.url(&format!("/games/{}", all[0]["id"])), None);
    assert_eq!(viewer.status, 200, "the linked viewer");
    // filters from the form (empty fields are no filter) and the next page's link
    let form = http.get(&server.url("/games?bot=rulebase&version=&author=&from=&to=&status=finished&limit=1"), None);
    assert_eq!(form.status, 200, "{}", form.body);
    let first_two = ids(&games(&list(&http, &server, "bot=rulebase&limit=2")));
    assert_eq!(first_two.len(), 2, "rulebase plays in most games");
    assert!(form.body.contains(&format!("href=\"/games/{}\"", first_two[0])), "{}", form.body);
    assert!(!form.body.contains(&format!("href=\"/games/{}\"", first_two[1])), "limit=1: {}", form.body);
    let next = format!("href=\"/games?bot=rulebase&#38;status=finished&#38;limit=1&#38;cursor=g{}\"", first_two[0]);
    assert!(form.body.contains(&next), "{}", form.body);
    assert_eq!(http.get(&server.url("/games?status=done"), None).status, 400);
    assert!(http.get(&server.url("/"), None).body.contains("<a href=\"/games\">Games</a>"));

    // a bot's last game comes with its time, in the API and on the pages (the id still a link)
    let end_of = |id: u64| all.iter().find(|g| g["id"] == id).map(ended);
    let board = http.get(&server.url("/api/leaderboard"), None).json();
    let alice_line = board["bots"].as_array().unwrap().iter().find(|e| e["name"] == "alice-t").cloned().unwrap();
    let last = alice_line["last_game"].as_u64().unwrap();
    assert_eq!(alice_line["last_game_at"].as_str().map(str::to_string), end_of(last), "{alice_line}");
    let time = format!("<a href=\"/games/{last}\">{last}</a> <time datetime=\"{}\">", end_of(last).unwrap());
    assert!(http.get(&server.url("/"), None).body.contains(&time), "the leaderboard's last game of alice-t");
    assert!(http.get(&server.url("/bots/alice-t"), None).body.contains(&time), "alice-t's page");
    let page = http.get(&server.url("/api/bots/alice-t"), None).json();
    assert_eq!(page["entry"]["last_game_at"], alice_line["last_game_at"]);
    // and each game of a bot's page: its end time
    let of_alice = http.get(&server.url("/api/bots/alice-t/games"), None).json();
    let listed = of_alice["games"].as_array().unwrap();
    assert!(!listed.is_empty(), "{of_alice}");
    for g in listed {
        assert_eq!(g["finished_at"].as_str().map(str::to_string), end_of(g["id"].as_u64().unwrap()), "{g}");
    }
}
