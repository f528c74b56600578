//! A bound over a whole game: whatever hangs (a runtime, Docker, a bug of ours), the game
//! ends, as failed, with the reason.
//!
//! Two limits, both in [`MatchOptions`]:
//! - **progress**: every step of the referee (one exchange, a stop, a launch) has its own
//!   bound (the decision or start timeout plus [`GRACE`], [`STOP_GRACE`]); the referee
//!   [`kick`](Watchdog::kick)s the watchdog after each step, and a game in which no step
//!   ends within [`MatchOptions::stall_limit`] is stuck;
//! - **total**: [`MatchOptions::game_timeout`] (`--game-timeout`, default 3600 s), the
//!   longest a game may take in all.
//!
//! [`Watchdog::expired`] resolves with the reason when either is exceeded; the match loop
//! then drops the stuck step, stops the bots and ends the game as
//! [`MatchEnding::Failed`](super::match_loop::MatchEnding::Failed).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::time::Instant;

use super::seats::GRACE;
use super::{Clock, MatchOptions};
use mjai_sim_runtime::bounded::STOP_GRACE;

/// Slack added to the longest single step before a game counts as stuck (seconds: a
/// loaded machine's scheduling, log writes).
pub const STALL_SLACK: Duration = Duration::from_secs(10);

impl MatchOptions {
    /// Longest time between two steps of a healthy game whose seats all play under
    /// [`MatchOptions::clock`]: see [`MatchOptions::stall_limit_with`].
    pub fn stall_limit(&self) -> Duration {
        self.stall_limit_with(&[self.clock])
    }

    /// Longest time between two steps of a healthy game whose seats play under `clocks`:
    /// the longest single wait the referee makes (a start line, or a decision with a full
    /// bank, [`Clock::longest_decision`], plus [`GRACE`]; a stop, [`STOP_GRACE`]) plus
    /// [`STALL_SLACK`].
    pub fn stall_limit_with(&self, clocks: &[Clock]) -> Duration {
        let decision = clocks.iter().map(Clock::longest_decision).max().unwrap_or_default();
        decision.max(self.start_timeout).max(STOP_GRACE) + GRACE + STALL_SLACK
    }
}

/// The progress and total limits of one game (cheap to clone; clones share the state).
#[derive(Debug, Clone)]
pub struct Watchdog {
    last_step: Arc<Mutex<Instant>>,
    stall: Duration,
    total: Duration,
    started: Instant,
}

impl Watchdog {
    /// A watchdog starting now, with `options`' limits for seats playing under `clocks`.
    pub fn new(options: &MatchOptions, clocks: &[Clock]) -> Watchdog {
        let now = Instant::now();
        Watchdog {
            last_step: Arc::new(Mutex::new(now)),
            stall: options.stall_limit_with(clocks),
            total: options.game_timeout,
            started: now,
        }
    }

    /// Records that a step of the game ended (progress).
    pub fn kick(&self) {
        if let Ok(mut last) = self.last_step.lock() {
            *last = Instant::now();
        }
    }

    /// Resolves when the game is stuck or over its total time, with the reason (one line).
    pub async fn expired(&self) -> String {
        let end = self.started + self.total;
        loop {
            let last = self.last_step.lock().map(|l| *l).unwrap_or(self.started);
            let stuck = last + self.stall;
            tokio::time::sleep_until(stuck.min(end)).await;
            let now = Instant::now();
            if now >= end {
                return format!("over its time limit of {} s (--game-timeout)", self.total.as_secs());
            }
            let last_now = self.last_step.lock().map(|l| *l).unwrap_or(last);
            if now >= last_now + self.stall {
                return format!(
                    "no progress for {} s (a bot's runtime or Docker did not answer in time)",
                    self.stall.as_secs()
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(total: u64) -> MatchOptions {
        MatchOptions {
            clock: Clock::mjai_app(),
            start_timeout: Duration::from_secs(20),
            game_timeout: Duration::from_secs(total),
            ..MatchOptions::default()
        }
    }

    #[test]
    fn the_stall_limit_covers_the_longest_step() {
        assert_eq!(options(3600).stall_limit(), Duration::from_secs(20) + GRACE + STALL_SLACK);
        // a decision with a whole bank can be the longest wait: riichi.dev's 3 s + 15 s,
        // or a seat's own clock
        let long = Clock::riichi_dev().with_overrides(None, Some(Duration::from_secs(40)));
        let o = MatchOptions { clock: long, ..options(3600) };
        assert_eq!(o.stall_limit(), Duration::from_secs(43) + GRACE + STALL_SLACK);
        assert_eq!(options(3600).stall_limit_with(&[Clock::mjai_app(), long]), o.stall_limit());
    }

    #[tokio::test]
    async fn a_game_without_progress_expires_after_the_stall_limit() {
        tokio::time::pause();
        let dog = Watchdog::new(&options(3600), &[Clock::mjai_app()]);
        let started = Instant::now();
        let reason = dog.expired().await;
        assert!(reason.starts_with("no progress for 30 s"), "{reason}");
        assert_eq!(started.elapsed().as_secs(), 30);
    }

    #[tokio::test]
    async fn kicks_keep_it_alive_until_the_total_limit() {
        tokio::time::pause();
        let dog = Watchdog::new(&options(100), &[Clock::mjai_app()]);
        let kicker = dog.clone();
        let steps = tokio::spawn(async move {
            loop {
                tokio::time::sleep(Duration::from_secs(5)).await;
                kicker.kick();
            }
        });
        let started = Instant::now();
        let reason = dog.expired().await;
        steps.abort();
        assert!(reason.contains("time limit of 100 s"), "{reason}");
        assert_eq!(started.elapsed().as_secs(), 100);
    }
}
