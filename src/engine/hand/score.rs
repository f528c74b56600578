//! Scores a win: tries every reading of the hand (standard form, chiitoitsu, kokushi) and
//! keeps the best (Tenhou: highest points, then highest han). Ties: a real yakuman beats
//! kazoe yakuman of equal points; then the higher fu is shown for limit hands.

use super::agari::{for_each_shape, is_chiitoitsu, is_kokushi};
use super::facts::Facts;
use super::points::{base_points, payment};
use super::yaku::YakuList;
use super::yakuman::YAKUMAN_HAN;
use super::{fu, input, yaku, yakuman, HandScore, NoWin, Riichi, WinContext};
use crate::engine::tile::{Tile, KINDS};

/// One scored reading.
#[derive(Clone, Copy)]
struct Candidate {
    yaku: YakuList,
    han: u8,
    fu: u8,
    yakuman: u8,
    points: i32,
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

/// Turns yaku lists into a candidate: yakuman if any, else regular yaku plus dora.
fn candidate(f: &Facts, d: &Dora, yakuman: YakuList, regular: impl FnOnce() -> (YakuList, u8)) -> Option<Candidate> {
    if !yakuman.is_empty() {
        let n = yakuman.as_slice().len() as u8;
        let base = base_points(0, 0, n);
        let points = payment(base, f.dealer, f.tsumo).total(f.dealer);
        return Some(Candidate { yaku: yakuman, han: n * YAKUMAN_HAN, fu: 0, yakuman: n, points });
    }
    let (mut list, fu) = regular();
    if list.is_empty() {
        return None;
    }
    for (name, n) in [("dora", d.dora), ("aka dora", d.aka), ("ura dora", d.ura)] {
        if n > 0 {
            list.push(name, n);
        }
    }
    let han = list.han();
    let points = payment(base_points(han, fu, 0), f.dealer, f.tsumo).total(f.dealer);
    Some(Candidate { yaku: list, han, fu, yakuman: 0, points })
}

fn better(new: &Candidate, old: &Option<Candidate>) -> bool {
    old.as_ref().is_none_or(|o| (new.points, new.yakuman, new.han, new.fu) > (o.points, o.yakuman, o.han, o.fu))
}

pub(crate) fn evaluate(ctx: &WinContext) -> Result<HandScore, NoWin> {
    let counted = input::count(ctx)?;
    let f = Facts::new(ctx, counted.concealed, counted.all);
    let d = Dora {
        dora: count_indicated(&f.all, &ctx.dora_markers),
        aka: counted.aka,
        ura: if ctx.riichi == Riichi::None { 0 } else { count_indicated(&f.all, &ctx.ura_markers) },
    };
    let mut best: Option<Candidate> = None;
    let mut complete = false;
    let mut consider = |c: Option<Candidate>| {
        if let Some(c) = c {
            if better(&c, &best) {
                best = Some(c);
            }
        }
    };
    let melds = &counted.melds[..counted.meld_count];
    for_each_shape(&f.concealed, melds, f.win, f.tsumo, &mut |s| {
        complete = true;
        consider(candidate(&f, &d, yakuman::standard(&f, s), || {
            let pinfu = yaku::is_pinfu(&f, s);
            (yaku::standard(&f, s), fu::standard(&f, s, pinfu))
        }));
    });
    if counted.meld_count == 0 && is_chiitoitsu(&f.concealed) {
        complete = true;
        consider(candidate(&f, &d, yakuman::chiitoitsu(&f), || (yaku::chiitoitsu(&f), fu::CHIITOITSU_FU)));
    }
    if counted.meld_count == 0 && is_kokushi(&f.concealed) {
        complete = true;
        consider(candidate(&f, &d, yakuman::kokushi(&f), || (YakuList::new(), 0)));
    }
    match best {
        Some(c) => Ok(HandScore {
            yaku: c.yaku.as_slice().to_vec(),
            han: c.han,
            fu: c.fu,
            yakuman: c.yakuman,
            payment: payment(base_points(c.han, c.fu, c.yakuman), f.dealer, f.tsumo),
        }),
        None if complete => Err(NoWin::NoYaku),
        None => Err(NoWin::NotAgari),
    }
}
