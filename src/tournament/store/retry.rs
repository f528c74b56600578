//! Riding out a database outage: a store call that failed because the connection broke
//! ([`StoreError::Unavailable`]: PostgreSQL stopped or restarting, network gone, pool timed
//! out) is tried again with exponential backoff (0.25 s doubling to 10 s, with jitter) until
//! it succeeds or `patience` has passed (`--db-patience`, default [`DEFAULT_PATIENCE`]).
//! Any other error is returned at once. One line on stderr when an outage begins and one
//! when the database answers again, not one per attempt.
//!
//! What this keeps safe: results are keyed by (tournament, game, seat), so a write retried
//! after a connection broke mid-commit counts once; finished games wait in memory and
//! their folders on disk until their result is written. A game whose lease expired during
//! the outage may be claimed by another worker and played again; the first result written
//! wins and the other is dropped (see [`super::Store::record`]).

use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use backon::{ExponentialBuilder, Retryable};

use super::StoreError;

/// How long a worker keeps retrying before it gives up: 5 minutes.
pub const DEFAULT_PATIENCE: Duration = Duration::from_secs(300);

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
/// the last error is returned). `what` names the operation in the outage line.
pub async fn retry<T, F, Fut>(what: &str, patience: Duration, op: F) -> Result<T, StoreError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, StoreError>>,
{
    retry_from(what, patience, Duration::from_millis(250), op).await
}

/// [`retry`] with the first delay `first` (doubling up to 10 s).
async fn retry_from<T, F, Fut>(what: &str, patience: Duration, first: Duration, op: F) -> Result<T, StoreError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, StoreError>>,
{
    let backoff = ExponentialBuilder::default()
        .with_min_delay(first)
        .with_max_delay(Duration::from_secs(10))
        .with_jitter()
        .without_max_times()
        .with_total_delay(Some(patience));
    let down = AtomicBool::new(false);
    let since = Instant::now();
    let result = op
        .retry(backoff)
        .sleep(tokio::time::sleep)
        .when(|e| matches!(e, StoreError::Unavailable { .. }))
        .notify(|e, _| {
            if !down.swap(true, Ordering::Relaxed) {
                eprintln!("mjai-sim: {e}; retrying ({what}) for up to {} s", patience.as_secs());
            }
        })
        .await;
    if down.load(Ordering::Relaxed) && result.is_ok() {
        eprintln!("mjai-sim: the database answers again after {:.1} s ({what})", since.elapsed().as_secs_f64());
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

    #[tokio::test]
    async fn an_outage_is_ridden_out_and_other_errors_return_at_once() {
        let calls = AtomicUsize::new(0);
        let ok = retry_from("claim", Duration::from_secs(60), MS, || async {
            match calls.fetch_add(1, Ordering::SeqCst) {
                0..=3 => Err(down()),
                n => Ok(n),
            }
        })
        .await;
        assert_eq!(ok.unwrap(), 4);

        let calls = AtomicUsize::new(0);
        let refused = retry_from("record", Duration::from_secs(60), MS, || async {
            calls.fetch_add(1, Ordering::SeqCst);
            Err::<(), _>(StoreError::Db { path: "db".into(), cause: "syntax error".into() })
        })
        .await;
        assert!(matches!(refused, Err(StoreError::Db { .. })));
        assert_eq!(calls.load(Ordering::SeqCst), 1, "a refused statement is not retried");
    }

    #[tokio::test]
    async fn patience_ends_the_retries_with_the_last_error() {
        let calls = AtomicUsize::new(0);
        let gave_up = retry_from("heartbeat", 50 * MS, MS, || async {
            calls.fetch_add(1, Ordering::SeqCst);
            Err::<(), _>(down())
        })
        .await;
        assert!(matches!(gave_up, Err(StoreError::Unavailable { .. })));
        assert!(calls.load(Ordering::SeqCst) > 3, "retried before giving up");
    }
}
