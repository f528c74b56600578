//! Remote seats against hostile clients, on real sockets on 127.0.0.1: the game side's
//! listener and hub, clients written with tokio-tungstenite. Each client is refused or
//! costs only its own seat (its exchange fails: a chombo in a game), and every wait ends.

use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use mjai_sim::runtime::remote::control::Control;
use mjai_sim::runtime::remote::hub::RemoteBot;
use mjai_sim::runtime::remote::hub::RemoteHub;
use mjai_sim::runtime::remote::listen::RemoteListener;
use mjai_sim::runtime::remote::{HEADER_TIMEOUT, MAX_CONNECTIONS_PER_ADDRESS, MAX_MESSAGE_BYTES, WRITE_TIMEOUT};
use mjai_sim::runtime::{Bot, BotError};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::frame::coding::{Data, OpCode};
use tokio_tungstenite::tungstenite::protocol::frame::Frame;
use tokio_tungstenite::tungstenite::Message;

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

const LINE: &str = r#"[{"type":"tsumo","actor":0,"pai":"1m"}]"#;

struct Table {
    hub: std::sync::Arc<RemoteHub>,
    listener: RemoteListener,
    tokens: Vec<(String, String)>,
}

impl Table {
    async fn new(names: &[&str]) -> Table {
        let hub = RemoteHub::new();
        let listener = RemoteListener::bind("127.0.0.1:0".parse().unwrap(), hub.clone()).await.unwrap();
        let tokens = names.iter().map(|n| (n.to_string(), listener.add(n))).collect();
        Table { hub, listener, tokens }
    }

    fn token(&self, name: &str) -> String {
        self.tokens.iter().find(|(n, _)| n == name).unwrap().1.clone()
    }

    /// Connects to `path` with `authorization` (the whole header value); the HTTP status
    /// when refused.
    async fn connect(&self, name: &str, authorization: Option<String>) -> Result<Ws, u16> {
        let mut request = self.listener.url(name).into_client_request().unwrap();
        if let Some(value) = authorization {
            request.headers_mut().insert("authorization", value.parse().unwrap());
        }
        match tokio_tungstenite::connect_async(request).await {
            Ok((ws, _)) => Ok(ws),
            Err(tokio_tungstenite::tungstenite::Error::Http(r)) => Err(r.status().as_u16()),
            Err(e) => panic!("{e}"),
        }
    }

    async fn connect_as(&self, name: &str) -> Ws {
        self.connect(name, Some(format!("Bearer {}", self.token(name)))).await.unwrap()
    }

    /// A client for `name` whose bot the hub started for `seat`: returns both ends.
    async fn seated(&self, name: &str, seat: u8) -> (RemoteBot, Ws) {
        let mut ws = self.connect_as(name).await;
        let hub = self.hub.clone();
        let owned = name.to_string();
        let start = tokio::spawn(async move { hub.start_bot(&owned, seat, Duration::from_secs(5)).await });
        answer_start(&mut ws, seat).await;
        (start.await.unwrap().unwrap(), ws)
    }
}

/// Reads up to the next `start` and answers `ready`.
async fn answer_start(ws: &mut Ws, seat: u8) {
    loop {
        let Message::Text(text) = ws.next().await.unwrap().unwrap() else { continue };
        if let Some(Control::Start { seat: s, generation }) = Control::parse(text.as_str()) {
            assert_eq!(s, seat);
            ws.send(Message::text(Control::Ready { generation }.to_text())).await.unwrap();
            return;
        }
    }
}

/// Reads up to the next mjai line (an array).
async fn next_line(ws: &mut Ws) -> String {
    loop {
        if let Message::Text(text) = ws.next().await.unwrap().unwrap() {
            if text.as_str().starts_with('[') {
                return text.as_str().to_string();
            }
        }
    }
}

fn timeout() -> Duration {
    Duration::from_secs(2)
}

#[tokio::test]
async fn clients_without_the_seat_token_are_refused() {
    let table = Table::new(&["alice", "bob"]).await;
    assert_eq!(table.connect("alice", None).await.err(), Some(401));
    assert_eq!(table.connect("alice", Some(format!("Basic {}", table.token("alice")))).await.err(), Some(401));
    assert_eq!(table.connect("alice", Some(format!("Bearer {}", table.token("bob")))).await.err(), Some(403));
    assert_eq!(table.connect("carol", Some(format!("Bearer {}", table.token("alice")))).await.err(), Some(404));
    // The token in the URL counts for nothing.
    let mut request =
        format!("{}?token={}", table.listener.url("alice"), table.token("alice")).into_client_request().unwrap();
    request.headers_mut().remove("authorization");
    assert!(matches!(
        tokio_tungstenite::connect_async(request).await,
        Err(tokio_tungstenite::tungstenite::Error::Http(r)) if r.status() == 401
    ));
    assert_eq!(table.hub.waiting("alice"), 0, "no refused client waits for a seat");
    let _ok = table.connect_as("alice").await;
}

