//! Scores a win: tries every reading of the hand (standard form, chiitoitsu, kokushi) and
//! keeps the best (Tenhou: highest points, then highest han). Ties: a real yakuman beats
//! kazoe yakuman of equal points; then the higher fu is shown for limit hands.

use super::agari::{for_each_shape, is_chiitoitsu, is_kokushi};
use super::facts::Facts;
use super::points::{base_points, payment};
use super::yaku::YakuList;
use super::yakuman::YAKUMAN_HAN;
use super::{fu, input, yaku, yakuman, HandScore, NoWin, Riichi, WinContext};
use crate::tile::{Tile, KINDS};

/// The best reading so far.
struct Best {
    yaku: YakuList,
    han: u8,
    fu: u8,
    yakuman: u8,
    points: i32,
    found: bool,
}

/// Dora, aka dora and ura dora counts of the hand.
struct Dora {
    dora: u8,
    aka: u8,
    ura: u8,
}

fn count_indicated(all: &[u8; KINDS], markers: &[Tile]) -> u8 {
    markers.iter().map(|m| all[m.dora_from_indicator() as usize]).sum()
}

impl Best {
    /// Scores the reading in `list` (yakuman, or regular yaku worth `fu`) and keeps it when
    /// it beats the best so far. Adds dora to regular yaku; an empty list is no yaku.
    fn offer(&mut self, f: &Facts, d: &Dora, list: &mut YakuList, yakuman: bool, fu: u8) {
        if list.is_empty() {
            return;
        }
        let (han, fu, count) = if yakuman {
            let n = list.as_slice().len() as u8;
            (n * YAKUMAN_HAN, 0, n)
        } else {
            for (name, n) in [("dora", d.dora), ("aka dora", d.aka), ("ura dora", d.ura)] {
                if n > 0 {
                    list.push(name, n);
                }
            }
            (list.han(), fu, 0)
        };
        let points = payment(base_points(han, fu, count), f.dealer, f.tsumo).total(f.dealer);
        let key = (points, count, han, fu);
        if !self.found || key > (self.points, self.yakuman, self.han, self.fu) {
            *self = Best { yaku: *list, han, fu, yakuman: count, points, found: true };
        }
    }
}

pub(crate) fn evaluate(ctx: &WinContext) -> Result<HandScore, NoWin> {
    let counted = input::count(ctx)?;
    let f = Facts::new(ctx, counted.concealed, counted.all);
    let d = Dora {
        dora: count_indicated(&f.all, &ctx.dora_markers),
        aka: counted.aka,
        ura: if ctx.riichi == Riichi::None { 0 } else { count_indicated(&f.all, &ctx.ura_markers) },
    };
    let mut best = Best { yaku: YakuList::new(), han: 0, fu: 0, yakuman: 0, points: 0, found: false };
    let mut list = YakuList::new();
    let mut complete = false;
    let melds = &counted.melds[..counted.meld_count];
    for_each_shape(&f.concealed, melds, f.win, f.tsumo, &mut |s| {
        complete = true;
        list.clear();
        yakuman::standard(&f, s, &mut list);
        if list.is_empty() {
            yaku::standard(&f, s, &mut list);
            let fu = fu::standard(&f, s, yaku::is_pinfu(&f, s));
            best.offer(&f, &d, &mut list, false, fu);
        } else {
            best.offer(&f, &d, &mut list, true, 0);
        }
    });
    if counted.meld_count == 0 && is_chiitoitsu(&f.concealed) {
        complete = true;
        list.clear();
        yakuman::chiitoitsu(&f, &mut list);
        if list.is_empty() {
            yaku::chiitoitsu(&f, &mut list);
            best.offer(&f, &d, &mut list, false, fu::CHIITOITSU_FU);
        } else {
            best.offer(&f, &d, &mut list, true, 0);
        }
    }
    if counted.meld_count == 0 && is_kokushi(&f.concealed) {
        complete = true;
        list.clear();
        yakuman::kokushi(&f, &mut list);
        best.offer(&f, &d, &mut list, true, 0);
    }
    match best.found {
        true => Ok(HandScore {
            yaku: best.yaku.as_slice().to_vec(),
            han: best.han,
            fu: best.fu,
            yakuman: best.yakuman,
            payment: payment(base_points(best.han, best.fu, best.yakuman), f.dealer, f.tsumo),
        }),
        false if complete => Err(NoWin::NoYaku),
        false => Err(NoWin::NotAgari),
    }
}
