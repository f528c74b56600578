//! Several leagues at one address (issue 54): `serve --league 4p:tenhou --league
//! 3p:riichi-dev-3p` plays both, each with its own games, leaderboard, pages and API under
//! its name; the first stays the default at the server's own paths; an upload joins the
//! league it names; an unknown league is 404; a restart finds both in the one SQLite file.

use std::sync::Arc;
use std::time::Duration;

use super::support::{poll, spawn_in, Http, Server};

/// Bound on a league's first games (built-in bots: a hanchan takes about a second).
const GAMES: Duration = Duration::from_secs(120);

/// `GET path` as JSON, asserting 200.
fn json(http: &Http, server: &Server, path: &str) -> serde_json::Value {
    let answer = http.get(&server.url(path), None);
    assert_eq!(answer.status, 200, "{path}: {}", answer.body);
    answer.json()
}

/// Seats of each finished game `path` (a game list) lists, once there are at least two.
fn seat_counts(http: &Http, server: &Server, path: &str) -> Vec<usize> {
    poll(GAMES, &format!("two finished games in {path}"), || {
        let list = json(http, server, path);
        let seats: Vec<usize> = list["games"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|g| g["status"] == "finished")
            .map(|g| g["seats"].as_array().unwrap().len())
            .collect();
        (seats.len() >= 2).then_some(seats)
    })
}

#[test]
fn one_server_hosts_a_four_and_a_three_player_league_each_under_its_name() {
    let dir = Arc::new(tempfile::tempdir().unwrap());
    let args = ["--league", "4p:tenhou", "--league", "3p:riichi-dev-3p", "--jobs", "1"];
    let mut server = spawn_in(dir.clone(), &args);
    let http = Http::new();

    // the list, each league's own answer, and an unknown league
    let leagues = json(&http, &server, "/api/leagues");
    let list = leagues["leagues"].as_array().unwrap();
    let facts: Vec<(String, String, u64, bool)> = list
        .iter()
        .map(|l| {
            let s = |k: &str| l[k].as_str().unwrap().to_string();
            (s("name"), s("rules"), l["players"].as_u64().unwrap(), l["default"].as_bool().unwrap())
        })
        .collect();
    assert_eq!(
        facts,
        [("4p".into(), "tenhou".into(), 4, true), ("3p".into(), "riichi-dev-3p".into(), 3, false)],
        "{leagues}"
    );
    assert_eq!(list[1]["api"], "/api/leagues/3p");
    assert_eq!(list[1]["pages"], "/leagues/3p/");
    assert_eq!(json(&http, &server, "/api/leagues/3p")["players"], 3);
    assert_eq!(json(&http, &server, "/api/league")["name"], "4p", "the default league's own paths");
    let unknown = http.get(&server.url("/api/leagues/5p/leaderboard"), None);
    assert_eq!(unknown.status, 404, "{}", unknown.body);
    assert!(unknown.body.contains("GET /api/leagues"), "{}", unknown.body);

    // both leagues play, each at its own tables; the default's paths are the 4p league's
    assert!(seat_counts(&http, &server, "/api/leagues/3p/games").iter().all(|&n| n == 3));
    assert!(seat_counts(&http, &server, "/api/games").iter().all(|&n| n == 4));
    assert!(seat_counts(&http, &server, "/api/leagues/4p/games").iter().all(|&n| n == 4));
    assert!(seat_counts(&http, &server, "/api/games?league=3p").iter().all(|&n| n == 3));
    assert_eq!(json(&http, &server, "/api/leagues/3p/leaderboard")["players"], 3);
    assert_eq!(json(&http, &server, "/api/leaderboard")["players"], 4);

    // an upload joins the league its field names, and only that one
    let alice = server.author("alice", false);
    let form = reqwest::multipart::Form::new().text("name", "sanbot").text("kind", "remote").text("league", "3p");
    let up = http.send(http.client().post(server.url("/api/bots")).multipart(form).bearer_auth(&alice));
    assert_eq!(up.status, 202, "{}", up.body);
    assert_eq!(http.get(&server.url("/api/leagues/3p/bots/sanbot"), Some(&alice)).status, 200);
    assert_eq!(http.get(&server.url("/api/bots/sanbot"), Some(&alice)).status, 404, "not in the default league");
    let form = reqwest::multipart::Form::new().text("name", "nowhere").text("kind", "remote").text("league", "5p");
    let refused = http.send(http.client().post(server.url("/api/bots")).multipart(form).bearer_auth(&alice));
    assert_eq!(refused.status, 404, "{}", refused.body);
    // the path names the league too, and a mode that is not that league's is refused
    let form = reqwest::multipart::Form::new().text("name", "yonbot").text("kind", "remote").text("mode", "4p");
    let wrong = http.send(http.client().post(server.url("/api/leagues/3p/bots")).multipart(form).bearer_auth(&alice));
    assert_eq!(wrong.status, 409, "{}", wrong.body);

    // a season is its league's: opened in 3p, unknown to the default league
    let root = server.author("root", true);
    let body = serde_json::json!({"name": "s1", "freeze_at": "2030-01-01T00:00:00Z"});
    let opened = http.send(http.client().post(server.url("/api/leagues/3p/seasons")).json(&body).bearer_auth(&root));
    assert_eq!(opened.status, 201, "{}", opened.body);
    assert_eq!(json(&http, &server, "/api/leagues/3p/seasons/s1")["status"], "open");
    assert_eq!(http.get(&server.url("/api/seasons/s1"), None).status, 404, "not the default league's");

    // a league's pages link within it; /leagues lists them all
    let page = http.get(&server.url("/leagues/3p/"), None);
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("href=\"/leagues/3p/games\""), "{}", page.body);
    assert!(!page.body.contains("href=\"/games\""), "no link out of the league: {}", page.body);
    let about = http.get(&server.url("/leagues"), None);
    assert_eq!(about.status, 200);
    assert!(about.body.contains("href=\"/leagues/3p/\">3p</a>"), "{}", about.body);
    assert!(about.body.contains("<strong>4p</strong> (this one)"), "{}", about.body);
    let front = http.get(&server.url("/"), None);
    assert!(front.body.contains("href=\"/games\""), "the default league's pages as before: {}", front.body);

    // a restart on the same file finds both leagues and their finished games (games in
    // play at the stop go back to the queue)
    let finished = |server: &Server, below: &str| {
        let list = json(&http, server, &format!("/api/leagues/3p/games?status=finished&limit=200{below}"));
        list["games"].as_array().unwrap().iter().map(|g| g["id"].as_u64().unwrap()).collect::<Vec<_>>()
    };
    let before = finished(&server, "");
    assert!(!before.is_empty());
    assert_eq!(server.terminate(), Some(143), "{}", server.stderr());
    let server = spawn_in(dir, &args);
    // the games up to the newest finished before (those finished since are newer)
    let after = finished(&server, &format!("&cursor=g{}", before.iter().max().unwrap() + 1));
    assert!(before.iter().all(|id| after.contains(id)), "finished before the restart: {before:?}; after: {after:?}");
    let kept = http.get(&server.url("/api/leagues/3p/bots/sanbot"), Some(&alice));
    assert_eq!(kept.status, 200, "{}", kept.body);
}
