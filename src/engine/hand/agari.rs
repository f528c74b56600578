//! Agari detection and decomposition: every way a complete hand splits into four sets and a
//! pair (with the winning tile placed in each possible set), plus the chiitoitsu and kokushi
//! forms. Works on tile kinds (`0..34`); redness is irrelevant here.
//!
//! Enumeration is allocation-free: shapes are handed to a callback one at a time.

use crate::tile::KINDS;

/// What a set is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SetKind {
    /// Three consecutive tiles of a suit, starting at `first`.
    Shuntsu,
    /// Three of a kind.
    Koutsu,
    /// Four of a kind (any kan).
    Kantsu,
}

/// One set of a decomposed hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Set {
    /// Kind of set.
    pub kind: SetKind,
    /// Lowest tile kind of the set (`0..34`).
    pub first: u8,
    /// True when the set counts as concealed for fu and sanankou: a triplet from the
    /// concealed tiles not completed by ron, or an ankan. Sequences: true when not called.
    pub closed: bool,
}

impl Set {
    /// True when the set holds a terminal or honor.
    pub fn has_yaochuu(&self) -> bool {
        match self.kind {
            SetKind::Shuntsu => self.first.is_multiple_of(9) || self.first % 9 == 6,
            _ => is_yaochuu(self.first),
        }
    }

    /// True for triplets and kans.
    pub fn is_triplet(&self) -> bool {
        self.kind != SetKind::Shuntsu
    }
}

/// How the winning tile completed the hand (decides wait fu and pinfu).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Wait {
    /// Two-sided sequence wait.
    Ryanmen,
    /// Closed (middle) sequence wait.
    Kanchan,
    /// Edge wait (12 waiting on 3, 89 waiting on 7).
    Penchan,
    /// One of two pairs becomes the triplet.
    Shanpon,
    /// Single-tile wait on the pair.
    Tanki,
}

/// A standard-form reading of a complete hand: four sets (calls included) and a pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Shape {
    /// The four sets; called sets come after the concealed ones.
    pub sets: [Set; 4],
    /// Kind of the pair.
    pub pair: u8,
    /// The wait this reading gives the winning tile.
    pub wait: Wait,
}

/// True for terminals (1, 9) and honors, by kind.
pub(crate) fn is_yaochuu(kind: u8) -> bool {
    kind >= 27 || kind.is_multiple_of(9) || kind % 9 == 8
}

/// Calls `f` for every standard-form reading of the concealed tiles `concealed` (winning tile
/// included, `14 - 3 * melds.len()` tiles) with the called sets `melds`, once per distinct
/// position of the winning tile `win` (kind). `tsumo` decides whether a triplet completed by
/// the winning tile stays concealed (Tenhou: a triplet completed by ron is open).
pub(crate) fn for_each_shape(concealed: &[u8; KINDS], melds: &[Set], win: u8, tsumo: bool, f: &mut impl FnMut(&Shape)) {
    let need = 4 - melds.len();
    let mut counts = *concealed;
    let mut sets = [Set { kind: SetKind::Shuntsu, first: 0, closed: true }; 4];
    let mut suit_len = [0u8; 4];
    for (k, &c) in counts.iter().enumerate() {
        suit_len[k / 9] += c;
    }
    // The pair's suit holds 3n + 2 tiles and every other suit 3n: only one suit can hold it.
    let Some(pair_suit) = (0..4).find(|&s| suit_len[s] % 3 == 2) else { return };
    if (0..4).any(|s| s != pair_suit && suit_len[s] % 3 != 0) {
        return;
    }
    let end = if pair_suit == 3 { KINDS } else { pair_suit * 9 + 9 };
    for pair in pair_suit * 9..end {
        if counts[pair] < 2 {
            continue;
        }
        counts[pair] -= 2;
        decompose(&mut counts, 0, &mut sets, 0, need, &mut |found: &[Set; 4]| {
            place_win(found, need, melds, pair as u8, win, tsumo, f);
        });
        counts[pair] += 2;
    }
}

fn decompose(
    c: &mut [u8; KINDS],
    start: usize,
    sets: &mut [Set; 4],
    n: usize,
    need: usize,
    out: &mut impl FnMut(&[Set; 4]),
) {
    let Some(i) = (start..KINDS).find(|&i| c[i] > 0) else {
        if n == need {
            out(sets);
        }
        return;
    };
    if n == need {
        return;
    }
    if c[i] >= 3 {
        c[i] -= 3;
        sets[n] = Set { kind: SetKind::Koutsu, first: i as u8, closed: true };
        decompose(c, i, sets, n + 1, need, out);
        c[i] += 3;
    }
    if i < 27 && i % 9 < 7 && c[i + 1] > 0 && c[i + 2] > 0 {
        c[i] -= 1;
        c[i + 1] -= 1;
        c[i + 2] -= 1;
        sets[n] = Set { kind: SetKind::Shuntsu, first: i as u8, closed: true };
        decompose(c, i, sets, n + 1, need, out);
        c[i] += 1;
        c[i + 1] += 1;
        c[i + 2] += 1;
    }
}

