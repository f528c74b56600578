//! The server's side of one dialect connection: a seat of the match loop
//! ([`RiichiDevBot`], one more [`Bot`]) that turns the loop's lines into the dialect's
//! messages and the bot's replies back into one answer line.
//!
//! Per line from the loop: each event goes out as its own message (RiichiEnv's view of the
//! seat is fed the same message); when the loop offered a legal set ([`Bot::offer`]), a
//! `request_action` follows and replies are read until one answers it or its deadline
//! passes:
//! - not a JSON object with a `type`: acked `unparseable`, the request stays open;
//! - another `request_id` (an old request): acked `stale`, no penalty, still open;
//! - matched against the legal set ([`mjai_sim_riichi_dev::select::select`]): acked `accepted`, the
//!   canonical action goes back to the loop;
//! - not legal: acked `rejected` and the reply goes to the loop as it came, which refuses
//!   it (a chombo);
//! - no answer by the deadline: acked `defaulted` with the default action
//!   ([`mjai_sim_engine::game::default_answer`]) and the loop hears a timeout, which the
//!   dialect's clock turns into that default, no penalty.
//!
//! Lines without a decision (`start_game`, `end_kyoku`, `end_game`) are sent and answered
//! `none` at once: a dialect bot answers requests only. The [`SeatConnection`] (connection,
//! request counter, RiichiEnv's view) outlives the loop's restarts: after a chombo the
//! same connection goes on (no `start_game` again), and a bot whose connection dropped is
//! played by default actions until the game ends.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::future::BoxFuture;
use serde_json::Value;
use tokio::time::Instant;

use super::GRACE;
use crate::bounded::within;
use crate::remote::conn::{Conn, Ended};
use crate::remote::hub::RemoteHub;
use crate::remote::{CLOSE_TIMEOUT, WRITE_TIMEOUT};
use crate::{Bot, BotError, Offer};
use mjai_sim_engine::event::{Event, Seat};
use mjai_sim_engine::game::{default_answer, Players, WallIds};
use mjai_sim_riichi_dev::observe::SeatView;
use mjai_sim_riichi_dev::select::{legal_types, possible_actions, select};
use mjai_sim_riichi_dev::wire::{self, AckStatus, Object, Spent, Time};

/// The close code after `end_game` and `validation_result` (RFC 6455: normal closure), as
/// riichi.dev's server closes.
pub const NORMAL_CLOSE: u16 = 1000;

/// One dialect connection playing one seat for a whole game.
#[derive(Debug)]
pub struct SeatConnection {
    /// `None`: the bot never connected (played by default actions all game).
    conn: Option<Conn>,
    /// What a default for want of a connection says: the seat, and how to connect.
    absent: String,
    seat: Seat,
    /// The table's size: three entries per seat array at three seats, RiichiEnv's
    /// three-player observation.
    players: Players,
    view: SeatView,
    /// `start_game` was sent on this connection.
    started: bool,
}

impl SeatConnection {
    /// A session of `conn` playing `seat` at a table of `players`.
    pub fn new(conn: Conn, seat: Seat, players: Players) -> SeatConnection {
        let absent = format!("seat {seat} disconnected: default action");
        SeatConnection::with(Some(conn), absent, seat, players)
    }

    /// A session whose bot never connected: every request is played by its default action,
    /// each saying `why` (the dialect seat and how to connect).
    pub fn absent(why: String, seat: Seat, players: Players) -> SeatConnection {
        SeatConnection::with(None, why, seat, players)
    }

    fn with(conn: Option<Conn>, absent: String, seat: Seat, players: Players) -> SeatConnection {
        SeatConnection { conn, absent, seat, players, view: SeatView::new(seat, players), started: false }
    }

    /// The connection is there and open.
    fn open(&self) -> bool {
        self.conn.as_ref().is_some_and(Conn::is_open)
    }

    /// The error of a request nobody can answer: played by its default action, counted as
    /// `disconnected` (not as a timeout).
    fn disconnected(&self) -> BotError {
        BotError::Disconnected(self.absent.clone())
    }

