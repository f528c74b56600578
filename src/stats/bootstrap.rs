//! Seeded percentile bootstrap over duplicate sets (the set is the unit: the four games of a
//! set share their walls, so their results are correlated).
//!
//! Every statistic here is a ratio `Σ x / Σ n` over the sets a unit (a bot, a pair of bots)
//! took part in, e.g. the sum of a bot's ranks over its games in the set and the number of
//! those games. One resample draws as many of the unit's sets as it has, with replacement,
//! and recomputes the ratio; the interval is the `(1 − level)/2` and `(1 + level)/2`
//! percentiles of the resampled ratios (linear interpolation between order statistics).
//! Units with fewer than 2 sets get no interval.
//!
//! Speed: a unit's per-set sums take few distinct values (a bot's four ranks in a set: 35
//! combinations), so a resample is drawn as multinomial counts of the distinct values
//! (conditional binomials, `rand_distr`), not set by set: the cost does not grow with the
//! number of sets. Each unit draws from its own ChaCha8 stream (seed, stream = unit), so
//! the same records and seed give the same intervals, and adding a bot leaves the others'.

use std::collections::BTreeMap;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::Binomial;

/// One unit's sums over one set: `n` observations and two summed quantities.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Sums {
    /// The unit (index into the caller's units).
    pub unit: u32,
    /// Observations (games).
    pub n: f64,
    /// First summed quantity (e.g. ranks).
    pub x: f64,
    /// Second summed quantity (e.g. pt).
    pub y: f64,
}

/// Per-set sums of every unit, built set by set.
#[derive(Debug, Clone, Default)]
pub struct SetTable {
    entries: Vec<Sums>,
    /// `entries[starts[i]..starts[i + 1]]` belong to set `i`.
    starts: Vec<usize>,
}

impl SetTable {
    /// Starts the next set.
    pub fn begin_set(&mut self) {
        self.starts.push(self.entries.len());
    }

    /// Adds one unit's sums to the current set (call [`SetTable::begin_set`] first).
    pub fn push(&mut self, sums: Sums) {
        self.entries.push(sums);
    }

    /// Number of sets.
    pub fn sets(&self) -> usize {
        self.starts.len()
    }

    fn set(&self, i: usize) -> &[Sums] {
        let end = self.starts.get(i + 1).copied().unwrap_or(self.entries.len());
        &self.entries[self.starts[i]..end]
    }
}

/// Intervals `[low, high]` of `Σx/Σn` and `Σy/Σn` per unit (`None` with fewer than 2 sets).
pub type Intervals = Vec<(Option<[f64; 2]>, Option<[f64; 2]>)>;

/// Percentile intervals for `units` units from `resamples` resamples of their sets.
pub fn intervals(table: &SetTable, units: usize, resamples: usize, level: f64, seed: u64) -> Intervals {
    // Distinct per-set sums of each unit, with how many sets gave them (keyed by bit
    // pattern: a deterministic order).
    let mut values: Vec<SetCounts> = vec![BTreeMap::new(); units];
    for i in 0..table.sets() {
        for e in table.set(i) {
            if let Some(v) = values.get_mut(e.unit as usize) {
                *v.entry([e.n.to_bits(), e.x.to_bits(), e.y.to_bits()]).or_default() += 1;
            }
        }
    }
    values.iter().enumerate().map(|(u, v)| unit_intervals(u as u32, v, resamples, level, seed)).collect()
}

/// Distinct per-set sums of one unit, keyed by the bit patterns of `[n, x, y]`, with how
/// many sets gave them: all the bootstrap needs of a unit.
pub type SetCounts = BTreeMap<[u64; 3], u64>;

