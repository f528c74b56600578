//! `riichilab:NAME` seats (issue 37): a client written from riichi.dev's message shapes
//! plays one game of the real binary over a socket on 127.0.0.1.

use std::time::Duration;

use serde_json::{json, Value};

use crate::e2e_support::play;
use crate::remote_support::riichi_dev::{self, tsumogiri, Seen};
use crate::remote_support::RemoteGame;
use crate::riichienv_support as riichienv;

const T: &str = "builtin:tsumogiri";

/// Plays seat 0 of `game` with `policy` on a runtime of its own; what the client saw.
fn client(game: &RemoteGame, policy: &mut riichi_dev::Policy<'_>, stop_after: Option<usize>) -> Seen {
    let (url, token) = game.riichi_dev_url_and_token(0);
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    rt.block_on(async {
        let ws = riichi_dev::connect(&url, &token).await.expect("the token is accepted");
        riichi_dev::play(ws, policy, stop_after).await
    })
}

fn keys(v: &Value) -> Vec<String> {
    v.as_object().unwrap().keys().cloned().collect()
}

#[test]
fn a_riichi_dev_tsumogiri_plays_the_builtins_game_with_riichi_devs_messages() {
    let mut game = RemoteGame::start(["riichilab:bob", T, T, T], &["--seed", "3"]);
    let mut policy = |r: &Value, s: &Seen| vec![tsumogiri(r, s).to_string()];
    let seen = client(&game, &mut policy, None);
    let status = game.wait(Duration::from_secs(120));
    assert!(status.success(), "{:?}", game.stderr_lines);

    let builtins = play([T, T, T, T], &["--seed", "3", "--no-html"]);
    builtins.assert_complete_and_verified();
    assert_eq!(game.log_text(), builtins.read("mjai_log.json"), "the dialect seat's game differs from the built-in's");
    assert_eq!(game.json("summary.json")["chombos"], json!([0, 0, 0, 0]));

    // The messages, in riichi.dev's shapes.
    assert_eq!(seen.messages[0], json!({"type": "start_game", "id": 0}), "no names");
    assert_eq!(seen.of_type("start_game").len(), 1);
    let start = &seen.messages[1];
    assert_eq!(start["type"], "start_kyoku");
    assert_eq!(keys(start), ["bakaze", "dora_marker", "honba", "kyoku", "kyotaku", "oya", "scores", "tehais", "type"]);
    assert_eq!(start["tehais"][1], json!(vec!["?"; 13]), "others' tiles are hidden");
    assert!(start["tehais"][0].as_array().unwrap().iter().all(|t| t != "?"));
    for t in seen.of_type("tsumo") {
        assert_eq!(t["pai"] == "?", t["actor"] != 0, "{t}");
    }
    let requests = seen.of_type("request_action");
    assert!(requests.len() > 50, "{} requests", requests.len());
    // One counter for the game over every seat's decisions (riichi.dev's): the dialect
    // seat's ids rise with gaps where the built-ins decided.
    let ids: Vec<u64> = requests.iter().map(|r| r["request_id"].as_u64().unwrap()).collect();
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "{ids:?}");
    assert!(ids.windows(2).any(|w| w[1] > w[0] + 1), "no gap: {ids:?}");
    for r in &requests {
        assert_eq!(keys(r), ["observation", "possible_actions", "request_id", "time", "type"]);
        let time = &r["time"];
        let (grace, bank) = (time["grace_ms"].as_u64().unwrap(), time["bank_ms"].as_u64().unwrap());
        assert_eq!(time["deadline_ms"].as_u64(), Some(grace + bank), "{time}");
        assert_eq!(grace, 3000, "riichi.dev's clock for a dialect seat: {time}");
        assert!(bank <= 15000 && bank > 14000, "a quick bot keeps its bank: {time}");
        for a in r["possible_actions"].as_array().unwrap() {
            let k = keys(a);
            let mut sorted = k.clone();
            sorted.sort();
            assert_eq!(k, sorted, "keys sorted: {a}");
            assert!(a.get("tsumogiri").is_none(), "{a}");
            assert_eq!(a["actor"], 0, "{a}");
        }
        let observation = r["observation"].as_str().unwrap();
        let bytes = base64_decode(observation);
        let obs: Value = serde_json::from_slice(&bytes).expect("the observation is base64 of JSON");
        assert_eq!(obs["player_id"], 0);
        for field in [
            "hands",
            "melds",
            "discards",
            "dora_indicators",
            "scores",
            "riichi_declared",
            "honba",
            "riichi_sticks",
            "round_wind",
            "oya",
            "kyoku_index",
            "waits",
            "is_tenpai",
            "tsumogiri_flags",
            "riichi_sutehais",
            "last_tedashis",
            "last_discard",
        ] {
            assert!(obs.get(field).is_some(), "observation field {field} missing");
        }
        assert!(obs["hands"][1].as_array().unwrap().is_empty(), "others' hands are not in the observation");
    }
    let acks = seen.of_type("action_ack");
    let acked: Vec<u64> = acks.iter().map(|a| a["request_id"].as_u64().unwrap()).collect();
    let missing: Vec<&&Value> =
        requests.iter().filter(|r| !acked.contains(&r["request_id"].as_u64().unwrap())).collect();
    if let Some(m) = missing.first() {
        let at = seen.messages.iter().position(|x| x == **m).unwrap();
        let around: Vec<String> = seen.messages[at.saturating_sub(3)..(at + 4).min(seen.messages.len())]
            .iter()
            .map(|x| {
                if x["type"] == "request_action" {
                    format!("request {} {}", x["request_id"], x["possible_actions"])
                } else {
                    x.to_string()
                }
            })
            .collect();
        panic!("request {} has no ack: {around:#?}", m["request_id"]);
    }
    assert_eq!(acks.len(), requests.len(), "one ack per answer");
    assert!(acks.iter().all(|a| a["status"] == "accepted"), "{acks:?}");
    let last = seen.messages.last().unwrap();
    assert_eq!(last["type"], "end_game", "the server closes after end_game");

    // RiichiEnv's own Python package reads every observation as we meant it.
    let report = riichienv_reads(&game.dir.path().join("requests.json"), &seen.records);
    assert_eq!(report["requests"], json!(requests.len()));
    assert_eq!(report["differences"], json!([]), "RiichiEnv reads the requests otherwise");
}

