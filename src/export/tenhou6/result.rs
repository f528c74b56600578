//! The result entry that ends a kyoku in tenhou.net/6: `["和了", deltas, [who, from, pao,
//! point string, yaku...], ...]` for wins (one pair per winner), or a draw's Tenhou name:
//! `["流局", deltas]` (exhaustive, tenpai payments), `["全員聴牌"]`, `["全員不聴"]`,
//! `["流し満貫", deltas]`, and the abortive draws `["九種九牌"]`, `["四家立直"]`,
//! `["三家和了"]`, `["四槓散了"]`, `["四風連打"]` (Tenhou writes no deltas for these).

use serde_json::{json, Value};

use mjai_sim_engine::event::DrawReason;
use mjai_sim_engine::game::{Players, Rules};
use mjai_sim_engine::hand::{evaluate_with, HandScore, Payment};
use mjai_sim_engine::log::{Hora, KyokuLog};

use super::yaku_names::{point_string, yaku_strings};

/// Tenhou's name of the draw that a `ryukyoku` (not a chombo) with `deltas` and `reason`
/// (logged, or inferred by the reader: [`mjai_sim_engine::log::inferred_reason`]) ends `k`
/// with. An exhaustive draw is `流局`, `全員聴牌`, `全員不聴`, or `流し満貫` when the deltas
/// are neither the tenpai payments of Tenhou nor those with karaten paid as tenpai (the
/// mjai-app preset).
pub fn draw_name(k: &KyokuLog, deltas: &[i32; 4], reason: DrawReason) -> &'static str {
    match reason {
        DrawReason::Exhaustive => exhaustive_name(k, deltas),
        DrawReason::KyuushuKyuuhai => "九種九牌",
        DrawReason::FourRiichi => "四家立直",
        DrawReason::FourWinds => "四風連打",
        DrawReason::FourKans => "四槓散了",
        DrawReason::TripleRon => "三家和了",
        DrawReason::Chombo => "流局",
    }
}

/// `流局`, `全員聴牌`, `全員不聴` or `流し満貫` for an exhaustive draw with `deltas`. The
/// presets tried are the table size's: `tenhou` and `mjai-app`, or `tenhou-3p` and
/// `riichi-dev-3p`.
fn exhaustive_name(k: &KyokuLog, deltas: &[i32; 4]) -> &'static str {
    let players = k.start().players;
    let presets = match players {
        Players::Four => [Rules::tenhou(), Rules::mjai_app()],
        Players::Three => [Rules::tenhou_3p(), Rules::riichi_dev_3p()],
    };
    let paid = presets
        .into_iter()
        .map(|rules| tenpai_at_table(k.tenpai_at_draw(&rules), players))
        .find(|&tenpai| tenpai_payments(tenpai, players) == *deltas);
    let Some(tenpai) = paid else { return "流し満貫" };
    match tenpai.iter().filter(|&&x| x).count() {
        0 => "全員不聴",
        n if n == players.count() => "全員聴牌",
        _ => "流局",
    }
}

/// `tenpai` with the seats beyond the table (seat 3 at three seats) set false.
fn tenpai_at_table(tenpai: [bool; 4], players: Players) -> [bool; 4] {
    std::array::from_fn(|s| s < players.count() && tenpai[s])
}

/// Tenhou's noten payments for `tenpai` ([`Players::noten_pool`]: 3000 points split, 2000
/// at three seats).
fn tenpai_payments(tenpai: [bool; 4], players: Players) -> [i32; 4] {
    let seats = players.count() as i32;
    let pool = players.noten_pool();
    let n = tenpai.iter().filter(|&&x| x).count() as i32;
    if n == 0 || n == seats {
        return [0; 4];
    }
    std::array::from_fn(|s| match (s < players.count(), tenpai[s]) {
        (false, _) => 0,
        (true, true) => pool / n,
        (true, false) => -pool / (seats - n),
    })
}

/// Points the winner of `payment` receives before honba and sticks: the ron, or every
/// payer's tsumo share (three payers, two at three seats: tsumo-son).
fn received(payment: &Payment, dealer: bool, players: Players) -> i32 {
    let others = players.count() as i32 - 1;
    if payment.ron > 0 {
        payment.ron
    } else if dealer {
        others * payment.tsumo_ko
    } else {
        payment.tsumo_oya + (others - 1) * payment.tsumo_ko
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

/// The entry of win `h` of kyoku `k`, scored by the engine.
pub fn hora_entry(k: &KyokuLog, h: &Hora) -> HoraEntry {
    match h.score() {
        Ok(score) => scored_entry(k, h, &score),
        Err(e) => HoraEntry { entry: json!([h.actor, h.target, h.actor]), total: None, problem: Some(e.to_string()) },
    }
}

/// The entry of tsumo `h` scored with rinshan kaihou, as the `riichi-dev-3p` preset scores
/// a tsumo on a kita's replacement tile (RiichiEnv `sanma.rs` `resolve_kita_rinshan`;
/// Tenhou gives none: [`mjai_sim_engine::game::Rules::kita_is_rinshan`]). `None` when `h` is
/// no tsumo by a seat that has set a North aside, or does not score so. The caller knows
/// whether the tile drawn replaced a kita.
pub fn kita_rinshan_entry(k: &KyokuLog, h: &Hora) -> Option<HoraEntry> {
    let mut win = h.win.clone().ok()?;
    if !win.tsumo || win.rinshan || h.extra.kita == 0 {
        return None;
    }
    win.rinshan = true;
    let score = evaluate_with(&win, &h.extra).ok()?;
    Some(scored_entry(k, h, &score))
}

/// The entry of win `h` of kyoku `k` worth `score`.
fn scored_entry(k: &KyokuLog, h: &Hora, score: &HandScore) -> HoraEntry {
    let (actor, target) = (h.actor, h.target);
    let pao = h.liable(score).unwrap_or(actor);
    let dealer = actor == k.start().oya;
    let mut v = vec![json!(actor), json!(target), json!(pao), json!(point_string(score, dealer))];
    let jikaze = k.table.jikaze(actor);
    v.extend(yaku_strings(score, jikaze, k.start().bakaze.kind()).into_iter().map(Value::from));
    let total = (pao == actor).then(|| received(&score.payment, dealer, k.start().players));
    HoraEntry { entry: Value::Array(v), total, problem: None }
}
