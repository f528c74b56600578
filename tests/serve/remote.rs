//! Remote bots on the grading server (issue 29): alice registers `kind=remote`, connects the
//! real `mjai-sim connect` bridge (a second process, the example tsumogiri bot.py
//! unchanged), its first connection validates it in every seat, it plays league games
//! while connected, goes offline when the bridge stops and is not scheduled then; bob
//! cannot connect as alice's bot; the refusals of the connect route from both sides.

use std::process::{Child, Command, Stdio};
use std::time::Duration;

use crate::support::{poll, spawn_server, status_of, Http, Server};

/// `POST /api/bots` with `name` and `kind=remote` (no file).
fn register(http: &Http, server: &Server, token: &str, name: &str) -> crate::support::Answer {
    let form = reqwest::multipart::Form::new().text("name", name.to_string()).text("kind", "remote");
    http.send(http.client().post(server.url("/api/bots")).multipart(form).bearer_auth(token))
}

/// A WebSocket handshake for `name` sent by hand, with `token` if any: the status.
fn handshake(server: &Server, name: &str, token: Option<&str>) -> u16 {
    let auth = token.map(|t| format!("Authorization: Bearer {t}\r\n")).unwrap_or_default();
    let request = format!(
        "GET /api/bots/{name}/connect HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\
         Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n{auth}\r\n"
    );
    let mut s = std::net::TcpStream::connect(server.addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    std::io::Write::write_all(&mut s, request.as_bytes()).unwrap();
    // the status line is all this needs (a 101 keeps the socket open)
    let mut buf = [0u8; 512];
    let n = std::io::Read::read(&mut s, &mut buf).unwrap_or(0);
    status_of(&String::from_utf8_lossy(&buf[..n]))
}

/// The bridge, `mjai-sim connect URL --token TOKEN examples/tsumogiri`.
fn bridge(server: &Server, name: &str, token: &str) -> Child {
    let url = format!("ws://{}/api/bots/{name}/connect", server.addr);
    let stderr = server.dir.path().join(format!("bridge-{name}.stderr.txt"));
    Command::new(env!("CARGO_BIN_EXE_mjai-sim"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["connect", &url, "--token", token, "--bot-stderr"])
        .arg(stderr)
        .arg("examples/tsumogiri")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

fn entry(http: &Http, server: &Server, name: &str) -> serde_json::Value {
    let a = http.get(&server.url(&format!("/api/bots/{name}")), None);
    assert_eq!(a.status, 200, "{}", a.body);
    a.json()["entry"].clone()
}

/// Games of the house bot `name` on the leaderboard.
fn house_games(http: &Http, server: &Server) -> u64 {
    let board = http.get(&server.url("/api/leaderboard"), None).json();
    board["bots"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| b["author"].is_null())
        .map(|b| b["games"].as_u64().unwrap())
        .sum()
}

#[test]
fn a_remote_bot_validates_plays_while_connected_and_is_not_scheduled_offline() {
    let server = spawn_server(&["--jobs", "1", "--max-connections", "1"]);
    let (alice, bob) = (server.author("alice", false), server.author("bob", false));
    let http = Http::new();

    let a = register(&http, &server, &alice, "alice-remote");
    assert_eq!(a.status, 202, "{}", a.body);
    assert_eq!(a.json()["status"], "validating");
    let e = entry(&http, &server, "alice-remote");
    assert_eq!((e["kind"].as_str(), e["online"].as_bool()), (Some("remote"), Some(false)));
    // a remote bot has no file; a kind nobody knows is refused
    let form = reqwest::multipart::Form::new()
        .text("name", "x")
        .text("kind", "remote")
        .part("file", reqwest::multipart::Part::bytes(vec![1, 2]).file_name("bot.zip"));
    assert_eq!(http.send(http.client().post(server.url("/api/bots")).multipart(form).bearer_auth(&alice)).status, 400);
    let form = reqwest::multipart::Form::new().text("name", "x").text("kind", "gpu");
    assert_eq!(http.send(http.client().post(server.url("/api/bots")).multipart(form).bearer_auth(&alice)).status, 400);

    // the connect route from both sides: nobody 401, bob 403, no such bot 404
    assert_eq!(handshake(&server, "alice-remote", None), 401);
    assert_eq!(handshake(&server, "alice-remote", Some(&bob)), 403);
    assert_eq!(handshake(&server, "nobody-here", Some(&alice)), 404);
    // bob's bridge ends at once with the refusal
    let out = Command::new(env!("CARGO_BIN_EXE_mjai-sim"))
        .args(["connect", &format!("ws://{}/api/bots/alice-remote/connect", server.addr), "--token", &bob])
        .arg("--bot-stderr")
        .arg(server.dir.path().join("bob.stderr.txt"))
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/tsumogiri"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("403"), "{}", String::from_utf8_lossy(&out.stderr));

    // alice's bridge: the first connection validates in every seat, then the league seats it
    let mut first = bridge(&server, "alice-remote", &alice);
    let page = http.wait_status(&server, "alice-remote", "active", Duration::from_secs(600));
    assert_eq!(page["entry"]["online"], true, "{page}");
    // --max-connections 1: a second connection is refused (429), the first stays
    assert_eq!(handshake(&server, "alice-remote", Some(&alice)), 429);
    let played = poll(Duration::from_secs(600), "a league game of the remote bot", || {
        let e = entry(&http, &server, "alice-remote");
        (e["games"].as_u64().unwrap_or(0) >= 2).then(|| e["games"].as_u64().unwrap())
    });
    assert!(played >= 2);
    let page = http.get(&server.url("/bots/alice-remote"), None);
    assert!(page.body.contains("remote bot, online"), "{}", page.body);

    // the bridge stops: offline, and no longer scheduled
    first.kill().unwrap();
    first.wait().unwrap();
    poll(Duration::from_secs(120), "alice-remote offline", || {
        (entry(&http, &server, "alice-remote")["online"] == false).then_some(())
    });
    let at_offline = entry(&http, &server, "alice-remote")["games"].as_u64().unwrap();
    let house_before = house_games(&http, &server);
    // the league plays on among the house bots (8 seats = 2 games)
    poll(Duration::from_secs(300), "house games after the bot went offline", || {
        (house_games(&http, &server) >= house_before + 8).then_some(())
    });
    let after = entry(&http, &server, "alice-remote")["games"].as_u64().unwrap();
    // at most the game that was in play when the bridge died
    assert!(after <= at_offline + 1, "scheduled while offline: {at_offline} -> {after}");
    let page = http.get(&server.url("/bots/alice-remote"), None);
    assert!(page.body.contains("remote bot, offline"), "{}", page.body);
    let log = server.stderr();
    assert!(log.contains("event=\"online\"") || log.contains("event=online"), "{log}");
}

#[test]
fn a_zip_bot_cannot_connect_and_a_server_played_by_workers_takes_no_remote_bot() {
    let server = spawn_server(&[]); // --jobs 0: workers play
    let alice = server.author("alice", false);
    let http = Http::new();
    let a = register(&http, &server, &alice, "alice-remote");
    assert_eq!(a.status, 409, "{}", a.body);
    assert!(a.json()["error"].as_str().unwrap().contains("--jobs 0"), "{}", a.body);
    let up = http.upload(&server, Some(&alice), "alice-zip", crate::support::example_zip("tsumogiri"));
    assert_eq!(up.status, 202, "{}", up.body);
    assert_eq!(handshake(&server, "alice-zip", Some(&alice)), 409);
}

/// The lines a child prints on stdout, as they come.
fn lines_of(child: &mut Child) -> std::sync::mpsc::Receiver<String> {
    use std::io::BufRead;
    let (tx, rx) = std::sync::mpsc::channel();
    let out = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(out).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    rx
}

/// Waits (at most `limit`) for a line of `lines` that `wanted` accepts; the lines before it
/// are skipped.
fn expect_line(lines: &std::sync::mpsc::Receiver<String>, limit: Duration, wanted: impl Fn(&str) -> bool) -> String {
    let deadline = std::time::Instant::now() + limit;
    loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        match lines.recv_timeout(left) {
            Ok(line) if wanted(&line) => return line,
            Ok(_) => continue,
            Err(e) => panic!("no such line within {limit:?} ({e})"),
        }
    }
}

#[test]
fn the_bridge_prints_its_verdict_rides_through_a_restart_and_ends_at_once_on_a_final_refusal() {
    let mut server = spawn_server(&["--jobs", "1"]);
    let alice = server.author("alice", false);
    let http = Http::new();
    let token_file = server.dir.path().join("alice.token");
    std::fs::write(&token_file, format!("{alice}\n")).unwrap();
    let connect = |server: &Server, name: &str| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_mjai-sim"));
        c.current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(["connect", &format!("ws://{}/api/bots/{name}/connect", server.addr), "--token-file"])
            .arg(&token_file)
            .arg("--bot-stderr")
            .arg(server.dir.path().join(format!("{name}.stderr.txt")))
            .arg("examples/tsumogiri")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        c
    };

    // a zip version cannot be played through the bridge: it ends at once, with the
    // server's own words (not after --reconnect-for, not a bare status)
    let up = http.upload(&server, Some(&alice), "alice-zip", crate::support::example_zip("tsumogiri"));
    assert_eq!(up.status, 202, "{}", up.body);
    let mut refused = connect(&server, "alice-zip").spawn().unwrap();
    let status = poll(Duration::from_secs(30), "the refused bridge's exit", || refused.try_wait().unwrap());
    let err = String::from_utf8_lossy(&refused.wait_with_output().unwrap().stderr).into_owned();
    assert_eq!(status.code(), Some(1), "{err}");
    assert!(err.contains("HTTP 409: alice-zip v1 is an uploaded zip, played by the server"), "{err}");

    // a remote bot: connected, validated (one line with the verdict)
    assert_eq!(register(&http, &server, &alice, "alice-remote").status, 202);
    let mut bridge = connect(&server, "alice-remote").spawn().unwrap();
    let lines = lines_of(&mut bridge);
    let url = format!("ws://{}/api/bots/alice-remote/connect", server.addr);
    expect_line(&lines, Duration::from_secs(30), |l| l == format!("connected to {url}; waiting for a seat"));
    let verdict = expect_line(&lines, Duration::from_secs(600), |l| l.starts_with("validation of v1: "));
    assert_eq!(verdict, "validation of v1: passed; the bot plays league games while connected");

    // the server stops and starts again on the same address: the bridge connects again
    assert_eq!(server.terminate(), Some(143));
    expect_line(&lines, Duration::from_secs(30), |l| l.contains("connecting again"));
    assert!(bridge.try_wait().unwrap().is_none(), "the bridge outlives the server");
    let addr = server.addr.to_string();
    let restarted = crate::support::spawn_in(server.dir.clone(), &["--jobs", "1", "--listen", &addr]);
    expect_line(&lines, Duration::from_secs(60), |l| l == format!("connected to {url}; waiting for a seat"));
    poll(Duration::from_secs(60), "alice-remote online after the restart", || {
        (entry(&http, &restarted, "alice-remote")["online"] == true).then_some(())
    });
    // /me says so too
    let me = http.send(http.client().get(restarted.url("/me")).header("cookie", format!("mjai_token={alice}")));
    assert!(me.body.contains("<span class=\"connection\">online</span>"), "{}", me.body);
    bridge.kill().unwrap();
    bridge.wait().unwrap();
}

/// `serve author ARGS NAME --db <the server's store>`, which must succeed.
fn author_command(server: &Server, args: &[&str]) {
    let db = server.dir.path().join("serve.sqlite").display().to_string();
    let mut argv = vec!["serve", "author"];
    argv.extend(args);
    argv.extend(["--db", &db]);
    let out = crate::support::mjai_sim(&argv).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn revoking_or_rotating_an_authors_token_hangs_up_their_bridge_and_no_one_elses() {
    let server = spawn_server(&["--jobs", "1"]);
    let (alice, bob) = (server.author("alice", false), server.author("bob", false));
    let http = Http::new();
    let url = |name: &str| format!("ws://{}/api/bots/{name}/connect", server.addr);
    let mut bridges = Vec::new();
    for (name, token) in [("alice-remote", &alice), ("bob-remote", &bob)] {
        assert_eq!(register(&http, &server, token, name).status, 202);
        let mut child = Command::new(env!("CARGO_BIN_EXE_mjai-sim"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(["connect", &url(name), "--token", token, "--bot-stderr"])
            .arg(server.dir.path().join(format!("{name}.stderr.txt")))
            .arg("examples/tsumogiri")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let lines = lines_of(&mut child);
        expect_line(&lines, Duration::from_secs(30), |l| {
            l == format!("connected to {}; waiting for a seat", url(name))
        });
        bridges.push(child);
    }
    let mut bob_bridge = bridges.pop().unwrap();
    let mut alice_bridge = bridges.pop().unwrap();

    // alice revoked by the operator's command (another process): her bridge is hung up,
    // its reconnection refused with 401, and it stops
    author_command(&server, &["revoke", "alice"]);
    let status = poll(Duration::from_secs(60), "alice's bridge stopping", || alice_bridge.try_wait().unwrap());
    let err = String::from_utf8_lossy(&alice_bridge.wait_with_output().unwrap().stderr).into_owned();
    assert_eq!(status.code(), Some(1), "{err}");
    assert!(err.contains("401"), "{err}");
    poll(Duration::from_secs(30), "alice-remote offline", || {
        (entry(&http, &server, "alice-remote")["online"] == false).then_some(())
    });
    // bob's bridge, opened with a token still valid, stays connected
    assert!(bob_bridge.try_wait().unwrap().is_none(), "bob's bridge was hung up too");
    assert_eq!(entry(&http, &server, "bob-remote")["online"], true);

    // bob's token rotated: the connection it opened is hung up as well
    author_command(&server, &["rotate", "bob"]);
    let status = poll(Duration::from_secs(60), "bob's bridge stopping", || bob_bridge.try_wait().unwrap());
    let err = String::from_utf8_lossy(&bob_bridge.wait_with_output().unwrap().stderr).into_owned();
    assert_eq!(status.code(), Some(1), "{err}");
    assert!(err.contains("401"), "{err}");
    assert!(server.stderr().contains("hung_up"), "the audit log names the hang-up");
}
