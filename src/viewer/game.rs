//! What the game viewer shows, derived from a log: the events as logged (every line, `meta`
//! and unknown fields kept), the kyoku list with each hand's result, the yaku, han, fu and
//! points of each `hora` scored by the engine (re-derived by replaying the log), chombos
//! with their `errors.json` entries and the bot's stderr tail, unknown event types, and the
//! first place where the log fails verification. The page's script only displays this.
//!
//! A three-player log (seat 3 empty in `start_kyoku`, [`KyokuStart::players`]) shows three
//! seats and each seat's kita. Such a log does not say which three-player preset it was
//! played under (`riichi-dev-3p` and `tenhou-3p` differ, docs/rules.md), so it is not
//! replayed: its wins are scored by the log reader (the scorer of
//! `export` and `dataset`, [`mjai_sim_engine::log::Hora::score`]) and its failure is the first
//! place where the reader finds the log contradicting itself ([`GameData::unverified`] says
//! so on the page).

use serde::Serialize;
use serde_json::Value;

use super::ViewError;
use mjai_sim_engine::event::{DrawReason, Event, Seat};
use mjai_sim_engine::game::replay::replay_observed;
use mjai_sim_engine::game::Players;
use mjai_sim_engine::hand::{evaluate_with, HandScore};
use mjai_sim_engine::log::{read, Closing, Ending, GameLog, Hora, KyokuLog, KyokuStart};

/// The files of one game, as text. Only `log` is required.
#[derive(Debug, Clone, Default)]
pub struct GameInput<'a> {
    /// Page title (e.g. the game folder's name).
    pub title: String,
    /// `mjai_log.json`: one JSON event per line.
    pub log: &'a str,
    /// `errors.json` (an array of entries: `error_type`, `exception`, `player_id`, `kyoku`,
    /// `line`, optionally `stderr_tail`), when present.
    pub errors_json: Option<&'a str>,
    /// The end of each seat's stderr log (`player_logs.{SEAT}.stderr.txt`), when present;
    /// shown with a chombo whose `errors.json` entry has no `stderr_tail` of its own.
    pub stderr_tails: [Option<String>; 4],
}

/// Event types of the mjai protocol (anything else is listed as unknown and skipped);
/// `kita` is three-player, `nukidora` its Mortal-family alias.
const KNOWN: [&str; 19] = [
    "start_game",
    "start_kyoku",
    "tsumo",
    "dahai",
    "chi",
    "pon",
    "daiminkan",
    "kakan",
    "ankan",
    "dora",
    "reach",
    "reach_accepted",
    "hora",
    "ryukyoku",
    "end_kyoku",
    "end_game",
    "none",
    "kita",
    "nukidora",
];

/// Everything the page displays, serialised as JSON into it.
#[derive(Debug, Clone, Serialize)]
pub struct GameData {
    /// Page title.
    pub title: String,
    /// Seats at the table: 4, or 3 for a three-player log (read from its first
    /// `start_kyoku`); seat-indexed arrays keep four entries, the page shows this many.
    pub players: usize,
    /// Why the log was not verified by replaying it (a three-player log, see the module
    /// doc); `None` when it was.
    pub unverified: Option<String>,
    /// Player names by seat (`start_game.names`, else `"0".."3"`).
    pub names: [String; 4],
    /// Every log line that parsed as a JSON object, in order (index = line number - 1 of
    /// the non-empty lines), as written (with `meta` and other extra fields).
    pub events: Vec<Value>,
    /// One entry per `start_kyoku`.
    pub kyokus: Vec<KyokuEntry>,
    /// Engine scores of the `hora` events, keyed by event index.
    pub horas: Vec<HoraInfo>,
    /// Chombos (`ryukyoku` with `"reason":"error"`).
    pub chombos: Vec<ChomboInfo>,
    /// Events of a type the protocol does not have (listed, skipped by the viewer).
    pub unknown: Vec<UnknownEvent>,
    /// The first place where the log fails verification (bad JSON, a malformed event, or
    /// an event the engine would not have written); the game is shown up to there.
    pub failure: Option<Failure>,
    /// Final scores in points (leftover riichi sticks to the first place, Tenhou), when the
    /// log reaches `end_game`.
    pub final_scores: Option<[i32; 4]>,
}

