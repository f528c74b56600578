//! riichi.dev's dialect on the grading server (issue 37): alice registers `kind=riichilab`
//! and gets a bot token once; `mjai-sim connect` on `/ws/validate` validates the bot (a
//! stdio tsumogiri, unchanged), on `/ws/ranked` it plays league games, one per connection;
//! the two routes' refusals from both sides; a new version's token replaces the old one.

use std::process::Command;
use std::time::Duration;

use crate::support::{Http, Server};

fn register(http: &Http, server: &Server, token: &str, name: &str) -> crate::support::Answer {
    let form = reqwest::multipart::Form::new().text("name", name.to_string()).text("kind", "riichilab");
    http.send(http.client().post(server.url("/api/bots")).multipart(form).bearer_auth(token))
}

/// A WebSocket to `path` with `token` if any: the HTTP status and body of a refusal before
/// the upgrade, or the close code and reason the server sends first after it (riichi.dev
/// closes a bad token with 1008, a second connection with 1013), or 101 and what came.
fn handshake(server: &Server, path: &str, token: Option<&str>) -> (u16, String) {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    use tokio_tungstenite::tungstenite::{Error, HandshakeError, Message};
    let mut request = format!("ws://{}{path}", server.addr).into_client_request().unwrap();
    if let Some(t) = token {
        request.headers_mut().insert("authorization", format!("Bearer {t}").parse().unwrap());
    }
    let stream = std::net::TcpStream::connect(server.addr).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    match tokio_tungstenite::tungstenite::client::client(request, stream) {
        Err(HandshakeError::Failure(Error::Http(r))) => {
            (r.status().as_u16(), String::from_utf8_lossy(r.body().as_deref().unwrap_or_default()).into_owned())
        }
        Err(e) => panic!("{path}: {e}"),
        Ok((mut ws, _)) => match ws.read() {
            Ok(Message::Close(Some(frame))) => (u16::from(frame.code), frame.reason.to_string()),
            other => (101, format!("{other:?}")),
        },
    }
}