/// The intervals of one unit from its distinct per-set sums ([`SetCounts`]): the same
/// figures [`intervals`] gives that unit (its ChaCha8 stream is `unit`), so a caller that
/// keeps a unit's set counts up to date (the store's aggregates) reproduces the standings'
/// intervals without the sets themselves.
pub fn unit_intervals(
    unit: u32,
    values: &SetCounts,
    resamples: usize,
    level: f64,
    seed: u64,
) -> (Option<[f64; 2]>, Option<[f64; 2]>) {
    let sets: u64 = values.values().sum();
    if sets < 2 || resamples == 0 {
        return (None, None);
    }
    let distinct: Vec<([f64; 3], u64)> = values.iter().map(|(k, &c)| (k.map(f64::from_bits), c)).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(u64::from(unit));
    let (mut xs, mut ys) = (Vec::with_capacity(resamples), Vec::with_capacity(resamples));
    for _ in 0..resamples {
        let mut acc = [0.0f64; 3];
        let (mut left_sets, mut left_weight) = (sets, sets);
        for &(value, count) in &distinct {
            if left_sets == 0 {
                break;
            }
            // Multinomial by conditional binomials: of the draws left, how many
            // fall on this value.
            let p = count as f64 / left_weight as f64;
            let k = if p >= 1.0 { left_sets } else { Binomial::new(left_sets, p).map_or(0, |b| rng.sample(b)) };
            left_sets -= k;
            left_weight -= count;
            for (a, v) in acc.iter_mut().zip(value) {
                *a += k as f64 * v;
            }
        }
        if acc[0] > 0.0 {
            xs.push(acc[1] / acc[0]);
            ys.push(acc[2] / acc[0]);
        }
    }
    (percentile_interval(&mut xs, level), percentile_interval(&mut ys, level))
}

/// The central `level` percentile interval of `samples` (sorted in place).
fn percentile_interval(samples: &mut [f64], level: f64) -> Option<[f64; 2]> {
    if samples.is_empty() {
        return None;
    }
    samples.sort_unstable_by(f64::total_cmp);
    let tail = (1.0 - level.clamp(0.0, 1.0)) / 2.0;
    Some([quantile(samples, tail), quantile(samples, 1.0 - tail)])
}

/// Quantile `p` of sorted, non-empty `s` (linear interpolation between order statistics).
fn quantile(s: &[f64], p: f64) -> f64 {
    let pos = p * (s.len() - 1) as f64;
    let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
    s[lo] + (s[hi] - s[lo]) * (pos - lo as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_interpolate() {
        let s = [1.0, 2.0, 3.0, 4.0, 5.0];
        assert_eq!(quantile(&s, 0.0), 1.0);
        assert_eq!(quantile(&s, 0.5), 3.0);
        assert_eq!(quantile(&s, 0.125), 1.5);
        assert_eq!(quantile(&s, 1.0), 5.0);
    }

    #[test]
    fn constant_data_gives_a_point_interval_and_one_set_none() {
        let mut t = SetTable::default();
        for _ in 0..5 {
            t.begin_set();
            t.push(Sums { unit: 0, n: 4.0, x: 10.0, y: 0.0 });
        }
        t.begin_set();
        t.push(Sums { unit: 1, n: 4.0, x: 8.0, y: 0.0 });
        let iv = intervals(&t, 2, 200, 0.95, 1);
        assert_eq!(iv[0].0, Some([2.5, 2.5]));
        assert_eq!(iv[1], (None, None), "one set: no interval");
    }

    #[test]
    fn same_seed_same_interval_other_seed_differs() {
        let mut t = SetTable::default();
        for i in 0..30 {
            t.begin_set();
            t.push(Sums { unit: 0, n: 1.0, x: f64::from(i % 7), y: f64::from(i % 3) });
        }
        let a = intervals(&t, 1, 500, 0.95, 9);
        assert_eq!(a, intervals(&t, 1, 500, 0.95, 9));
        assert_ne!(a, intervals(&t, 1, 500, 0.95, 10));
        let [lo, hi] = a[0].0.unwrap();
        let mean = (0..30).map(|i| f64::from(i % 7)).sum::<f64>() / 30.0;
        assert!(lo < mean && mean < hi, "{lo} < {mean} < {hi}");
    }
}
