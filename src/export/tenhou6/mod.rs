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
//! A three-player log (seat 3 empty in `start_kyoku`, [`KyokuStart::players`]) gives
//! Tenhou's three-player form: `"三般南喰赤"`, seat 3 an empty place (name `""`, score and
//! deltas 0, no tiles), kita as `"f44"` among the discards, nukidora counted as dora,
//! results from 40,000 with uma +20/0/−20 and 15 oka to the top ([`sanma`], with sources).
//!
//! Beyond Tenhou: `"notes"` (left out when empty) lists, per kyoku, what Tenhou's format
//! cannot say: a chombo (exported as `流局` with its deltas), a win whose hand the engine
//! scores differently from the logged deltas, a tile the log never dealt.

pub mod result;
pub mod sanma;
pub mod tiles;
pub mod yaku_names;

use serde::Serialize;
use serde_json::{json, Value};

use mjai_sim_engine::event::{DrawReason, Event, Seat};
use mjai_sim_engine::game::{rank_order_for, Players, MAX_SEATS};
use mjai_sim_engine::log::{read, Action, Closing, Ending, Hora, KyokuLog, KyokuStart, Ryukyoku};

/// The game in tenhou.net/6 form (serialise with serde_json; field order is Tenhou's).
#[derive(Debug, Clone, Serialize)]
pub struct Tenhou6 {
    /// Title and subtitle: `["mjai-sim", "seed S,K"]` (empty subtitle without a seed).
    pub title: [String; 2],
    /// Player names, seat order (the fourth `""` at three seats).
    pub name: [String; 4],
    /// `{"disp": "般南喰赤", "aka": 1}`: East+South hanchan, open tanyao, red fives
    /// (`"三般南喰赤"` at three seats).
    pub rule: Value,
    /// One array per kyoku (see the module doc).
    pub log: Vec<Value>,
    /// `[score0, result0, score1, result1, ...]`: final points and results (see the module
    /// doc); `0, 0` for the empty seat 3 of a three-player game.
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

/// The entries of an `errors.json` text that are notes ([`ErrorNote`]); others (mjai.app
/// writes `[{}]` for none) are skipped. Errors: the text is not a JSON list.
pub fn error_notes(text: &str) -> Result<Vec<ErrorNote>, serde_json::Error> {
    let values: Vec<serde_json::Value> = serde_json::from_str(text)?;
    Ok(values.into_iter().filter_map(|v| serde_json::from_value(v).ok()).collect())
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

/// Exports `log` (an mjai log: `start_game`, kyoku from `start_kyoku` to `end_kyoku`,
/// `end_game`; ours, mjai.app's or Mortal's; a log cut after any `end_kyoku` gives the
/// kyoku it holds). `errors` (the game's `errors.json`, may be empty) explains chombos.
///
/// Errors: [`ExportError`] when the log has no kyoku or hand events outside a kyoku. A
/// kyoku the log cuts short gets `流局` and a note.
pub fn export(log: &[Event], errors: &[ErrorNote]) -> Result<Tenhou6, ExportError> {
    let game = read(log);
    if let Some(&i) = game.outside.first() {
        return Err(ExportError::OutsideKyoku(i + 1, log[i].to_json()));
    }
    if game.kyokus.is_empty() {
        return Err(ExportError::NoKyoku);
    }
    let players = game.kyokus.first().map_or(Players::Four, |k| k.start().players);
    let mut name = game.names.clone().unwrap_or_else(|| ["0", "1", "2", "3"].map(String::from));
    name.iter_mut().skip(players.count()).for_each(String::clear);
    let mut out = Tenhou6 {
        title: ["mjai-sim".into(), game.seed.map_or(String::new(), |[s, k]| format!("seed {s},{k}"))],
        name,
        rule: json!({"disp": sanma::rule_disp(players), "aka": 1}),
        log: Vec::new(),
        sc: Vec::new(),
        notes: Vec::new(),
    };
    for k in &game.kyokus {
        out.log.push(kyoku_entry(log, k, errors, &mut out.notes));
    }
    let fin = game.final_scores();
    let order = rank_order_for(fin, players);
    let uma = sanma::uma(players);
    for (s, &score) in fin.iter().enumerate() {
        if s >= players.count() {
            out.sc.extend([json!(0), json!(0)]);
            continue;
        }
        let place = order.iter().position(|&o| o == s).unwrap_or(uma.len() - 1);
        let result = (f64::from(score - sanma::returned(players)) / 1000.0 + uma[place]) * 10.0;
        out.sc.push(json!(score));
        out.sc.push(json!(result.round() / 10.0));
    }
    Ok(out)
}

/// One kyoku's array (see the module doc); its notes go to `notes`, prefixed with its label,
/// in log order.
fn kyoku_entry(log: &[Event], k: &KyokuLog, errors: &[ErrorNote], notes: &mut Vec<String>) -> Value {
    let label = k.label();
    let st = k.start();
    let index = 4 * st.bakaze.kind().saturating_sub(27) + st.kyoku.saturating_sub(1);
    let mut at: Vec<(usize, String)> = k.problems.iter().map(|p| (p.index, p.message.clone())).collect();
    let (mut takes, discards) = rivers(k);
    let mut result = Vec::new();
    for ending in &k.endings {
        match ending {
            Ending::Hora(h) => hora(log, k, h, &mut result, &mut at),
            Ending::Ryukyoku(r) => {
                result = ryukyoku(k, r, &label, errors, &mut at);
                // mjai.app draws the next tile before a four-riichi abort; Tenhou does not.
                if let (Some(a), Some("四家立直")) = (r.after_tsumo, result.first().and_then(Value::as_str)) {
                    if let Some(t) = takes.get_mut(usize::from(a)) {
                        t.pop();
                    }
                    at.push((
                        r.index,
                        format!("four riichi: seat {a}'s tsumo before the abort (mjai.app) is left out"),
                    ));
                }
            }
        }
    }
    at.sort_by_key(|(i, _)| *i);
    notes.extend(at.into_iter().map(|(_, n)| format!("{label}: {n}")));
    if result.is_empty() {
        let missing = match k.closing {
            Closing::EndKyoku(_) => "the kyoku has no hora or ryukyoku",
            Closing::NextKyoku => "the log starts the next kyoku before end_kyoku",
            Closing::LogEnd => "the log ends inside this kyoku",
        };
        notes.push(format!("{label}: {missing}; exported as 流局"));
        result.push(json!("流局"));
    }
    let codes = |ts: &[mjai_sim_engine::tile::Tile]| ts.iter().map(|&t| tiles::code(t)).collect::<Vec<u8>>();
    let mut v = vec![json!([index, st.honba, st.kyotaku]), json!(st.scores)];
    v.push(json!(codes(&k.table.dora_markers)));
    v.push(json!(codes(&k.ura_markers)));
    for (s, (take, discard)) in takes.into_iter().zip(discards).enumerate() {
        // The empty seat of a three-player table: no haipai (Tenhou writes `[]`).
        let haipai = if s < st.players.count() { codes(&tiles::sorted(&st.tehais[s])) } else { Vec::new() };
        v.push(json!(haipai));
        v.push(Value::Array(take));
        v.push(Value::Array(discard));
    }
    v.push(Value::Array(result));
    Value::Array(v)
}

/// Each seat's takes (draws and calls) and discards (with kans and kita) in Tenhou's
/// notation.
fn rivers(k: &KyokuLog) -> ([Vec<Value>; MAX_SEATS], [Vec<Value>; MAX_SEATS]) {
    let mut takes: [Vec<Value>; MAX_SEATS] = Default::default();
    let mut discards: [Vec<Value>; MAX_SEATS] = Default::default();
    for (s, seat) in k.table.seats.iter().enumerate() {
        let actor = s as Seat;
        let (take, discard) = (&mut takes[s], &mut discards[s]);
        for (i, a) in seat.actions.iter().enumerate() {
            match a {
                Action::Tsumo { pai, .. } => take.push(json!(tiles::code(*pai))),
                Action::Dahai { pai, tsumogiri, riichi } => {
                    let c = if *tsumogiri { 60 } else { tiles::code(*pai) };
                    discard.push(if *riichi { json!(format!("r{c}")) } else { json!(c) });
                }
                Action::Chi { pai, consumed, .. } => take.push(json!(tiles::chi(*pai, consumed))),
                Action::Pon { target, pai, consumed } => take.push(json!(tiles::pon(actor, *target, *pai, consumed))),
                Action::Daiminkan { target, pai, consumed } => {
                    take.push(json!(tiles::daiminkan(actor, *target, *pai, consumed)));
                    discard.push(json!(0));
                }
                Action::Kakan { pai, .. } => {
                    // The pon it adds to; without one (the reader lists the problem) it is left out.
                    let pon = seat.actions[..i].iter().find_map(|p| match p {
                        Action::Pon { target, pai: called, consumed } if called.kind() == pai.kind() => {
                            Some(tiles::pon(actor, *target, *called, consumed))
                        }
                        _ => None,
                    });
                    if let Some(p) = pon {
                        discard.push(json!(tiles::kakan(&p, *pai)));
                    }
                }
                Action::Ankan { consumed } => discard.push(json!(tiles::ankan(consumed))),
                Action::Kita { pai } => discard.push(json!(sanma::kita(*pai))),
            }
        }
    }
    (takes, discards)
}

/// Adds one `hora` of `log` to the kyoku's result (`和了` first), noting a hand the engine
/// cannot score or scores to other points than the logged deltas. A tsumo on a kita's
/// replacement tile that the deltas pay with rinshan kaihou (the `riichi-dev-3p` preset;
/// Tenhou gives none) is exported so, with a note.
fn hora(log: &[Event], k: &KyokuLog, h: &Hora, result: &mut Vec<Value>, notes: &mut Vec<(usize, String)>) {
    let actor = h.actor;
    let d = h.deltas.unwrap_or([0; 4]);
    let first = result.is_empty();
    let (honba, kyo) = if first { (i32::from(k.start().honba), i32::from(h.kyotaku)) } else { (0, 0) };
    // 100 per honba per other seat: ron 300 from the discarder, tsumo 100 from each of
    // three (200 and two at three seats).
    let extra = honba_per_stick(k.start()) * honba + 1000 * kyo;
    let gain = d.get(usize::from(actor)).copied().unwrap_or(0);
    let mut entry = result::hora_entry(k, h);
    if entry.total.is_none_or(|t| t + extra != gain) && after_kita(log, h) {
        if let Some(alt) = result::kita_rinshan_entry(k, h).filter(|e| e.total.is_some_and(|t| t + extra == gain)) {
            notes.push((
                h.index,
                format!("hora by seat {actor}: a tsumo on a kita's replacement tile, paid with rinshan kaihou (riichi-dev-3p; Tenhou gives none)"),
            ));
            entry = alt;
        }
    }
    if let Some(p) = &entry.problem {
        notes.push((h.index, format!("hora by seat {actor}: the engine cannot score the logged hand ({p})")));
    }
    if let Some(total) = entry.total {
        if gain != total + extra {
            notes.push((
                h.index,
                format!(
                    "hora by seat {actor}: the engine scores {total} points (+{extra} honba and sticks), the log's deltas give {gain}"
                ),
            ));
        }
    }
    if first {
        result.push(json!("和了"));
    }
    result.push(json!(d));
    result.push(entry.entry);
}

/// True when `h` is a tsumo whose tile replaced the winner's kita (`kita`, then `tsumo`,
/// then this `hora`).
fn after_kita(log: &[Event], h: &Hora) -> bool {
    let before = |n: usize| h.index.checked_sub(n).and_then(|i| log.get(i));
    h.is_tsumo()
        && matches!(before(1), Some(Event::Tsumo { actor, .. }) if *actor == h.actor)
        && matches!(before(2), Some(Event::Kita { actor, .. }) if *actor == h.actor)
}

/// Points one honba stick adds to a win: 100 from (or for) each other seat at the table.
fn honba_per_stick(start: &KyokuStart) -> i32 {
    100 * (start.players.count() as i32 - 1)
}

/// The result of a `ryukyoku`: a chombo as `流局` with its deltas (and a note naming the
/// errors behind it), else the draw's Tenhou name, with its deltas when Tenhou writes them.
fn ryukyoku(
    k: &KyokuLog,
    r: &Ryukyoku,
    label: &str,
    errors: &[ErrorNote],
    notes: &mut Vec<(usize, String)>,
) -> Vec<Value> {
    let d = r.deltas.unwrap_or([0; 4]);
    if r.reason == DrawReason::Chombo {
        let who = r.actor.map_or("?".to_string(), |a| a.to_string());
        let why: Vec<String> = errors
            .iter()
            .filter(|x| x.kyoku == label && r.actor.is_none_or(|a| a == x.player_id))
            .map(|x| format!("{}: {}", x.error_type, x.exception))
            .collect();
        let why = if why.is_empty() { String::new() } else { format!(" ({})", why.join("; ")) };
        notes.push((r.index, format!("chombo by seat {who}{why}: exported as 流局 with its deltas {d:?}")));
        return vec![json!("流局"), json!(d)];
    }
    let name = result::draw_name(k, &d, r.reason);
    let mut v = vec![json!(name)];
    if result::draw_has_deltas(name) {
        v.push(json!(d));
    }
    v
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
