//! What the hub and its seats share: the asks waiting for a cycle, their replies, the
//! counts and the process's last stderr lines.

use std::sync::atomic::{AtomicU64, AtomicUsize};
use std::sync::Mutex;
use std::time::Duration;

use tokio::sync::oneshot;

use crate::BotError;

/// One seat's line waiting for its cycle.
pub(super) struct Ask {
    pub table: u64,
    pub seat: u8,
    pub line: String,
    pub timeout: Duration,
    /// The process generation that served this seat before (`None`: never served).
    pub served: Option<u64>,
    pub reply: oneshot::Sender<Reply>,
}

/// What a seat gets back.
pub(super) struct Reply {
    pub answer: Result<String, BotError>,
    /// The process generation that read the line (`None` when none did).
    pub epoch: Option<u64>,
}

/// What hub and seats share.
#[derive(Default)]
pub(super) struct Shared {
    /// Seats alive (a cycle closes early once each of them waits).
    pub live: AtomicUsize,
    /// The process's last stderr lines, as of the last cycle.
    pub tail: Mutex<Vec<String>>,
    /// Starts of the process.
    pub starts: AtomicU64,
    /// Cycles written.
    pub cycles: AtomicU64,
    /// Requests written, over all cycles.
    pub requests: AtomicU64,
}
