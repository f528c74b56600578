//! tenhou.net/6 export: one JSON game that Tenhou's viewer (`https://tenhou.net/6/#json=`)
//! and mjai-reviewer (its `convlog` crate) read, made from an mjai log.
//!
//! Shape (Tenhou's): `{"title":[..,..],"name":[4 names],"rule":{"disp":"般南喰赤","aka":1},
//! "log":[kyoku...],"sc":[score, result, ...]}` where each kyoku is
//! `[[kyoku index, honba, kyotaku], start scores, dora indicators, ura indicators,
//! haipai0, takes0, discards0, ... haipai3, takes3, discards3, result]`; the kyoku index is
//! `4 * round + hand` (East 1 = 0, South 1 = 4, West 1 = 8); tiles and call strings as in
//! [`tiles`]; the result as in [`result`]. `sc` gives final scores (leftover riichi sticks to
//! the top, Tenhou) and results `(points - 30000) / 1000` plus Tenhou's uma 20/10/-10/-20
//! and the 20 oka to the top. Ura indicators are listed when a riichi winner shows them.
//!
//! Beyond Tenhou: `"notes"` (left out when empty) lists, per kyoku, what Tenhou's format
//! cannot say: a chombo (exported as `流局` with its deltas), a win whose hand the engine
//! scores differently from the logged deltas, a tile the log never dealt.

pub mod hands;
pub mod result;
pub mod tiles;
pub mod yaku_names;

use serde::Serialize;
use serde_json::{json, Value};

use crate::engine::event::{DrawReason, Event, Seat};
use crate::engine::game::final_scores;
use crate::engine::game::rank_order;
use crate::engine::tile::Tile;

use hands::Table;

/// The game in tenhou.net/6 form (serialise with serde_json; field order is Tenhou's).
#[derive(Debug, Clone, Serialize)]
pub struct Tenhou6 {
    /// Title and subtitle: `["mjai-sim", "seed S,K"]` (empty subtitle without a seed).
    pub title: [String; 2],
    /// Player names, seat order.
    pub name: [String; 4],
    /// `{"disp": "般南喰赤", "aka": 1}`: East+South hanchan, open tanyao, red fives.
    pub rule: Value,
    /// One array per kyoku (see the module doc).
    pub log: Vec<Value>,
    /// `[score0, result0, score1, result1, ...]`: final points and results (see the module doc).
    pub sc: Vec<Value>,
    /// What Tenhou's format cannot say, one line each, prefixed with the kyoku (`E2-1:`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// An entry of the game's `errors.json`, used to explain a chombo in [`Tenhou6::notes`].
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
pub struct ErrorNote {
    /// Kyoku label as in `errors.json` (`"E1-0"`).
    pub kyoku: String,
    /// The offending seat.
    pub player_id: Seat,
    /// `invalid`, `timeout`, ...
    pub error_type: String,
    /// One-line message.
    #[serde(default)]
    pub exception: String,
}

/// Why a log cannot be exported at all (anything less gets a note instead).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExportError {
    /// No `start_kyoku` in the log.
    #[error("the log has no start_kyoku: nothing to export (give a whole mjai log, start_game first)")]
    NoKyoku,
    /// An event before the first `start_kyoku` or after `end_kyoku` that needs a kyoku.
    #[error("log line {0}: {1} outside a kyoku (every hand event must follow its start_kyoku)")]
    OutsideKyoku(usize, String),
}

/// One kyoku being built.
struct Kyoku {
    label: String,
    head: Vec<Value>,
    table: Table,
    haipai: [Vec<u8>; 4],
    takes: [Vec<Value>; 4],
    discards: [Vec<Value>; 4],
    pons: [Vec<(u8, String)>; 4],
    result: Vec<Value>,
    ura: Vec<Tile>,
    honba: u8,
}

