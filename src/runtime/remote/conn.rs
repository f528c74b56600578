//! One bridge's WebSocket on the game side: a reader task and a writer task around an
//! accepted [`WebSocket`], and the handle the seat uses to exchange lines over it.
//!
//! The reader forwards text messages to a small inbox ([`MAX_UNREAD`] messages): a client
//! that sends more than that unasked is closed as a flood; a binary message, a message over
//! [`MAX_MESSAGE_BYTES`] (the WebSocket limit, fragments included), silence past
//! [`IDLE_TIMEOUT`] or a write that takes longer than [`WRITE_TIMEOUT`] (a client that never
//! reads) close it too. The first of these reasons is kept: the seat's next exchange fails
//! with it, a chombo for that seat only.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use axum::extract::ws::{Message, WebSocket};
use futures_util::{SinkExt, StreamExt};
use tokio::sync::mpsc;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::{self, error::ProtocolError};
use tokio_util::sync::CancellationToken;

use super::control::Control;
use super::{CLOSE_TIMEOUT, IDLE_TIMEOUT, MAX_MESSAGE_BYTES, MAX_UNREAD, PING_INTERVAL, WRITE_TIMEOUT};
use crate::bounded::{until, within};
use crate::BotError;

/// Why a connection ended (first reason wins), and the signal that it did.
#[derive(Debug, Default)]
pub struct Ended {
    token: CancellationToken,
    reason: Mutex<Option<BotError>>,
    /// The bridge said it is going away ([`Control::Draining`]): seated in no new game.
    draining: AtomicBool,
}

impl Ended {
    /// Records `reason` (unless one is already there) and ends the connection.
    pub fn end(&self, reason: BotError) {
        if let Ok(mut r) = self.reason.lock() {
            r.get_or_insert(reason);
        }
        self.token.cancel();
    }

    /// True once the connection ended.
    pub fn is_ended(&self) -> bool {
        self.token.is_cancelled()
    }

    /// Resolves when the connection ends.
    pub async fn wait(&self) {
        self.token.cancelled().await; // bounded: by the connection's own timeouts.
    }

    /// True once the bridge said it is going away ([`Control::Draining`]).
    pub fn is_draining(&self) -> bool {
        self.draining.load(Ordering::SeqCst)
    }

    /// The reason recorded ([`BotError::Closed`] when none).
    pub fn reason(&self) -> BotError {
        self.reason.lock().ok().and_then(|r| r.clone()).unwrap_or(BotError::Closed)
    }
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// The seat's side of one connection. Dropping it closes the connection.
#[derive(Debug)]
pub struct Conn {
    id: u64,
    outbox: mpsc::Sender<Message>,
    inbox: mpsc::Receiver<String>,
    ended: Arc<Ended>,
    generation: u64,
    /// Answers owed by lines that timed out (a bot under a clock that forgives timeouts is
    /// not restarted, and its late answer must not be taken for the next line's).
    owed: usize,
    /// Dropped without ending: the writer sends what is queued, then closes.
    linger: bool,
}

impl Conn {
    /// Starts the reader and writer tasks of `socket` (already accepted and authenticated).
    pub fn spawn(socket: WebSocket) -> Conn {
        let (sink, stream) = socket.split();
        let (outbox, outbox_rx) = mpsc::channel(8);
        let (inbox_tx, inbox) = mpsc::channel(MAX_UNREAD);
        let ended = Arc::new(Ended::default());
        tokio::spawn(write_loop(sink, outbox_rx, ended.clone()));
        tokio::spawn(read_loop(stream, inbox_tx, ended.clone()));
        Conn {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            outbox,
            inbox,
            ended,
            generation: 0,
            owed: 0,
            linger: false,
        }
    }

    /// This connection's number (unique in the process).
    pub fn id(&self) -> u64 {
        self.id
    }

    /// The end signal and reason, shared with the tasks.
    pub fn ended(&self) -> Arc<Ended> {
        self.ended.clone()
    }

    /// True while the connection is open.
    pub fn is_open(&self) -> bool {
        !self.ended.is_ended()
    }

    /// True while the connection is open and its bridge did not say it is going away: a
    /// game may seat it.
    pub fn is_seatable(&self) -> bool {
        self.is_open() && !self.ended.is_draining()
    }