    /// Sends `message`, waiting until `deadline` at most.
    async fn send(&self, message: &Object, deadline: Instant) -> Result<(), BotError> {
        match &self.conn {
            Some(conn) => conn.send_text(wire::text(message), deadline, 0.0).await, // bounded: until the deadline.
            None => Err(BotError::Closed),
        }
    }

    /// Sends each event of `line` (a JSON array of masked events) as its own message. The
    /// line's last `start_kyoku` deals the kyoku in play, whose wall's ids are `wall` (an
    /// earlier one in the same line is a kyoku already over: its ids are not needed).
    async fn send_events(&mut self, line: &str, deadline: Instant, wall: Option<WallIds>) -> Result<(), BotError> {
        let events: Vec<Event> =
            serde_json::from_str(line).map_err(|e| BotError::Transport(format!("not a line of events: {e}")))?;
        let last_deal = events.iter().rposition(|e| matches!(e, Event::StartKyoku { .. }));
        let mut wall = wall;
        for (i, event) in events.iter().enumerate() {
            if matches!(event, Event::StartKyoku { .. }) {
                self.view.deal(if Some(i) == last_deal { wall.take() } else { None });
            }
            if matches!(event, Event::StartGame { .. }) {
                if self.started {
                    continue; // a restart of the loop: the connection goes on
                }
                self.started = true;
            }
            let message = wire::event_message(event, self.seat, self.players);
            self.view.apply(event, &message);
            if self.open() {
                // bounded: until the deadline.
                if let Err(e) = self.send(&message, deadline).await {
                    tracing::debug!("riichilab seat {}: {e}", self.seat);
                }
            }
        }
        Ok(())
    }

    /// Asks for one decision among `legal` within `timeout` (grace + bank), as request `id`.
    async fn request(&mut self, id: u64, legal: &[Event], timeout: Duration) -> Result<String, BotError> {
        let timed_out = BotError::Timeout(timeout.as_secs_f64());
        if !self.open() {
            return Err(self.disconnected()); // dropped or absent: played by default actions
        }
        let bank = timeout.saturating_sub(GRACE);
        let time = Time { grace_ms: millis(timeout.min(GRACE)), bank_ms: millis(bank) };
        let possible = possible_actions(legal, self.seat, |t| self.view.copies(t));
        let request = wire::request_action(id, possible, self.view.observation(Some(legal)), time);
        let sent = Instant::now();
        let deadline = sent + timeout;
        // bounded: until the deadline. A connection that dropped: a default action.
        if self.send(&request, deadline).await.is_err() {
            return Err(self.disconnected());
        }
        let spent = |now: Instant| {
            let elapsed = now.saturating_duration_since(sent).min(timeout);
            let consumed = elapsed.saturating_sub(timeout.min(GRACE));
            Spent {
                elapsed_ms: millis(elapsed),
                bank_consumed_ms: millis(consumed),
                bank_ms: millis(bank.saturating_sub(consumed)),
            }
        };
        loop {
            let Some(conn) = self.conn.as_mut() else { return Err(self.disconnected()) };
            // bounded: until the deadline.
            let text = match conn.next_text(deadline, timeout.as_secs_f64()).await {
                Ok(text) => text,
                Err(BotError::Timeout(_)) => {
                    let action = serde_json::to_value(default_answer(legal)).unwrap_or(Value::Null);
                    let ack =
                        wire::action_ack(id, &AckStatus::Defaulted { action }, Spent { bank_ms: 0, ..spent(deadline) });
                    let _ = self.send(&ack, Instant::now() + super::ACK_WRITE).await; // bounded: ACK_WRITE.
                    return Err(timed_out);
                }
                Err(_) => return Err(self.disconnected()), // dropped now: played by default actions
            };
            let ack_deadline = Instant::now() + super::ACK_WRITE;
            let Some(reply) = wire::parse_reply(&text) else {
                let _ = self
                    .send(&wire::action_ack(id, &AckStatus::Unparseable, spent(Instant::now())), ack_deadline)
                    .await; // bounded: ACK_WRITE; a closed connection changes nothing here
                continue;
            };
            if let Some(old) = reply.request_id.filter(|r| *r != id) {
                let _ = self.send(&wire::action_ack(old, &AckStatus::Stale, Spent::default()), ack_deadline).await; // bounded: ACK_WRITE; a closed connection changes nothing here
                continue;
            }
            let used = spent(Instant::now());
            return match select(legal, &reply.action) {
                Ok(action) => {
                    let _ = self.send(&wire::action_ack(id, &AckStatus::Accepted, used), ack_deadline).await; // bounded: ACK_WRITE; a closed connection changes nothing here
                    Ok(action.to_json())
                }
                Err(reason) => {
                    let status = AckStatus::Rejected {
                        reason,
                        attempted: reply.action.clone(),
                        legal_types: legal_types(legal),
                    };
                    let _ = self.send(&wire::action_ack(id, &status, used), ack_deadline).await; // bounded: ACK_WRITE; a closed connection changes nothing here
                    Ok(reply.action.to_string())
                }
            };
        }
    }

