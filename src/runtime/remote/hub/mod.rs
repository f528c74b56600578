//! The game side's remote bots: connections waiting for a seat, by remote bot name.
//!
//! A name (`remote:NAME`) is allowed with [`RemoteHub::allow`]; a connection for it is
//! handed over with [`RemoteHub::attach`] by whoever accepted and authenticated it (the
//! one-game [`super::listen::RemoteListener`] or the grading server); a seat takes one with
//! [`RemoteHub::start_bot`] and gives it back when its bot stops, so the same bridge plays
//! the next hand (after a restart) and the next game (tournaments).
//!
//! One connection plays one seat at a time. The hub counts each name's open connections
//! ([`RemoteHub::online`]: waiting or playing), so a server can say who is online and cap
//! connections ([`RemoteHub::attach_at_most`]). A start finding every connection of a
//! connected bot busy in another game waits for one up to [`RemoteHub::with_busy_wait`]
//! (a server: the whole-game bound), not only the start timeout. A bot whose connections
//! all closed is waited for one start timeout from the moment it went offline (time for
//! the bridge to reconnect), not at every hand: the rest of a game whose bridge vanished
//! ends at once, each hand a chombo of that seat.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ws::WebSocket;
use tokio::sync::Notify;
use tokio::time::Instant;

mod bot;

use super::conn::{Conn, Ended};
use super::control::Control;
use super::{CLOSE_TIMEOUT, MAX_IDLE_PER_NAME, WRITE_TIMEOUT};
use crate::bounded::{until, within};
use crate::BotError;
pub use bot::RemoteBot;

#[derive(Default)]
struct Slot {
    idle: Vec<Conn>,
    /// Each connection plays one game (riichi.dev's dialect: the bot connects again to
    /// queue for the next), so only a waiting one makes the bot ready ([`RemoteHub::ready`]).
    one_game: bool,
    notify: Arc<Notify>,
    /// Open connections and when the last one closed, shared with the tasks that count
    /// each connection out.
    presence: Arc<Mutex<Presence>>,
    /// Every connection attached (waiting or playing), ended ones pruned as met: which
    /// of them said they are going away ([`Ended::is_draining`]).
    conns: Vec<Arc<Ended>>,
}

/// A name's open connections (waiting or playing) and when it went offline.
#[derive(Default)]
struct Presence {
    live: usize,
    /// When the last open connection closed (`None`: connected now, or never was).
    offline_since: Option<Instant>,
}

impl Slot {
    fn presence(&self) -> (usize, Option<Instant>) {
        self.presence.lock().map(|p| (p.live, p.offline_since)).unwrap_or((0, None))
    }

    /// Open connections that a game may seat (waiting or playing; not going away).
    fn seatable(&mut self) -> usize {
        self.conns.retain(|c| !c.is_ended());
        self.conns.iter().filter(|c| !c.is_draining()).count()
    }
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
    /// The bot has as many open connections as it may have.
    #[error("remote bot `{0}` has {1} open connection(s), its limit")]
    AtTheLimit(String, usize),
}

/// A connection the hub took ([`RemoteHub::attach`]): its end signal and the way to end it
/// from outside the game (a server whose author's token was revoked).
pub struct Attached {
    /// Resolves once the connection ended and [`RemoteHub::online`] no longer counts it.
    pub ended: Arc<Ended>,
    /// Ends the connection (waiting or in a game) from anywhere.
    pub hang_up: HangUp,
}

/// Ends one connection of the hub: its socket is closed (a close frame, within
/// [`CLOSE_TIMEOUT`]) and a seat playing over it fails its next exchange with the reason
/// given. Cheap to clone.
#[derive(Debug, Clone)]
pub struct HangUp(Arc<Ended>);

impl HangUp {
    /// Ends the connection with `reason` (the first reason recorded wins).
    pub fn hang_up(&self, reason: BotError) {
        self.0.end(reason);
    }

    /// True once the connection ended, whoever ended it.
    pub fn is_ended(&self) -> bool {
        self.0.is_ended()
    }
}

/// Remote bots' connections, shared by the listener (or server) and the games.
#[derive(Default)]
pub struct RemoteHub {
    slots: Mutex<HashMap<String, Slot>>,
    busy_wait: Duration,
    /// Names whose one connection is being accepted or open ([`RemoteHub::claim`]).
    claimed: Mutex<Vec<String>>,
}

/// A bot's one connection, held from the handshake to its end ([`RemoteHub::claim`]);
/// released on drop (also when the upgrade never completes).
pub struct Claim {
    hub: Arc<RemoteHub>,
    name: String,
}

impl Drop for Claim {
    fn drop(&mut self) {
        if let Ok(mut claimed) = self.hub.claimed.lock() {
            claimed.retain(|n| *n != self.name);
        }
    }
}

impl RemoteHub {
    /// An empty hub.
    pub fn new() -> Arc<RemoteHub> {
        Arc::new(RemoteHub::default())
    }

