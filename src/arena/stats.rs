//! Decision-time statistics per seat (milliseconds), for the summary and the final table.

use std::time::Duration;

use serde::Serialize;

/// Answer times of one seat's decisions. Percentiles use the nearest-rank method (the
/// smallest time with at least p % of the decisions at or below it), so every figure is a
/// time that was really measured. All zero when the seat made no decision.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Default)]
pub struct DecisionStats {
    /// Number of decisions.
    pub count: usize,
    /// Median (nearest rank), milliseconds.
    pub median_ms: f64,
    /// 99th percentile (nearest rank), milliseconds.
    pub p99_ms: f64,
    /// Longest, milliseconds.
    pub max_ms: f64,
}

impl DecisionStats {
    /// Statistics of `times` (any order).
    pub fn of(times: &[Duration]) -> DecisionStats {
        if times.is_empty() {
            return DecisionStats::default();
        }
        let mut sorted = times.to_vec();
        sorted.sort_unstable();
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        DecisionStats {
            count: sorted.len(),
            median_ms: ms(nearest_rank(&sorted, 50)),
            p99_ms: ms(nearest_rank(&sorted, 99)),
            max_ms: ms(sorted[sorted.len() - 1]),
        }
    }
}

/// The nearest-rank `percent` percentile of a sorted, non-empty slice.
fn nearest_rank(sorted: &[Duration], percent: usize) -> Duration {
    let rank = (percent * sorted.len()).div_ceil(100).max(1);
    sorted[rank - 1]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_on_one_to_hundred_ms() {
        let times: Vec<Duration> = (1..=100).rev().map(Duration::from_millis).collect();
        let s = DecisionStats::of(&times);
        assert_eq!(s.count, 100);
        assert_eq!(s.median_ms, 50.0);
        assert_eq!(s.p99_ms, 99.0);
        assert_eq!(s.max_ms, 100.0);
    }

    #[test]
    fn small_samples_and_empty() {
        let s = DecisionStats::of(&[Duration::from_millis(7), Duration::from_millis(3)]);
        assert_eq!((s.median_ms, s.p99_ms, s.max_ms), (3.0, 7.0, 7.0));
        assert_eq!(DecisionStats::of(&[]), DecisionStats::default());
    }
}