#[test]
fn a_rejected_action_is_a_chombo_and_unparseable_or_stale_messages_cost_nothing() {
    let mut game = RemoteGame::start(["riichilab:bob", T, T, T], &["--seed", "5"]);
    let mut n = 0;
    let mut policy =
        |r: &Value, s: &Seen| {
            n += 1;
            let good = tsumogiri(r, s);
            match n {
                // garbage, an old id, then the answer without its id
                1 => {
                    let mut bare = good.clone();
                    bare.as_object_mut().unwrap().remove("request_id");
                    vec!["not json".into(), json!({"type": "none", "request_id": 0}).to_string(), bare.to_string()]
                }
                // a tile nobody holds: rejected, a chombo
                2 => vec![json!({"type": "dahai", "pai": "9z", "tsumogiri": false, "request_id": r["request_id"]})
                    .to_string()],
                _ => vec![good.to_string()],
            }
        };
    let seen = client(&game, &mut policy, None);
    assert!(game.wait(Duration::from_secs(120)).success(), "{:?}", game.stderr_lines);
    let acks = seen.of_type("action_ack");
    let statuses: Vec<&str> = acks.iter().take(4).map(|a| a["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["unparseable", "stale", "accepted", "rejected"]);
    assert_eq!(acks[1]["request_id"], 0, "a stale ack names the old id");
    assert_eq!(acks[3]["request_id"], seen.of_type("request_action")[1]["request_id"]);
    assert!(acks[3]["reason"].as_str().unwrap().contains("9z"), "{}", acks[3]);
    assert_eq!(acks[3]["attempted"]["pai"], "9z");
    let second = &seen.of_type("request_action")[1];
    let mut types: Vec<&str> = Vec::new();
    for a in second["possible_actions"].as_array().unwrap() {
        if !types.contains(&a["type"].as_str().unwrap()) {
            types.push(a["type"].as_str().unwrap());
        }
    }
    assert_eq!(acks[3]["legal_types"], json!(types), "the types that were possible");
    let summary = game.json("summary.json");
    assert_eq!(summary["chombos"], json!([1, 0, 0, 0]), "{summary}");
    assert_eq!(summary["completed"], true);
    assert_eq!(seen.of_type("start_game").len(), 1, "the connection goes on after the chombo, no second start_game");
}

#[test]
fn a_second_connection_with_the_token_is_refused_and_a_wrong_token_too() {
    let mut game = RemoteGame::start(["riichilab:bob", T, T, T], &["--seed", "7"]);
    let (url, token) = game.riichi_dev_url_and_token(0);
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    rt.block_on(async {
        // riichi.dev's refusals: the upgrade, then a close with 1008 (the token) or 1013
        assert_eq!(riichi_dev::refused(&url, "wrong").await, Some((1008, "invalid bot token".into())));
        assert_eq!(riichi_dev::refused(&url, "").await.map(|r| r.0), Some(1008));
        let first = riichi_dev::connect(&url, &token).await.expect("first connection");
        let (code, reason) = riichi_dev::refused(&url, &token).await.expect("second connection refused");
        assert_eq!(code, 1013);
        assert!(reason.contains("This bot is already connected to a game"), "{reason}");
        let mut policy = |r: &Value, s: &Seen| vec![tsumogiri(r, s).to_string()];
        riichi_dev::play(first, &mut policy, None).await;
    });
    assert!(game.wait(Duration::from_secs(120)).success(), "{:?}", game.stderr_lines);
}

fn base64_decode(text: &str) -> Vec<u8> {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.decode(text).expect("standard padded base64")
}

#[test]
fn riichienv_reads_every_observation_of_a_hanchan_of_calls_riichi_and_wins_as_the_engine() {
    // The client picks among possible_actions with a fixed sequence (calls, riichi and wins
    // come up); every request is checked against RiichiEnv's reading of its observation.
    let mut game = RemoteGame::start(["riichilab:bob", "builtin:rulebase", "builtin:rulebase", T], &["--seed", "11"]);
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut policy = |r: &Value, _: &Seen| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let possible = r["possible_actions"].as_array().unwrap();
        // prefer a win, then anything but `none` half of the time
        let pick = possible.iter().find(|a| a["type"] == "hora").cloned().unwrap_or_else(|| {
            let calls: Vec<&Value> = possible.iter().filter(|a| a["type"] != "none" && a["type"] != "dahai").collect();
            if !calls.is_empty() && state.is_multiple_of(2) {
                calls[(state as usize / 2) % calls.len()].clone()
            } else {
                possible[(state as usize) % possible.len()].clone()
            }
        });
        let mut reply = pick;
        reply["request_id"] = r["request_id"].clone();
        vec![reply.to_string()]
    };
    let seen = client(&game, &mut policy, None);
    assert!(game.wait(Duration::from_secs(180)).success(), "{:?}", game.stderr_lines);
    assert_eq!(game.json("summary.json")["chombos"], json!([0, 0, 0, 0]), "every pick was possible");
    let kinds: std::collections::BTreeSet<String> =
        seen.of_type("action_ack").iter().map(|a| a["status"].as_str().unwrap().to_string()).collect();
    assert_eq!(kinds.into_iter().collect::<Vec<_>>(), ["accepted"]);
    let called = |r: &Value| r["melds"].as_array().unwrap().iter().any(|seat| !seat.as_array().unwrap().is_empty());
    assert!(seen.records.iter().any(called), "the hanchan had calls to compare");
    let riichi = seen.of_type("reach_accepted").len();
    let wins = seen.of_type("hora").len();
    assert!(riichi > 0 && wins > 0, "riichi ({riichi}) and wins ({wins}) came up");
    let file = game.dir.path().join("requests.json");
    let report = riichienv_reads(&file, &seen.records);
    assert_eq!(report["differences"], json!([]), "RiichiEnv reads the requests otherwise");
    let in_riichi = |r: &Value| r["riichi_declared"].as_array().unwrap().iter().any(|b| b == true);
    assert!(seen.records.iter().any(in_riichi), "requests with a seat in riichi were compared");

    // the checker sees a difference of each kind: one record tampered per kind
    let mut tampered = seen.records.clone();
    let n = tampered.len();
    tampered[0]["hand"][0] = json!("9z");
    tampered[n / 3]["scores"][1] = json!(1);
    let was = tampered[n / 2]["riichi_declared"][2].as_bool().unwrap();
    tampered[n / 2]["riichi_declared"][2] = json!(!was);
    tampered[n - 1]["dora_indicators"] = json!([]);
    let report = riichienv_reads(&file, &tampered);
    let kinds: std::collections::BTreeSet<&str> =
        report["differences"].as_array().unwrap().iter().map(|d| d["what"].as_str().unwrap()).collect();
    assert!(["hand", "scores", "riichi declared", "dora indicators"].iter().all(|k| kinds.contains(k)), "{kinds:?}");
}

#[test]
fn mjai_sim_connect_plays_an_mjai_app_bot_on_the_riichi_dev_endpoint() {
    let scratch = tempfile::tempdir().unwrap();
    let bot = crate::remote_support::slow_tsumogiri(scratch.path(), 0);
    let mut game = RemoteGame::start(["riichilab:bob", T, T, T], &["--seed", "3"]);
    let (url, token) = game.riichi_dev_url_and_token(0);
    let client = std::process::Command::new(crate::e2e_support::bin())
        .args(["connect", &url, "--token", &token, "--games", "1", "--bot-stderr"])
        .arg(scratch.path().join("bot.stderr.txt"))
        .args(["--", "python3", bot.to_str().unwrap()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    assert!(game.wait(Duration::from_secs(120)).success(), "{:?}", game.stderr_lines);
    let (status, out, err) = crate::remote_support::finish_bridge(client, Duration::from_secs(30));
    assert!(status.success(), "connect exits 0 after its one game: {err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(
        lines[0].starts_with("connected to ws://127.0.0.1:") && lines[0].ends_with("; waiting for a game"),
        "{out}"
    );
    assert_eq!(lines[1], "game started: seat 0");
    let summary = game.json("summary.json");
    let scores: Vec<String> = summary["scores"].as_array().unwrap().iter().map(|s| s.to_string()).collect();
    assert_eq!(lines[2], format!("game over: seat 0, scores {}", scores.join(",")));

    let builtins = play([T, T, T, T], &["--seed", "3", "--no-html"]);
    assert_eq!(game.log_text(), builtins.read("mjai_log.json"), "the bot behind connect plays the built-in's game");
    assert_eq!(summary["chombos"], json!([0, 0, 0, 0]));
}

#[test]
fn connect_shows_the_servers_refusal_and_exits_1() {
    let game = RemoteGame::start(["riichilab:bob", T, T, T], &["--seed", "3", "--start-timeout", "60"]);
    let (url, _) = game.riichi_dev_url_and_token(0);
    let out = std::process::Command::new(crate::e2e_support::bin())
        .args(["connect", &url, "--token", "wrong", "--", "true"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("refused the connection (close 1008: invalid bot token); check the token"), "{err}");
}

#[test]
fn an_unanswered_request_is_defaulted_without_penalty_and_the_bank_is_full_again_next_hand() {
    // riichi.dev's clock: 3 s grace + 15 s bank; the first request is left unanswered.
    let mut game = RemoteGame::start(["riichilab:bob", T, T, T], &["--seed", "3"]);
    let mut n = 0;
    let mut policy = |r: &Value, s: &Seen| {
        n += 1;
        if n == 1 {
            Vec::new()
        } else {
            vec![tsumogiri(r, s).to_string()]
        }
    };
    let seen = client(&game, &mut policy, None);
    assert!(game.wait(Duration::from_secs(120)).success(), "{:?}", game.stderr_lines);
    let acks = seen.of_type("action_ack");
    assert_eq!(acks[0]["status"], "defaulted", "{}", acks[0]);
    assert_eq!(acks[0]["request_id"], 1);
    assert_eq!(acks[0]["action"]["type"], "dahai", "tsumogiri on a draw: {}", acks[0]);
    assert_eq!(acks[0]["action"]["tsumogiri"], true);
    assert_eq!((acks[0]["bank_ms"].as_u64(), acks[0]["bank_consumed_ms"].as_u64()), (Some(0), Some(15000)));
    let requests = seen.of_type("request_action");
    assert_eq!(requests[0]["time"], json!({"grace_ms": 3000, "bank_ms": 15000, "deadline_ms": 18000}));
    assert_eq!(requests[1]["time"]["bank_ms"], 0, "the bank is spent for the rest of the hand: {}", requests[1]);
    // the next hand's first request has the whole bank again
    let second_hand = seen.messages.iter().position(|m| m["type"] == "start_kyoku" && m != &seen.messages[1]).unwrap();
    let next = seen.messages[second_hand..].iter().find(|m| m["type"] == "request_action").unwrap();
    assert_eq!(next["time"]["bank_ms"], 15000, "{next}");

    let summary = game.json("summary.json");
    assert_eq!(summary["chombos"], json!([0, 0, 0, 0]), "no penalty: {summary}");
    assert_eq!(summary["defaulted"], json!([1, 0, 0, 0]), "{summary}");
    let errors = game.json("errors.json");
    assert_eq!(errors.as_array().unwrap().len(), 1, "{errors}");
    assert_eq!(errors[0]["error_type"], "defaulted");
    let builtins = play([T, T, T, T], &["--seed", "3", "--no-html"]);
    assert_eq!(game.log_text(), builtins.read("mjai_log.json"), "the default is the tsumogiri's own move");
}

#[test]
fn a_bot_that_drops_mid_game_is_played_by_default_actions_to_the_end() {
    let mut game = RemoteGame::start(["riichilab:bob", T, T, T], &["--seed", "3"]);
    let mut policy = |r: &Value, s: &Seen| vec![tsumogiri(r, s).to_string()];
    let seen = client(&game, &mut policy, Some(10));
    assert_eq!(seen.of_type("request_action").len(), 11, "the client left at its 11th request");
    assert!(game.wait(Duration::from_secs(120)).success(), "{:?}", game.stderr_lines);
    let summary = game.json("summary.json");
    assert_eq!(summary["completed"], true);
    assert_eq!(summary["chombos"], json!([0, 0, 0, 0]), "{summary}");
    // counted apart from timeouts, each saying so
    assert_eq!(summary["defaulted"], json!([0, 0, 0, 0]), "{summary}");
    assert!(summary["disconnected"][0].as_u64().unwrap() > 10, "{summary}");
    let errors = game.json("errors.json");
    let first = &errors.as_array().unwrap()[0];
    assert_eq!(first["error_type"], "disconnected", "{first}");
    assert!(first["exception"].as_str().unwrap().starts_with("disconnected: default action"), "{first}");
    let builtins = play([T, T, T, T], &["--seed", "3", "--no-html"]);
    assert_eq!(game.log_text(), builtins.read("mjai_log.json"), "the defaults are the tsumogiri's own moves");
}

#[test]
fn hostile_frames_close_only_that_connection_and_its_seat_plays_on_by_default_actions() {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    // each way of misbehaving: a binary frame, a message over 1 MiB, a flood of unasked messages
    let hostile: [(&str, Vec<Message>); 3] = [
        ("binary", vec![Message::Binary(vec![0u8; 16].into())]),
        ("oversized", vec![Message::Text("x".repeat(1024 * 1024 + 1).into())]),
        (
            "flood",
            (0..64)
                .map(|i| Message::Text(format!("{{\"type\":\"none\",\"request_id\":0,\"n\":{i}}}").into()))
                .collect(),
        ),
    ];
    for (what, frames) in hostile {
        let mut game = RemoteGame::start(["riichilab:bob", T, T, T], &["--seed", "3"]);
        let (url, token) = game.riichi_dev_url_and_token(0);
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let closed = rt.block_on(async {
            let mut ws = riichi_dev::connect(&url, &token).await.expect("the token is accepted");
            // wait for the first request, then misbehave
            while let Some(Ok(m)) = ws.next().await {
                if m.to_text().is_ok_and(|t| t.contains("request_action")) {
                    break;
                }
            }
            for f in frames {
                if ws.send(f).await.is_err() {
                    break;
                }
            }
            // the server closes the connection (reading until then is bounded by the game)
            let mut closed = false;
            while let Some(m) = ws.next().await {
                if matches!(m, Ok(Message::Close(_)) | Err(_)) {
                    closed = true;
                    break;
                }
            }
            closed || ws.next().await.is_none()
        });
        assert!(closed, "{what}: the server closed the connection");
        assert!(game.wait(Duration::from_secs(120)).success(), "{what}: {:?}", game.stderr_lines);
        let summary = game.json("summary.json");
        assert_eq!(summary["completed"], true, "{what}");
        assert_eq!(
            summary["chombos"],
            json!([0, 0, 0, 0]),
            "{what}: nothing beyond the seat's own defaults: {}",
            game.json("errors.json")[0]
        );
        assert!(summary["disconnected"][0].as_u64().unwrap() >= 1, "{what}: {summary}");
        assert_eq!(&summary["disconnected"].as_array().unwrap()[1..], &[json!(0), json!(0), json!(0)], "{what}");
    }
}

#[test]
fn connect_plays_over_wss_through_a_tls_terminator_once_its_ca_is_trusted() {
    let scratch = tempfile::tempdir().unwrap();
    let bot = crate::remote_support::slow_tsumogiri(scratch.path(), 0);
    let mut game = RemoteGame::start(["riichilab:bob", T, T, T], &["--seed", "3", "--start-timeout", "60"]);
    let (url, token) = game.riichi_dev_url_and_token(0);
    let backend = url.trim_start_matches("ws://").trim_end_matches("/ws/ranked").to_string();
    let front = crate::remote_support::tls::TlsFront::start(backend, scratch.path());
    let wss = format!("wss://{}/ws/ranked", front.addr);
    let connect = |ca: Option<&std::path::Path>| {
        let mut command = std::process::Command::new(crate::e2e_support::bin());
        // the token from the environment (kept out of `ps`)
        command.args(["connect", &wss, "--games", "1", "--bot-stderr"]).env("MJAI_SIM_TOKEN", &token);
        command.arg(scratch.path().join("bot.stderr.txt")).args(["--", "python3", bot.to_str().unwrap()]);
        match ca {
            Some(pem) => command.env("SSL_CERT_FILE", pem),
            None => command.env_remove("SSL_CERT_FILE"),
        };
        command.stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::piped()).spawn().unwrap()
    };
    // Not trusted: refused at once (exit 1), saying how to trust a private CA.
    let (status, _, err) = crate::remote_support::finish_bridge(connect(None), Duration::from_secs(30));
    assert_eq!(status.code(), Some(1), "{err}");
    assert!(err.contains("TLS") && err.contains("SSL_CERT_FILE"), "{err}");
    // Trusted: the game is played over TLS.
    let client = connect(Some(&front.ca_pem));
    assert!(game.wait(Duration::from_secs(120)).success(), "{:?}", game.stderr_lines);
    let (status, out, err) = crate::remote_support::finish_bridge(client, Duration::from_secs(30));
    assert!(status.success(), "{err}");
    assert!(out.starts_with(&format!("connected to {wss}; waiting for a game")), "{out}");
    let summary = game.json("summary.json");
    assert_eq!((summary["completed"].clone(), summary["chombos"].clone()), (json!(true), json!([0, 0, 0, 0])));
    assert_eq!(summary["defaulted"], json!([0, 0, 0, 0]), "every request answered over TLS");
}

#[test]
fn a_client_that_never_reads_is_cut_off_and_its_seat_plays_on_by_default_actions() {
    // A 4 KiB receive buffer that is never read: the server's writes back up, the write
    // timeout closes the connection, and the seat is defaulted to the end: no chombo, the
    // game ends in bounded time.
    let mut game = RemoteGame::start(["riichilab:bob", T, T, T], &["--seed", "3"]);
    let (url, token) = game.riichi_dev_url_and_token(0);
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let _held = rt.block_on(async {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        let addr: std::net::SocketAddr =
            url.trim_start_matches("ws://").trim_end_matches("/ws/ranked").parse().unwrap();
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.set_recv_buffer_size(4096).unwrap();
        let stream = socket.connect(addr).await.unwrap();
        let mut request = url.as_str().into_client_request().unwrap();
        request.headers_mut().insert("authorization", format!("Bearer {token}").parse().unwrap());
        let (ws, _) = tokio_tungstenite::client_async(request, stream).await.expect("the token is accepted");
        ws // held open, never read, until the game is over
    });
    assert!(game.wait(Duration::from_secs(300)).success(), "{:?}", game.stderr_lines);
    let summary = game.json("summary.json");
    assert_eq!((summary["completed"].clone(), summary["chombos"].clone()), (json!(true), json!([0, 0, 0, 0])));
    assert!(summary["defaulted"][0].as_u64().unwrap() >= 1, "{summary}");
    let builtins = play([T, T, T, T], &["--seed", "3", "--no-html"]);
    assert_eq!(game.log_text(), builtins.read("mjai_log.json"), "defaults are tsumogiri: the built-ins' game");
}

/// Three seats (issue 38): `start_kyoku`'s and `hora`'s per-seat arrays have three entries,
/// `possible_actions` offers `kita` on a drawn North, answered `kita` or Mortal's
/// `nukidora`, the observation is RiichiEnv's three-player one, and the log verifies under
/// the preset.
#[test]
fn a_three_player_riichi_dev_game_offers_kita_and_takes_kita_or_nukidora() {
    let mut game = RemoteGame::start(["riichilab:bob", T, T], &["--rules", "riichi-dev-3p", "--seed", "3"]);
    let mut kitas = 0;
    let mut policy = |r: &Value, s: &Seen| {
        let possible = r["possible_actions"].as_array().unwrap();
        if let Some(kita) = possible.iter().find(|a| a["type"] == "kita") {
            assert_eq!(kita, &json!({"actor": 0, "pai": "N", "type": "kita"}));
            kitas += 1;
            // Mortal-family bots say nukidora: every other one is answered so.
            let name = if kitas % 2 == 0 { "nukidora" } else { "kita" };
            return vec![json!({"type": name, "actor": 0, "pai": "N", "request_id": r["request_id"]}).to_string()];
        }
        vec![tsumogiri(r, s).to_string()]
    };
    let seen = client(&game, &mut policy, None);
    let status = game.wait(Duration::from_secs(120));
    assert!(status.success(), "{:?}", game.stderr_lines);

    let summary = game.json("summary.json");
    assert_eq!(summary["chombos"], json!([0, 0, 0]), "{summary}");
    let scores: Vec<i64> = summary["scores"].as_array().unwrap().iter().map(|s| s.as_i64().unwrap()).collect();
    assert_eq!(scores.len(), 3, "{summary}");
    assert_eq!(scores.iter().sum::<i64>(), 105_000, "{summary}");

    for start in seen.of_type("start_kyoku") {
        assert_eq!(start["scores"].as_array().unwrap().len(), 3, "{start}");
        assert_eq!(start["tehais"].as_array().unwrap().len(), 3, "{start}");
    }
    for end in seen.of_type("hora").into_iter().chain(seen.of_type("ryukyoku")) {
        assert_eq!(end["deltas"].as_array().unwrap().len(), 3, "{end}");
    }
    let offered: Vec<&Value> = seen
        .of_type("request_action")
        .into_iter()
        .filter(|r| r["possible_actions"].as_array().unwrap().iter().any(|a| a["type"] == "kita"))
        .collect();
    assert!(offered.len() >= 2, "kita offered {} times (seed 3)", offered.len());
    assert!(seen.of_type("request_action").iter().all(|r| r["possible_actions"]
        .as_array()
        .unwrap()
        .iter()
        .all(|a| a["type"] != "chi")));
    let own_kitas = seen.of_type("kita").into_iter().filter(|k| k["actor"] == 0).count();
    assert_eq!(own_kitas, kitas, "every kita answered is played, nukidora too");
    let acks = seen.of_type("action_ack");
    assert!(acks.iter().all(|a| a["status"] == "accepted"), "{acks:?}");
    assert_eq!(acks.len(), seen.of_type("request_action").len());
    let log = game.log_text();
    assert_eq!(log.matches(r#"{"type":"kita","actor":0,"pai":"N"}"#).count(), kitas, "logs write kita");
    assert!(!log.contains("nukidora"));

    // RiichiEnv's three-player observation: three entries per seat, the kitas.
    for r in seen.of_type("request_action") {
        let obs: Value = serde_json::from_slice(&base64_decode(r["observation"].as_str().unwrap())).unwrap();
        assert_eq!(obs["player_id"], 0);
        assert_eq!(obs["hands"].as_array().unwrap().len(), 3, "{obs}");
        assert_eq!(obs["scores"].as_array().unwrap().len(), 3, "{obs}");
        assert!(obs["hands"][1].as_array().unwrap().is_empty());
    }
    // ... and RiichiEnv's own Python package reads each as we meant it (Observation3P):
    // legal actions (kita included), hand, scores, discards, melds, dora, riichi.
    let file = game.dir.path().join("requests.json");
    let report = riichienv_reads(&file, &seen.records);
    assert_eq!(report["requests"], json!(seen.records.len()));
    assert_eq!(report["differences"], json!([]), "RiichiEnv reads the three-player requests otherwise");
    // the check is not blind at three seats: a kita taken out of the offer, a hand and a
    // score changed are each found
    let mut tampered = seen.records.clone();
    let offer = tampered.iter().position(|r| r["request"]["possible_actions"].to_string().contains("kita")).unwrap();
    let actions = tampered[offer]["request"]["possible_actions"].as_array_mut().unwrap();
    actions.retain(|a| a["type"] != "kita");
    tampered[0]["hand"][0] = json!("9z");
    tampered[1]["scores"][2] = json!(1);
    let report = riichienv_reads(&file, &tampered);
    let kinds: std::collections::BTreeSet<&str> =
        report["differences"].as_array().unwrap().iter().map(|d| d["what"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["hand", "legal actions", "scores"].into(), "{report}");

    let verify = std::process::Command::new(crate::e2e_support::bin())
        .arg("verify")
        .arg(game.dir.path().join("mjai_log.json"))
        .args(["--rules", "riichi-dev-3p"])
        .output()
        .unwrap();
    assert!(verify.status.success(), "{}", String::from_utf8_lossy(&verify.stderr));
}

/// `mjai-sim connect` plays a three-player game and prints its three scores.
#[test]
fn mjai_sim_connect_plays_a_three_player_game_and_prints_three_scores() {
    let scratch = tempfile::tempdir().unwrap();
    let bot = crate::remote_support::slow_tsumogiri(scratch.path(), 0);
    let mut game = RemoteGame::start([T, "riichilab:bob", T], &["--rules", "riichi-dev-3p", "--seed", "4"]);
    let (url, token) = game.riichi_dev_url_and_token(1);
    let client = std::process::Command::new(crate::e2e_support::bin())
        .args(["connect", &url, "--token", &token, "--games", "1", "--bot-stderr"])
        .arg(scratch.path().join("bot.stderr.txt"))
        .args(["--", "python3", bot.to_str().unwrap()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    assert!(game.wait(Duration::from_secs(120)).success(), "{:?}", game.stderr_lines);
    let (status, out, err) = crate::remote_support::finish_bridge(client, Duration::from_secs(30));
    assert!(status.success(), "connect exits 0 after its one game: {err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert_eq!(lines[1], "game started: seat 1");
    let summary = game.json("summary.json");
    let scores: Vec<i64> = summary["scores"].as_array().unwrap().iter().map(|s| s.as_i64().unwrap()).collect();
    assert_eq!(scores.len(), 3, "{summary}");
    assert_eq!(scores.iter().sum::<i64>(), 105_000);
    let shown: Vec<String> = scores.iter().map(i64::to_string).collect();
    assert_eq!(lines[2], format!("game over: seat 1, scores {}", shown.join(",")));
    assert_eq!(summary["chombos"], json!([0, 0, 0]));

    let builtins =
        crate::e2e_support::play_seats(&[T, T, T], &["--rules", "riichi-dev-3p", "--seed", "4", "--no-html"]);
    builtins.assert_complete_and_verified_under("riichi-dev-3p");
    assert_eq!(game.log_text(), builtins.read("mjai_log.json"), "the bot behind connect plays the built-in's game");
}

/// `scripts/crosscheck_observations.py` over `records` (written to `file`), run by riichienv
/// 0.4.8: RiichiEnv's report, `{"requests": N, "differences": [...]}`.
fn riichienv_reads(file: &std::path::Path, records: &[Value]) -> Value {
    std::fs::write(file, serde_json::to_vec(records).unwrap()).unwrap();
    let out = std::process::Command::new(riichienv::python())
        .arg(riichienv::script("crosscheck_observations.py"))
        .arg(file)
        .output()
        .unwrap();
    assert!(out.status.success(), "{} (scripts/test installs riichienv 0.4.8)", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Plays seat 0 of `game` with scripts/riichi_dev_client.py, `extra` its further arguments.
fn riichienv_client(game: &RemoteGame, extra: &[&str]) -> (Value, std::process::ExitStatus) {
    let (url, token) = game.riichi_dev_url_and_token(0);
    riichienv::client(&url, &token, &game.dir.path().join("client-report.json"), extra)
}

#[test]
fn a_riichienv_048_client_plays_four_and_three_player_hanchans_with_no_crash_chombo_or_default() {
    let r = "builtin:rulebase";
    for (bots, options) in [
        (vec!["riichilab:bob", r, r, r], vec!["--seed", "21"]),
        (vec!["riichilab:bob", r, r], vec!["--seed", "22", "--rules", "riichi-dev-3p"]),
    ] {
        let mut game = match bots.len() {
            4 => RemoteGame::start([bots[0], bots[1], bots[2], bots[3]], &options),
            _ => RemoteGame::start([bots[0], bots[1], bots[2]], &options),
        };
        let (report, status) = riichienv_client(&game, &[]);
        assert!(game.wait(Duration::from_secs(180)).success(), "{:?}", game.stderr_lines);
        assert!(status.success(), "{options:?}: {report}");
        assert_eq!(report["violation_count"], 0, "{options:?}: {report}");
        assert_eq!(report["games"], 1, "{report}");
        let requests = report["requests"].as_u64().unwrap();
        assert!(requests > 40, "{report}");
        assert_eq!(report["answers"].as_u64(), Some(requests), "{report}");
        assert_eq!(report["acks"], json!({"accepted": requests}), "{report}");
        assert_eq!(report["close_codes"], json!([1000]), "a normal closure after end_game: {report}");
        let summary = game.json("summary.json");
        assert_eq!(summary["chombos"], json!(vec![0; bots.len()]), "{summary}");
        assert_eq!(summary["defaulted"], json!(vec![0; bots.len()]), "{summary}");
        assert!(summary.get("disconnected").is_none(), "{summary}");
    }
}