    /// Queues `text` for the writer, waiting until `deadline` at most (then a timeout of
    /// `limit` seconds).
    async fn send(&self, text: String, deadline: Instant, limit: f64) -> Result<(), BotError> {
        if self.ended.is_ended() {
            return Err(self.ended.reason());
        }
        match until(deadline, "queueing a message", self.outbox.send(Message::Text(text.into()))).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(_)) => Err(self.ended.reason()),
            Err(_) => Err(BotError::Timeout(limit)),
        }
    }

    /// Queues a control message without waiting (dropped when the queue is full or closed).
    pub fn notify(&self, control: &Control) {
        let _ = self.outbox.try_send(Message::Text(control.to_text().into()));
    }

    /// Queues `text` for the writer, waiting until `deadline` at most (then a timeout of
    /// `limit` seconds): a message of another dialect over the same connection handling
    /// (riichi.dev's, [`crate::riichi_dev`]).
    pub async fn send_text(&self, text: String, deadline: Instant, limit: f64) -> Result<(), BotError> {
        self.send(text, deadline, limit).await // bounded: until the deadline.
    }

    /// The next text message, until `deadline` (see [`Conn::exchange`] for the errors).
    pub async fn next_text(&mut self, deadline: Instant, limit: f64) -> Result<String, BotError> {
        self.next(deadline, limit).await // bounded: until the deadline.
    }

    /// Drops answers nobody asked for (late ones); returns how many.
    fn drain_stale(&mut self) -> usize {
        let mut n = 0;
        while self.inbox.try_recv().is_ok() {
            n += 1;
        }
        n
    }

    /// The next message, until `deadline`; the connection's end reason when it ends first,
    /// [`BotError::Timeout`] (of `limit` seconds) when the deadline passes.
    async fn next(&mut self, deadline: Instant, limit: f64) -> Result<String, BotError> {
        let ended = self.ended.clone();
        tokio::select! {
            biased;
            message = self.inbox.recv() => message.ok_or_else(|| ended.reason()),
            _ = ended.wait() => Err(ended.reason()),
            _ = tokio::time::sleep_until(deadline) => Err(BotError::Timeout(limit)),
        }
    }

    /// Sends one mjai line and returns the answer, by `deadline` (`limit` seconds from the
    /// send). An `error` control from the bridge becomes [`BotError::Crashed`] with its
    /// message. The late answers of lines that timed out before are skipped, never taken
    /// for this line's (a bot kept after a timeout, under riichi.dev's clock, answers them
    /// in order).
    pub async fn exchange(&mut self, line: &str, deadline: Instant, limit: f64) -> Result<String, BotError> {
        let stale = self.drain_stale();
        self.owed = self.owed.saturating_sub(stale);
        if stale > 0 {
            tracing::debug!("remote bot sent {stale} unrequested message(s); dropped");
        }
        self.send(line.to_string(), deadline, limit).await?; // bounded: until the deadline.
        loop {
            // bounded: until the deadline.
            let answer = match self.next(deadline, limit).await {
                Ok(answer) => answer,
                Err(e) => {
                    if matches!(e, BotError::Timeout(_)) {
                        self.owed += 1;
                    }
                    return Err(e);
                }
            };
            match Control::parse(&answer) {
                Some(Control::Error { message }) => return Err(BotError::Crashed(format!("remote: {message}"))),
                _ if self.owed > 0 => self.owed -= 1, // a late answer of an earlier line
                _ => return Ok(answer),
            }
        }
    }

    /// Asks the bridge for a fresh bot in `seat` and waits for its `ready`, until `deadline`.
    /// Messages before the `ready` (late answers of the previous bot) are dropped.
    pub async fn start(&mut self, seat: u8, deadline: Instant, limit: f64) -> Result<(), BotError> {
        self.generation += 1;
        let generation = self.generation;
        self.owed = 0;
        self.drain_stale();
        self.send(Control::Start { seat, generation }.to_text(), deadline, limit).await?; // bounded: until the deadline.
        loop {
            // bounded: until the deadline.
            match Control::parse(&self.next(deadline, limit).await?) {
                Some(Control::Ready { generation: g }) if g == generation => return Ok(()),
                Some(Control::Error { message }) => return Err(BotError::Crashed(format!("remote: {message}"))),
                _ => continue,
            }
        }
    }
}

impl Conn {
    /// Closes the connection once the messages queued so far are written (bounded by
    /// [`WRITE_TIMEOUT`] each, then [`CLOSE_TIMEOUT`]).
    pub fn close_after_queue(mut self) {
        self.linger = true;
    }

    /// Like [`Conn::close_after_queue`], the close frame carrying `code` and `reason`
    /// (riichi.dev closes with 1000 and a reason after `end_game` and `validation_result`),
    /// queued behind what is there (waiting for room until `deadline` at most: past it, or
    /// on a closed connection, the plain close follows); the writer stops after it.
    pub async fn close_after_queue_with(self, code: u16, reason: &str, deadline: Instant) {
        let frame = axum::extract::ws::CloseFrame { code, reason: reason.to_string().into() };
        let _ = until(deadline, "queueing a close", self.outbox.send(Message::Close(Some(frame)))).await; // bounded: until the deadline.
        self.close_after_queue();
    }
}

impl Drop for Conn {
    fn drop(&mut self) {
        if !self.linger {
            self.ended.end(BotError::Closed);
        }
    }
}

