//! The result entry that ends a kyoku in tenhou.net/6: `["和了", deltas, [who, from, pao,
//! point string, yaku...], ...]` for wins (one pair per winner), or a draw's Tenhou name:
//! `["流局", deltas]` (exhaustive, tenpai payments), `["全員聴牌"]`, `["全員不聴"]`,
//! `["流し満貫", deltas]`, and the abortive draws `["九種九牌"]`, `["四家立直"]`,
//! `["三家和了"]`, `["四槓散了"]`, `["四風連打"]` (Tenhou writes no deltas for these).

use serde_json::{json, Value};

use crate::engine::event::{Event, Seat};
use crate::engine::hand::Riichi;
use crate::engine::tile::Tile;

use super::hands::{Table, DRAWS};
use super::yaku_names::{point_string, yaku_strings};

/// Tenhou's name of the draw that `ryukyoku` (not a chombo) with `deltas` ends, read from the
/// table before it: the 70th draw discarded → exhaustive (`流局`, `全員聴牌`, `全員不聴`, or
/// `流し満貫` when the deltas are not the tenpai payments); otherwise the abortive draw the
/// position allows.
pub fn draw_name(t: &Table, deltas: &[i32; 4]) -> &'static str {
    let after_discard = matches!(t.last, Some(Event::Dahai { .. } | Event::ReachAccepted { .. }));
    if t.draws == DRAWS && after_discard {
        let tenpai = t.tenpai();
        let n = tenpai.iter().filter(|&&x| x).count() as i32;
        let payments: [i32; 4] = match n {
            0 | 4 => [0; 4],
            _ => tenpai.map(|x| if x { 3000 / n } else { -3000 / (4 - n) }),
        };
        return match (deltas == &payments, n) {
            (false, _) => "流し満貫",
            (true, 4) => "全員聴牌",
            (true, 0) => "全員不聴",
            (true, _) => "流局",
        };
    }
    if matches!(t.last, Some(Event::Tsumo { .. })) {
        return "九種九牌";
    }
    let riichi = |s: usize| t.seats[s].riichi != Riichi::None || t.seats[s].declared;
    if (0..4).all(riichi) {
        return "四家立直";
    }
    let first = |s: usize| t.seats[s].discards == 1;
    if t.uninterrupted && (0..4).all(first) {
        return "四風連打";
    }
    if t.kan_makers.len() == 4 && t.kan_makers.iter().any(|&m| m != t.kan_makers[0]) {
        return "四槓散了";
    }
    "三家和了"
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
