//! [`RemoteBot`]: a seat played over a bridge's connection, one more [`Bot`].

use std::sync::Arc;
use std::time::Duration;

use futures_util::future::BoxFuture;
use tokio::time::Instant;

use super::RemoteHub;
use crate::remote::conn::Conn;
use crate::remote::control::Control;
use crate::{Bot, BotError, Offer};

/// A running remote bot: a connection taken from the hub and started for a seat. Its
/// [`Bot::stop`] tells the bridge to stop the bot and gives the connection back to the
/// hub for the next start (a restart or the next game).
pub struct RemoteBot {
    hub: Arc<RemoteHub>,
    name: String,
    conn: Option<Conn>,
    conn_id: u64,
}

impl RemoteBot {
    pub(super) fn new(hub: Arc<RemoteHub>, name: String, conn: Conn) -> RemoteBot {
        RemoteBot { hub, name, conn_id: conn.id(), conn: Some(conn) }
    }

    /// The connection this bot plays over (for [`RemoteHub::notify`] after the game).
    pub fn conn_id(&self) -> u64 {
        self.conn_id
    }

    async fn exchange_inner(&mut self, line: &str, timeout: Duration) -> Result<String, BotError> {
        let deadline = Instant::now() + timeout;
        let conn = self.conn.as_mut().ok_or(BotError::Closed)?;
        conn.exchange(line, deadline, timeout.as_secs_f64()).await // bounded: until the deadline.
    }

    fn stop_now(&mut self) {
        if let Some(conn) = self.conn.take() {
            conn.notify(&Control::Stop);
            self.hub.give_back(&self.name, conn);
        }
    }
}

impl Bot for RemoteBot {
    fn exchange<'a>(&'a mut self, line: &'a str, timeout: Duration) -> BoxFuture<'a, Result<String, BotError>> {
        Box::pin(self.exchange_inner(line, timeout))
    }

    fn stop(&mut self) -> BoxFuture<'_, ()> {
        self.stop_now();
        Box::pin(std::future::ready(()))
    }

    /// Its author's machine computes the options: the referee's legal set is not sent.
    fn offer(&mut self, _offer: &Offer<'_>) {}

    /// A remote bot's stderr stays on its author's machine.
    fn stderr_tail(&self) -> Vec<String> {
        Vec::new()
    }
}

impl Drop for RemoteBot {
    fn drop(&mut self) {
        self.stop_now();
    }
}
