//! Every wait on something a bot controls ends: the one helper that bot I/O goes through.
//!
//! A bot decides when its process reads, writes, exits and lets go of its pipes; a
//! hostile one decides never. So no future that depends on a bot is awaited bare: reads
//! and writes of a line wait until the decision's deadline ([`until`]), a start until the
//! start timeout, a stop at most [`STOP_GRACE`] ([`stop`], [`stop_all`]), the drain of a
//! bot's last output at most [`DRAIN_GRACE`] ([`join_or_abort`]). A wait whose time runs
//! out gives up and says so; what it was waiting for is cancelled or aborted, never left to
//! hold the game.
//!
//! The source audit in this module's tests keeps it so: in the files that talk to bots,
//! every `.await` goes through one of these helpers or carries a `// bounded:` comment
//! saying what bounds it.

use std::future::Future;
use std::time::Duration;

use futures_util::future::join_all;
use tokio::task::JoinHandle;
use tokio::time::Instant;

use super::Bot;

/// Longest time stopping one bot may take (seconds: closing its input, SIGKILL and removal
/// of its container or process group, the drain of its last output). A bot that is still
/// not stopped then is given up on: its task is aborted and its container removed by the
/// game's guard (Docker) or its process group killed on drop (process runtime).
pub const STOP_GRACE: Duration = Duration::from_secs(10);

/// Longest wait for a finished bot's last output (stderr, stdout after exit) to be drained
/// into its logs, before the drain task is aborted.
pub const DRAIN_GRACE: Duration = Duration::from_secs(2);

/// A bounded wait that ran out of time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{what}: no end within {limit:?}")]
pub struct Overdue {
    /// What was awaited ("stop", "drain stderr", ...).
    pub what: &'static str,
    /// The bound that was exceeded.
    pub limit: Duration,
}

/// Awaits `fut` for at most `limit`. Errors: [`Overdue`] naming `what` (the future is dropped).
pub async fn within<F: Future>(limit: Duration, what: &'static str, fut: F) -> Result<F::Output, Overdue> {
    tokio::time::timeout(limit, fut).await.map_err(|_| Overdue { what, limit })
}

/// Awaits `fut` until `deadline`. Errors: [`Overdue`] naming `what` (the future is dropped).
pub async fn until<F: Future>(deadline: Instant, what: &'static str, fut: F) -> Result<F::Output, Overdue> {
    let limit = deadline.saturating_duration_since(Instant::now());
    tokio::time::timeout_at(deadline, fut).await.map_err(|_| Overdue { what, limit })
}

/// Waits at most `limit` for `task` to finish; aborts it otherwise. Returns whether it
/// finished by itself.
pub async fn join_or_abort<T>(task: &mut JoinHandle<T>, limit: Duration, what: &'static str) -> bool {
    match within(limit, what, &mut *task).await {
        Ok(_) => true,
        Err(overdue) => {
            tracing::debug!("{overdue}; aborted");
            task.abort();
            false
        }
    }
}

/// Stops `bot`, waiting at most [`STOP_GRACE`]. Returns false when the stop did not finish
/// in time (then what the bot holds is freed by its drop: see [`STOP_GRACE`]).
pub async fn stop(bot: &mut dyn Bot) -> bool {
    match within(STOP_GRACE, "stopping a bot", bot.stop()).await {
        Ok(()) => true,
        Err(overdue) => {
            tracing::warn!("{overdue}; it is removed when the game ends");
            false
        }
    }
}

