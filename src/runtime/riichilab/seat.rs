//! The server's side of one dialect connection: a seat of the match loop
//! ([`RiichiLabBot`], one more [`Bot`]) that turns the loop's lines into the dialect's
//! messages and the bot's replies back into one answer line.
//!
//! Per line from the loop: each event goes out as its own message (RiichiEnv's view of the
//! seat is fed the same message); when the loop offered a legal set ([`Bot::offer`]), a
//! `request_action` follows and replies are read until one answers it or its deadline
//! passes:
//! - not a JSON object with a `type`: acked `unparseable`, the request stays open;
//! - another `request_id` (an old request): acked `stale`, no penalty, still open;
//! - matched against the legal set ([`super::select::select`]): acked `accepted`, the
//!   canonical action goes back to the loop;
//! - not legal: acked `rejected` and the reply goes to the loop as it came, which refuses
//!   it (a chombo);
//! - no answer by the deadline: acked `defaulted` with the default action
//!   ([`crate::engine::game::default_answer`]) and the loop hears a timeout, which the
//!   dialect's clock turns into that default, no penalty.
//!
//! Lines without a decision (`start_game`, `end_kyoku`, `end_game`) are sent and answered
//! `none` at once: a dialect bot answers requests only. The [`Session`] (connection,
//! request counter, RiichiEnv's view) outlives the loop's restarts: after a chombo the
//! same connection goes on (no `start_game` again), and a bot whose connection dropped is
//! played by default actions until the game ends.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::future::BoxFuture;
use serde_json::Value;
use tokio::time::Instant;

use super::observe::SeatView;
use super::select::{legal_types, possible_actions, select};
use super::wire::{self, AckStatus, Object, Spent, Time};
use super::GRACE;
use crate::engine::event::{Event, Seat};
use crate::engine::game::{default_answer, Players};
use crate::runtime::bounded::within;
use crate::runtime::remote::conn::{Conn, Ended};
use crate::runtime::remote::hub::RemoteHub;
use crate::runtime::remote::{CLOSE_TIMEOUT, WRITE_TIMEOUT};
use crate::runtime::{Bot, BotError};

/// One dialect connection playing one seat for a whole game.
#[derive(Debug)]
pub struct Session {
    conn: Conn,
    seat: Seat,
    /// The table's size: three entries per seat array at three seats, RiichiEnv's
    /// three-player observation.
    players: Players,
    view: SeatView,
    /// The next request's id (one counter for the whole game, from 1).
    next_request: u64,
    /// `start_game` was sent on this connection.
    started: bool,
}

impl Session {
    /// A session of `conn` playing `seat` at a table of `players`.
    pub fn new(conn: Conn, seat: Seat, players: Players) -> Session {
        Session { conn, seat, players, view: SeatView::new(seat, players), next_request: 1, started: false }
    }

    /// Sends `message`, waiting until `deadline` at most.
    async fn send(&self, message: &Object, deadline: Instant) -> Result<(), BotError> {
        self.conn.send_text(wire::text(message), deadline, 0.0).await // bounded: until the deadline.
    }

    /// Sends each event of `line` (a JSON array of masked events) as its own message.
    async fn send_events(&mut self, line: &str, deadline: Instant) -> Result<(), BotError> {
        let events: Vec<Event> =
            serde_json::from_str(line).map_err(|e| BotError::Transport(format!("not a line of events: {e}")))?;
        for event in &events {
            if matches!(event, Event::StartGame { .. }) {
                if self.started {
                    continue; // a restart of the loop: the connection goes on
                }
                self.started = true;
            }
            let message = wire::event_message(event, self.seat, self.players);
            self.view.apply(&message);
            if self.conn.is_open() {
                // bounded: until the deadline.
                if let Err(e) = self.send(&message, deadline).await {
                    tracing::debug!("riichilab seat {}: {e}", self.seat);
                }
            }
        }
        Ok(())
    }