    /// Closes the connection once everything queued so far is written; returns the
    /// connection's end signal (it ends within the connection's write and close timeouts).
    pub fn close(self) -> Arc<Ended> {
        match self.conn {
            Some(conn) => {
                let ended = conn.ended();
                conn.close_after_queue();
                ended
            }
            None => {
                let ended = Arc::new(Ended::default());
                ended.end(BotError::Closed);
                ended
            }
        }
    }

    /// Queues `message` if given (waiting for room at most [`WRITE_TIMEOUT`]: it is never
    /// dropped for a full queue), then a close frame with 1000 and "game over" (as
    /// riichi.dev closes after `end_game` and `validation_result`, waiting for room as long
    /// again), then closes once all is written ([`SeatConnection::close`]).
    pub async fn close_with(self, message: Option<&Object>) -> Arc<Ended> {
        if let Some(message) = message {
            let _ = self.send(message, Instant::now() + WRITE_TIMEOUT).await; // bounded: WRITE_TIMEOUT.
        }
        match self.conn {
            Some(conn) => {
                let ended = conn.ended();
                // bounded: WRITE_TIMEOUT.
                conn.close_after_queue_with(NORMAL_CLOSE, "game over", Instant::now() + WRITE_TIMEOUT).await;
                ended
            }
            None => self.close(),
        }
    }
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// Where a seat's [`SeatConnection`] waits between the loop's restarts (and after the game, until
/// the launcher closes it).
pub type Parking = Arc<Mutex<Option<SeatConnection>>>;

/// Where a dialect seat of one game is taken from and kept: its connections' `hub` and
/// `name`, how long to `wait` for one, and its `parking` between the loop's restarts.
#[derive(Clone, Copy)]
pub struct RiichiDevSeat<'a> {
    /// The hub the bot's connections wait in.
    pub hub: &'a RemoteHub,
    /// The bot's name in the hub.
    pub name: &'a str,
    /// Longest wait for a connection.
    pub wait: Duration,
    /// The seat's session between restarts.
    pub parking: &'a Parking,
}

/// The bot of a dialect seat at a launch of the match loop at a table of `players`: the
/// session parked in `at.parking` (a restart within the game: the same connection goes
/// on), else a new session on a connection of `at.name` taken from `at.hub` (waiting at
/// most `at.wait`). Errors: no connection in time.
///
/// A bot that has not connected within the wait is played by default actions for the whole
/// game (riichi.dev plays an absent or disconnected seat so; never a chombo), each default
/// saying so ([`BotError::Disconnected`]). Never errs.
pub async fn seat_bot_at(at: RiichiDevSeat<'_>, seat: Seat, players: Players) -> Result<RiichiDevBot, BotError> {
    let parked = at.parking.lock().ok().and_then(|mut p| p.take());
    let session = match parked {
        Some(session) => session,
        // bounded: wait.
        None => match at.hub.take_conn(at.name, at.wait).await {
            Ok(conn) => SeatConnection::new(conn, seat, players),
            Err(_) => SeatConnection::absent(not_connected(at.name, seat, at.wait), seat, players),
        },
    };
    Ok(RiichiDevBot::new(session, at.parking.clone()))
}