/// Exports `log` (an mjai log: `start_game`, kyoku from `start_kyoku` to `end_kyoku`,
/// `end_game`; ours, mjai.app's or Mortal's; a log cut after any `end_kyoku` gives the
/// kyoku it holds). `errors` (the game's `errors.json`, may be empty) explains chombos.
///
/// Errors: [`ExportError`] when the log has no kyoku or hand events outside a kyoku. A
/// kyoku the log cuts short gets `流局` and a note.
pub fn export(log: &[Event], errors: &[ErrorNote]) -> Result<Tenhou6, ExportError> {
    let mut out = Tenhou6 {
        title: ["mjai-sim".into(), String::new()],
        name: ["0", "1", "2", "3"].map(String::from),
        rule: json!({"disp": "般南喰赤", "aka": 1}),
        log: Vec::new(),
        sc: Vec::new(),
        notes: Vec::new(),
    };
    let mut cur: Option<Kyoku> = None;
    let mut scores = [25000i32; 4];
    let mut kyotaku = 0u8;
    for (i, e) in log.iter().enumerate() {
        match e {
            Event::StartGame { names, seed, .. } => {
                if let Some(n) = names {
                    out.name = (**n).clone();
                }
                if let Some([s, k]) = seed {
                    out.title[1] = format!("seed {s},{k}");
                }
            }
            Event::StartKyoku { bakaze, dora_marker, kyoku, honba, kyotaku: sticks, oya, scores: sc, tehais } => {
                if let Some(k) = cur.take() {
                    finish(k, &mut out, "the log starts the next kyoku before end_kyoku");
                }
                scores = *sc;
                kyotaku = *sticks;
                let round = bakaze.kind().saturating_sub(27);
                let index = 4 * round + kyoku.saturating_sub(1);
                let label = format!("{}{}-{}", bakaze, kyoku, honba);
                cur = Some(Kyoku {
                    label,
                    head: vec![json!([index, honba, sticks]), json!(sc)],
                    table: Table::new(*bakaze, *oya, *dora_marker, tehais),
                    haipai: std::array::from_fn(|s| {
                        tiles::sorted(&tehais[s]).iter().map(|&t| tiles::code(t)).collect()
                    }),
                    takes: Default::default(),
                    discards: Default::default(),
                    pons: Default::default(),
                    result: Vec::new(),
                    ura: Vec::new(),
                    honba: *honba,
                });
            }
            Event::EndKyoku => match cur.take() {
                Some(k) => finish(k, &mut out, "the kyoku has no hora or ryukyoku"),
                None => return Err(ExportError::OutsideKyoku(i + 1, e.to_json())),
            },
            Event::EndGame | Event::None => {}
            _ => {
                let Some(k) = cur.as_mut() else {
                    return Err(ExportError::OutsideKyoku(i + 1, e.to_json()));
                };
                step(k, e, errors, &mut scores, &mut kyotaku, &mut out.notes);
            }
        }
    }
    if let Some(k) = cur.take() {
        finish(k, &mut out, "the log ends inside this kyoku");
    }
    if out.log.is_empty() {
        return Err(ExportError::NoKyoku);
    }
    let fin = final_scores(scores, kyotaku);
    let order = rank_order(fin);
    const UMA: [f64; 4] = [40.0, 10.0, -10.0, -20.0];
    for (s, &score) in fin.iter().enumerate() {
        let place = order.iter().position(|&o| o == s).unwrap_or(3);
        let result = (f64::from(score - 30000) / 1000.0 + UMA[place]) * 10.0;
        out.sc.push(json!(score));
        out.sc.push(json!(result.round() / 10.0));
    }
    Ok(out)
}

