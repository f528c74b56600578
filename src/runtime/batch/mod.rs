//! Batched bots: one process serves every seat a submission holds in every concurrent game
//! (issue 40; the protocol is docs/protocol.md "Batched bots", version 1).
//!
//! A submission opts in with `batch = true` in `mjai-sim.toml` at its root
//! ([`super::manifest`]). It is started once per run and image as `python3 -u bot.py
//! --batch` ([`BatchHub`]), and each seat of each game it plays gets a [`BatchSeat`]: the
//! match loop's [`super::Bot`] for that table-seat. The hub gathers the seats' lines into
//! cycles (up to [`BatchOptions::max`] requests, every live seat waiting, or what arrives
//! within [`BatchOptions::window`]), writes one line holding them all
//! (`[{"table":T,"seat":S,"events":[...]}, ...]`, [`wire`]) and reads one line back: the
//! array of actions in the same order.
//!
//! The mission's rules hold per table:
//! - each request's time limit runs from the moment its cycle is written (its seat's
//!   timeout, or [`BatchOptions::timeout`] when longer);
//! - a missing, late or malformed answer fails that request only (that table's chombo),
//!   and the table's next request carries `"restart": true`;
//! - a crash of the process (or a cycle none of whose answers came in time) fails every
//!   request in flight and every seat the process served: each of those tables gets a
//!   chombo at its next request, and the process is started again on the next cycle.

mod hub;
mod queue;
mod seat;
pub mod wire;

use std::time::Duration;

pub use hub::{BatchHub, BatchStats, LaunchProcess};
pub use seat::BatchSeat;

/// `python/mjai_sim/batch.py`: the Python side (`mjai_sim.batch`), which every batched
/// process can import: bot images install it and the process runtime puts it on
/// `PYTHONPATH` ([`super::process`]).
pub const BATCH_PY: &str = include_str!("../../../python/mjai_sim/batch.py");

/// How a hub gathers and times its cycles (`--batch N`, `--batch-timeout S`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BatchOptions {
    /// Most requests in one cycle (`--batch N`, default [`BatchOptions::DEFAULT_MAX`]).
    pub max: usize,
    /// Longest a cycle waits for more requests after its first one, when some live seats
    /// have not asked yet (default 2 ms).
    pub window: Duration,
    /// Time each request has from the moment its cycle is written, when longer than its
    /// seat's own timeout (`--batch-timeout`; default `None`: the seat's timeout, 2 s per
    /// decision under mjai.app's clock).
    pub timeout: Option<Duration>,
    /// Longest a start of the process may take (default 60 s: containers, then imports).
    pub start_timeout: Duration,
}

impl BatchOptions {
    /// Default of [`BatchOptions::max`].
    pub const DEFAULT_MAX: usize = 256;

    /// The longest a request may wait before its cycle is written: a cycle in flight (60 s
    /// or [`BatchOptions::timeout`], above any seat's timeout), a restart of the process,
    /// the window. The match loop adds it to its own bound on an exchange
    /// ([`super::Bot::queue_allowance`]); the hub's own limits end each request sooner.
    pub fn queue_allowance(&self) -> Duration {
        let cycle = self.timeout.unwrap_or_default().max(Duration::from_secs(60));
        cycle + self.start_timeout + super::bounded::STOP_GRACE + self.window
    }
}

impl Default for BatchOptions {
    fn default() -> Self {
        BatchOptions {
            max: BatchOptions::DEFAULT_MAX,
            window: Duration::from_millis(2),
            timeout: None,
            start_timeout: Duration::from_secs(60),
        }
    }
}

/// The user's batching choice as stored with a tournament and given on the command line
/// (`--no-batch`, `--batch N`, `--batch-timeout S`); older tournaments read as the default
/// (batching on, [`BatchOptions::DEFAULT_MAX`], the seats' own timeouts).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct BatchConfig {
    /// Whether submissions that opt in are batched (`--no-batch`: false).
    pub enabled: bool,
    /// Most requests in one cycle.
    pub max: usize,
    /// Each request's time from the moment its cycle is written, in seconds, when longer
    /// than its seat's timeout.
    pub timeout_s: Option<f64>,
}

impl Default for BatchConfig {
    fn default() -> Self {
        BatchConfig { enabled: true, max: BatchOptions::DEFAULT_MAX, timeout_s: None }
    }
}

impl BatchConfig {
    /// The hub's options, or `None` when batching is off.
    pub fn options(&self) -> Option<BatchOptions> {
        self.enabled.then(|| BatchOptions {
            max: self.max.max(1),
            timeout: self.timeout_s.filter(|s| s.is_finite() && *s > 0.0).map(Duration::from_secs_f64),
            ..BatchOptions::default()
        })
    }
}

#[cfg(test)]
mod tests;
