//! Privacy as documented (issue 39, item 6; docs/server.md "Privacy"): a rejected version,
//! its reason and its author are seen only by that author and admins, in the API and the
//! pages alike (anyone else: as if the bot did not exist); a revoked, unknown or malformed
//! token is 401 on every route that takes an author's token, public ones included.

use std::time::Duration;

use super::pages::{login, page};
use super::support::{example_zip, mjai_sim, spawn_server, Http, Server};

const VALIDATION: Duration = Duration::from_secs(180);

/// The names on `GET /api/leaderboard` as `token`'s author sees it.
fn board_names(http: &Http, server: &Server, token: Option<&str>) -> (Vec<String>, String) {
    let a = http.get(&server.url("/api/leaderboard"), token);
    assert_eq!(a.status, 200, "{}", a.body);
    let names = a.json()["bots"].as_array().unwrap().iter().map(|e| e["name"].as_str().unwrap().to_string()).collect();
    (names, a.body)
}

#[test]
fn a_rejected_version_and_its_author_are_seen_only_by_that_author_and_admins() {
    let server = spawn_server(&[]);
    let (a, b, admin) = (server.author("alice", false), server.author("bob", false), server.author("root", true));
    let http = Http::new();
    let (ca, cb, cadmin) = (login(&http, &server, &a), login(&http, &server, &b), login(&http, &server, &admin));
    assert_eq!(http.upload(&server, Some(&a), "secret-bot", example_zip("crash")).status, 202);
    let page_of_alice = http.wait_status_as(&server, "secret-bot", "rejected", Some(&a), VALIDATION);
    assert!(page_of_alice["reason"].as_str().is_some_and(|r| !r.is_empty()), "{page_of_alice}");

    // the leaderboard: neither the bot nor its author for a visitor or another author
    for (who, token) in [("a visitor", None), ("bob", Some(b.as_str()))] {
        let (names, body) = board_names(&http, &server, token);
        assert!(!names.contains(&"secret-bot".to_string()) && !body.contains("alice"), "{who}: {body}");
        assert!(names.contains(&"rulebase".to_string()), "{who} sees the league: {body}");
    }
    for token in [&a, &admin] {
        assert!(board_names(&http, &server, Some(token)).0.contains(&"secret-bot".to_string()));
    }
    // its page, its version, its games: 404 as for no bot at all, but for alice and admins
    for path in [
        "/api/bots/secret-bot",
        "/api/bots/secret-bot/v/1",
        "/api/bots/secret-bot/games",
        "/api/bots/secret-bot/v/1/games",
    ] {
        for (who, token) in [("a visitor", None), ("bob", Some(b.as_str()))] {
            let answer = http.get(&server.url(path), token);
            assert_eq!(answer.status, 404, "{who} {path}: {}", answer.body);
            assert_eq!(answer.body, http.get(&server.url(&path.replace("secret-bot", "no-bot")), token).body, "{path}");
        }
        for token in [&a, &admin] {
            assert_eq!(http.get(&server.url(path), Some(token)).status, 200, "{path}");
        }
    }
    // retiring another's rejected bot: 404 (not 403: nothing tells that it exists)
    assert_eq!(http.delete(&server.url("/api/bots/secret-bot"), Some(&b)).status, 404);
    assert_eq!(http.delete(&server.url("/api/bots/no-bot"), Some(&b)).status, 404);

    // the pages alike: no line, no page, no reason for others; alice's page says why
    for (who, cookie) in [("a visitor", None), ("bob", Some(cb.as_str()))] {
        let board = page(&http, &server, "/", cookie);
        assert_eq!(board.status, 200);
        assert!(!board.body.contains("secret-bot") && !board.body.contains("alice"), "{who}: {}", board.body);
        for path in ["/bots/secret-bot", "/bots/secret-bot/v/1"] {
            let shown = page(&http, &server, path, cookie);
            assert_eq!(shown.status, 404, "{who} {path}: {}", shown.body);
            assert!(!shown.body.contains("Rejected"), "{who} {path}");
        }
        // the retire form answers as for no bot at all (a visitor: 401 either way)
        let retire = page(&http, &server, "/bots/secret-bot/retire", cookie).status;
        assert_eq!(retire, page(&http, &server, "/bots/no-bot/retire", cookie).status, "{who}");
        assert_eq!(retire, if cookie.is_some() { 404 } else { 401 }, "{who}");
    }
    for cookie in [&ca, &cadmin] {
        let own = page(&http, &server, "/bots/secret-bot", Some(cookie));
        assert_eq!(own.status, 200, "{}", own.body);
        assert!(own.body.contains("id=\"reason\">Rejected: "), "{}", own.body);
    }
    assert!(page(&http, &server, "/me", Some(&ca)).body.contains("data-bot=\"secret-bot\""));

    // a good version 2: public, and its page lists no rejected version to others
    assert_eq!(http.upload(&server, Some(&a), "secret-bot", example_zip("tsumogiri")).status, 202);
    let public = http.wait_status(&server, "secret-bot", "active", VALIDATION);
    assert_eq!(public["versions"], serde_json::json!([{"version": 2, "status": "active"}]), "{public}");
    assert_eq!(public["reason"], serde_json::Value::Null);
    assert_eq!(http.get(&server.url("/api/bots/secret-bot/v/1"), None).status, 404, "v1 stays private");
    let own = http.get(&server.url("/api/bots/secret-bot"), Some(&a)).json();
    assert_eq!(own["versions"].as_array().map(Vec::len), Some(2), "alice sees both: {own}");
    let html = page(&http, &server, "/bots/secret-bot", None).body;
    assert!(html.contains("v2 (active)") && !html.contains("v1 (rejected)"), "{html}");
    let (names, body) = board_names(&http, &server, None);
    assert_eq!(names.iter().filter(|n| *n == "secret-bot").count(), 1, "v2 only: {body}");
}

