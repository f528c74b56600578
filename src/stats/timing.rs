//! Decision times kept compactly: a log-bucket histogram instead of every sample, so a
//! record of every game of a long tournament stays small (issue 12: 100,000 games in well
//! under 300 MiB).
//!
//! Bucket `b` holds times `t` (nanoseconds) with `floor(8 · log2 t) = b` (`t ≤ 1 ns` in
//! bucket 0): eight buckets per doubling, so a bucket spans 9 % and a quantile read back at
//! the bucket's geometric middle is within ±4.5 % of a time really measured.

use std::time::Duration;

use serde::{Deserialize, Serialize};

/// Buckets per doubling of time.
const PER_OCTAVE: f64 = 8.0;

/// A histogram of decision times (sparse: only non-empty buckets are kept, in bucket order).
///
/// Serialises as `[[bucket, count], ...]` (compact JSON for the results store).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct TimeHistogram(Vec<(u16, u32)>);

/// The bucket of a time.
fn bucket_of(t: Duration) -> u16 {
    let ns = t.as_nanos();
    if ns <= 1 {
        return 0;
    }
    ((ns as f64).log2() * PER_OCTAVE).floor().min(f64::from(u16::MAX)) as u16
}

/// The geometric middle of bucket `b`, in milliseconds.
pub fn bucket_middle_ms(b: u16) -> f64 {
    (2f64).powf((f64::from(b) + 0.5) / PER_OCTAVE) / 1e6
}

impl TimeHistogram {
    /// The histogram of `times` (any order).
    pub fn of(times: &[Duration]) -> TimeHistogram {
        let mut buckets: Vec<u16> = times.iter().map(|&t| bucket_of(t)).collect();
        buckets.sort_unstable();
        let mut out: Vec<(u16, u32)> = Vec::new();
        for b in buckets {
            match out.last_mut() {
                Some((last, n)) if *last == b => *n = n.saturating_add(1),
                _ => out.push((b, 1)),
            }
        }
        TimeHistogram(out)
    }

    /// `(bucket, count)` pairs, bucket order.
    pub fn buckets(&self) -> &[(u16, u32)] {
        &self.0
    }

    /// Number of times counted.
    pub fn count(&self) -> u64 {
        self.0.iter().map(|&(_, n)| u64::from(n)).sum()
    }

    /// True when no time was counted.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The times summed, in milliseconds, each taken as its bucket's middle
    /// ([`bucket_middle_ms`]: within a bucket's width of the exact sum).
    pub fn total_ms(&self) -> f64 {
        self.0.iter().map(|&(b, n)| bucket_middle_ms(b) * f64::from(n)).sum()
    }
}

/// Histograms merged over many games (dense; for the standings).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TimeTotals {
    counts: Vec<u64>,
    total: u64,
}

impl TimeTotals {
    /// Adds one histogram.
    pub fn add(&mut self, h: &TimeHistogram) {
        for &(b, n) in h.buckets() {
            let b = usize::from(b);
            if self.counts.len() <= b {
                self.counts.resize(b + 1, 0);
            }
            self.counts[b] += u64::from(n);
            self.total += u64::from(n);
        }
    }

    /// Number of times counted.
    pub fn count(&self) -> u64 {
        self.total
    }

    /// The nearest-rank `percent` percentile (the bucket holding the smallest time with at
    /// least `percent` % of the times at or below it), in milliseconds at the bucket's
    /// geometric middle (±4.5 %). `None` when no time was counted.
    pub fn percentile_ms(&self, percent: u64) -> Option<f64> {
        if self.total == 0 {
            return None;
        }
        let rank = (percent * self.total).div_ceil(100).max(1);
        let mut seen = 0;
        for (b, &n) in self.counts.iter().enumerate() {
            seen += n;
            if seen >= rank {
                return Some(bucket_middle_ms(b as u16));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_is_sparse_and_sorted() {
        let ms = Duration::from_millis;
        let h = TimeHistogram::of(&[ms(10), ms(1), ms(10), ms(1000)]);
        assert_eq!(h.count(), 4);
        assert_eq!(h.buckets().len(), 3);
        assert!(h.buckets().windows(2).all(|w| w[0].0 < w[1].0));
        assert_eq!(h.buckets()[1].1, 2, "both 10 ms land in one bucket");
        assert_eq!(serde_json::to_string(&TimeHistogram::of(&[])).unwrap(), "[]");
        let back: TimeHistogram = serde_json::from_str(&serde_json::to_string(&h).unwrap()).unwrap();
        assert_eq!(back, h);
    }

    #[test]
    fn percentiles_are_within_five_percent() {
        // 1..=100 ms: nearest-rank median 50 ms, p99 99 ms.
        let times: Vec<Duration> = (1..=100).map(Duration::from_millis).collect();
        let mut totals = TimeTotals::default();
        totals.add(&TimeHistogram::of(&times[..50]));
        totals.add(&TimeHistogram::of(&times[50..]));
        assert_eq!(totals.count(), 100);
        let median = totals.percentile_ms(50).unwrap();
        let p99 = totals.percentile_ms(99).unwrap();
        assert!((median / 50.0 - 1.0).abs() < 0.05, "median {median}");
        assert!((p99 / 99.0 - 1.0).abs() < 0.05, "p99 {p99}");
        assert_eq!(TimeTotals::default().percentile_ms(50), None);
    }

    #[test]
    fn extremes_do_not_panic() {
        let h = TimeHistogram::of(&[Duration::ZERO, Duration::from_nanos(1), Duration::MAX]);
        assert_eq!(h.count(), 3);
        assert_eq!(h.buckets()[0], (0, 2));
    }
}
