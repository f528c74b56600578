//! Yakuman under Tenhou rules. Every yakuman is worth one (13 han here); pattern variants
//! (kokushi 13-sided, suuankou tanki, junsei chuuren, daisuushii) are not doubled, but
//! different yakuman in one hand stack (e.g. tsuuiisou + daisangen = 2). No renhou.

use super::agari::{SetKind, Shape, Wait};
use super::facts::Facts;
use super::yaku::YakuList;

/// Han written for each yakuman entry.
pub(crate) const YAKUMAN_HAN: u8 = 13;

/// Tenhou (dealer) or chiihou (non-dealer): a tsumo on the first uninterrupted draw.
fn first_draw(f: &Facts, out: &mut YakuList) {
    if f.first_draw && f.tsumo {
        out.push(if f.dealer { "tenhou" } else { "chiihou" }, YAKUMAN_HAN);
    }
}

/// Yakuman that depend only on the tile set: tsuuiisou, ryuuiisou, chinroutou.
fn tile_set(f: &Facts, out: &mut YakuList) {
    if f.all_honor {
        out.push("tsuuiisou", YAKUMAN_HAN);
    }
    if f.all_green {
        out.push("ryuuiisou", YAKUMAN_HAN);
    }
    if f.all_terminal {
        out.push("chinroutou", YAKUMAN_HAN);
    }
}

/// Chuuren poutou: no calls, one suit, 1112345678999 plus one more tile of that suit.
/// Junsei when the thirteen tiles before the win already formed 1112345678999.
fn chuuren(f: &Facts, out: &mut YakuList) {
    if !f.no_calls || f.has_honor || f.suits.count_ones() != 1 {
        return;
    }
    let base = f.suits.trailing_zeros() as usize * 9;
    let c = &f.concealed[base..base + 9];
    let need = |i: usize| if i == 0 || i == 8 { 3 } else { 1 };
    if !(0..9).all(|i| c[i] >= need(i)) {
        return;
    }
    let win = f.win as usize - base;
    let junsei = (0..9).all(|i| c[i] - u8::from(i == win) == need(i));
    out.push(if junsei { "junsei chuuren" } else { "chuuren" }, YAKUMAN_HAN);
}

/// Adds the yakuman of a standard-form reading to `out` (nothing when there is none).
pub(crate) fn standard(f: &Facts, s: &Shape, out: &mut YakuList) {
    first_draw(f, out);
    let closed_trips = s.sets.iter().filter(|x| x.is_triplet() && x.closed).count();
    if closed_trips == 4 {
        let name = if s.wait == Wait::Tanki { "suuankou tanki" } else { "suuankou" };
        out.push(name, YAKUMAN_HAN);
    }
    let mut trip = [false; 34];
    for x in s.sets.iter().filter(|x| x.kind != SetKind::Shuntsu) {
        trip[x.first as usize] = true;
    }
    if trip[31] && trip[32] && trip[33] {
        out.push("daisangen", YAKUMAN_HAN);
    }
    let wind_trips = (27..31).filter(|&k| trip[k]).count();
    if wind_trips == 4 {
        out.push("daisuushii", YAKUMAN_HAN);
    } else if wind_trips == 3 && (27..31).contains(&s.pair) {
        out.push("shousuushii", YAKUMAN_HAN);
    }
    tile_set(f, out);
    chuuren(f, out);
    if f.kans == 4 {
        out.push("suukantsu", YAKUMAN_HAN);
    }
}

/// Adds the yakuman of a chiitoitsu reading (tenhou/chiihou, tsuuiisou) to `out`.
pub(crate) fn chiitoitsu(f: &Facts, out: &mut YakuList) {
    first_draw(f, out);
    if f.all_honor {
        out.push("tsuuiisou", YAKUMAN_HAN);
    }
}

/// Adds the yakuman of a kokushi hand to `out`: kokushi (13-sided when the thirteen tiles
/// before the win held every terminal and honor) plus tenhou/chiihou.
pub(crate) fn kokushi(f: &Facts, out: &mut YakuList) {
    first_draw(f, out);
    let thirteen = f.concealed[f.win as usize] == 2;
    out.push(if thirteen { "kokushi juusanmen" } else { "kokushi" }, YAKUMAN_HAN);
}
