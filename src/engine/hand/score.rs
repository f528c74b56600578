//! Scores a win: tries every reading of the hand (standard form, chiitoitsu, kokushi) and
//! keeps the best (Tenhou: highest points, then highest han). Ties: a real yakuman beats
//! kazoe yakuman of equal points; then the higher fu is shown for limit hands.

use super::agari::{for_each_shape, is_chiitoitsu, is_kokushi};
use super::facts::Facts;
use super::points::{base_points, payment};
use super::win::{HandScore, NoWin, Riichi, WinContext};
use super::yaku::YakuList;
use super::yakuman::YAKUMAN_HAN;
use super::{fu, input, yaku, yakuman};
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

/// Dora, aka dora, ura dora and nukidora counts of the hand.
struct Dora {
    dora: u8,
    aka: u8,
    ura: u8,
    nuki: u8,
}

/// The dora kind `marker` indicates; three-player (`sanma`): 1m indicates 9m (2m-8m are
/// not in the set; RiichiEnv `state_3p/game_mode.rs` `get_next_dora_tile`: "manzu wraps
/// 1m(0)->9m(8) and 9m(8)->1m(0) directly").
fn indicated(marker: Tile, sanma: bool) -> u8 {
    match marker.kind() {
        0 if sanma => 8,
        _ => marker.dora_from_indicator(),
    }
}

/// Dora counted from `markers`: tiles of the hand (`all`), plus each North set aside by kita
/// when a marker indicates North (RiichiEnv `hand_evaluator_3p.rs`: "they still count as
/// dora/ura-dora when the dora tile is North").
fn count_indicated(all: &[u8; KINDS], markers: &[Tile], extra: &Extra) -> u8 {
    const NORTH: u8 = 30;
    markers
        .iter()
        .map(|&m| indicated(m, extra.sanma))
        .map(|k| all[k as usize] + if k == NORTH { extra.kita } else { 0 })
        .sum()
}

/// What a three-player table adds to a hand's scoring (see [`super::evaluate_with`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Extra {
    /// Three-player dora indicators: 1m indicates 9m.
    pub sanma: bool,
    /// Norths the winner set aside by kita: one han of nukidora each, and dora (ura dora)
    /// once per indicator (ura indicator) that points to North.
    pub kita: u8,
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
            for (name, n) in [("dora", d.dora), ("aka dora", d.aka), ("ura dora", d.ura), ("nukidora", d.nuki)] {
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

pub(crate) fn evaluate(ctx: &WinContext, extra: &Extra) -> Result<HandScore, NoWin> {
    let counted = input::count(ctx, extra.kita)?;
    let f = Facts::new(ctx, counted.concealed, counted.all);
    let d = Dora {
        dora: count_indicated(&f.all, &ctx.dora_markers, extra),
        aka: counted.aka,
        ura: if ctx.riichi == Riichi::None { 0 } else { count_indicated(&f.all, &ctx.ura_markers, extra) },
        nuki: extra.kita,
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
