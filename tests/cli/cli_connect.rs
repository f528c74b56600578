//! `mjai-sim connect`: its arguments, and a token the game refuses.

use std::time::{Duration, Instant};

use crate::e2e_support::{mjai_sim, repo};
use crate::remote_support::RemoteGame;

fn stderr_of(args: &[&str]) -> (i32, String) {
    let out = mjai_sim().args(args).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn connect_refuses_bad_arguments_in_one_line() {
    let bot = repo("examples/tsumogiri");
    let (code, err) = stderr_of(&["connect", "http://127.0.0.1:1/remote/a", "--token", "t", &bot]);
    assert_eq!(code, 1);
    assert!(err.contains("cannot connect: `http://127.0.0.1:1/remote/a` is not a ws:// or wss:// URL"), "{err}");
    let (code, err) = stderr_of(&["connect", "ws://127.0.0.1:1/remote/a", "--token", "t", &bot, "--", "python3"]);
    assert_eq!(code, 1);
    assert!(err.contains("not both"), "{err}");
    let (code, _) = stderr_of(&["connect", "ws://127.0.0.1:1/remote/a", "--token", "t"]);
    assert_eq!(code, 1, "no BOT at all");
    let (code, err) = stderr_of(&["connect", "ws://127.0.0.1:1/remote/a", "--token", "t", "/nonexistent/bot"]);
    assert_eq!(code, 1);
    assert!(err.lines().count() <= 2 && err.contains("/nonexistent/bot"), "{err}");
}

#[test]
fn a_wrong_token_ends_the_bridge_at_once_and_the_right_one_is_accepted() {
    let t = "builtin:tsumogiri";
    let game = RemoteGame::start(["remote:author", t, t, t], &["--seed", "1", "--start-timeout", "20"]);
    let (url, token) = game.url_and_token(0);
    let wrong = format!("{}x", &token[..token.len() - 1]);
    let started = Instant::now();
    let out = mjai_sim().args(["connect", &url, "--token", &wrong, &repo("examples/tsumogiri")]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("refused the connection (HTTP 403: wrong token for this remote bot); check the token"),
        "{err}"
    );
    assert!(started.elapsed() < Duration::from_secs(10), "no retries on a refused token");
    // The right token plays the game to its end.
    let mut game = game;
    let bridge = game.bridge(0, &[&repo("examples/tsumogiri")]);
    assert!(game.wait(Duration::from_secs(120)).success(), "{:?}", game.stderr_lines);
    let (status, out, _) = crate::remote_support::finish_bridge(bridge, Duration::from_secs(30));
    assert!(status.success());
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].starts_with("connected to ws://127.0.0.1:") && lines[0].ends_with("; waiting for a seat"),
        "{out}"
    );
    assert!(lines[1].starts_with("game over: seat 0, rank "), "{out}");
}