/// Stops every bot concurrently, each bounded as [`stop`].
pub async fn stop_all<'a>(bots: impl IntoIterator<Item = &'a mut Box<dyn Bot>>) {
    join_all(bots.into_iter().map(|b| stop(b.as_mut()))).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The files in which the runtimes, the seats, `connect` and `check` wait on bots. (The match loop's own
    /// steps run under the game's watchdog, `arena::watchdog`.)
    const BOT_IO: [(&str, &str); 18] = [
        ("runtime/process.rs", include_str!("process.rs")),
        ("runtime/docker/container.rs", include_str!("docker/container.rs")),
        ("runtime/docker/stdio.rs", include_str!("docker/stdio.rs")),
        ("runtime/docker/http.rs", include_str!("docker/http.rs")),
        ("arena/seats.rs", include_str!("../arena/seats.rs")),
        ("tournament/pool.rs", include_str!("../tournament/pool.rs")),
        ("cli/check.rs", include_str!("../cli/check.rs")),
        ("runtime/remote/conn.rs", include_str!("remote/conn.rs")),
        ("runtime/remote/hub/mod.rs", include_str!("remote/hub/mod.rs")),
        ("runtime/remote/hub/bot.rs", include_str!("remote/hub/bot.rs")),
        ("runtime/remote/listen.rs", include_str!("remote/listen.rs")),
        ("runtime/accept.rs", include_str!("accept.rs")),
        ("connect/bridge.rs", include_str!("../connect/bridge.rs")),
        ("connect/dial.rs", include_str!("../connect/dial.rs")),
        ("runtime/riichi_dev/seat.rs", include_str!("riichi_dev/seat.rs")),
        ("connect/riichi_dev.rs", include_str!("../connect/riichi_dev.rs")),
        ("runtime/batch/hub.rs", include_str!("batch/hub.rs")),
        ("runtime/batch/seat.rs", include_str!("batch/seat.rs")),
    ];

    /// Names whose call bounds the `.await` on the same line.
    const HELPERS: [&str; 4] = ["within(", "until(", "join_or_abort(", "bounded::"];

    #[test]
    fn every_await_on_a_bot_is_bounded_or_says_what_bounds_it() {
        let mut unbounded = Vec::new();
        for (file, text) in BOT_IO {
            let code = text.split("#[cfg(test)]").next().unwrap_or(text);
            let lines: Vec<&str> = code.lines().collect();
            for (i, line) in lines.iter().enumerate() {
                if !line.contains(".await") || line.trim_start().starts_with("//") {
                    continue;
                }
                let marked = |l: &str| l.contains("// bounded:");
                let helper = HELPERS.iter().any(|h| line.contains(h));
                let previous_marked = i > 0 && marked(lines[i - 1]);
                if !(helper || marked(line) || previous_marked) {
                    unbounded.push(format!("{file}:{}: {}", i + 1, line.trim()));
                }
            }
        }
        assert!(
            unbounded.is_empty(),
            "waits on bots without a bound (use runtime::bounded, or say what bounds it with a `// bounded:` comment):\n{}",
            unbounded.join("\n")
        );
    }

    #[tokio::test]
    async fn a_stop_that_never_ends_is_given_up_after_the_grace() {
        struct Wedged;
        impl Bot for Wedged {
            fn exchange<'a>(
                &'a mut self,
                _: &'a str,
                _: Duration,
            ) -> futures_util::future::BoxFuture<'a, Result<String, super::super::BotError>> {
                Box::pin(std::future::pending())
            }
            fn stop(&mut self) -> futures_util::future::BoxFuture<'_, ()> {
                Box::pin(std::future::pending())
            }
            fn offer(&mut self, _: &crate::Offer<'_>) {}
            fn stderr_tail(&self) -> Vec<String> {
                Vec::new()
            }
        }
        tokio::time::pause();
        let started = Instant::now();
        assert!(!stop(&mut Wedged).await);
        assert!(started.elapsed() >= STOP_GRACE && started.elapsed() < STOP_GRACE * 2);
    }

    #[tokio::test]
    async fn a_task_past_its_grace_is_aborted() {
        tokio::time::pause();
        let mut task = tokio::spawn(std::future::pending::<()>());
        assert!(!join_or_abort(&mut task, DRAIN_GRACE, "drain").await);
        assert!(task.await.unwrap_err().is_cancelled());
        let mut done = tokio::spawn(async { 7 });
        assert!(join_or_abort(&mut done, DRAIN_GRACE, "drain").await);
    }
}