/// Emits one shape per distinct place of the winning tile among the concealed sets and pair.
fn place_win(found: &[Set; 4], need: usize, melds: &[Set], pair: u8, win: u8, tsumo: bool, f: &mut impl FnMut(&Shape)) {
    let mut sets = *found;
    sets[need..].copy_from_slice(melds);
    if pair == win {
        f(&Shape { sets, pair, wait: Wait::Tanki });
    }
    for j in 0..need {
        let s = found[j];
        if found[..j].contains(&s) {
            continue; // identical set already tried
        }
        let wait = match s.kind {
            SetKind::Koutsu if s.first == win => Wait::Shanpon,
            SetKind::Shuntsu if s.first + 1 == win => Wait::Kanchan,
            SetKind::Shuntsu if s.first == win => {
                if s.first % 9 == 6 {
                    Wait::Penchan
                } else {
                    Wait::Ryanmen
                }
            }
            SetKind::Shuntsu if s.first + 2 == win => {
                if s.first.is_multiple_of(9) {
                    Wait::Penchan
                } else {
                    Wait::Ryanmen
                }
            }
            _ => continue,
        };
        let mut shape = Shape { sets, pair, wait };
        if wait == Wait::Shanpon && !tsumo {
            shape.sets[j].closed = false;
        }
        f(&shape);
    }
}

/// True for seven distinct pairs (Tenhou: four of a kind is not two pairs). Needs a
/// concealed 14-tile hand.
pub(crate) fn is_chiitoitsu(concealed: &[u8; KINDS]) -> bool {
    concealed.iter().filter(|&&c| c == 2).count() == 7
}

/// True for kokushi musou: all thirteen terminals and honors with one of them paired.
pub(crate) fn is_kokushi(concealed: &[u8; KINDS]) -> bool {
    let mut pairs = 0;
    for (k, &c) in concealed.iter().enumerate() {
        if is_yaochuu(k as u8) {
            match c {
                1 => {}
                2 => pairs += 1,
                _ => return false,
            }
        } else if c != 0 {
            return false;
        }
    }
    pairs == 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tile::{parse_compact, to_counts};

    fn shapes(hand: &str, win: &str, tsumo: bool) -> Vec<Shape> {
        let counts = to_counts(&parse_compact(hand).unwrap());
        let win = parse_compact(win).unwrap()[0].kind();
        let mut out = Vec::new();
        for_each_shape(&counts, &[], win, tsumo, &mut |s| out.push(*s));
        out
    }

    #[test]
    fn pure_triple_sequences_read_two_ways() {
        // 111222333m: three triplets or three identical sequences.
        let s = shapes("111222333m456p99s", "9s", true);
        assert_eq!(s.len(), 2);
        assert!(s.iter().all(|s| s.wait == Wait::Tanki));
    }

    #[test]
    fn winning_tile_in_each_place() {
        // 23444m won on 4m: the end of 234m (ryanmen) or the 44m pair (tanki).
        let s = shapes("23444m567p123s789s", "4m", false);
        let waits: Vec<Wait> = s.iter().map(|s| s.wait).collect();
        assert!(waits.contains(&Wait::Ryanmen), "{waits:?}");
        assert!(!waits.contains(&Wait::Kanchan));
        let s = shapes("123m789m567p123s99s", "7m", false);
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].wait, Wait::Penchan);
    }

    #[test]
    fn ron_triplet_is_open() {
        let s = shapes("111m99m567p123s456s", "1m", false);
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].wait, Wait::Shanpon);
        assert!(!s[0].sets.iter().find(|x| x.first == 0).unwrap().closed);
    }

    #[test]
    fn special_forms() {
        assert!(is_chiitoitsu(&to_counts(&parse_compact("1133m5577p99s1177z").unwrap())));
        assert!(!is_chiitoitsu(&to_counts(&parse_compact("1111m5577p99s1177z").unwrap())));
        assert!(is_kokushi(&to_counts(&parse_compact("19m19p19s12345677z").unwrap())));
        assert!(!is_kokushi(&to_counts(&parse_compact("19m19p18s12345677z").unwrap())));
        assert!(shapes("123m456m789m12p345s", "9m", true).is_empty());
    }
}