/// One hand in the kyoku list.
#[derive(Debug, Clone, Serialize)]
pub struct KyokuEntry {
    /// `E1-0`: round wind, hand number, honba.
    pub label: String,
    /// Index of its `start_kyoku` in `events`.
    pub start: usize,
    /// Index of its last event (`end_kyoku`, or the last event of a cut log).
    pub end: usize,
    /// One line per result: `"ron 2 from 0 +3900"`, `"tsumo 1 +8000"`, `"draw"`, `"chombo 3"`.
    pub result: Vec<String>,
}

/// The engine's score of one `hora`.
#[derive(Debug, Clone, Serialize)]
pub struct HoraInfo {
    /// Index of the `hora` in `events`.
    pub event: usize,
    /// Winner seat.
    pub actor: Seat,
    /// Seat that dealt in (the winner itself for tsumo).
    pub target: Seat,
    /// Yaku names (English romanisation, as `mjai-sim hand` prints them) with their han.
    pub yaku: Vec<(String, u8)>,
    /// Total han (13 per yakuman).
    pub han: u8,
    /// Fu (0 for yakuman).
    pub fu: u8,
    /// Yakuman count (0 for other hands).
    pub yakuman: u8,
    /// Points before honba and kyotaku: `"3900"` for ron, `"1000/2000"` (non-dealers /
    /// dealer) or `"4000 all"` for tsumo.
    pub points: String,
}

/// One chombo with what explains it.
#[derive(Debug, Clone, Serialize)]
pub struct ChomboInfo {
    /// Index of the `ryukyoku` in `events`.
    pub event: usize,
    /// The offender the log names.
    pub actor: Option<Seat>,
    /// Hand label, `E1-0`.
    pub kyoku: String,
    /// The `errors.json` entries of this hand (all fields as written).
    pub errors: Vec<Value>,
    /// The offender's stderr tail, when `errors.json` gives none and the file was read.
    pub stderr_tail: Option<String>,
}

/// An event of an unknown type.
#[derive(Debug, Clone, Serialize)]
pub struct UnknownEvent {
    /// Index in `events`.
    pub event: usize,
    /// Its `type`.
    pub kind: String,
}

/// Where the log stops making sense.
#[derive(Debug, Clone, Serialize)]
pub struct Failure {
    /// Index of the event concerned (`events.len()` when a line that is not JSON ends it).
    pub event: usize,
    /// Line number in the file (1-based).
    pub line: usize,
    /// One line.
    pub reason: String,
}

/// Derives the viewer's data from a game's files. Errors only when the text is not an mjai
/// log at all (its first non-empty line is not a `start_game` event); any later problem is
/// shown in the page as the failure, with the game up to it.
pub fn analyse(input: &GameInput) -> Result<GameData, ViewError> {
    let (events, lines, mut failure) = parse_lines(input.log)?;
    let (typed, typed_at, unknown, bad) = typed_events(&events, &lines);
    if let Some(b) = bad {
        failure = Some(b);
    }
    let players = KyokuStart::players_of(&typed).unwrap_or_default();
    let game = read(&typed);
    let errors = parse_errors(input.errors_json);
    let names = names_of(&typed);
    let (kyokus, chombos, final_scores) = walk(&game, &typed_at, events.len(), &errors, &input.stderr_tails);
    let base = GameData {
        title: input.title.clone(),
        players: players.count(),
        unverified: None,
        names,
        events,
        kyokus,
        horas: Vec::new(),
        chombos,
        unknown,
        failure,
        final_scores,
    };
    Ok(match players {
        Players::Four => replayed(base, &typed, &typed_at, &lines),
        Players::Three => read_only(base, &game, &typed, &typed_at, &lines),
    })
}

