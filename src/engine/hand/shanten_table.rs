//! Per-group distance tables for the standard-form shanten.
//!
//! A *group* is one suit (9 kinds, runs allowed) or the honors (7 kinds, no runs). For
//! every count vector of a group with each count `0..=4` and at most 14 tiles in all, the
//! table stores, for `m` mentsu (`0..=4`) and `p` pairs (`0..=1`), the *distance*: the
//! fewest tiles that must be added to the vector so that it contains `m` mentsu and `p`
//! pairs of that group, with no kind above four tiles. Summed over the four groups and
//! minimised over how the mentsu and the pair are spread, this is the replacement number
//! of the hand, and shanten is that number minus one. Holding a kind's fourth tile therefore
//! never counts as waiting for a fifth (Tenhou: such a hand is not tenpai).
//!
//! Vectors are indexed by their rank in lexicographic order among all valid vectors of
//! the group (405,350 for a suit, 43,130 for the honors), so lookups are a few additions.
//! Few distinct distance arrays occur (see the tests), so each vector stores a one-byte
//! class and the classes hold the arrays: 405 KB for a suit, small enough to stay in cache.
//!
//! Construction (once, about 0.06 s in an optimised build): mark every complete pattern
//! (`m` mentsu + `p` pairs), close the marks downwards (a vector is *extendable* when it
//! lies inside some pattern), then the largest extendable sub-vector of `v` has size
//! `g(v) = |v|` when `v` is extendable, else `max_i g(v - e_i)`; the distance is
//! `3m + 2p - g(v)`.

use std::sync::OnceLock;

/// Most tiles a group can hold in a hand.
const MAX_SUM: usize = 14;
/// Values per vector: `(m, p)` for `m` in `0..=4`, `p` in `0..=1`.
const SLOTS: usize = 10;

/// Distances of one vector, `d[m][p]`.
pub(crate) type Dist = [[u8; 2]; 5];

/// Ranking offsets and distance classes of one group of `LEN` kinds.
pub(crate) struct GroupTable<const LEN: usize> {
    /// `off[i][prefix][c]`: rank contribution of count `c` at position `i` after `prefix` tiles.
    off: [[[u32; 5]; MAX_SUM + 1]; LEN],
    /// Per ranked vector, its class.
    class: Vec<u8>,
    /// Per class, the distances.
    pub(crate) classes: Vec<Dist>,
}

impl<const LEN: usize> GroupTable<LEN> {
    /// Rank of a valid vector (each count `<= 4`, sum `<= 14`; the caller checks this).
    #[inline]
    pub(crate) fn rank(&self, v: &[u8]) -> usize {
        let mut prefix = 0usize;
        let mut r = 0u32;
        for (i, &c) in v.iter().enumerate().take(LEN) {
            r += self.off[i][prefix][c as usize];
            prefix += c as usize;
        }
        r as usize
    }

    /// Distance class of a valid vector (an index into `classes`).
    #[inline]
    pub(crate) fn class(&self, v: &[u8]) -> usize {
        self.class[self.rank(v)] as usize
    }

    /// Distances of a valid vector (see the module doc).
    #[cfg(test)]
    pub(crate) fn dist(&self, v: &[u8]) -> Dist {
        self.classes[self.class(v)]
    }

    /// Builds the table; `runs` allows shuntsu (suits) or not (honors).
    fn build(runs: bool) -> Self {
        // count[len][s]: vectors of `len` kinds, counts 0..=4, sum <= s.
        let mut count = vec![[0u32; MAX_SUM + 1]; LEN + 1];
        count[0] = [1; MAX_SUM + 1];
        for len in 1..=LEN {
            for s in 0..=MAX_SUM {
                count[len][s] = (0..=4.min(s)).map(|c| count[len - 1][s - c]).sum();
            }
        }
        let mut off = [[[0u32; 5]; MAX_SUM + 1]; LEN];
        for (i, per_prefix) in off.iter_mut().enumerate() {
            for (prefix, row) in per_prefix.iter_mut().enumerate() {
                let mut acc = 0;
                for (c, slot) in row.iter_mut().enumerate() {
                    *slot = acc;
                    if prefix + c <= MAX_SUM {
                        acc += count[LEN - 1 - i][MAX_SUM - prefix - c];
                    }
                }
            }
        }
        let mut table = GroupTable { off, class: Vec::new(), classes: Vec::new() };
        let vectors = enumerate::<LEN>();
        debug_assert_eq!(vectors.len(), count[LEN][MAX_SUM] as usize);

        // Bit 2m+p set: the vector lies inside some pattern of m mentsu and p pairs.
        let mut extendable = vec![0u16; vectors.len()];
        let mut pattern = [0u8; LEN];
        mark_patterns(&table, runs, 0, 0, &mut pattern, &mut extendable);
        let mut by_sum: Vec<Vec<usize>> = vec![Vec::new(); MAX_SUM + 1];
        for (idx, v) in vectors.iter().enumerate() {
            by_sum[v.iter().map(|&c| c as usize).sum::<usize>()].push(idx);
        }
        for bucket in by_sum.iter().rev() {
            for &idx in bucket {
                let bits = extendable[idx];
                if bits == 0 {
                    continue;
                }
                let mut v = vectors[idx];
                for i in 0..LEN {
                    if v[i] > 0 {
                        v[i] -= 1;
                        extendable[table.rank(&v)] |= bits;
                        v[i] += 1;
                    }
                }
            }
        }

        // g[idx][slot]: size of the largest extendable sub-vector.
        let mut g = vec![[0u8; SLOTS]; vectors.len()];
        for (sum, bucket) in by_sum.iter().enumerate() {
            for &idx in bucket {
                let mut best = [0u8; SLOTS];
                let mut v = vectors[idx];
                for i in 0..LEN {
                    if v[i] > 0 {
                        v[i] -= 1;
                        let sub = &g[table.rank(&v)];
                        for (b, s) in best.iter_mut().zip(sub) {
                            *b = (*b).max(*s);
                        }
                        v[i] += 1;
                    }
                }
                for (slot, b) in best.iter_mut().enumerate() {
                    if extendable[idx] & (1 << slot) != 0 {
                        *b = sum as u8;
                    }
                }
                g[idx] = best;
            }
        }
        // Classes by their distances packed in one integer (each distance is below 16): an
        // ordered map of at most 256 keys is cheaper here than hashing 10 bytes per vector.
        let mut seen = std::collections::BTreeMap::new();
        for best in &g {
            let mut d: Dist = [[0; 2]; 5];
            let mut key = 0u64;
            for (slot, &b) in best.iter().enumerate() {
                d[slot / 2][slot % 2] = (3 * (slot / 2) + 2 * (slot % 2)) as u8 - b;
                key = key << 4 | u64::from(d[slot / 2][slot % 2]);
            }
            let next = table.classes.len();
            let class = *seen.entry(key).or_insert(next);
            if class == next {
                table.classes.push(d);
            }
            table.class.push(u8::try_from(class).expect("at most 256 distance classes (test class_counts)"));
        }
        table
    }
}

