//! The one exponential backoff of the program: waits doubling from a first delay up to a
//! cap, without jitter, restartable after a success. Built on backon's
//! [`ExponentialBuilder`] (the library the store's retries use too,
//! `tournament::store::retry`), so no loop doubles a delay by hand. Used by the bridge's
//! reconnects, the relay's readiness poll, the play loop's and the validator's waits after
//! a host fault.

use std::time::Duration;

use backon::{BackoffBuilder, ExponentialBackoff, ExponentialBuilder};

/// Delays `first`, `2 × first`, `4 × first`, … then `cap` for ever, in whole milliseconds;
/// [`Doubling::reset`] starts again from `first`.
#[derive(Debug)]
pub struct Doubling {
    builder: ExponentialBuilder,
    delays: ExponentialBackoff,
    cap: Duration,
}

impl Doubling {
    /// A backoff from `first` to `cap` (both in wall time; `cap` below `first` is `first`).
    pub fn new(first: Duration, cap: Duration) -> Doubling {
        let cap = cap.max(first);
        let builder =
            ExponentialBuilder::new().with_min_delay(first).with_max_delay(cap).with_factor(2.0).without_max_times();
        Doubling { delays: builder.build(), builder, cap }
    }

    /// The next delay to wait, to the nearest millisecond (backon multiplies in `f32`:
    /// 200.000003 ms is 200 ms).
    pub fn next_delay(&mut self) -> Duration {
        let delay = self.delays.next().unwrap_or(self.cap);
        Duration::from_millis(u64::try_from((delay.as_nanos() + 500_000) / 1_000_000).unwrap_or(u64::MAX))
    }

    /// After a success: the next delay is the first again.
    pub fn reset(&mut self) {
        self.delays = self.builder.build();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delays_double_up_to_the_cap_and_start_over_after_a_reset() {
        let ms = Duration::from_millis;
        let mut b = Doubling::new(ms(100), ms(500));
        let waits: Vec<_> = (0..6).map(|_| b.next_delay()).collect();
        assert_eq!(waits, [ms(100), ms(200), ms(400), ms(500), ms(500), ms(500)]);
        b.reset();
        assert_eq!(b.next_delay(), ms(100));
        let mut flat = Doubling::new(ms(300), ms(10));
        assert_eq!([flat.next_delay(), flat.next_delay()], [ms(300), ms(300)]);
    }
}