#[test]
fn a_revoked_or_unknown_token_is_401_everywhere() {
    let server = spawn_server(&[]);
    let (a, b) = (server.author("alice", false), server.author("bob", false));
    let http = Http::new();
    let ca = login(&http, &server, &a);
    assert_eq!(http.upload(&server, Some(&a), "abot", example_zip("tsumogiri")).status, 202);
    let db = server.dir.path().join("serve.sqlite").display().to_string();
    let out = mjai_sim(&["serve", "author", "revoke", "alice", "--db", &db]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));

    let api = [
        "/api/leaderboard",
        "/api/bots/abot",
        "/api/bots/abot/games",
        "/api/bots/abot/v/1",
        "/api/bots/abot/errors",
        "/api/bots/abot/validation",
        "/api/bots/no-bot/errors",
        "/api/games/0",
        "/healthz",
    ];
    let unknown = "0".repeat(64);
    for token in [a.as_str(), unknown.as_str(), "not-a-token"] {
        for path in api {
            let answer = http.get(&server.url(path), Some(token));
            assert_eq!(answer.status, 401, "{path} with {token}: {}", answer.body);
            assert!(answer.body.contains("not valid"), "{path}: {}", answer.body);
        }
        assert_eq!(http.delete(&server.url("/api/bots/abot"), Some(token)).status, 401);
        assert_eq!(http.upload(&server, Some(token), "abot", example_zip("tsumogiri")).status, 401);
    }
    // the other side: without a token the public routes answer and the private ones 404;
    // a valid token is served
    assert_eq!(http.get(&server.url("/api/leaderboard"), None).status, 200);
    assert_eq!(http.get(&server.url("/api/bots/abot/errors"), None).status, 404);
    assert_eq!(http.get(&server.url("/api/leaderboard"), Some(&b)).status, 200);
    assert_eq!(http.get(&server.url("/api/bots/abot/errors"), Some(&b)).status, 404, "another's: 404");

    // a dead login cookie: 401 on every page, and the cookie is cleared; the login form
    // still opens (the way out)
    for path in ["/", "/bots/abot", "/me", "/upload", "/bots/abot/validation", "/games/0"] {
        let shown = page(&http, &server, path, Some(&ca));
        assert_eq!(shown.status, 401, "{path}: {}", shown.body);
        assert!(shown.body.starts_with("<!DOCTYPE html>") && shown.body.contains("log in again"), "{path}");
        let cleared = shown.headers.get("set-cookie").and_then(|v| v.to_str().ok()).unwrap_or_default();
        assert!(cleared.starts_with("mjai_token=;") && cleared.contains("Max-Age=0"), "{path}: {cleared}");
    }
    assert_eq!(page(&http, &server, "/login", Some(&ca)).status, 200);
    assert_eq!(page(&http, &server, "/", None).status, 200, "without the cookie: a visitor");
}
