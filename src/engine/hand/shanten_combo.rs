//! Combining the four groups' distance classes into the standard-form replacement number.
//!
//! `mp[a][b]` is the class of man class `a` combined with pin class `b`, `mps[x][c]` that
//! combined with sou class `c`, and `fin[y][z][k]` the replacement number for `k` mentsu
//! and a pair given the number-suit class `y` and honor class `z`. Built once from the
//! group tables; a lookup is then four ranks and four small-table reads.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::shanten_table::{honor, suit, Dist};
use crate::tile::KINDS;

struct Combo {
    suit_classes: usize,
    honor_classes: usize,
    mp: Vec<u8>,
    mps: Vec<u8>,
    fin: Vec<u8>,
}

/// Distances of two groups together: `r[m][p]` is the best split of `m` mentsu and `p`
/// pairs between them.
fn combine(a: &Dist, b: &Dist) -> Dist {
    let mut r = [[u8::MAX; 2]; 5];
    for i in 0..5 {
        for j in 0..5 - i {
            let cell = &mut r[i + j];
            cell[0] = cell[0].min(a[i][0] + b[j][0]);
            cell[1] = cell[1].min(a[i][0] + b[j][1]).min(a[i][1] + b[j][0]);
        }
    }
    r
}

/// Combines every class of `left` with every class of `right`; returns the table of
/// combined class ids (row-major, `left` major) and the combined classes.
fn product(left: &[Dist], right: &[Dist]) -> (Vec<u8>, Vec<Dist>) {
    let mut ids = HashMap::new();
    let mut classes = Vec::new();
    let mut table = Vec::with_capacity(left.len() * right.len());
    for a in left {
        for b in right {
            let d = combine(a, b);
            let id = *ids.entry(d).or_insert_with(|| {
                classes.push(d);
                classes.len() - 1
            });
            table.push(u8::try_from(id).expect("at most 256 combined classes (test combined_class_counts)"));
        }
    }
    (table, classes)
}

fn combo() -> &'static Combo {
    static COMBO: OnceLock<Combo> = OnceLock::new();
    COMBO.get_or_init(|| {
        let (s, h) = (&suit().classes, &honor().classes);
        let (mp, mp_classes) = product(s, s);
        let (mps, mps_classes) = product(&mp_classes, s);
        let mut fin = Vec::with_capacity(mps_classes.len() * h.len() * 5);
        for y in &mps_classes {
            for z in h {
                for k in 0..5 {
                    let best = (0..=k).map(|m| (y[m][0] + z[k - m][1]).min(y[m][1] + z[k - m][0])).min();
                    fin.push(best.unwrap_or(u8::MAX));
                }
            }
        }
        Combo { suit_classes: s.len(), honor_classes: h.len(), mp, mps, fin }
    })
}

/// Distance class of group `group` (0 man, 1 pin, 2 sou, 3 honors) of a valid concealed
/// part (each count `<= 4`, at most 14 tiles).
#[inline]
pub(crate) fn group_class(counts: &[u8; KINDS], group: usize) -> usize {
    match group {
        0..=2 => suit().class(&counts[9 * group..9 * group + 9]),
        _ => honor().class(&counts[27..34]),
    }
}

/// Fewest tiles to add so that the part whose group classes are `classes` (from
/// [`group_class`]) contains `k` mentsu (`0..=4`) and a pair; standard-form shanten is this
/// minus one.
#[inline]
pub(crate) fn replacement_of(classes: &[usize; 4], k: usize) -> u8 {
    let c = combo();
    let mp = c.mp[classes[0] * c.suit_classes + classes[1]] as usize;
    let mps = c.mps[mp * c.suit_classes + classes[2]] as usize;
    c.fin[(mps * c.honor_classes + classes[3]) * 5 + k]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combined_class_counts() {
        let c = combo();
        let mp_classes = c.mps.len() / c.suit_classes;
        let mps_classes = c.fin.len() / (5 * c.honor_classes);
        assert!(mp_classes <= 256 && mps_classes <= 256, "{mp_classes} {mps_classes}");
    }

    #[test]
    fn combination_by_hand() {
        let counts = |groups: [&[u8]; 4]| {
            let mut c = [0u8; KINDS];
            c.iter_mut().zip(groups.concat()).for_each(|(a, b)| *a = b);
            c
        };
        // 123m 456p 789s 11z 2z: two tiles (222z) from 4 mentsu + pair, none from 3 + pair.
        let h = counts([
            &[1, 1, 1, 0, 0, 0, 0, 0, 0],
            &[0, 0, 0, 1, 1, 1, 0, 0, 0],
            &[0, 0, 0, 0, 0, 0, 1, 1, 1],
            &[2, 1, 0, 0, 0, 0, 0],
        ]);
        let classes = [0, 1, 2, 3].map(|g| group_class(&h, g));
        assert_eq!(replacement_of(&classes, 4), 2);
        assert_eq!(replacement_of(&classes, 3), 0);
        assert_eq!(replacement_of(&classes, 0), 0);
    }
}