/// `mjai-sim connect ws://ADDR{path} --token TOKEN ARGS -- python3 tsumogiri.py`: exit code, stdout.
fn connect(server: &Server, path: &str, token: &str, args: &[&str]) -> (Option<i32>, String, String) {
    let bot = server.dir.path().join("tsumogiri.py");
    std::fs::write(
        &bot,
        r#"import json, sys
seat = int(sys.argv[1])
for line in sys.stdin:
    last = json.loads(line)[-1]
    if last.get("type") == "tsumo" and last.get("actor") == seat:
        print(json.dumps({"type": "dahai", "actor": seat, "pai": last["pai"], "tsumogiri": True}), flush=True)
    else:
        print('{"type":"none"}', flush=True)
"#,
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_mjai-sim"))
        .args(["connect", &format!("ws://{}{path}", server.addr), "--token", token, "--bot-stderr"])
        .arg(server.dir.path().join("bot.stderr.txt"))
        .args(args)
        .args(["--", "python3"])
        .arg(&bot)
        .output()
        .unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

#[test]
fn a_riichi_dev_bot_validates_and_plays_ranked_games_through_connect() {
    let server = crate::support::spawn_server(&["--jobs", "1"]);
    let alice = server.author("alice", false);
    let http = Http::new();

    let a = register(&http, &server, &alice, "alice-rl");
    assert_eq!(a.status, 202, "{}", a.body);
    let token = a.json()["token"].as_str().expect("the bot token, once").to_string();
    assert_eq!(token.len(), 64);
    assert_eq!(a.json()["status"], "validating");
    let e = http.get(&server.url("/api/bots/alice-rl"), None).json();
    assert_eq!(e["entry"]["kind"], "riichilab", "{e}");
    assert!(!http.get(&server.url("/api/bots/alice-rl"), Some(&alice)).body.contains(&token), "never shown again");

    // the routes from both sides: no token, an author's token, a wrong one: closed with
    // 1008 as riichi.dev closes them; ranked before validation: 409
    for t in [None, Some(alice.as_str()), Some(&"0".repeat(64)), Some("short")] {
        assert_eq!(handshake(&server, "/ws/ranked", t).0, 1008, "{t:?}");
        assert_eq!(handshake(&server, "/ws/validate", t).0, 1008, "{t:?}");
    }
    let (status, body) = handshake(&server, "/ws/ranked", Some(&token));
    assert_eq!(status, 409);
    assert!(body.contains("/ws/validate"), "{body}");

    // validation: one game, then the verdict, then the server closes; connect exits 0
    let (code, out, err) = connect(&server, "/ws/validate", &token, &[]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.lines().any(|l| l == "validation passed"), "{out}");
    http.wait_status(&server, "alice-rl", "active", Duration::from_secs(120));
    // ... an East-only game, as riichi.dev validates (Tenhou's 東風戦: East, then the South
    // round only while nobody has 30000; never the West round)
    let log = http.get(&server.url("/api/bots/alice-rl/validation"), Some(&alice));
    assert_eq!(log.status, 200, "{}", log.body);
    let hands: Vec<serde_json::Value> = log
        .body
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|e| e["type"] == "start_kyoku")
        .collect();
    assert!(!hands.is_empty() && hands.iter().all(|h| h["bakaze"] == "E" || h["bakaze"] == "S"), "{hands:?}");
    for south in hands.iter().filter(|h| h["bakaze"] == "S") {
        assert!(south["scores"].as_array().unwrap().iter().all(|s| s.as_i64().unwrap() < 30000), "{south}");
    }
    let (status, body) = handshake(&server, "/ws/validate", Some(&token));
    assert_eq!(status, 409);
    assert!(body.contains("/ws/ranked"), "{body}");

    // ranked: one league game per connection, connect queues again for the second
    let (code, out, err) = connect(&server, "/ws/ranked", &token, &["--games", "2"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(out.lines().filter(|l| l.starts_with("game over: seat ")).count(), 2, "{out}");
    // the results are recorded once the games are over
    crate::support::poll(Duration::from_secs(60), "two league games of alice-rl recorded", || {
        let e = http.get(&server.url("/api/bots/alice-rl"), None).json();
        (e["entry"]["games"].as_u64().unwrap_or(0) >= 2).then_some(())
    });

    // a new version gets a new token; the old one stops working
    let b = register(&http, &server, &alice, "alice-rl");
    assert_eq!(b.status, 202, "{}", b.body);
    let new = b.json()["token"].as_str().unwrap().to_string();
    assert_ne!(new, token);
    assert_eq!(handshake(&server, "/ws/validate", Some(&token)).0, 1008);
    let (code, out, err) = connect(&server, "/ws/validate", &new, &[]);
    assert_eq!(code, Some(0), "{out}{err}");
    let page = http.wait_status(&server, "alice-rl", "active", Duration::from_secs(120));
    assert_eq!(page["entry"]["version"], 2, "{page}");

    // rotating: its author (not another, not nobody) gets a new token, the old one is refused
    let bob = server.author("bob", false);
    let rotate = |token: Option<&str>| {
        let mut request = http.client().post(server.url("/api/bots/alice-rl/token"));
        if let Some(t) = token {
            request = request.bearer_auth(t);
        }
        http.send(request)
    };
    assert_eq!(rotate(None).status, 401);
    assert_eq!(rotate(Some(&bob)).status, 403);
    let r = rotate(Some(&alice));
    assert_eq!(r.status, 200, "{}", r.body);
    let rotated = r.json()["token"].as_str().unwrap().to_string();
    assert_eq!(handshake(&server, "/ws/ranked", Some(&new)).0, 1008, "the old token stops working");
    assert_eq!(
        handshake(&server, "/ws/validate", Some(&rotated)).0,
        409,
        "the new one names the bot (validated already)"
    );
    let up = http.upload(&server, Some(&bob), "bob-zip", crate::support::example_zip("tsumogiri"));
    assert_eq!(up.status, 202, "{}", up.body);
    assert_eq!(http.send(http.client().post(server.url("/api/bots/bob-zip/token")).bearer_auth(&bob)).status, 409);
}

/// scripts/riichi_dev_client.py on `path` with the bot token, `extra` its further arguments:
/// its report and exit code.
fn riichienv_client(server: &Server, path: &str, token: &str, extra: &[&str]) -> (serde_json::Value, Option<i32>) {
    let report = server.dir.path().join("client-report.json");
    let (report, status) =
        crate::riichienv_support::client(&format!("ws://{}{path}", server.addr), token, &report, extra);
    (report, status.code())
}

#[test]
fn riichienv_clients_get_riichi_devs_verdicts_and_a_ranked_one_is_in_exactly_the_games_it_joined() {
    let server = crate::support::spawn_server(&["--jobs", "1"]);
    let alice = server.author("alice", false);
    let http = Http::new();

    // a client that dies after 4 answers fails validation, with riichi.dev's reason
    let a = register(&http, &server, &alice, "alice-py");
    assert_eq!(a.status, 202, "{}", a.body);
    let token = a.json()["token"].as_str().unwrap().to_string();
    let (report, code) = riichienv_client(&server, "/ws/validate", &token, &["--crash-after", "4"]);
    assert_eq!(code, Some(3), "{report}");
    let page = http.wait_status_as(&server, "alice-py", "rejected", Some(&alice), Duration::from_secs(120));
    let reason = page["reason"].as_str().unwrap_or_default();
    assert!(reason.contains("not every request was answered") && reason.contains("responses: 4"), "{page}");
    assert!(reason.contains("disconnected"), "{page}");

    // a whole client passes, hears a sentence, and the socket closes with 1000
    let b = register(&http, &server, &alice, "alice-py");
    assert_eq!(b.status, 202, "{}", b.body);
    let token = b.json()["token"].as_str().unwrap().to_string();
    let (report, code) = riichienv_client(&server, "/ws/validate", &token, &[]);
    assert_eq!(code, Some(0), "{report}");
    assert_eq!(report["violation_count"], 0, "{report}");
    let verdict = &report["validation_result"];
    assert_eq!(verdict["passed"], true, "{report}");
    assert!(verdict["reason"].as_str().is_some_and(|r| r.starts_with("passed: every request answered")), "{report}");
    assert_eq!(report["close_codes"], serde_json::json!([1000]), "{report}");
    http.wait_status(&server, "alice-py", "active", Duration::from_secs(120));

    // ranked: one game, then the client closes; the league goes on without it
    let (report, code) = riichienv_client(&server, "/ws/ranked", &token, &["--games", "1"]);
    assert_eq!(code, Some(0), "{report}");
    assert_eq!(report["violation_count"], 0, "{report}");
    assert_eq!(report["games"], 1, "{report}");
    let played = |name: &str| {
        let e = http.get(&server.url(&format!("/api/bots/{name}")), None).json();
        e["entry"]["games"].as_u64().unwrap_or(0)
    };
    crate::support::poll(Duration::from_secs(60), "alice-py's game recorded", || {
        (played("alice-py") >= 1).then_some(())
    });
    // three more league games of the house bots, none with the disconnected bot
    let before = played("tg");
    crate::support::poll(Duration::from_secs(240), "three more league games", || {
        (played("tg") >= before + 3).then_some(())
    });
    let page = http.get(&server.url("/api/bots/alice-py"), None).json();
    assert_eq!(page["entry"]["games"], 1, "seated only in the game it joined: {page}");
    assert_eq!(page["entry"]["status"], "active", "never suspended: {page}");
    assert_eq!(page["entry"]["chombos"].as_u64().unwrap_or(0), 0, "{page}");
}
