//! The game side's remote bots: connections waiting for a seat, by remote bot name.
//!
//! A name (`remote:NAME`) is allowed with [`RemoteHub::allow`]; a connection for it is
//! handed over with [`RemoteHub::attach`] by whoever accepted and authenticated it (the
//! one-game [`super::listen::RemoteListener`] or the grading server); a seat takes one with
//! [`RemoteHub::start_bot`] and gives it back when its bot stops, so the same bridge plays
//! the next hand (after a restart) and the next game (tournaments).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ws::WebSocket;
use tokio::sync::Notify;
use tokio::time::Instant;

use super::bot::RemoteBot;
use super::conn::{Conn, Ended};
use super::control::Control;
use super::{CLOSE_TIMEOUT, MAX_IDLE_PER_NAME, WRITE_TIMEOUT};
use crate::runtime::bounded::{until, within};
use crate::runtime::BotError;

#[derive(Default)]
struct Slot {
    idle: Vec<Conn>,
    notify: Arc<Notify>,
}

/// Why a connection was not attached.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AttachError {
    /// The name is not a remote bot of this hub.
    #[error("no remote bot named `{0}` here")]
    UnknownName(String),
    /// Too many connections already wait for this name.
    #[error("{MAX_IDLE_PER_NAME} connections already wait for remote bot `{0}`")]
    TooMany(String),
}

/// Remote bots' connections, shared by the listener (or server) and the games.
#[derive(Default)]
pub struct RemoteHub {
    slots: Mutex<HashMap<String, Slot>>,
}

impl RemoteHub {
    /// An empty hub.
    pub fn new() -> Arc<RemoteHub> {
        Arc::new(RemoteHub::default())
    }

    /// Lets connections for remote bot `name` attach (idempotent).
    pub fn allow(&self, name: &str) {
        if let Ok(mut slots) = self.slots.lock() {
            slots.entry(name.to_string()).or_default();
        }
    }

    /// True when `name` may attach.
    pub fn allows(&self, name: &str) -> bool {
        self.slots.lock().map(|s| s.contains_key(name)).unwrap_or(false)
    }

    /// Takes an accepted, authenticated WebSocket for remote bot `name`: it waits for a seat
    /// from now on. Returns its end signal (await [`Ended::wait`] to hold something, such as
    /// a per-address permit, for the connection's life). Errors: the name is not allowed,
    /// or [`MAX_IDLE_PER_NAME`] connections already wait for it (the socket is closed).
    pub fn attach(&self, name: &str, socket: WebSocket) -> Result<Arc<Ended>, AttachError> {
        let mut slots = self.slots.lock().map_err(|_| AttachError::UnknownName(name.to_string()))?;
        let slot = slots.get_mut(name).ok_or_else(|| AttachError::UnknownName(name.to_string()))?;
        slot.idle.retain(Conn::is_open);
        if slot.idle.len() >= MAX_IDLE_PER_NAME {
            return Err(AttachError::TooMany(name.to_string()));
        }
        let conn = Conn::spawn(socket);
        let ended = conn.ended();
        slot.idle.push(conn);
        slot.notify.notify_waiters();
        Ok(ended)
    }

    /// Connections of `name` waiting for a seat (open ones).
    pub fn waiting(&self, name: &str) -> usize {
        self.slots
            .lock()
            .ok()
            .and_then(|s| s.get(name).map(|s| s.idle.iter().filter(|c| c.is_open()).count()))
            .unwrap_or(0)
    }

    /// Takes an open connection of `name`, waiting for one until `deadline`.
    async fn take(&self, name: &str, deadline: Instant, limit: Duration) -> Result<Conn, BotError> {
        loop {
            let notify = {
                let mut slots = self.slots.lock().map_err(|_| BotError::Transport("remote hub poisoned".into()))?;
                let slot = slots
                    .get_mut(name)
                    .ok_or_else(|| BotError::Transport(format!("no remote bot named `{name}` is allowed")))?;
                slot.idle.retain(Conn::is_open);
                if !slot.idle.is_empty() {
                    return Ok(slot.idle.remove(0));
                }
                slot.notify.clone()
            };
            let notified = notify.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            if self.waiting(name) > 0 {
                continue;
            }
            if until(deadline, "waiting for a remote bot", notified).await.is_err() {
                return Err(BotError::Transport(format!(
                    "no bridge connected for remote:{name} within {:.0} s (run the printed `mjai-sim connect` command)",
                    limit.as_secs_f64()
                )));
            }
        }
    }

    /// Gives a connection back after its bot stopped (dropped when closed or too many wait).
    pub(super) fn give_back(&self, name: &str, conn: Conn) {
        if !conn.is_open() {
            return;
        }
        if let Ok(mut slots) = self.slots.lock() {
            if let Some(slot) = slots.get_mut(name) {
                slot.idle.retain(Conn::is_open);
                if slot.idle.len() < MAX_IDLE_PER_NAME {
                    slot.idle.insert(0, conn);
                    slot.notify.notify_waiters();
                }
            }
        }
    }

    /// Starts remote bot `name` for `seat`: takes a waiting connection (waiting for one at
    /// most `limit`), tells its bridge to start a fresh bot and waits for it, all within
    /// `limit`. Errors: no bridge connected in time, the bridge's bot did not start.
    pub async fn start_bot(self: &Arc<Self>, name: &str, seat: u8, limit: Duration) -> Result<RemoteBot, BotError> {
        let deadline = Instant::now() + limit;
        loop {
            let mut conn = self.take(name, deadline, limit).await?; // bounded: until the deadline.
            match conn.start(seat, deadline, limit.as_secs_f64()).await {
                // bounded: until the deadline.
                Ok(()) => return Ok(RemoteBot::new(self.clone(), name.to_string(), conn)),
                // The connection died while starting: another one may be waiting.
                Err(_) if !conn.is_open() && Instant::now() < deadline => continue,
                Err(e) => {
                    self.give_back(name, conn);
                    return Err(e);
                }
            }
        }
    }

    /// Sends `control` to the waiting connection `conn_id` of `name`, if it is still there
    /// (does not wait).
    pub fn notify(&self, name: &str, conn_id: u64, control: &Control) {
        if let Ok(slots) = self.slots.lock() {
            if let Some(conn) = slots.get(name).and_then(|s| s.idle.iter().find(|c| c.id() == conn_id)) {
                conn.notify(control);
            }
        }
    }

    /// Says `bye` to every waiting connection and closes them (the hub serves no more
    /// games); waits until the messages queued before are written, at most
    /// [`WRITE_TIMEOUT`] + [`CLOSE_TIMEOUT`].
    pub async fn close_all(&self) {
        let mut ended = Vec::new();
        if let Ok(mut slots) = self.slots.lock() {
            for slot in slots.values_mut() {
                for conn in slot.idle.drain(..) {
                    conn.notify(&Control::Bye);
                    ended.push(conn.ended());
                    conn.close_after_queue();
                }
            }
        }
        let all = futures_util::future::join_all(ended.iter().map(|e| e.wait()));
        let _ = within(WRITE_TIMEOUT + CLOSE_TIMEOUT, "closing remote connections", all).await;
    }
}