/// `data` with the wins scored and the log verified by the engine's replay (four seats).
fn replayed(mut data: GameData, typed: &[Event], typed_at: &[usize], lines: &[usize]) -> GameData {
    let mut scored: Vec<(usize, Seat, HandScore)> = Vec::new();
    let verified = replay_observed(typed, &mut |game, answers| {
        let at = game.log().len();
        for (seat, a) in answers {
            if matches!(a, Event::Hora { .. }) {
                if let Some(s) = game.hora_score(*seat) {
                    scored.push((at, *seat, s));
                }
            }
        }
    });
    if let Err(d) = verified {
        // A failure at the end of the typed events is the cut or bad line already noted.
        if data.failure.is_none() || d.index < typed.len() {
            data.failure = Some(failure_at(d.index, d.reason, typed_at, lines, data.events.len()));
        }
    }
    data.horas = hora_infos(typed, typed_at, scored);
    data
}

/// `data` with the wins scored by the log reader, and its first contradiction as the
/// failure (three seats: not replayed, see the module doc). A tsumo on a kita's
/// replacement tile that the deltas pay with rinshan kaihou (`riichi-dev-3p`) is scored so.
fn read_only(mut data: GameData, game: &GameLog, typed: &[Event], typed_at: &[usize], lines: &[usize]) -> GameData {
    data.unverified = Some(
        "three-player log: not replayed by the engine (the log does not say which three-player preset it was played under; \
         `mjai-sim verify --rules riichi-dev-3p` replays it); wins are scored by the log reader"
            .into(),
    );
    let problem = game.kyokus.iter().flat_map(|k| &k.problems).map(|p| (p.index, p.message.clone())).next();
    let outside = game.outside.first().map(|&i| (i, "a hand event outside any kyoku".to_string()));
    let first = [problem, outside].into_iter().flatten().min_by_key(|(i, _)| *i);
    if let Some((index, reason)) = first {
        if data.failure.is_none() || index < typed_at.len() {
            data.failure = Some(failure_at(index, reason, typed_at, lines, data.events.len()));
        }
    }
    for k in &game.kyokus {
        for h in k.horas() {
            let score = match h.score() {
                Ok(s) if !after_kita(typed, h) || tsumo_paid(k, h, &s) => Some(s),
                other => kita_rinshan(h).filter(|s| tsumo_paid(k, h, s)).or(other.ok()),
            };
            let Some(s) = score else { continue };
            if data.failure.as_ref().is_some_and(|f| f.event <= typed_at[h.index]) {
                continue;
            }
            data.horas.push(hora_info(typed_at[h.index], h.actor, h.target, &s));
        }
    }
    data
}

/// True when `h` is a tsumo whose tile replaced the winner's kita (`kita`, `tsumo`, `hora`).
fn after_kita(typed: &[Event], h: &Hora) -> bool {
    let before = |n: usize| h.index.checked_sub(n).and_then(|i| typed.get(i));
    h.is_tsumo()
        && matches!(before(1), Some(Event::Tsumo { actor, .. }) if *actor == h.actor)
        && matches!(before(2), Some(Event::Kita { actor, .. }) if *actor == h.actor)
}

/// The score of tsumo `h` with rinshan kaihou, as `riichi-dev-3p` pays a tsumo on a kita's
/// replacement tile (RiichiEnv; Tenhou gives none); `None` when it does not score so.
fn kita_rinshan(h: &Hora) -> Option<HandScore> {
    let mut win = h.win.clone().ok()?;
    if !win.tsumo || win.rinshan || h.extra.kita == 0 {
        return None;
    }
    win.rinshan = true;
    evaluate_with(&win, &h.extra).ok()
}

/// True when the deltas pay three-player tsumo `h` of `k` as `s`: two payers (tsumo-son),
/// 100 per honba from each, and the sticks.
fn tsumo_paid(k: &KyokuLog, h: &Hora, s: &HandScore) -> bool {
    let p = s.payment;
    let hand = if h.actor == k.start().oya { 2 * p.tsumo_ko } else { p.tsumo_oya + p.tsumo_ko };
    h.gain() == hand + 200 * i32::from(k.start().honba) + 1000 * i32::from(h.kyotaku)
}