    /// An empty hub whose starts wait up to `busy_wait` for a connection when the bot is
    /// connected but every connection plays in another game (a grading server plays games
    /// at once; one connection plays one seat at a time). A bot with no open connection is
    /// waited for the start's own limit only.
    pub fn with_busy_wait(busy_wait: Duration) -> Arc<RemoteHub> {
        Arc::new(RemoteHub { slots: Mutex::default(), busy_wait, claimed: Mutex::default() })
    }

    /// Claims `name`'s one connection (a bot of riichi.dev's dialect has at most one): `None`
    /// when it has an open connection under that name or one claimed (being accepted, or
    /// open under another name of the claimer's choice, such as a validation slot). Take it before the WebSocket
    /// upgrade and hold it for the connection's life, so that a second connection is refused
    /// at once, however close behind the first.
    pub fn claim(self: &Arc<Self>, name: &str) -> Option<Claim> {
        let mut claimed = self.claimed.lock().ok()?;
        if claimed.iter().any(|n| n == name) || self.online(name) > 0 {
            return None;
        }
        claimed.push(name.to_string());
        Some(Claim { hub: self.clone(), name: name.to_string() })
    }

    /// Open connections of `name` (waiting for a seat or playing one): 0 when offline.
    pub fn online(&self, name: &str) -> usize {
        self.slots.lock().ok().and_then(|s| s.get(name).map(|s| s.presence().0)).unwrap_or(0)
    }

    /// Lets connections for remote bot `name` attach (idempotent).
    pub fn allow(&self, name: &str) {
        if let Ok(mut slots) = self.slots.lock() {
            slots.entry(name.to_string()).or_default();
        }
    }

    /// Lets connections of riichi.dev's dialect bot `name` attach, each playing one game
    /// (idempotent): the bot is [`RemoteHub::ready`] only while one waits.
    pub fn allow_one_game(&self, name: &str) {
        if let Ok(mut slots) = self.slots.lock() {
            slots.entry(name.to_string()).or_default().one_game = true;
        }
    }

    /// Whether a game may seat `name` now: a connection of it waits for a game (a dialect
    /// bot, [`RemoteHub::allow_one_game`]), or, for a bridge (`mjai-sim connect`, whose
    /// connection plays game after game), it has an open connection that is not going
    /// away ([`Control::Draining`]).
    pub fn ready(&self, name: &str) -> bool {
        let one_game = self.slots.lock().ok().and_then(|s| s.get(name).map(|s| s.one_game)).unwrap_or(false);
        match one_game {
            true => self.waiting(name) > 0,
            false => self.slots.lock().ok().and_then(|mut s| s.get_mut(name).map(Slot::seatable)).unwrap_or(0) > 0,
        }
    }

    /// True when `name` may attach.
    pub fn allows(&self, name: &str) -> bool {
        self.slots.lock().map(|s| s.contains_key(name)).unwrap_or(false)
    }

    /// Takes an accepted, authenticated WebSocket for remote bot `name`: it waits for a seat
    /// from now on. Returns its end signal (await [`Ended::wait`] on [`Attached::ended`] to
    /// hold something, such as a per-address permit, for the connection's life; it resolves
    /// once [`RemoteHub::online`] no longer counts the connection) and its [`HangUp`].
    /// Errors: the name is not allowed, or [`MAX_IDLE_PER_NAME`] connections already wait
    /// for it (the socket is closed).
    pub fn attach(&self, name: &str, socket: WebSocket) -> Result<Attached, AttachError> {
        self.attach_at_most(name, socket, usize::MAX)
    }

    /// [`RemoteHub::attach`] unless `name` has `max_open` open connections already
    /// ([`AttachError::AtTheLimit`]; the socket is dropped). Must be called inside a tokio
    /// runtime (a task counts the connection until it ends).
    pub fn attach_at_most(&self, name: &str, socket: WebSocket, max_open: usize) -> Result<Attached, AttachError> {
        let mut slots = self.slots.lock().map_err(|_| AttachError::UnknownName(name.to_string()))?;
        let slot = slots.get_mut(name).ok_or_else(|| AttachError::UnknownName(name.to_string()))?;
        slot.idle.retain(Conn::is_open);
        if slot.idle.len() >= MAX_IDLE_PER_NAME {
            return Err(AttachError::TooMany(name.to_string()));
        }
        let open = slot.presence().0;
        if open >= max_open {
            return Err(AttachError::AtTheLimit(name.to_string(), open));
        }
        let conn = Conn::spawn(socket);
        let ended = conn.ended();
        let hang_up = HangUp(ended.clone());
        slot.conns.retain(|c| !c.is_ended());
        slot.conns.push(ended.clone());
        if let Ok(mut p) = slot.presence.lock() {
            p.live += 1;
            p.offline_since = None;
        }
        let (presence, notify, end) = (slot.presence.clone(), slot.notify.clone(), ended.clone());
        // what the caller waits on: ends once the connection ended *and* was uncounted, so
        // that `online` is already right when the caller hears of it
        let counted = Arc::new(Ended::default());
        let signal = counted.clone();
        tokio::spawn(async move {
            end.wait().await; // bounded: by the connection's own timeouts (idle, write, close).
            if let Ok(mut p) = presence.lock() {
                p.live = p.live.saturating_sub(1);
                if p.live == 0 {
                    p.offline_since = Some(Instant::now());
                }
            }
            notify.notify_waiters(); // a start waiting for a busy connection looks again
            signal.end(end.reason());
        });
        slot.idle.push(conn);
        slot.notify.notify_waiters();
        Ok(Attached { ended: counted, hang_up })
    }