/// Records one hand event of kyoku `k` in its arrays, its table and the running scores.
fn step(
    k: &mut Kyoku,
    e: &Event,
    errors: &[ErrorNote],
    scores: &mut [i32; 4],
    sticks: &mut u8,
    notes: &mut Vec<String>,
) {
    let label = k.label.clone();
    let mut note = |s: String| notes.push(format!("{label}: {s}"));
    match e {
        Event::Tsumo { actor, pai } => k.takes[*actor as usize].push(json!(tiles::code(*pai))),
        Event::Dahai { actor, pai, tsumogiri } => {
            let a = *actor as usize;
            let c = if *tsumogiri { 60 } else { tiles::code(*pai) };
            let v = if k.table.seats[a].declared { json!(format!("r{c}")) } else { json!(c) };
            k.discards[a].push(v);
        }
        Event::Chi { actor, pai, consumed, .. } => k.takes[*actor as usize].push(json!(tiles::chi(*pai, consumed))),
        Event::Pon { actor, target, pai, consumed } => {
            let s = tiles::pon(*actor, *target, *pai, consumed);
            k.pons[*actor as usize].push((pai.kind(), s.clone()));
            k.takes[*actor as usize].push(json!(s));
        }
        Event::Daiminkan { actor, target, pai, consumed } => {
            k.takes[*actor as usize].push(json!(tiles::daiminkan(*actor, *target, *pai, consumed)));
            k.discards[*actor as usize].push(json!(0));
        }
        Event::Kakan { actor, pai, .. } => {
            let pon = k.pons[*actor as usize].iter().find(|(kind, _)| *kind == pai.kind()).map(|(_, s)| s.clone());
            match pon {
                Some(p) => k.discards[*actor as usize].push(json!(tiles::kakan(&p, *pai))),
                None => note(format!("kakan of {pai} by seat {actor} without a pon: left out")),
            }
        }
        Event::Ankan { actor, consumed } => k.discards[*actor as usize].push(json!(tiles::ankan(consumed))),
        Event::ReachAccepted { actor } => {
            scores[*actor as usize] -= 1000;
            *sticks += 1;
        }
        Event::Hora { actor, target, deltas, ura_markers, .. } => {
            let ura = ura_markers.clone().unwrap_or_default();
            if ura.len() > k.ura.len() {
                k.ura = ura.clone();
            }
            let h = result::hora_entry(&k.table, *actor, *target, &ura);
            let d = deltas.unwrap_or([0; 4]);
            if let Some(p) = &h.problem {
                note(format!("hora by seat {actor}: the engine cannot score the logged hand ({p})"));
            }
            let first = k.result.is_empty();
            if let Some(total) = h.total {
                let (honba, kyo) = if first { (i32::from(k.honba), i32::from(*sticks)) } else { (0, 0) };
                // Ron: 300 per honba from the discarder; tsumo: 100 from each of three.
                let extra = 300 * honba + 1000 * kyo;
                if d[*actor as usize] != total + extra {
                    note(format!(
                        "hora by seat {actor}: the engine scores {total} points (+{extra} honba and sticks), the log's deltas give {}",
                        d[*actor as usize]
                    ));
                }
            }
            if first {
                k.result.push(json!("和了"));
                *sticks = 0;
            }
            k.result.push(json!(d));
            k.result.push(h.entry);
            add(scores, &d);
        }
        Event::Ryukyoku { actor, deltas, reason } => {
            let d = deltas.unwrap_or([0; 4]);
            if reason.as_deref() == Some("error") {
                let who = actor.map_or("?".to_string(), |a| a.to_string());
                let why: Vec<String> = errors
                    .iter()
                    .filter(|x| x.kyoku == k.label && actor.is_none_or(|a| a == x.player_id))
                    .map(|x| format!("{}: {}", x.error_type, x.exception))
                    .collect();
                let why = if why.is_empty() { String::new() } else { format!(" ({})", why.join("; ")) };
                note(format!("chombo by seat {who}{why}: exported as 流局 with its deltas {d:?}"));
                k.result = vec![json!("流局"), json!(d)];
            } else {
                let name = result::draw_name(&k.table, &d, DrawReason::of(e));
                // mjai.app draws the next tile before a four-riichi abort; Tenhou does not.
                if let (Some(Event::Tsumo { actor, .. }), "四家立直") = (&k.table.last, name) {
                    k.takes[usize::from(*actor)].pop();
                    note(format!("four riichi: seat {actor}'s tsumo before the abort (mjai.app) is left out"));
                }
                k.result = vec![json!(name)];
                if result::draw_has_deltas(name) {
                    k.result.push(json!(d));
                }
            }
            add(scores, &d);
        }
        _ => {}
    }
    if let Err(p) = k.table.apply(e) {
        notes.push(format!("{}: {p}", k.label));
    }
}

fn add(scores: &mut [i32; 4], d: &[i32; 4]) {
    for (s, x) in scores.iter_mut().zip(d) {
        *s += x;
    }
}

/// Closes kyoku `k` into `out.log`; `missing` is the note when it has no result.
fn finish(mut k: Kyoku, out: &mut Tenhou6, missing: &str) {
    if k.result.is_empty() {
        out.notes.push(format!("{}: {missing}; exported as 流局", k.label));
        k.result.push(json!("流局"));
    }
    let ura: Vec<u8> = k.ura.iter().map(|&t| tiles::code(t)).collect();
    let dora: Vec<u8> = k.table.dora.iter().map(|&t| tiles::code(t)).collect();
    let mut v = k.head;
    v.push(json!(dora));
    v.push(json!(ura));
    for s in 0..4 {
        v.push(json!(k.haipai[s]));
        v.push(Value::Array(std::mem::take(&mut k.takes[s])));
        v.push(Value::Array(std::mem::take(&mut k.discards[s])));
    }
    v.push(Value::Array(k.result));
    out.log.push(Value::Array(v));
}

/// One `https://tenhou.net/6/#json=` link per kyoku: the game with only that kyoku, as
/// compact JSON (Tenhou's viewer reads it from the fragment; nothing is fetched).
pub fn kyoku_urls(game: &Tenhou6) -> Vec<String> {
    game.log
        .iter()
        .map(|k| {
            let one = Tenhou6 { log: vec![k.clone()], sc: Vec::new(), notes: Vec::new(), ..game.clone() };
            format!("https://tenhou.net/6/#json={}", serde_json::to_string(&one).expect("JSON values serialise"))
        })
        .collect()
}
