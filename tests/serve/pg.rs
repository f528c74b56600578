//! Two `serve` processes on one PostgreSQL database serve one league: an upload through one
//! is seen, validated and listed by both (the web tier keeps no state of its own).

use std::sync::Arc;
use std::time::Duration;

use super::pg_support::PgCluster;
use super::support::{example_zip, start, Http};

#[test]
fn two_servers_on_one_database_serve_one_league() {
    let pg = PgCluster::start();
    let url = pg.url();
    let dir = Arc::new(tempfile::tempdir().unwrap());
    let args = |n: &str| -> Vec<String> {
        let work = dir.path().join(format!("work{n}")).display().to_string();
        [
            "serve",
            "--db",
            &url,
            "--listen",
            "127.0.0.1:0",
            "--runtime",
            "process",
            "--work-dir",
            &work,
            "--league",
            "cup",
        ]
        .iter()
        .map(|s| s.to_string())
        .chain(super::support::HOUSE.map(String::from))
        .collect()
    };
    // the first also plays the league (one game at a time), so the second shows its games
    let one = start(dir.clone(), [args("1"), vec!["--jobs".into(), "1".into()]].concat());
    let two = start(dir.clone(), args("2"));
    let out = super::support::mjai_sim(&["serve", "author", "add", "erin", "--db", &url]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let token = String::from_utf8(out.stdout).unwrap().trim().to_string();
    let http = Http::new();
    assert_eq!(http.upload(&one, Some(&token), "ebot", example_zip("tsumogiri")).status, 202);
    let page = http.wait_status(&two, "ebot", "active", Duration::from_secs(180));
    assert_eq!(page["entry"]["author"], "erin");
    // the second server takes the same author's token and sees the same errors
    assert_eq!(http.get(&two.url("/api/bots/ebot/errors"), Some(&token)).status, 200);
    // the same bots (sorted: the two reads may straddle a game's end, which reorders ranks)
    let names = |s| -> Vec<String> {
        let b = http.get(&super::support::Server::url(s, "/api/leaderboard"), None).json();
        let mut names: Vec<String> =
            b["bots"].as_array().unwrap().iter().map(|e| e["name"].as_str().unwrap().to_string()).collect();
        names.sort();
        names
    };
    assert_eq!(names(&one), names(&two));
    assert_eq!(names(&one).len(), 5, "4 house bots, added once, and erin's");
    // a game of erin's bot, played by the first, on the second: its version page and the
    // viewer, each seat named with its version (the seat query on PostgreSQL)
    let id = super::support::poll(Duration::from_secs(180), "a league game of ebot", || {
        let games = http.get(&two.url("/api/bots/ebot/v/1/games"), None).json();
        games["games"].as_array().and_then(|g| g.first()).and_then(|g| g["id"].as_u64())
    });
    let page = http.get(&two.url("/bots/ebot/v/1"), None);
    assert!(page.status == 200 && page.body.contains(&format!("data-game=\"{id}\"")), "{}", page.body);
    let game = http.get(&two.url(&format!("/games/{id}")), None);
    assert!(game.status == 200 && game.body.contains("\"ebot v1\""), "{}", game.body);
    // the games list on PostgreSQL: every filter's query, times, a cursor, a running game
    let listed = |query: &str| -> Vec<serde_json::Value> {
        let a = http.get(&two.url(&format!("/api/games?{query}")), None);
        assert_eq!(a.status, 200, "?{query}: {}", a.body);
        a.json()["games"].as_array().cloned().unwrap_or_default()
    };
    let found = listed("bot=ebot&version=1&author=erin&status=finished&from=2000-01-01&to=2999-12-31&limit=200");
    let game = found.iter().find(|g| g["id"] == id).unwrap_or_else(|| panic!("game {id} not listed: {found:?}"));
    let (start, end) = (game["started_at"].as_str().unwrap(), game["finished_at"].as_str().unwrap());
    assert!(start <= end && game["seats"].to_string().contains("\"erin\""), "{game}");
    let first = http.get(&two.url("/api/games?limit=1"), None).json();
    let cursor = first["next_cursor"].as_str().unwrap_or_else(|| panic!("{first}"));
    let next = listed(&format!("limit=1&cursor={cursor}"));
    assert!(next[0]["id"].as_u64() < first["games"][0]["id"].as_u64(), "{next:?} after {first}");
    super::support::poll(Duration::from_secs(180), "a running game listed", || {
        listed("status=running").iter().any(|g| g["status"] == "running" && g["started_at"].is_string()).then_some(())
    });
    let board = http.get(&two.url("/api/leaderboard"), None).json();
    assert!(board["bots"].as_array().unwrap().iter().any(|e| e["last_game_at"].is_string()), "{board}");
}