    /// Connections of `name` waiting for a seat (open ones, not going away).
    pub fn waiting(&self, name: &str) -> usize {
        self.slots
            .lock()
            .ok()
            .and_then(|s| s.get(name).map(|s| s.idle.iter().filter(|c| c.is_seatable()).count()))
            .unwrap_or(0)
    }

    /// Takes an open connection of `name`, waiting for one until `deadline`, or until
    /// `busy_deadline` while the bot has open connections that all play elsewhere. A
    /// connection going away is taken only as `previous` (the one this seat played the
    /// game with: a restart within the game it finishes).
    async fn take(
        &self,
        name: &str,
        deadline: Instant,
        busy_deadline: Instant,
        limit: Duration,
        previous: Option<u64>,
    ) -> Result<Conn, BotError> {
        loop {
            let (notify, busy, gone) = {
                let mut slots = self.slots.lock().map_err(|_| BotError::Transport("remote hub poisoned".into()))?;
                let slot = slots
                    .get_mut(name)
                    .ok_or_else(|| BotError::Transport(format!("no remote bot named `{name}` is allowed")))?;
                slot.idle.retain(Conn::is_open);
                // a connection going away finishes its game and closes: never seated again
                let again = |c: &Conn| c.is_open() && previous == Some(c.id());
                if let Some(first) = slot.idle.iter().position(|c| c.is_seatable() || again(c)) {
                    return Ok(slot.idle.remove(first));
                }
                let (live, offline_since) = slot.presence();
                (slot.notify.clone(), slot.seatable() > 0, offline_since.filter(|_| live == 0))
            };
            let notified = notify.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            if self.waiting(name) > 0 {
                continue;
            }
            let until_when = match (busy, gone) {
                (true, _) => busy_deadline.max(deadline),
                // offline since `gone`: one start limit from then, for the bridge to come back
                (false, Some(gone)) => deadline.min(gone + limit),
                (false, None) => deadline,
            };
            if until(until_when, "waiting for a remote bot", notified).await.is_err() {
                return Err(BotError::Transport(format!(
                    "no bridge connected for remote:{name} within {:.0} s (run the printed `mjai-sim connect` command)",
                    limit.as_secs_f64()
                )));
            }
        }
    }

    /// Takes a waiting connection of `name` as it is, with no start handshake (a dialect
    /// whose bot is not started by the server: riichi.dev's), waiting for one at most
    /// `limit`. Errors: no connection in time.
    pub async fn take_conn(&self, name: &str, limit: Duration) -> Result<Conn, BotError> {
        let deadline = Instant::now() + limit;
        let busy = Instant::now() + self.busy_wait.max(limit);
        self.take(name, deadline, busy, limit, None).await // bounded: until the deadlines.
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
    /// most `limit`, or the hub's busy wait while every open connection of the bot plays
    /// elsewhere), tells its bridge to start a fresh bot and waits for it, within `limit`
    /// of the wait's end. Errors: no bridge connected in time, the bridge's bot did not
    /// start.
    pub async fn start_bot(self: &Arc<Self>, name: &str, seat: u8, limit: Duration) -> Result<RemoteBot, BotError> {
        self.start_bot_again(name, seat, limit, None).await // bounded: inside.
    }

    /// [`RemoteHub::start_bot`] for a seat that played this game over connection
    /// `previous` (a restart after a chombo): that connection may be taken even once its
    /// bridge said it is going away, since it finishes the game in play.
    pub async fn start_bot_again(
        self: &Arc<Self>,
        name: &str,
        seat: u8,
        limit: Duration,
        previous: Option<u64>,
    ) -> Result<RemoteBot, BotError> {
        let first = Instant::now() + limit;
        let busy = Instant::now() + self.busy_wait;
        loop {
            // bounded: until the deadlines.
            let mut conn = self.take(name, first, busy, limit, previous).await?;
            // a connection taken after the first limit (it was busy elsewhere) gets the whole
            // start limit from now
            let deadline = if Instant::now() >= first { Instant::now() + limit } else { first };
            // bounded: until the deadline.
            match conn.start(seat, deadline, limit.as_secs_f64()).await {
                Ok(()) => return Ok(RemoteBot::new(self.clone(), name.to_string(), conn)),
                // The connection died while starting: another one may be waiting.
                Err(_) if !conn.is_open() && Instant::now() < deadline.max(busy) => continue,
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

    /// Sends `control` to every waiting connection of `name` (does not wait): the grading
    /// server's validation verdict.
    pub fn tell(&self, name: &str, control: &Control) {
        if let Ok(slots) = self.slots.lock() {
            for conn in slots.get(name).map(|s| s.idle.iter()).into_iter().flatten() {
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
