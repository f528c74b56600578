//! The counters `/metrics` reports ([`super::ops`]) that no table holds: what this server
//! saw since it started, from its handlers and its league job ([`super::jobs`]).

use std::sync::atomic::AtomicU64;

/// Counters since the server started.
#[derive(Debug, Default)]
pub struct Counters {
    /// Uploads accepted (202).
    pub uploads: AtomicU64,
    /// Requests refused by the rate limits (429).
    pub rate_limited: AtomicU64,
    /// League game attempts that failed in this server's loop (a game failing twice counts
    /// twice; `mjai_games_failed_total` counts games failed for good, by any player).
    pub game_failures: AtomicU64,
    /// Times this server's league loop met a host fault (Docker gone, an image missing) and
    /// backed off.
    pub host_faults: AtomicU64,
    /// Database outages this server's league loop rode out (or gave up on).
    pub db_outages: AtomicU64,
}
