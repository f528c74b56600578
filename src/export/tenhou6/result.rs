//! The result entry that ends a kyoku in tenhou.net/6: `["和了", deltas, [who, from, pao,
//! point string, yaku...], ...]` for wins (one pair per winner), or a draw's Tenhou name:
//! `["流局", deltas]` (exhaustive, tenpai payments), `["全員聴牌"]`, `["全員不聴"]`,
//! `["流し満貫", deltas]`, and the abortive draws `["九種九牌"]`, `["四家立直"]`,
//! `["三家和了"]`, `["四槓散了"]`, `["四風連打"]` (Tenhou writes no deltas for these).

use serde_json::{json, Value};

use crate::engine::event::{DrawReason, Event, Seat};
use crate::engine::hand::Riichi;
use crate::engine::tile::Tile;

use super::hands::{Table, DRAWS};
use super::yaku_names::{point_string, yaku_strings};

/// Tenhou's name of the draw that `ryukyoku` (not a chombo) with `deltas` ends: from the
/// `reason` the engine logged ([`DrawReason`]), else read from the table before it (logs
/// without `reason`, as mjai.app writes them; see [`inferred_reason`]). An exhaustive draw
/// is `流局`, `全員聴牌`, `全員不聴`, or `流し満貫` when the deltas are neither the tenpai
/// payments of Tenhou nor those with karaten paid as tenpai (the mjai-app preset).
pub fn draw_name(t: &Table, deltas: &[i32; 4], reason: Option<DrawReason>) -> &'static str {
    match reason.unwrap_or_else(|| inferred_reason(t)) {
        DrawReason::Exhaustive => exhaustive_name(t, deltas),
        DrawReason::KyuushuKyuuhai => "九種九牌",
        DrawReason::FourRiichi => "四家立直",
        DrawReason::FourWinds => "四風連打",
        DrawReason::FourKans => "四槓散了",
        DrawReason::TripleRon => "三家和了",
        DrawReason::Chombo => "流局",
    }
}

/// Why a `ryukyoku` logged now, without `reason`, ended the hand: the 70th draw discarded
/// → exhaustive; all four in riichi → four riichi (also when the next seat's `tsumo` came
/// first, as mjai.app logs it: a seat in riichi cannot declare kyuushu kyuuhai); after a
/// `tsumo` → kyuushu kyuuhai; otherwise four winds, four kans or triple ron, as the
/// position allows.
pub fn inferred_reason(t: &Table) -> DrawReason {
    let after_discard = matches!(t.last, Some(Event::Dahai { .. } | Event::ReachAccepted { .. }));
    if t.draws == DRAWS && after_discard {
        return DrawReason::Exhaustive;
    }
    let riichi = |s: usize| t.seats[s].riichi != Riichi::None || t.seats[s].declared;
    if (0..4).all(riichi) {
        return DrawReason::FourRiichi;
    }
    if matches!(t.last, Some(Event::Tsumo { .. })) {
        return DrawReason::KyuushuKyuuhai;
    }
    let first = |s: usize| t.seats[s].discards == 1;
    if t.uninterrupted && (0..4).all(first) {
        return DrawReason::FourWinds;
    }
    if t.kan_makers.len() == 4 && t.kan_makers.iter().any(|&m| m != t.kan_makers[0]) {
        return DrawReason::FourKans;
    }
    DrawReason::TripleRon
}

/// `流局`, `全員聴牌`, `全員不聴` or `流し満貫` for an exhaustive draw with `deltas`.
fn exhaustive_name(t: &Table, deltas: &[i32; 4]) -> &'static str {
    let paid = [t.tenpai(), t.tenpai_with_karaten()].into_iter().find(|&tenpai| tenpai_payments(tenpai) == *deltas);
    let Some(tenpai) = paid else { return "流し満貫" };
    match tenpai.iter().filter(|&&x| x).count() {
        4 => "全員聴牌",
        0 => "全員不聴",
        _ => "流局",
    }
}

/// Tenhou's noten payments (3000 points split) for `tenpai`.
fn tenpai_payments(tenpai: [bool; 4]) -> [i32; 4] {
    let n = tenpai.iter().filter(|&&x| x).count() as i32;
    match n {
        0 | 4 => [0; 4],
        _ => tenpai.map(|x| if x { 3000 / n } else { -3000 / (4 - n) }),
    }
}

/// True for the draws Tenhou writes with deltas.
pub fn draw_has_deltas(name: &str) -> bool {
    matches!(name, "流局" | "流し満貫")
}

/// One win as exported.
pub struct HoraEntry {
    /// `[who, from, pao, point string, yaku...]`; `pao` is `who` when nobody is liable.
    pub entry: Value,
    /// Points of the hand before honba and sticks (ron amount or the sum of the tsumo
    /// shares), when scored and without pao: what the logged deltas are checked against.
    pub total: Option<i32>,
    /// Why the engine could not score the hand the log shows (then `entry` holds who, from
    /// and pao only, as Tenhou writes for a hand it does not show).
    pub problem: Option<String>,
}

/// Scores `actor`'s win on `target` (itself for tsumo) from the table.
pub fn hora_entry(t: &Table, actor: Seat, target: Seat, ura: &[Tile]) -> HoraEntry {
    match t.score(actor, target, ura) {
        Ok(score) => {
            let pao = t.seats[actor as usize]
                .pao
                .filter(|(_, y)| score.yaku.iter().any(|(n, _)| n == y))
                .map_or(actor, |(p, _)| p);
            let mut v = vec![json!(actor), json!(target), json!(pao), json!(point_string(&score, actor == t.oya))];
            v.extend(yaku_strings(&score, t.jikaze(actor), t.bakaze).into_iter().map(Value::from));
            let total = (pao == actor).then(|| score.payment.total(actor == t.oya));
            HoraEntry { entry: Value::Array(v), total, problem: None }
        }
        Err(e) => HoraEntry { entry: json!([actor, target, actor]), total: None, problem: Some(e.to_string()) },
    }
}
