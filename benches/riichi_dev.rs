//! riichi.dev's dialect (issue 37): the round trip of one decision through a `riichilab:`
//! seat over loopback — the seat's events, `request_action` with RiichiEnv's observation,
//! the client's answer, its `action_ack` — against one line through the process runtime's
//! stdio (a Python echo bot), in the same run. p50 and p99 over 2,000 decisions each.
//! Run: `cargo bench --bench riichi_dev` (no Docker needed).

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use mjai_sim::engine::event::Event;
use mjai_sim::engine::game::Players;
use mjai_sim::runtime::launcher::{SeatSpec, SubmissionLauncher};
use mjai_sim::runtime::process::ProcessOptions;
use mjai_sim::runtime::remote::hub::RemoteHub;
use mjai_sim::runtime::remote::listen::RemoteListener;
use mjai_sim::runtime::riichi_dev::seat::{Parking, RiichiDevBot, SeatConnection};
use mjai_sim::runtime::submission::{Submission, SubmissionLimits};
use mjai_sim::runtime::Bot;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

const N: usize = 2000;
const T: Duration = Duration::from_secs(10);
const ECHO_BOT: &str = "import sys\nfor line in sys.stdin:\n    sys.stdout.write(line)\n    sys.stdout.flush()\n";
const HAND: [&str; 13] = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "S", "W"];

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn report(what: &str, mut samples: Vec<Duration>) -> (Duration, Duration) {
    samples.sort();
    let (p50, p99) = (percentile(&samples, 0.5), percentile(&samples, 0.99));
    println!(
        "{what:>22}: p50 {:.3} ms, p99 {:.3} ms ({} decisions)",
        p50.as_secs_f64() * 1e3,
        p99.as_secs_f64() * 1e3,
        samples.len()
    );
    (p50, p99)
}

/// A client answering every request with the drawn tile (the first `dahai` it is offered
/// whose tile it drew last), echoing the request id.
async fn client(url: String, token: String) {
    let mut request = url.into_client_request().unwrap();
    request.headers_mut().insert("authorization", format!("Bearer {token}").parse().unwrap());
    let (mut ws, _) = tokio_tungstenite::connect_async(request).await.unwrap();
    let mut drawn = String::new();
    while let Some(Ok(message)) = ws.next().await {
        let Ok(text) = message.to_text() else { continue };
        let Ok(v) = serde_json::from_str::<serde_json::Value>(text) else { continue };
        match v["type"].as_str() {
            Some("tsumo") => drawn = v["pai"].as_str().unwrap_or_default().to_string(),
            Some("request_action") => {
                let reply = serde_json::json!({"type": "dahai", "actor": 0, "pai": drawn, "tsumogiri": true, "request_id": v["request_id"]});
                if ws.send(Message::Text(reply.to_string().into())).await.is_err() {
                    break;
                }
            }
            _ => {}
        }
    }
}

fn tile(s: &str) -> mjai_sim::engine::tile::Tile {
    s.parse().unwrap()
}

/// The lines of the dialect loop: start_game, start_kyoku with a draw, then a discard of
/// the drawn tile and the next draw, over and over (the hand stays at 14 tiles).
async fn riichi_dev(n: usize) -> Vec<Duration> {
    let hub = RemoteHub::new();
    let listener = RemoteListener::bind("127.0.0.1:0".parse().unwrap(), hub.clone()).await.unwrap();
    let token = listener.add_riichi_dev("bench");
    tokio::spawn(client(listener.ranked_url(), token));
    let conn = hub.take_conn("bench", T).await.unwrap();
    let mut bot = RiichiDevBot::new(SeatConnection::new(conn, 0, Players::Four), Parking::default());
    bot.exchange(r#"[{"type":"start_game","id":0}]"#, T).await.unwrap();
    let tehai: Vec<String> = HAND.iter().map(|t| format!("\"{t}\"")).collect();
    let hidden = vec!["\"?\""; 13].join(",");
    let start = format!(
        r#"{{"type":"start_kyoku","bakaze":"E","dora_marker":"1p","kyoku":1,"honba":0,"kyotaku":0,"oya":0,"scores":[25000,25000,25000,25000],"tehais":[[{}],[{hidden}],[{hidden}],[{hidden}]]}}"#,
        tehai.join(",")
    );
    let draws = ["9m", "1s", "N", "C", "2p"];
    let legal = |drawn: &str| -> Vec<Event> {
        let mut legal: Vec<Event> =
            HAND.iter().map(|t| Event::Dahai { actor: 0, pai: tile(t), tsumogiri: false }).collect();
        legal.push(Event::Dahai { actor: 0, pai: tile(drawn), tsumogiri: true });
        legal
    };
    let mut samples = Vec::with_capacity(n);
    let mut prev: Option<&str> = None;
    for i in 0..n + 50 {
        let drawn = draws[i % draws.len()];
        let tsumo = format!(r#"{{"type":"tsumo","actor":0,"pai":"{drawn}"}}"#);
        let line = match prev {
            None => format!("[{start},{tsumo}]"),
            Some(p) => format!(r#"[{{"type":"dahai","actor":0,"pai":"{p}","tsumogiri":true}},{tsumo}]"#),
        };
        bot.offer(&mjai_sim::runtime::Offer::legal(&legal(drawn)));
        let t0 = Instant::now();
        let answer = bot.exchange(&line, T).await.unwrap();
        if i >= 50 {
            samples.push(t0.elapsed());
        }
        assert!(answer.contains(drawn), "{answer}");
        prev = Some(drawn);
    }
    samples
}

async fn stdio(n: usize) -> Vec<Duration> {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bot.py"), ECHO_BOT).unwrap();
    let sub = Arc::new(Submission::load(dir.path(), &SubmissionLimits::default()).unwrap());
    let launcher = SubmissionLauncher::process(ProcessOptions::default());
    let spec = SeatSpec { submission: sub, stderr_log: dir.path().join("stderr.txt") };
    let mut bot = launcher.start_seat(0, &spec).await.unwrap();
    let line = r#"[{"type":"dahai","actor":0,"pai":"9m","tsumogiri":true},{"type":"tsumo","actor":0,"pai":"1s"}]"#;
    let mut samples = Vec::with_capacity(n);
    for i in 0..n + 50 {
        let t0 = Instant::now();
        bot.exchange(line, T).await.unwrap();
        if i >= 50 {
            samples.push(t0.elapsed());
        }
    }
    bot.stop().await;
    samples
}

fn main() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let (_, stdio99) = report("stdio (process, echo)", rt.block_on(stdio(N)));
    let (_, riichi_dev99) = report("riichi.dev (loopback)", rt.block_on(riichi_dev(N)));
    println!(
        "{:>22}: {:+.3} ms at p99 (goal: under +1 ms)",
        "riichi.dev - stdio",
        (riichi_dev99.as_secs_f64() - stdio99.as_secs_f64()) * 1e3
    );
}