/// The failure at typed event `index` (`events` when past the typed events) with its line.
fn failure_at(index: usize, reason: String, typed_at: &[usize], lines: &[usize], events: usize) -> Failure {
    let event = typed_at.get(index).copied().unwrap_or(events);
    let line = lines.get(event).copied().unwrap_or_else(|| lines.last().map_or(1, |l| l + 1));
    Failure { event, line, reason }
}

type Parsed = (Vec<Value>, Vec<usize>, Option<Failure>);

/// JSON objects of the non-empty lines, their line numbers, and the first line that is not
/// a JSON object (which ends the log).
fn parse_lines(text: &str) -> Result<Parsed, ViewError> {
    let mut events = Vec::new();
    let mut lines = Vec::new();
    for (i, l) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let parsed: Option<Value> =
            serde_json::from_str(l).ok().filter(|v: &Value| v.get("type").is_some_and(Value::is_string));
        match parsed {
            Some(v) => {
                events.push(v);
                lines.push(i + 1);
            }
            None if events.is_empty() => {
                return Err(ViewError::NotALog(format!("line {} is not a JSON event with a \"type\"", i + 1)));
            }
            None => {
                let reason = "not a JSON event (a cut or damaged line); the game is shown up to here".to_string();
                let failure = Failure { event: lines.len(), line: i + 1, reason };
                return Ok((events, lines, Some(failure)));
            }
        }
    }
    match events.first().and_then(|e| e["type"].as_str()) {
        Some("start_game") => Ok((events, lines, None)),
        Some(t) => Err(ViewError::NotALog(format!("the first event is {t}, not start_game"))),
        None => Err(ViewError::NotALog("the file holds no events".into())),
    }
}

type Typed = (Vec<Event>, Vec<usize>, Vec<UnknownEvent>, Option<Failure>);

/// The events of known types as engine events (with their index in `events`), the unknown
/// ones, and the first known-type event that does not parse (which ends the typed list).
fn typed_events(events: &[Value], lines: &[usize]) -> Typed {
    let mut typed = Vec::with_capacity(events.len());
    let mut at = Vec::with_capacity(events.len());
    let mut unknown = Vec::new();
    let mut bad = None;
    for (i, v) in events.iter().enumerate() {
        let kind = v["type"].as_str().unwrap_or_default();
        if !KNOWN.contains(&kind) {
            unknown.push(UnknownEvent { event: i, kind: kind.to_string() });
            continue;
        }
        if bad.is_some() {
            continue;
        }
        match serde_json::from_value::<Event>(v.clone()) {
            Ok(e) => {
                typed.push(e);
                at.push(i);
            }
            Err(e) => bad = Some(Failure { event: i, line: lines[i], reason: format!("malformed {kind} event: {e}") }),
        }
    }
    (typed, at, unknown, bad)
}

/// Pairs the engine's scores (taken just before the answers at typed index `at` were
/// applied) with the `hora` events that follow.
fn hora_infos(typed: &[Event], typed_at: &[usize], scored: Vec<(usize, Seat, HandScore)>) -> Vec<HoraInfo> {
    let mut out = Vec::new();
    for (at, seat, s) in scored {
        let found = typed[at.min(typed.len())..]
            .iter()
            .enumerate()
            .take_while(|(_, e)| matches!(e, Event::Hora { .. } | Event::ReachAccepted { .. } | Event::Dora { .. }))
            .find_map(|(j, e)| match e {
                Event::Hora { actor, target, .. } if *actor == seat => Some((at + j, *target)),
                _ => None,
            });
        let Some((i, target)) = found else { continue };
        out.push(hora_info(typed_at[i], seat, target, &s));
    }
    out
}