#[tokio::test]
async fn an_answer_of_the_message_limit_passes_and_one_byte_more_costs_the_seat() {
    let table = Table::new(&["alice"]).await;
    let (mut bot, mut ws) = table.seated("alice", 0).await;
    let full = "x".repeat(MAX_MESSAGE_BYTES);
    let client = async {
        next_line(&mut ws).await;
        ws.send(Message::text(full.clone())).await.unwrap();
        next_line(&mut ws).await;
        let _ = ws.send(Message::text("x".repeat(MAX_MESSAGE_BYTES + 1))).await;
        ws
    };
    let server = async {
        let first = bot.exchange(LINE, timeout()).await;
        let second = bot.exchange(LINE, timeout()).await;
        (first, second)
    };
    let ((first, second), _ws) = tokio::join!(server, client);
    assert_eq!(first.unwrap().len(), MAX_MESSAGE_BYTES);
    assert_eq!(second, Err(BotError::Oversized(MAX_MESSAGE_BYTES)));
    assert_eq!(bot.exchange(LINE, timeout()).await, Err(BotError::Oversized(MAX_MESSAGE_BYTES)), "it stays closed");
}

#[tokio::test]
async fn a_binary_message_costs_the_seat() {
    let table = Table::new(&["alice"]).await;
    let (mut bot, mut ws) = table.seated("alice", 0).await;
    let client = async {
        next_line(&mut ws).await;
        ws.send(Message::binary(b"{\"type\":\"none\"}".to_vec())).await.unwrap();
        ws
    };
    let started = Instant::now();
    let (answer, _ws) = tokio::join!(bot.exchange(LINE, timeout()), client);
    assert!(matches!(&answer, Err(BotError::Transport(m)) if m.contains("binary")), "{answer:?}");
    assert!(started.elapsed() < timeout(), "refused at once, not at the deadline");
}

#[tokio::test]
async fn an_endless_fragmented_message_is_cut_at_the_limit() {
    let table = Table::new(&["alice"]).await;
    let (mut bot, mut ws) = table.seated("alice", 0).await;
    let client = async {
        next_line(&mut ws).await;
        let chunk = vec![b'x'; 64 * 1024];
        let mut frame = Frame::message(chunk.clone(), OpCode::Data(Data::Text), false);
        let mut sent = 0usize;
        // Never a final frame: only the server's limit ends it.
        while ws.send(Message::Frame(frame)).await.is_ok() && sent < 64 * MAX_MESSAGE_BYTES {
            sent += chunk.len();
            frame = Frame::message(chunk.clone(), OpCode::Data(Data::Continue), false);
        }
        sent
    };
    let (answer, sent) = tokio::join!(bot.exchange(LINE, Duration::from_secs(10)), client);
    assert_eq!(answer, Err(BotError::Oversized(MAX_MESSAGE_BYTES)));
    assert!(sent < 64 * MAX_MESSAGE_BYTES, "the server closed the connection ({sent} bytes sent)");
}

