//! A season (issue 54) against a running server that plays its league: the admin opens it
//! and freezes it over the API (an author is refused: 403; nobody: 401); an upload after
//! the freeze (the API's, a riichi.dev bot's registration, the upload page) answers 409
//! naming the freeze time; the final (top 4, one set) asked for over
//! the admin API is played by the running server; its standings are frozen equal to the
//! library's standings of the final's records, its games listed and downloadable, its page
//! shown; voiding a league game afterwards leaves them as they were. The command line's
//! `season` commands refuse what the API refuses, in one line.

use std::io::Read;
use std::time::Duration;

use super::support::{example_zip, mjai_sim, poll, spawn_server, Http, Server};

/// `serve season ARGS --db <the server's store>`: (exit code, stdout, stderr).
fn season(server: &Server, args: &[&str]) -> (i32, String, String) {
    let db = server.dir.path().join("serve.sqlite").display().to_string();
    let mut argv = vec!["serve", "season"];
    argv.extend(args);
    argv.extend(["--db", &db]);
    let out = mjai_sim(&argv).output().unwrap();
    let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (out.status.code().unwrap_or(-1), text(out.stdout), text(out.stderr))
}

/// `POST url` with a JSON body and an optional token.
fn post(http: &Http, url: &str, token: Option<&str>, body: &str) -> super::support::Answer {
    let mut r = http.client().post(url).header("content-type", "application/json").body(body.to_string());
    if let Some(t) = token {
        r = r.bearer_auth(t);
    }
    http.send(r)
}

/// The library's standings of the final's records, best first, as the API answers them:
/// through the same JSON text the server froze and the answer it makes of it (serde_json
/// reads a float back to within one ulp, so the comparison goes the same way).
fn standings_of_the_final(server: &Server) -> serde_json::Value {
    let db = format!("sqlite:{}", server.dir.path().join("serve.sqlite").display());
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let session =
            mjai_sim::tournament::session::Session::open_in_db(&db, "league/season/s1/final", 1).await.unwrap();
        let standings = session.standings().await.unwrap();
        session.close().await;
        let frozen: mjai_sim::tournament::standings::Standings =
            serde_json::from_str(&serde_json::to_string(&standings).unwrap()).unwrap();
        let ranked: Vec<_> = frozen.ranked().into_iter().cloned().collect();
        serde_json::from_str(&serde_json::to_string(&ranked).unwrap()).unwrap()
    })
}