    /// Asks for one decision among `legal` within `timeout` (grace + bank).
    async fn request(&mut self, legal: &[Event], timeout: Duration) -> Result<String, BotError> {
        let id = self.next_request;
        self.next_request += 1;
        let timed_out = BotError::Timeout(timeout.as_secs_f64());
        if !self.conn.is_open() {
            return Err(timed_out); // dropped: played by default actions
        }
        let bank = timeout.saturating_sub(GRACE);
        let time = Time { grace_ms: millis(timeout.min(GRACE)), bank_ms: millis(bank) };
        let possible = possible_actions(legal, self.seat, |t| self.view.copies(t));
        let request = wire::request_action(id, possible, self.view.observation(), time);
        let sent = Instant::now();
        let deadline = sent + timeout;
        // bounded: until the deadline. A connection that dropped: a default action.
        if self.send(&request, deadline).await.is_err() {
            return Err(timed_out);
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
            // bounded: until the deadline.
            let text = match self.conn.next_text(deadline, timeout.as_secs_f64()).await {
                Ok(text) => text,
                Err(BotError::Timeout(_)) => {
                    let action = serde_json::to_value(default_answer(legal)).unwrap_or(Value::Null);
                    let ack =
                        wire::action_ack(id, &AckStatus::Defaulted { action }, Spent { bank_ms: 0, ..spent(deadline) });
                    let _ = self.send(&ack, Instant::now() + super::ACK_WRITE).await; // bounded: ACK_WRITE.
                    return Err(timed_out);
                }
                Err(_) => return Err(timed_out), // dropped now: played by default actions
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
        let ended = self.conn.ended();
        self.conn.close_after_queue();
        ended
    }

    /// Queues `message` (waiting for room at most [`WRITE_TIMEOUT`]: it is never dropped for
    /// a full queue), then [`Session::close`].
    pub async fn close_with(self, message: &Object) -> Arc<Ended> {
        let deadline = Instant::now() + WRITE_TIMEOUT;
        let _ = self.send(message, deadline).await; // bounded: WRITE_TIMEOUT.
        self.close()
    }
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// Where a seat's [`Session`] waits between the loop's restarts (and after the game, until
/// the launcher closes it).
pub type Parking = Arc<Mutex<Option<Session>>>;

/// The bot of a dialect seat at a launch of the match loop at a table of `players`: the
/// session parked in `parking` (a restart within the game: the same connection goes on),
/// else a new session on a connection of `name` taken from `hub` (waiting at most
/// `wait`). Errors: no connection in time.
pub async fn seat_bot_at(
    parking: &Parking,
    hub: &RemoteHub,
    name: &str,
    wait: Duration,
    seat: Seat,
    players: Players,
) -> Result<RiichiLabBot, BotError> {
    let parked = parking.lock().ok().and_then(|mut p| p.take());
    let session = match parked {
        Some(session) => session,
        None => Session::new(hub.take_conn(name, wait).await?, seat, players), // bounded: wait.
    };
    Ok(RiichiLabBot::new(session, parking.clone()))
}

/// Closes the sessions parked in `parkings` after their game (the server closes after
/// `end_game`) once what was queued is written; returns their end signals without waiting.
pub fn close_parked<'a>(parkings: impl IntoIterator<Item = &'a Parking>) -> Vec<Arc<Ended>> {
    parkings.into_iter().filter_map(|p| p.lock().ok().and_then(|mut p| p.take())).map(Session::close).collect()
}

/// [`close_parked`], each session after `farewell` if given (a validation game's
/// `validation_result`, queued without ever being dropped), then waits until what was queued
/// is written, at most [`WRITE_TIMEOUT`] per farewell + [`WRITE_TIMEOUT`] + [`CLOSE_TIMEOUT`].
pub async fn close_parked_and_wait<'a>(parkings: impl IntoIterator<Item = &'a Parking>, farewell: Option<&Object>) {
    let sessions: Vec<Session> =
        parkings.into_iter().filter_map(|p| p.lock().ok().and_then(|mut p| p.take())).collect();
    let mut ended = Vec::with_capacity(sessions.len());
    for session in sessions {
        ended.push(match farewell {
            Some(m) => session.close_with(m).await, // bounded: WRITE_TIMEOUT.
            None => session.close(),
        });
    }
    let all = futures_util::future::join_all(ended.iter().map(|e| e.wait()));
    let _ = within(WRITE_TIMEOUT + CLOSE_TIMEOUT, "closing riichilab connections", all).await;
}

/// A dialect seat as the match loop sees it.
pub struct RiichiLabBot {
    session: Option<Session>,
    parking: Parking,
    legal: Option<Vec<Event>>,
}

impl RiichiLabBot {
    /// The bot playing `session`; [`Bot::stop`] parks the session in `parking`.
    pub fn new(session: Session, parking: Parking) -> RiichiLabBot {
        RiichiLabBot { session: Some(session), parking, legal: None }
    }

    async fn exchange_inner(&mut self, line: &str, timeout: Duration) -> Result<String, BotError> {
        let legal = self.legal.take();
        let session = self.session.as_mut().ok_or(BotError::Closed)?;
        let deadline = Instant::now() + timeout;
        session.send_events(line, deadline).await?; // bounded: until the deadline.
        match legal {
            Some(legal) if !legal.is_empty() => session.request(&legal, timeout).await, // bounded: inside.
            _ => Ok(r#"{"type":"none"}"#.to_string()),
        }
    }

    fn park(&mut self) {
        if let (Some(session), Ok(mut slot)) = (self.session.take(), self.parking.lock()) {
            *slot = Some(session);
        }
    }
}

impl Bot for RiichiLabBot {
    fn exchange<'a>(&'a mut self, line: &'a str, timeout: Duration) -> BoxFuture<'a, Result<String, BotError>> {
        Box::pin(self.exchange_inner(line, timeout))
    }

    fn offer(&mut self, legal: &[Event]) {
        self.legal = Some(legal.to_vec());
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

impl Drop for RiichiLabBot {
    fn drop(&mut self) {
        self.park();
    }
}