/// What each default of a dialect seat whose bot never connected says.
fn not_connected(name: &str, seat: Seat, wait: Duration) -> String {
    let validation = name.strip_suffix(super::VALIDATION_SLOT_SUFFIX);
    let bot = validation.unwrap_or(name);
    format!(
        "riichilab:{bot} (seat {seat}) did not connect within {:.0} s: played by default actions \
         (riichi.dev's rule, no penalty); connect it with its bot token (`Authorization: Bearer TOKEN`) \
         to {} (the URL and token printed at the game's start, or the server's)",
        wait.as_secs_f64(),
        if validation.is_some() { super::VALIDATE_PATH } else { super::RANKED_PATH }
    )
}

/// Closes the sessions parked in `parkings` after their game (the server closes after
/// `end_game`) once what was queued is written; returns their end signals without waiting.
pub fn close_parked<'a>(parkings: impl IntoIterator<Item = &'a Parking>) -> Vec<Arc<Ended>> {
    parkings.into_iter().filter_map(|p| p.lock().ok().and_then(|mut p| p.take())).map(SeatConnection::close).collect()
}

/// [`close_parked`], each session after `farewell` if given (a validation game's
/// `validation_result`, queued without ever being dropped) and a close frame with 1000
/// ([`SeatConnection::close_with`]), then waits until what was queued is written, at most two
/// [`WRITE_TIMEOUT`]s per session + [`WRITE_TIMEOUT`] + [`CLOSE_TIMEOUT`].
pub async fn close_parked_and_wait<'a>(parkings: impl IntoIterator<Item = &'a Parking>, farewell: Option<&Object>) {
    let sessions: Vec<SeatConnection> =
        parkings.into_iter().filter_map(|p| p.lock().ok().and_then(|mut p| p.take())).collect();
    let mut ended = Vec::with_capacity(sessions.len());
    for session in sessions {
        ended.push(session.close_with(farewell).await); // bounded: two WRITE_TIMEOUTs.
    }
    let all = futures_util::future::join_all(ended.iter().map(|e| e.wait()));
    let _ = within(WRITE_TIMEOUT + CLOSE_TIMEOUT, "closing riichilab connections", all).await;
}

/// A dialect seat as the match loop sees it.
pub struct RiichiDevBot {
    session: Option<SeatConnection>,
    parking: Parking,
    /// The last offer: the legal set, the ids of the kyoku in play, the request's id.
    offer: Option<(Vec<Event>, Option<WallIds>, u64)>,
}

impl RiichiDevBot {
    /// The bot playing `session`; [`Bot::stop`] parks the session in `parking`.
    pub fn new(session: SeatConnection, parking: Parking) -> RiichiDevBot {
        RiichiDevBot { session: Some(session), parking, offer: None }
    }

    async fn exchange_inner(&mut self, line: &str, timeout: Duration) -> Result<String, BotError> {
        let (legal, wall, id) = self.offer.take().unwrap_or_default();
        let session = self.session.as_mut().ok_or(BotError::Closed)?;
        let deadline = Instant::now() + timeout;
        session.send_events(line, deadline, wall).await?; // bounded: until the deadline.
        match legal.is_empty() {
            false => session.request(id, &legal, timeout).await, // bounded: inside.
            true => Ok(r#"{"type":"none"}"#.to_string()),
        }
    }

    fn park(&mut self) {
        if let (Some(session), Ok(mut slot)) = (self.session.take(), self.parking.lock()) {
            *slot = Some(session);
        }
    }
}

impl Bot for RiichiDevBot {
    fn exchange<'a>(&'a mut self, line: &'a str, timeout: Duration) -> BoxFuture<'a, Result<String, BotError>> {
        Box::pin(self.exchange_inner(line, timeout))
    }

    fn offer(&mut self, offer: &Offer<'_>) {
        self.offer = Some((offer.legal.to_vec(), offer.wall.cloned(), offer.request_id));
    }

    fn stop(&mut self) -> BoxFuture<'_, ()> {
        self.park();
        Box::pin(std::future::ready(()))
    }

    /// A dialect bot's stderr stays on its author's machine.
    fn stderr_tail(&self) -> Vec<String> {
        Vec::new()
    }
}

impl Drop for RiichiDevBot {
    fn drop(&mut self) {
        self.park();
    }
}