#[test]
fn a_frozen_season_refuses_uploads_and_its_final_is_played_and_frozen() {
    // the league plays one set of 4 games, then holds still (the next set in 4 minutes)
    let server = spawn_server(&["--jobs", "1", "--pace", "60"]);
    let http = Http::new();
    let (root, alice) = (server.author("root", true), server.author("alice", false));
    poll(Duration::from_secs(300), "the league's first set", || {
        let list = http.get(&server.url("/api/games?status=finished"), None).json();
        (list["games"].as_array().unwrap().len() == 4).then_some(())
    });

    // opening: the admin only
    let open = r#"{"name": "s1", "freeze_at": "2099-01-01T00:00:00Z"}"#;
    assert_eq!(post(&http, &server.url("/api/seasons"), None, open).status, 401);
    let refused = post(&http, &server.url("/api/seasons"), Some(&alice), open);
    assert_eq!(refused.status, 403, "{}", refused.body);
    let opened = post(&http, &server.url("/api/seasons"), Some(&root), open);
    assert_eq!(opened.status, 201, "{}", opened.body);
    assert_eq!(opened.json()["status"], "open");
    let (code, _, err) = season(&server, &["open", "s1", "--freeze", "2020-01-01"]);
    assert!(code == 1 && err.contains("season s1 exists") && err.trim().lines().count() == 1, "{err}");
    let (code, _, err) = season(&server, &["open", "s2", "--freeze", "2020-01-01"]);
    assert!(code == 1 && err.contains("season s1 is open until 2099-01-01"), "{err}");

    // freezing: the admin only; then uploads answer 409 naming the freeze time
    assert_eq!(post(&http, &server.url("/api/seasons/s1/freeze"), Some(&alice), "").status, 403);
    let frozen = post(&http, &server.url("/api/seasons/s1/freeze"), Some(&root), "");
    assert_eq!(frozen.status, 200, "{}", frozen.body);
    let frozen = frozen.json();
    assert_eq!(frozen["status"], "frozen", "{frozen}");
    let freeze_at = frozen["freeze_at"].as_str().unwrap().to_string();
    let late = http.upload(&server, Some(&alice), "late-bot", example_zip("tsumogiri"));
    assert_eq!(late.status, 409, "{}", late.body);
    assert!(late.json()["error"].as_str().unwrap().contains(&freeze_at), "{}", late.body);
    // every way a new version is made: a riichi.dev bot's registration, the upload page
    let dialect = reqwest::multipart::Form::new().text("name", "late-dialect").text("kind", "riichilab");
    let dialect = http.send(http.client().post(server.url("/api/bots")).bearer_auth(&alice).multipart(dialect));
    assert_eq!(dialect.status, 409, "{}", dialect.body);
    assert!(dialect.body.contains(&freeze_at), "{}", dialect.body);
    let zip = reqwest::multipart::Part::bytes(example_zip("tsumogiri")).file_name("bot.zip");
    let form = reqwest::multipart::Form::new().text("name", "late-page").part("file", zip);
    let page = http.send(http.client().post(server.url("/upload")).bearer_auth(&alice).multipart(form));
    assert!(page.status == 409 && page.body.contains(&freeze_at), "{}: {}", page.status, page.body);

    // the final: the admin only; played by the server
    let ask = r#"{"top": 4, "sets": 1}"#;
    assert_eq!(post(&http, &server.url("/api/seasons/s1/final"), Some(&alice), ask).status, 403);
    let asked = post(&http, &server.url("/api/seasons/s1/final"), Some(&root), ask);
    assert_eq!(asked.status, 202, "{}", asked.body);
    assert_eq!(asked.json()["status"], "final");
    assert_eq!(asked.json()["final"]["games"], 4, "{}", asked.body);
    let (code, _, err) = season(&server, &["final", "s1", "--top", "4", "--sets", "1"]);
    assert!(code == 1 && err.contains("has its final already"), "{err}");
    let done = poll(Duration::from_secs(300), "the final's frozen standings", || {
        let s = http.get(&server.url("/api/seasons/s1"), None).json();
        (!s["final_standings"].is_null()).then_some(s)
    });
    assert_eq!((done["final"]["played"].as_u64(), done["final"]["top"].as_u64()), (Some(4), Some(4)), "{done}");
    assert_eq!(done["final_standings"], standings_of_the_final(&server), "frozen = the library's standings");
    assert_eq!(done["final_standings"].as_array().unwrap().len(), 4);
    let games = done["games"].as_array().unwrap();
    assert_eq!(games.len(), 4, "{done}");

    // a final game downloads with the bots' names in start_game
    let log = games[0]["log"].as_str().unwrap();
    let (status, _, gz) = http.bytes(http.client().get(server.url(log)));
    assert_eq!(status, 200);
    let mut text = String::new();
    flate2::read::GzDecoder::new(&gz[..]).read_to_string(&mut text).unwrap();
    let start: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(start["names"], games[0]["bots"], "{start}");

    // the page and the list
    let page = http.get(&server.url("/seasons/s1"), None);
    assert!(page.status == 200 && page.body.contains("id=\"standings\""), "{}", page.body);
    let list = http.get(&server.url("/api/seasons"), None).json();
    assert_eq!(list["seasons"][0]["name"], "s1", "{list}");
    let (code, out, err) = season(&server, &["show", "s1"]);
    assert!(code == 0 && out.contains("status: final") && out.contains("final_games: 4 of 4 played"), "{out}{err}");

    // voiding a league game afterwards leaves the frozen standings as they were
    let league = http.get(&server.url("/api/games?status=finished"), None).json();
    let id = league["games"][0]["id"].as_u64().unwrap().to_string();
    let db = server.dir.path().join("serve.sqlite").display().to_string();
    let out = mjai_sim(&["serve", "void", "--game", &id, "--reason", "after the final", "--db", &db]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let after = http.get(&server.url("/api/seasons/s1"), None).json();
    assert_eq!(after["final_standings"], done["final_standings"]);
    assert_eq!(after["frozen_at"], done["frozen_at"]);
}
