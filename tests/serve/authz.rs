//! Authorization of every route from both sides, uploads and their validation, versions,
//! retirement and the browser login.

use std::time::Duration;

use super::support::{example_zip, spawn_server, Http};

const VALIDATION: Duration = Duration::from_secs(180);

#[test]
fn authors_upload_validate_and_see_only_their_own_errors() {
    let server = spawn_server(&["--max-submission-mb", "5"]);
    let (a, b, admin) = (server.author("alice", false), server.author("bob", false), server.author("root", true));
    let http = Http::new();

    // no token, or an unknown one: 401
    assert_eq!(http.upload(&server, None, "abot", example_zip("tsumogiri")).status, 401);
    assert_eq!(http.upload(&server, Some(&"0".repeat(64)), "abot", example_zip("tsumogiri")).status, 401);

    // alice uploads: 202 with the exact shape
    let up = http.upload(&server, Some(&a), "abot", example_zip("tsumogiri"));
    assert_eq!(up.status, 202, "{}", up.body);
    assert_eq!(up.json(), serde_json::json!({"name": "abot", "version": 1, "status": "validating"}));
    // bob cannot upload under alice's name, nor under a house bot's
    assert_eq!(http.upload(&server, Some(&b), "abot", example_zip("tsumogiri")).status, 409);
    assert_eq!(http.upload(&server, Some(&b), "rulebase", example_zip("tsumogiri")).status, 409);
    // bob's bot crashes on its third draw: rejected
    assert_eq!(http.upload(&server, Some(&b), "bbot", example_zip("crash")).status, 202);

    let page = http.wait_status(&server, "abot", "active", VALIDATION);
    assert_eq!(page["entry"]["author"], "alice");
    assert_eq!(page["entry"]["version"], 1);
    let page = http.wait_status_as(&server, "bbot", "rejected", Some(&b), VALIDATION);
    let reason = page["reason"].as_str().unwrap();
    assert!(["chombo", "crash", "abandoned"].iter().any(|w| reason.contains(w)), "{reason}");

    // errors and the validation game: the author and admins; others 404
    let errors = |name: &str, token: Option<&str>| http.get(&server.url(&format!("/api/bots/{name}/errors")), token);
    assert_eq!(errors("bbot", None).status, 404);
    assert_eq!(errors("bbot", Some(&a)).status, 404, "alice cannot see bob's errors");
    let mine = errors("bbot", Some(&b));
    assert_eq!(mine.status, 200);
    let v = &mine.json()["validations"][0];
    assert_eq!(v["status"], "rejected");
    assert!(v["stderr"].as_str().unwrap().contains("crash"), "bob sees his bot's stderr: {v}");
    assert_eq!(errors("bbot", Some(&admin)).status, 200);
    assert_eq!(errors("abot", Some(&b)).status, 404, "bob cannot see alice's errors");
    assert_eq!(errors("abot", Some(&a)).status, 200);
    let log = |token: Option<&str>| http.get(&server.url("/api/bots/bbot/validation"), token);
    assert_eq!(log(Some(&a)).status, 404);
    let game = log(Some(&b));
    assert_eq!(game.status, 200);
    assert!(game.body.lines().next().unwrap().contains("start_game"), "the validation game's mjai log");

    // a rejected bot never enters the league; the accepted one does (the rejected one is
    // on its author's leaderboard only: tests/serve/privacy.rs)
    let board = http.get(&server.url("/api/leaderboard"), Some(&b)).json();
    let line = |name: &str| board["bots"].as_array().unwrap().iter().find(|e| e["name"] == name).cloned().unwrap();
    assert_eq!(line("bbot")["status"], "rejected");
    assert_eq!(line("bbot")["games"], 0);
    assert_eq!(line("abot")["status"], "active");
    assert_eq!(line("rulebase")["author"], serde_json::Value::Null, "house bots have no author");

    // a new version of one's own name: version 2; version 1 retires once 2 passes
    let up = http.upload(&server, Some(&a), "abot", example_zip("tsumogiri"));
    assert_eq!(up.json(), serde_json::json!({"name": "abot", "version": 2, "status": "validating"}));
    let page = http.wait_status(&server, "abot", "active", VALIDATION);
    assert_eq!(page["entry"]["version"], 2);
    let board = http.get(&server.url("/api/leaderboard"), None).json();
    let versions: Vec<(u64, String)> = board["bots"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["name"] == "abot")
        .map(|e| (e["version"].as_u64().unwrap(), e["status"].as_str().unwrap().to_string()))
        .collect();
    assert!(versions.contains(&(1, "retired".into())) && versions.contains(&(2, "active".into())), "{versions:?}");

    // retiring: nobody 401, another author 403, the author 200
    let retire = |token: Option<&str>| http.delete(&server.url("/api/bots/abot"), token);
    assert_eq!(retire(None).status, 401);
    assert_eq!(retire(Some(&b)).status, 403);
    assert_eq!(http.get(&server.url("/api/bots/abot"), None).json()["entry"]["status"], "active");
    let done = retire(Some(&a));
    assert_eq!(done.status, 200, "{}", done.body);
    assert_eq!(http.get(&server.url("/api/bots/abot"), None).json()["entry"]["status"], "retired");
    assert_eq!(retire(Some(&a)).status, 409, "nothing left to retire");
    // an admin may retire anyone's bot
    assert_eq!(http.upload(&server, Some(&b), "bbot2", example_zip("tsumogiri")).status, 202);
    assert_eq!(http.delete(&server.url("/api/bots/bbot2"), Some(&admin)).status, 200);
}

