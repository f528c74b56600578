//! Riding out a database outage: a store call that failed because the connection broke
//! ([`StoreError::Unavailable`]: PostgreSQL stopped or restarting, network gone, pool timed
//! out) is tried again with exponential backoff (0.25 s doubling to 10 s, with jitter) until
//! it succeeds or `patience` has passed (`--db-patience`, default [`DEFAULT_PATIENCE`]).
//! Any other error is returned at once. The caller hears of an outage twice, through its
//! [`OutageObserver`]: when it begins and when the database answers again, not once per
//! attempt (the command line prints one line for each).
//!
//! What this keeps safe: results are keyed by (tournament, game, seat), so a write retried
//! after a connection broke mid-commit counts once; finished games wait in memory and
//! their folders on disk until their result is written. A game whose lease expired during
//! the outage may be claimed by another worker and played again; the first result written
//! wins and the other is dropped (see [`super::Games::record`]).

use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use backon::{ExponentialBuilder, Retryable};

use super::StoreError;

/// How long a worker keeps retrying before it gives up: 5 minutes.
pub const DEFAULT_PATIENCE: Duration = Duration::from_secs(300);

/// Who hears of database outages (the command line prints them; a server counts them).
pub trait OutageObserver: Send + Sync {
    /// An outage began: `what` failed with `error`; retries go on for up to `patience`.
    fn db_down(&self, what: &str, error: &StoreError, patience: Duration) {
        let _ = (what, error, patience);
    }

    /// The database answers again, `after` the outage began (`what` succeeded).
    fn db_back(&self, what: &str, after: Duration) {
        let _ = (what, after);
    }
}

/// Hears nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct Unheard;

impl OutageObserver for Unheard {}

/// How long store calls are retried during an outage, and who hears of it.
#[derive(Clone)]
pub struct Patience {
    /// Retries stop this long after the first failure (0: none).
    pub limit: Duration,
    /// Told when an outage begins and ends.
    pub observer: std::sync::Arc<dyn OutageObserver>,
}

impl Patience {
    /// `limit`, heard by `observer`.
    pub fn new(limit: Duration, observer: std::sync::Arc<dyn OutageObserver>) -> Patience {
        Patience { limit, observer }
    }

    /// No retry at all (an embedded SQLite file has no outage to wait for).
    pub fn none() -> Patience {
        Patience { limit: Duration::ZERO, observer: std::sync::Arc::new(Unheard) }
    }
}

impl std::fmt::Debug for Patience {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Patience").field("limit", &self.limit).finish_non_exhaustive()
    }
}

/// Whether `e` is a broken or refused connection rather than a refused statement: I/O,
/// TLS and protocol failures, a pool that timed out waiting for a connection, and the
/// PostgreSQL classes 08 (connection exception) and 57P (server shutting down, starting up).
pub fn is_transient(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::Io(_) | sqlx::Error::Tls(_) | sqlx::Error::PoolTimedOut | sqlx::Error::Protocol(_) => true,
        sqlx::Error::Database(db) => db.code().is_some_and(|c| c.starts_with("08") || c.starts_with("57P")),
        _ => false,
    }
}

/// Runs `op` until it succeeds, fails with an error other than
/// [`StoreError::Unavailable`], or `patience` has passed since the first failure (then
/// the last error is returned). `what` names the operation in the outage notices.
pub async fn retry<T, F, Fut>(what: &str, patience: &Patience, op: F) -> Result<T, StoreError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, StoreError>>,
{
    retry_from(what, patience, Duration::from_millis(250), op).await
}

/// [`retry`] with the first delay `first` (doubling up to 10 s).
async fn retry_from<T, F, Fut>(what: &str, patience: &Patience, first: Duration, op: F) -> Result<T, StoreError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, StoreError>>,
{
    let backoff = ExponentialBuilder::default()
        .with_min_delay(first)
        .with_max_delay(Duration::from_secs(10))
        .with_jitter()
        .without_max_times()
        .with_total_delay(Some(patience.limit));
    let down = AtomicBool::new(false);
    let since = Instant::now();
    let result = op
        .retry(backoff)
        .sleep(tokio::time::sleep)
        .when(|e| matches!(e, StoreError::Unavailable { .. }))
        .notify(|e, _| {
            if !down.swap(true, Ordering::Relaxed) {
                patience.observer.db_down(what, e, patience.limit);
            }
        })
        .await;
    if down.load(Ordering::Relaxed) && result.is_ok() {
        patience.observer.db_back(what, since.elapsed());
    }
    result
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicUsize;

    use super::*;

    fn down() -> StoreError {
        StoreError::Unavailable { db: "db".into(), cause: "connection refused".into() }
    }

    const MS: Duration = Duration::from_millis(1);

    /// Counts the notices it hears.
    #[derive(Default)]
    struct Heard {
        down: AtomicUsize,
        back: AtomicUsize,
    }

    impl OutageObserver for Heard {
        fn db_down(&self, _: &str, _: &StoreError, _: Duration) {
            self.down.fetch_add(1, Ordering::SeqCst);
        }
        fn db_back(&self, _: &str, _: Duration) {
            self.back.fetch_add(1, Ordering::SeqCst);
        }
    }

    fn patience(limit: Duration) -> (Patience, std::sync::Arc<Heard>) {
        let heard = std::sync::Arc::new(Heard::default());
        (Patience::new(limit, heard.clone()), heard)
    }

    #[tokio::test]
    async fn an_outage_is_ridden_out_and_other_errors_return_at_once() {
        let (minute, heard) = patience(Duration::from_secs(60));
        let calls = AtomicUsize::new(0);
        let ok = retry_from("claim", &minute, MS, || async {
            match calls.fetch_add(1, Ordering::SeqCst) {
                0..=3 => Err(down()),
                n => Ok(n),
            }
        })
        .await;
        assert_eq!(ok.unwrap(), 4);
        let notices = (heard.down.load(Ordering::SeqCst), heard.back.load(Ordering::SeqCst));
        assert_eq!(notices, (1, 1), "one notice when the outage begins, one when it ends");

        let calls = AtomicUsize::new(0);
        let refused = retry_from("record", &minute, MS, || async {
            calls.fetch_add(1, Ordering::SeqCst);
            Err::<(), _>(StoreError::Db { path: "db".into(), cause: "syntax error".into() })
        })
        .await;
        assert!(matches!(refused, Err(StoreError::Db { .. })));
        assert_eq!(calls.load(Ordering::SeqCst), 1, "a refused statement is not retried");
    }

    #[tokio::test]
    async fn patience_ends_the_retries_with_the_last_error() {
        let (short, heard) = patience(50 * MS);
        let calls = AtomicUsize::new(0);
        let gave_up = retry_from("heartbeat", &short, MS, || async {
            calls.fetch_add(1, Ordering::SeqCst);
            Err::<(), _>(down())
        })
        .await;
        assert!(matches!(gave_up, Err(StoreError::Unavailable { .. })));
        assert!(calls.load(Ordering::SeqCst) > 3, "retried before giving up");
        assert_eq!((heard.down.load(Ordering::SeqCst), heard.back.load(Ordering::SeqCst)), (1, 0));
    }
}
