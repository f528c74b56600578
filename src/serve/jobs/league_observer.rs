//! What the server's league loop hears: every event goes to its log ([`Traced`], target
//! `mjai_sim::league`) and is counted for `/metrics` ([`Counters`]): game attempts that
//! failed, host faults (Docker gone, an image missing: the loop backs off) and database
//! outages.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use crate::counters::Counters;
use mjai_sim_tournament::observer::{Notice, Observer, Traced};
use mjai_sim_tournament::store::retry::OutageObserver;
use mjai_sim_tournament::store::StoreError;

/// [`Traced`], counted into `counters`.
pub struct LeagueObserver {
    /// The server's `/metrics` counters.
    pub counters: Arc<Counters>,
}

impl OutageObserver for LeagueObserver {
    fn db_down(&self, what: &str, error: &StoreError, patience: Duration) {
        self.counters.db_outages.fetch_add(1, Ordering::Relaxed);
        Traced.db_down(what, error, patience);
    }

    fn db_back(&self, what: &str, after: Duration) {
        Traced.db_back(what, after);
    }
}

impl Observer for LeagueObserver {
    fn game_failed(&self, index: u64, reason: &str, retrying: bool) {
        self.counters.game_failures.fetch_add(1, Ordering::Relaxed);
        Traced.game_failed(index, reason, retrying);
    }

    fn notice(&self, notice: &Notice) {
        if let Notice::HostFault { .. } = notice {
            self.counters.host_faults.fetch_add(1, Ordering::Relaxed);
        }
        Traced.notice(notice);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_host_faults_and_outages_are_counted() {
        let counters = Arc::new(Counters::default());
        let o = LeagueObserver { counters: counters.clone() };
        o.game_failed(3, "bot 1 timed out", true);
        o.game_failed(3, "bot 1 timed out", false);
        o.notice(&Notice::HostFault { cause: "Docker is unreachable".into(), retry_in: Duration::from_secs(5) });
        o.notice(&Notice::LeagueIdle("fewer than 4 active bots".into()));
        let down = StoreError::Unavailable { db: "db".into(), cause: "connection refused".into() };
        o.db_down("claim a game", &down, Duration::from_secs(60));
        o.db_back("claim a game", Duration::from_secs(2));
        let read = |c: &std::sync::atomic::AtomicU64| c.load(Ordering::Relaxed);
        assert_eq!(read(&counters.game_failures), 2);
        assert_eq!(read(&counters.host_faults), 1);
        assert_eq!(read(&counters.db_outages), 1);
    }
}