/// All valid vectors of `LEN` kinds in lexicographic order (so position = rank).
fn enumerate<const LEN: usize>() -> Vec<[u8; LEN]> {
    fn go<const LEN: usize>(i: usize, left: usize, v: &mut [u8; LEN], out: &mut Vec<[u8; LEN]>) {
        if i == LEN {
            out.push(*v);
            return;
        }
        for c in 0..=4.min(left) {
            v[i] = c as u8;
            go(i + 1, left - c, v, out);
        }
        v[i] = 0;
    }
    let mut out = Vec::new();
    go(0, MAX_SUM, &mut [0u8; LEN], &mut out);
    out
}

/// Marks every pattern of mentsu (in non-decreasing order of `block`) plus 0 or 1 pair.
/// Blocks `0..LEN` are koutsu, `LEN..2*LEN-2` shuntsu starting at `block - LEN`.
fn mark_patterns<const LEN: usize>(
    table: &GroupTable<LEN>,
    runs: bool,
    first: usize,
    mentsu: usize,
    v: &mut [u8; LEN],
    marks: &mut [u16],
) {
    if v.iter().any(|&c| c > 4) {
        return;
    }
    marks[table.rank(v)] |= 1 << (2 * mentsu);
    for pair in 0..LEN {
        if v[pair] <= 2 {
            v[pair] += 2;
            marks[table.rank(v)] |= 1 << (2 * mentsu + 1);
            v[pair] -= 2;
        }
    }
    if mentsu == 4 {
        return;
    }
    let blocks = if runs { 2 * LEN - 2 } else { LEN };
    for block in first..blocks {
        let kinds = if block < LEN { [block; 3] } else { [block - LEN, block - LEN + 1, block - LEN + 2] };
        kinds.iter().for_each(|&k| v[k] += 1);
        mark_patterns(table, runs, block, mentsu + 1, v, marks);
        kinds.iter().for_each(|&k| v[k] -= 1);
    }
}

/// The suit table (shared by man, pin and sou).
pub(crate) fn suit() -> &'static GroupTable<9> {
    static TABLE: OnceLock<GroupTable<9>> = OnceLock::new();
    TABLE.get_or_init(|| GroupTable::build(true))
}

/// The honor table.
pub(crate) fn honor() -> &'static GroupTable<7> {
    static TABLE: OnceLock<GroupTable<7>> = OnceLock::new();
    TABLE.get_or_init(|| GroupTable::build(false))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_is_position_in_enumeration() {
        let t = suit();
        let vs = enumerate::<9>();
        assert_eq!(vs.len(), 405_350);
        for (i, v) in vs.iter().enumerate().step_by(997) {
            assert_eq!(t.rank(v), i);
        }
        let last = vs.len() - 1;
        assert_eq!(vs[last], [4, 4, 4, 2, 0, 0, 0, 0, 0]);
        assert_eq!(t.rank(&vs[last]), last);
        assert_eq!(enumerate::<7>().len(), 43_130);
    }

    #[test]
    fn suit_distances_by_hand() {
        let t = suit();
        // 123 456 7: one tile from 2 mentsu + pair (the 7 pairs up), 0 from two mentsu.
        let d = t.dist(&[1, 1, 1, 1, 1, 1, 1, 0, 0]);
        assert_eq!(d[2], [0, 1]);
        assert_eq!(d[3], [2, 4]);
        assert_eq!(d[0], [0, 1]);
        // 1111: a koutsu and a tanki on the fifth 1 is impossible: 111 + 2-pair needs 2.
        let d = t.dist(&[4, 0, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(d[1], [0, 2]);
        assert_eq!(d[2], [2, 4]);
    }

    #[test]
    fn class_counts() {
        assert_eq!(suit().classes.len(), 126);
        assert_eq!(honor().classes.len(), 55);
    }

    #[test]
    fn honors_have_no_runs() {
        let t = honor();
        let d = t.dist(&[1, 1, 1, 0, 0, 0, 0]);
        assert_eq!(d[1], [2, 3]);
        assert_eq!(d[0], [0, 1]);
    }
}