/// The page's entry for the `hora` at `event` (index in `events`) scored `s`.
fn hora_info(event: usize, actor: Seat, target: Seat, s: &HandScore) -> HoraInfo {
    let p = s.payment;
    let points = match (target == actor, p.tsumo_oya) {
        (false, _) => p.ron.to_string(),
        (true, 0) => format!("{} all", p.tsumo_ko),
        (true, oya) => format!("{}/{}", p.tsumo_ko, oya),
    };
    HoraInfo {
        event,
        actor,
        target,
        yaku: s.yaku.iter().map(|(n, h)| (n.to_string(), *h)).collect(),
        han: s.han,
        fu: s.fu,
        yakuman: s.yakuman,
        points,
    }
}

fn parse_errors(text: Option<&str>) -> Vec<Value> {
    let Some(text) = text else { return Vec::new() };
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Array(a)) => a.into_iter().filter(|e| e.as_object().is_some_and(|o| !o.is_empty())).collect(),
        _ => Vec::new(),
    }
}

fn names_of(typed: &[Event]) -> [String; 4] {
    match typed.first() {
        Some(Event::StartGame { names: Some(n), .. }) => (**n).clone(),
        _ => ["0", "1", "2", "3"].map(String::from),
    }
}

type Walked = (Vec<KyokuEntry>, Vec<ChomboInfo>, Option<[i32; 4]>);

/// The kyoku list, the chombos and the final scores, from the reader's one pass over the
/// events ([`mjai_sim_engine::log::read`]).
fn walk(game: &GameLog, typed_at: &[usize], n_events: usize, errors: &[Value], tails: &[Option<String>; 4]) -> Walked {
    let mut kyokus = Vec::new();
    let mut chombos = Vec::new();
    for k in &game.kyokus {
        let label = k.label();
        let end = match k.closing {
            Closing::EndKyoku(i) => typed_at[i],
            Closing::NextKyoku | Closing::LogEnd => n_events.saturating_sub(1),
        };
        let mut result = Vec::new();
        for ending in &k.endings {
            match ending {
                Ending::Hora(h) if h.is_tsumo() => result.push(format!("tsumo {} +{}", h.actor, h.gain())),
                Ending::Hora(h) => result.push(format!("ron {} from {} +{}", h.actor, h.target, h.gain())),
                Ending::Ryukyoku(r) if r.reason == DrawReason::Chombo => {
                    result.push(r.actor.map_or("chombo".to_string(), |a| format!("chombo {a}")));
                    chombos.push(chombo(typed_at[r.index], r.actor, label.clone(), errors, tails));
                }
                Ending::Ryukyoku(_) => result.push("draw".to_string()),
            }
        }
        kyokus.push(KyokuEntry { label, start: typed_at[k.index], end, result });
    }
    let finals = game.end_game.map(|_| game.final_scores());
    (kyokus, chombos, finals)
}

fn chombo(
    event: usize,
    actor: Option<Seat>,
    kyoku: String,
    errors: &[Value],
    tails: &[Option<String>; 4],
) -> ChomboInfo {
    let mine: Vec<Value> = errors.iter().filter(|e| e["kyoku"].as_str() == Some(kyoku.as_str())).cloned().collect();
    let has_own_tail = mine.iter().any(|e| e.get("stderr_tail").is_some_and(|t| !t.is_null()));
    let stderr_tail = match (has_own_tail, actor) {
        (false, Some(a)) => tails.get(a as usize).cloned().flatten(),
        _ => None,
    };
    ChomboInfo { event, actor, kyoku, errors: mine, stderr_tail }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(log: &str) -> GameInput<'_> {
        GameInput { title: "t".into(), log, ..Default::default() }
    }

    #[test]
    fn a_file_that_is_not_a_log_is_refused_in_one_line() {
        let e = analyse(&input("hello world\n")).unwrap_err().to_string();
        assert!(e.contains("line 1 is not a JSON event"), "{e}");
        assert!(!e.contains('\n'));
        let e = analyse(&input("{\"type\":\"tsumo\",\"actor\":0,\"pai\":\"1m\"}\n")).unwrap_err().to_string();
        assert!(e.contains("first event is tsumo"), "{e}");
        assert!(analyse(&input("\n\n")).unwrap_err().to_string().contains("no events"));
    }
}