#[test]
fn login_sets_a_strict_http_only_cookie_that_authenticates() {
    let server = spawn_server(&[]);
    let token = server.author("carol", false);
    let http = Http::new();
    let login = |t: &str| {
        let form = http.client().post(server.url("/login")).header("content-type", "application/x-www-form-urlencoded");
        http.send(form.body(format!("token={t}")))
    };
    assert_eq!(login(&"f".repeat(64)).status, 401);
    assert_eq!(login("not-a-token").status, 401);
    let ok = login(&token);
    assert_eq!(ok.status, 303);
    assert_eq!(ok.headers["location"], "/me");
    let cookie = ok.headers["set-cookie"].to_str().unwrap().to_string();
    assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"), "{cookie}");
    assert!(!cookie.contains("Secure"), "plain HTTP on loopback keeps working: {cookie}");
    let pair = cookie.split(';').next().unwrap().to_string();
    // behind a TLS terminator (X-Forwarded-Proto: https), or with --secure-cookie: Secure
    let behind_tls = http.send(
        http.client()
            .post(server.url("/login"))
            .header("content-type", "application/x-www-form-urlencoded")
            .header("x-forwarded-proto", "https")
            .body(format!("token={token}")),
    );
    assert!(behind_tls.headers["set-cookie"].to_str().unwrap().ends_with("; Secure"), "{:?}", behind_tls.headers);
    let flagged = spawn_server(&["--secure-cookie"]);
    let dave = flagged.author("dave", false);
    let form = http.client().post(flagged.url("/login")).header("content-type", "application/x-www-form-urlencoded");
    let secure = http.send(form.body(format!("token={dave}")));
    assert_eq!(secure.status, 303);
    assert!(secure.headers["set-cookie"].to_str().unwrap().ends_with("; Secure"), "{:?}", secure.headers);
    // the cookie authenticates an upload like the Bearer header
    let form = reqwest::multipart::Form::new()
        .text("name", "cbot")
        .part("file", reqwest::multipart::Part::bytes(example_zip("tsumogiri")).file_name("bot.zip"));
    let up = http.send(http.client().post(server.url("/api/bots")).header("cookie", pair.clone()).multipart(form));
    assert_eq!(up.status, 202, "{}", up.body);
    let errors = http.send(http.client().get(server.url("/api/bots/cbot/errors")).header("cookie", pair));
    assert_eq!(errors.status, 200);
}

#[test]
fn per_author_limits_answer_429() {
    let server = spawn_server(&["--uploads-per-hour", "2", "--max-bots", "1", "--max-validations", "1"]);
    let token = server.author("dave", false);
    let http = Http::new();
    let up = |name: &str| http.upload(&server, Some(&token), name, example_zip("tsumogiri")).status;
    assert_eq!(up("d1"), 202);
    assert_eq!(up("d2"), 429, "a second bot is over --max-bots 1");
    assert_eq!(up("d1"), 202, "a new version of the same bot is fine");
    assert_eq!(up("d1"), 429, "a third upload in the hour is over --uploads-per-hour 2");
}

#[test]
fn an_upload_error_names_the_file_sent_not_one_after_the_bot() {
    let server = spawn_server(&[]);
    let token = server.author("erin", false);
    let http = Http::new();
    let no_bot = super::support::zip_of(&[("main.py", &b"print(1)"[..])]);
    let refused = http.upload_file(&server, Some(&token), "erin-broken", "broken.zip", no_bot.clone());
    assert_eq!(refused.status, 400, "{}", refused.body);
    let reason = refused.json()["error"].as_str().unwrap_or_default().to_string();
    assert!(reason.contains("broken.zip") && !reason.contains("erin-broken.zip"), "{reason}");
    // a client that names no file (or only folders): the bot's name stands in
    let bare = http.upload_file(&server, Some(&token), "erin-broken", "dir/", no_bot);
    assert!(bare.json()["error"].as_str().unwrap_or_default().contains("erin-broken.zip"), "{}", bare.body);
}