#[tokio::test]
async fn a_flood_closes_only_its_own_connection() {
    let table = Table::new(&["alice", "bob"]).await;
    let (mut alice, mut alice_ws) = table.seated("alice", 0).await;
    let (mut bob, mut bob_ws) = table.seated("bob", 1).await;
    // Alice answers out of turn, over and over, as if for every seat.
    let flood = async {
        for n in 0..1000 {
            let answer = format!(r#"{{"type":"dahai","actor":{},"pai":"1m","tsumogiri":true}}"#, n % 4);
            if alice_ws.send(Message::text(answer)).await.is_err() {
                return n;
            }
        }
        1000
    };
    let bob_plays = async {
        let mut answers = Vec::new();
        for _ in 0..5 {
            let client = async {
                next_line(&mut bob_ws).await;
                bob_ws.send(Message::text(r#"{"type":"none"}"#)).await.unwrap();
            };
            let (answer, ()) = tokio::join!(bob.exchange(LINE, timeout()), client);
            answers.push(answer);
        }
        answers
    };
    let (sent, answers) = tokio::join!(flood, bob_plays);
    assert!(answers.iter().all(|a| a.as_deref() == Ok(r#"{"type":"none"}"#)), "{answers:?}");
    let started = Instant::now();
    let answer = alice.exchange(LINE, timeout()).await;
    assert!(
        matches!(&answer, Err(BotError::Transport(m)) if m.contains("nobody asked for")),
        "{answer:?} after {sent}"
    );
    assert!(started.elapsed() < timeout());
}

#[tokio::test]
async fn a_late_answer_is_dropped_when_the_seat_restarts() {
    let table = Table::new(&["alice"]).await;
    let (mut bot, mut ws) = table.seated("alice", 0).await;
    let short = Duration::from_millis(200);
    let client = async {
        next_line(&mut ws).await;
        tokio::time::sleep(short * 2).await; // late on purpose
        ws.send(Message::text(r#"{"type":"dahai","actor":0,"pai":"1m","tsumogiri":true}"#)).await.unwrap();
        ws
    };
    let (answer, mut ws) = tokio::join!(bot.exchange(LINE, short), client);
    assert_eq!(answer, Err(BotError::Timeout(short.as_secs_f64())));
    // The match loop restarts every bot after the chombo: stop, then start.
    bot.stop().await;
    let hub = table.hub.clone();
    let start = tokio::spawn(async move { hub.start_bot("alice", 0, Duration::from_secs(5)).await });
    answer_start(&mut ws, 0).await;
    let mut bot = start.await.unwrap().unwrap();
    let client = async {
        next_line(&mut ws).await;
        ws.send(Message::text(r#"{"type":"none"}"#)).await.unwrap();
    };
    let (answer, ()) = tokio::join!(bot.exchange(LINE, timeout()), client);
    assert_eq!(answer.as_deref(), Ok(r#"{"type":"none"}"#), "the late dahai was not taken as this answer");
}

#[tokio::test]
async fn a_client_that_never_reads_is_disconnected() {
    let table = Table::new(&["alice"]).await;
    let (mut bot, _ws) = table.seated("alice", 0).await; // never read from here on
    let big = format!("[{}]", "\"x\",".repeat(128 * 1024).trim_end_matches(','));
    let started = Instant::now();
    let error = loop {
        match bot.exchange(&big, Duration::from_millis(100)).await {
            Err(BotError::Timeout(_)) => assert!(started.elapsed() < WRITE_TIMEOUT * 6, "never disconnected"),
            other => break other,
        }
    };
    assert!(matches!(&error, Err(BotError::Transport(m)) if m.contains("did not read")), "{error:?}");
}

#[tokio::test]
async fn a_slow_handshake_is_dropped_after_the_header_timeout() {
    let table = Table::new(&["alice"]).await;
    let mut tcp = tokio::net::TcpStream::connect(table.listener.local_addr()).await.unwrap();
    tcp.write_all(b"GET /remote/alice HTTP/1.1\r\nHost: x\r\n").await.unwrap();
    let started = Instant::now();
    let mut buf = [0u8; 1024];
    let read = tokio::time::timeout(HEADER_TIMEOUT * 3, tcp.read(&mut buf)).await;
    let elapsed = started.elapsed();
    assert!(matches!(read, Ok(Ok(_)) | Ok(Err(_))), "the server never closed the slow connection");
    assert!(elapsed >= HEADER_TIMEOUT - Duration::from_millis(500) && elapsed < HEADER_TIMEOUT * 2, "{elapsed:?}");
}

#[tokio::test]
async fn one_address_gets_a_bounded_number_of_connections() {
    let names: Vec<String> = (0..MAX_CONNECTIONS_PER_ADDRESS).map(|n| format!("bot{n}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let table = Table::new(&refs).await;
    let mut open = Vec::new();
    for name in &refs {
        open.push(table.connect_as(name).await); // the limit itself is accepted
    }
    assert_eq!(table.connect("bot0", Some(format!("Bearer {}", table.token("bot0")))).await.err(), Some(429));
    // A closed one frees its place.
    let mut first = open.remove(0);
    first.close(None).await.unwrap();
    while first.next().await.is_some() {}
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        match table.connect("bot0", Some(format!("Bearer {}", table.token("bot0")))).await {
            Ok(_) => break,
            Err(429) if Instant::now() < deadline => tokio::task::yield_now().await,
            Err(status) => panic!("HTTP {status}"),
        }
    }
}
