//! One table-seat of a batched bot, as the match loop sees it.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use futures_util::future::BoxFuture;
use tokio::sync::{mpsc, oneshot};

use super::queue::{Ask, Shared};
use crate::{Bot, BotError, Offer};

/// The [`Bot`] of one seat at one table, served by its hub's process. Its `stop` only
/// leaves the table (the process keeps serving others); a new seat for the same table and
/// seat (after a chombo) makes the next request carry `"restart": true`.
pub struct BatchSeat {
    tx: Option<mpsc::UnboundedSender<Ask>>,
    shared: Arc<Shared>,
    table: u64,
    seat: u8,
    served: Option<u64>,
    allowance: Duration,
}

impl BatchSeat {
    pub(super) fn new(
        tx: Option<mpsc::UnboundedSender<Ask>>,
        shared: Arc<Shared>,
        table: u64,
        seat: u8,
        allowance: Duration,
    ) -> BatchSeat {
        shared.live.fetch_add(1, Ordering::Relaxed);
        BatchSeat { tx, shared, table, seat, served: None, allowance }
    }

    /// The table's number in the hub.
    pub fn table(&self) -> u64 {
        self.table
    }

    async fn ask(&mut self, line: &str, timeout: Duration) -> Result<String, BotError> {
        let gone = || BotError::Crashed("the batched bot is closed".into());
        let tx = self.tx.as_ref().ok_or_else(gone)?;
        let (reply, answer) = oneshot::channel();
        let ask =
            Ask { table: self.table, seat: self.seat, line: line.to_string(), timeout, served: self.served, reply };
        tx.send(ask).map_err(|_| gone())?;
        // The hub answers every ask within its cycle's bounds; the match loop's own bound on
        // an exchange adds this seat's queue_allowance.
        // bounded: the hub's cycle bounds.
        let reply = answer.await.map_err(|_| gone())?;
        if reply.epoch.is_some() {
            self.served = reply.epoch;
        }
        reply.answer
    }
}

impl Drop for BatchSeat {
    fn drop(&mut self) {
        self.shared.live.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Bot for BatchSeat {
    fn exchange<'a>(&'a mut self, line: &'a str, timeout: Duration) -> BoxFuture<'a, Result<String, BotError>> {
        Box::pin(self.ask(line, timeout))
    }

    /// Computes its own options from the events, as any external bot.
    fn offer(&mut self, _offer: &Offer<'_>) {}

    /// Leaves the table: the process goes on serving the others.
    fn stop(&mut self) -> BoxFuture<'_, ()> {
        self.tx = None;
        Box::pin(async {})
    }

    /// The process's last stderr lines, as of its last cycle (shared by all its seats).
    fn stderr_tail(&self) -> Vec<String> {
        self.shared.tail.lock().map(|t| t.clone()).unwrap_or_default()
    }

    fn queue_allowance(&self) -> Duration {
        self.allowance
    }
}
