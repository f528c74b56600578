//! Regular yaku (1 to 6 han) under Tenhou rules, for one reading of a winning hand.
//! Yakuman are in `yakuman.rs`; dora are added by `score.rs`.

use super::agari::{SetKind, Shape, Wait};
use super::facts::Facts;
use super::win::Riichi;

/// Most entries one hand can carry (yaku plus dora lines; a legal hand has at most about 12).
const CAP: usize = 16;

/// Yaku names with han, in a fixed-size list (no allocation on the hot path).
#[derive(Debug, Clone, Copy)]
pub(crate) struct YakuList {
    items: [(&'static str, u8); CAP],
    len: usize,
}

impl YakuList {
    /// An empty list.
    pub fn new() -> YakuList {
        YakuList { items: [("", 0); CAP], len: 0 }
    }

    /// Adds one entry (ignored if the list is full, which no legal hand reaches).
    pub fn push(&mut self, name: &'static str, han: u8) {
        if self.len < CAP {
            self.items[self.len] = (name, han);
            self.len += 1;
        }
    }

    /// Sum of han.
    pub fn han(&self) -> u8 {
        self.as_slice().iter().map(|&(_, h)| h).sum()
    }

    /// The entries.
    pub fn as_slice(&self) -> &[(&'static str, u8)] {
        &self.items[..self.len]
    }

    /// Empties the list for reuse.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// True when nothing was added.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// Han for a yaku that loses one han when the hand is open (Tenhou: chanta, junchan, ittsu,
/// sanshoku doujun, honitsu, chinitsu).
fn kuisagari(f: &Facts, closed_han: u8) -> u8 {
    if f.menzen {
        closed_han
    } else {
        closed_han - 1
    }
}

/// Yaku that come from the situation, not the shape: riichi, double riichi, ippatsu, menzen
/// tsumo, haitei, houtei, rinshan kaihou, chankan.
fn situational(f: &Facts, out: &mut YakuList) {
    match f.riichi {
        Riichi::None => {}
        Riichi::Riichi => out.push("riichi", 1),
        Riichi::Double => out.push("double riichi", 2),
    }
    if f.ippatsu && f.riichi != Riichi::None {
        out.push("ippatsu", 1);
    }
    if f.menzen && f.tsumo {
        out.push("menzen tsumo", 1);
    }
    if f.haitei {
        out.push("haitei", 1);
    }
    if f.houtei {
        out.push("houtei", 1);
    }
    if f.rinshan {
        out.push("rinshan kaihou", 1);
    }
    if f.chankan {
        out.push("chankan", 1);
    }
}

/// Yaku that depend only on the tile set: tanyao, honroutou, honitsu, chinitsu.
fn tile_set(f: &Facts, out: &mut YakuList) {
    if f.tanyao {
        out.push("tanyao", 1);
    }
    if f.all_yaochuu && f.has_honor && !f.all_honor {
        out.push("honroutou", 2);
    }
    if f.suits.count_ones() == 1 {
        if f.has_honor {
            out.push("honitsu", kuisagari(f, 3));
        } else {
            out.push("chinitsu", kuisagari(f, 6));
        }
    }
}

/// Pinfu: closed, four sequences, a pair that is not yakuhai, a two-sided wait.
pub(crate) fn is_pinfu(f: &Facts, s: &Shape) -> bool {
    f.menzen && s.wait == Wait::Ryanmen && !f.is_yakuhai(s.pair) && s.sets.iter().all(|x| x.kind == SetKind::Shuntsu)
}

/// Adds the regular yaku of a standard-form reading (no dora) to `out`.
pub(crate) fn standard(f: &Facts, s: &Shape, out: &mut YakuList) {
    situational(f, out);
    if is_pinfu(f, s) {
        out.push("pinfu", 1);
    }
    tile_set(f, out);
    if f.menzen {
        match peikou(s) {
            1 => out.push("iipeikou", 1),
            2 => out.push("ryanpeikou", 3),
            _ => {}
        }
    }
    for set in s.sets.iter().filter(|x| x.is_triplet()) {
        match set.first {
            31 => out.push("yakuhai haku", 1),
            32 => out.push("yakuhai hatsu", 1),
            33 => out.push("yakuhai chun", 1),
            _ => {}
        }
        if set.first == f.jikaze {
            out.push("yakuhai jikaze", 1);
        }
        if set.first == f.bakaze {
            out.push("yakuhai bakaze", 1);
        }
    }
    outside(f, s, out);
    straights(f, s, out);
    triplets(f, s, out);
}

/// Number of pairs of identical closed sequences (2 for ryanpeikou).
fn peikou(s: &Shape) -> u8 {
    let mut seen = [0u8; 27];
    for x in s.sets.iter().filter(|x| x.kind == SetKind::Shuntsu) {
        seen[x.first as usize] += 1;
    }
    seen.iter().map(|&c| c / 2).sum()
}

/// Chanta and junchan: every set and the pair hold a terminal or honor, with a sequence.
fn outside(f: &Facts, s: &Shape, out: &mut YakuList) {
    let has_seq = s.sets.iter().any(|x| x.kind == SetKind::Shuntsu);
    let pair_ok = super::agari::is_yaochuu(s.pair);
    if !has_seq || !pair_ok || !s.sets.iter().all(|x| x.has_yaochuu()) {
        return;
    }
    if f.has_honor {
        out.push("chanta", kuisagari(f, 2));
    } else {
        out.push("junchan", kuisagari(f, 3));
    }
}

/// Ittsu and sanshoku doujun.
fn straights(f: &Facts, s: &Shape, out: &mut YakuList) {
    let mut seq = [false; 27];
    for x in s.sets.iter().filter(|x| x.kind == SetKind::Shuntsu) {
        seq[x.first as usize] = true;
    }
    if (0..3).any(|suit| seq[suit * 9] && seq[suit * 9 + 3] && seq[suit * 9 + 6]) {
        out.push("ittsu", kuisagari(f, 2));
    }
    if (0..7).any(|n| seq[n] && seq[n + 9] && seq[n + 18]) {
        out.push("sanshoku doujun", kuisagari(f, 2));
    }
}

/// Toitoi, sanankou, sanshoku doukou, sankantsu, shousangen.
fn triplets(f: &Facts, s: &Shape, out: &mut YakuList) {
    let trips = s.sets.iter().filter(|x| x.is_triplet());
    let mut trip = [false; 34];
    for x in trips.clone() {
        trip[x.first as usize] = true;
    }
    if trips.clone().count() == 4 {
        out.push("toitoi", 2);
    }
    if trips.filter(|x| x.closed).count() == 3 {
        out.push("sanankou", 2);
    }
    if (0..9).any(|n| trip[n] && trip[n + 9] && trip[n + 18]) {
        out.push("sanshoku doukou", 2);
    }
    if f.kans == 3 {
        out.push("sankantsu", 2);
    }
    let dragon_trips = (31..34).filter(|&k| trip[k]).count();
    if dragon_trips == 2 && s.pair >= 31 {
        out.push("shousangen", 2);
    }
}

/// Adds the regular yaku of a chiitoitsu reading (no dora) to `out`.
pub(crate) fn chiitoitsu(f: &Facts, out: &mut YakuList) {
    situational(f, out);
    out.push("chiitoitsu", 2);
    tile_set(f, out);
}