async fn write_loop(
    mut sink: futures_util::stream::SplitSink<WebSocket, Message>,
    mut outbox: mpsc::Receiver<Message>,
    ended: Arc<Ended>,
) {
    let mut ping = tokio::time::interval_at(Instant::now() + PING_INTERVAL, PING_INTERVAL);
    loop {
        let message = tokio::select! {
            m = outbox.recv() => match m { Some(m) => m, None => break },
            _ = ping.tick() => Message::Ping(Default::default()),
            _ = ended.wait() => break,
        };
        let closing = matches!(message, Message::Close(_));
        match within(WRITE_TIMEOUT, "writing to a remote bot", sink.send(message)).await {
            Ok(Ok(())) if closing => break,
            Ok(Ok(())) => {}
            Ok(Err(e)) => {
                ended.end(BotError::Transport(format!("remote connection: {e}")));
                break;
            }
            Err(_) => {
                ended.end(BotError::Transport(format!(
                    "the remote bot did not read for {} s (disconnected)",
                    WRITE_TIMEOUT.as_secs()
                )));
                break;
            }
        }
    }
    ended.end(BotError::Closed);
    let _ = within(CLOSE_TIMEOUT, "closing a remote connection", sink.close()).await;
}

async fn read_loop(
    mut stream: futures_util::stream::SplitStream<WebSocket>,
    inbox: mpsc::Sender<String>,
    ended: Arc<Ended>,
) {
    loop {
        let next = tokio::select! {
            n = within(IDLE_TIMEOUT, "reading from a remote bot", stream.next()) => n,
            _ = ended.wait() => return,
        };
        let reason = match next {
            Err(_) => BotError::Transport(format!("the remote bot was silent for {} s", IDLE_TIMEOUT.as_secs())),
            Ok(None) | Ok(Some(Ok(Message::Close(_)))) => BotError::Closed,
            Ok(Some(Err(e))) if is_capacity(&e) => BotError::Oversized(MAX_MESSAGE_BYTES),
            // the bridge's process died or its network went: the connection closed
            Ok(Some(Err(e))) if is_dropped(&e) => BotError::Closed,
            Ok(Some(Err(e))) => BotError::Transport(format!("remote connection: {e}")),
            Ok(Some(Ok(Message::Binary(_)))) => {
                BotError::Transport("the remote bot sent a binary message (only text is accepted)".into())
            }
            Ok(Some(Ok(Message::Ping(_) | Message::Pong(_)))) => continue,
            // the bridge going away: not an answer, and never in the inbox
            Ok(Some(Ok(Message::Text(text)))) if Control::parse(text.as_str()) == Some(Control::Draining) => {
                ended.draining.store(true, Ordering::SeqCst);
                continue;
            }
            Ok(Some(Ok(Message::Text(text)))) => match inbox.try_send(text.as_str().to_string()) {
                Ok(()) => continue,
                Err(mpsc::error::TrySendError::Full(_)) => BotError::Transport(format!(
                    "the remote bot sent more than {MAX_UNREAD} messages nobody asked for (disconnected)"
                )),
                Err(mpsc::error::TrySendError::Closed(_)) => BotError::Closed,
            },
        };
        ended.end(reason);
        return;
    }
}

/// The WebSocket library's error under axum's (axum keeps it as the source).
fn ws_error(e: &axum::Error) -> Option<&tungstenite::Error> {
    std::error::Error::source(e)?.downcast_ref::<tungstenite::Error>()
}

/// A connection that ended without a close handshake (reset, broken pipe): recorded as
/// closed, as a bridge that said goodbye, not as a transport fault of this side.
fn is_dropped(e: &axum::Error) -> bool {
    use std::io::ErrorKind::{BrokenPipe, ConnectionAborted, ConnectionReset, UnexpectedEof};
    match ws_error(e) {
        Some(tungstenite::Error::Protocol(ProtocolError::ResetWithoutClosingHandshake)) => true,
        Some(tungstenite::Error::Io(io)) => {
            matches!(io.kind(), ConnectionReset | BrokenPipe | ConnectionAborted | UnexpectedEof)
        }
        _ => false,
    }
}

/// True for the error of a message or frame over the size limit.
fn is_capacity(e: &axum::Error) -> bool {
    matches!(ws_error(e), Some(tungstenite::Error::Capacity(_)))
}

#[cfg(test)]
mod classify_tests {
    use super::{is_capacity, is_dropped};
    use tokio_tungstenite::tungstenite::error::{CapacityError, ProtocolError};
    use tokio_tungstenite::tungstenite::Error;

    fn axum(e: Error) -> axum::Error {
        axum::Error::new(e)
    }

    #[test]
    fn errors_are_told_by_their_type() {
        let oversized = axum(Error::Capacity(CapacityError::MessageTooLong { size: 2, max_size: 1 }));
        assert!(is_capacity(&oversized) && !is_dropped(&oversized));
        let reset = axum(Error::Protocol(ProtocolError::ResetWithoutClosingHandshake));
        assert!(is_dropped(&reset) && !is_capacity(&reset));
        let pipe = axum(Error::Io(std::io::Error::from(std::io::ErrorKind::BrokenPipe)));
        assert!(is_dropped(&pipe));
        // a refused frame is neither, whatever its text says
        let other = axum(Error::Protocol(ProtocolError::NonZeroReservedBits));
        assert!(!is_dropped(&other) && !is_capacity(&other));
        let worded = axum::Error::new(std::io::Error::other("connection reset: message too long"));
        assert!(!is_dropped(&worded) && !is_capacity(&worded));
    }
}
