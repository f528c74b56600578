//! The dialect's messages as JSON values (pure, no I/O): what the server sends a bot, and
//! the bot's reply read back.
//!
//! Every object is written with its keys sorted (riichi.dev's and RiichiEnv's `to_mjai`
//! output is a serde_json map without insertion order), whatever features other crates
//! turn on in serde_json.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use mjai_sim_engine::event::{Event, Seat};
use mjai_sim_engine::game::Players;

/// A JSON object with sorted keys.
pub type Object = BTreeMap<String, Value>;

/// The compact text of `object` (keys sorted).
pub fn text(object: &Object) -> String {
    serde_json::to_string(object).unwrap_or_default()
}

fn object(value: Value) -> Object {
    match value {
        Value::Object(map) => map.into_iter().collect(),
        _ => Object::new(),
    }
}

/// One masked event as its own message, in the dialect's shape: `start_game` is
/// `{"type":"start_game","id":SEAT}` (no names, no seed); a self-drawn `hora` gains
/// `"tsumo":true`; an `ankan` gains `pai` (the kind's plain tile, as RiichiEnv writes it);
/// everything else is the mjai event as the log writes it, at a table of `players` (at
/// three seats the per-seat arrays `scores`, `deltas`, `tehais` have three entries,
/// [`Event::to_json_for`]; a `kita` is `{"actor":A,"pai":"N","type":"kita"}`).
pub fn event_message(event: &Event, seat: Seat, players: Players) -> Object {
    let mut message = shaped(event, seat);
    for key in ["scores", "deltas", "tehais"] {
        if let Some(Value::Array(entries)) = message.get_mut(key) {
            entries.truncate(players.count());
        }
    }
    message
}

fn shaped(event: &Event, seat: Seat) -> Object {
    match event {
        Event::StartGame { .. } => object(json!({"type": "start_game", "id": seat})),
        Event::Hora { actor, target, .. } => {
            let mut o = object(serde_json::to_value(event).unwrap_or_default());
            if actor == target {
                o.insert("tsumo".into(), Value::Bool(true));
            }
            o
        }
        Event::Ankan { consumed, .. } => {
            let mut o = object(serde_json::to_value(event).unwrap_or_default());
            o.insert("pai".into(), Value::String(consumed[0].deaka().as_mjai().to_string()));
            o
        }
        _ => object(serde_json::to_value(event).unwrap_or_default()),
    }
}

/// The clock figures of one request, in milliseconds: the grace, what is left of the bank,
/// and the deadline (their sum), counted from the request's send.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Time {
    /// Grace of this request (riichi.dev: 3000).
    pub grace_ms: u64,
    /// Bank left before this request (riichi.dev: 15000 at each hand's start).
    pub bank_ms: u64,
}

/// `{"type":"request_action","request_id":K,"possible_actions":[...],"observation":B64,
/// "time":{"grace_ms":G,"bank_ms":B,"deadline_ms":G+B}}`.
pub fn request_action(request_id: u64, possible_actions: Vec<Object>, observation: String, time: Time) -> Object {
    let mut o = Object::new();
    o.insert("type".into(), json!("request_action"));
    o.insert("request_id".into(), json!(request_id));
    o.insert("possible_actions".into(), Value::Array(possible_actions.into_iter().map(into_value).collect()));
    o.insert("observation".into(), Value::String(observation));
    let mut t = Object::new();
    t.insert("grace_ms".into(), json!(time.grace_ms));
    t.insert("bank_ms".into(), json!(time.bank_ms));
    t.insert("deadline_ms".into(), json!(time.grace_ms + time.bank_ms));
    o.insert("time".into(), into_value(t));
    o
}

/// A JSON value of `object` (keys stay sorted when written with [`text`] or serde_json).
pub fn into_value(object: Object) -> Value {
    Value::Object(object.into_iter().collect())
}

/// What an `action_ack` says of an answer.
#[derive(Debug, Clone, PartialEq)]
pub enum AckStatus {
    /// The answer is legal and played.
    Accepted,
    /// The answer is not among the possible actions (a chombo): why, the answer, and the
    /// types that were legal.
    Rejected {
        /// One line.
        reason: String,
        /// The answer as received.
        attempted: Value,
        /// The distinct `type`s of the possible actions.
        legal_types: Vec<String>,
    },
    /// The message is not a JSON object with a `type`; the request stays open.
    Unparseable,
    /// The `request_id` is not the open request's (an old one): ignored, no penalty.
    Stale,
    /// No answer in time: the default action was played (no penalty).
    Defaulted {
        /// The action played, as the log writes it.
        action: Value,
    },
}

/// Milliseconds of one answer: how long it took from the request, how much of the bank it
/// took, what is left of the bank.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Spent {
    /// From the request's send to the answer, in ms.
    pub elapsed_ms: u64,
    /// Taken from the bank by this answer, in ms.
    pub bank_consumed_ms: u64,
    /// Left in the bank, in ms.
    pub bank_ms: u64,
}

/// `{"type":"action_ack","request_id":K,"status":...,"elapsed_ms":..,"bank_consumed_ms":..,
/// "bank_ms":..}` plus the status's own fields (`reason`, `attempted`, `legal_types` for
/// `rejected`; `action` for `defaulted`).
pub fn action_ack(request_id: u64, status: &AckStatus, spent: Spent) -> Object {
    let mut o = Object::new();
    o.insert("type".into(), json!("action_ack"));
    o.insert("request_id".into(), json!(request_id));
    let name = match status {
        AckStatus::Accepted => "accepted",
        AckStatus::Rejected { reason, attempted, legal_types } => {
            o.insert("reason".into(), json!(reason));
            o.insert("attempted".into(), attempted.clone());
            o.insert("legal_types".into(), json!(legal_types));
            "rejected"
        }
        AckStatus::Unparseable => "unparseable",
        AckStatus::Stale => "stale",
        AckStatus::Defaulted { action } => {
            o.insert("action".into(), action.clone());
            "defaulted"
        }
    };
    o.insert("status".into(), json!(name));
    o.insert("elapsed_ms".into(), json!(spent.elapsed_ms));
    o.insert("bank_consumed_ms".into(), json!(spent.bank_consumed_ms));
    o.insert("bank_ms".into(), json!(spent.bank_ms));
    o
}

/// `{"type":"validation_result","passed":BOOL,"reason":TEXT}`: a sentence on a pass and on
/// a fail, as riichi.dev's.
pub fn validation_result(passed: bool, reason: &str) -> Object {
    object(json!({"type": "validation_result", "passed": passed, "reason": reason}))
}

/// A bot's message read: its `request_id` (if any) and the action object without it.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    /// The echoed `request_id`; `None`: taken for the oldest open request.
    pub request_id: Option<u64>,
    /// The mjai action (an object with a string `type`).
    pub action: Value,
}

/// Reads one text message of a bot. `None`: not a JSON object with a string `type` (the
/// ack is `unparseable`).
pub fn parse_reply(text: &str) -> Option<Reply> {
    let Value::Object(mut map) = serde_json::from_str::<Value>(text).ok()? else { return None };
    map.get("type")?.as_str()?;
    let request_id = match map.remove("request_id") {
        None | Some(Value::Null) => None,
        Some(v) => Some(v.as_u64()?),
    };
    Some(Reply { request_id, action: Value::Object(map) })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tile(s: &str) -> mjai_sim_engine::tile::Tile {
        s.parse().unwrap()
    }

    #[test]
    fn events_take_the_riichi_dev_shape_with_sorted_keys() {
        let start = Event::StartGame {
            names: Some(Box::new(["a".into(), "b".into(), "c".into(), "d".into()])),
            seed: Some([1, 2]),
            id: Some(2),
        };
        assert_eq!(text(&event_message(&start, 2, Players::Four)), r#"{"id":2,"type":"start_game"}"#);
        let tsumo = Event::Hora {
            actor: 1,
            target: 1,
            pai: Some(tile("3m")),
            deltas: Some([-1000, 3000, -1000, -1000]),
            ura_markers: Some(vec![]),
        };
        assert_eq!(
            text(&event_message(&tsumo, 0, Players::Four)),
            r#"{"actor":1,"deltas":[-1000,3000,-1000,-1000],"pai":"3m","target":1,"tsumo":true,"type":"hora","ura_markers":[]}"#
        );
        let ron = Event::Hora { actor: 1, target: 2, pai: None, deltas: None, ura_markers: None };
        assert!(!event_message(&ron, 0, Players::Four).contains_key("tsumo"));
        let ankan = Event::Ankan { actor: 3, consumed: [tile("5pr"), tile("5p"), tile("5p"), tile("5p")] };
        assert_eq!(
            text(&event_message(&ankan, 3, Players::Four)),
            r#"{"actor":3,"consumed":["5pr","5p","5p","5p"],"pai":"5p","type":"ankan"}"#
        );
        let dahai = Event::Dahai { actor: 0, pai: tile("E"), tsumogiri: false };
        assert_eq!(
            text(&event_message(&dahai, 1, Players::Four)),
            r#"{"actor":0,"pai":"E","tsumogiri":false,"type":"dahai"}"#
        );

        // Three seats: three entries per seat array; kita as the log writes it.
        let sanma_tsumo = Event::Hora {
            actor: 1,
            target: 1,
            pai: Some(tile("N")),
            deltas: Some([-2000, 4000, -2000, 0]),
            ura_markers: Some(vec![]),
        };
        assert_eq!(
            text(&event_message(&sanma_tsumo, 0, Players::Three)),
            r#"{"actor":1,"deltas":[-2000,4000,-2000],"pai":"N","target":1,"tsumo":true,"type":"hora","ura_markers":[]}"#
        );
        let kita = Event::Kita { actor: 2, pai: tile("N") };
        assert_eq!(text(&event_message(&kita, 2, Players::Three)), r#"{"actor":2,"pai":"N","type":"kita"}"#);
    }

    #[test]
    fn requests_and_acks_carry_every_field() {
        let r = request_action(7, vec![], "e30=".into(), Time { grace_ms: 3000, bank_ms: 12500 });
        assert_eq!(
            text(&r),
            r#"{"observation":"e30=","possible_actions":[],"request_id":7,"time":{"bank_ms":12500,"deadline_ms":15500,"grace_ms":3000},"type":"request_action"}"#
        );
        let spent = Spent { elapsed_ms: 3500, bank_consumed_ms: 500, bank_ms: 12000 };
        let a = action_ack(7, &AckStatus::Accepted, spent);
        assert_eq!(
            text(&a),
            r#"{"bank_consumed_ms":500,"bank_ms":12000,"elapsed_ms":3500,"request_id":7,"status":"accepted","type":"action_ack"}"#
        );
        let rejected = AckStatus::Rejected {
            reason: "r".into(),
            attempted: json!({"type":"pon"}),
            legal_types: vec!["dahai".into()],
        };
        let a = action_ack(7, &rejected, spent);
        assert_eq!(a["status"], json!("rejected"));
        assert_eq!(a["legal_types"], json!(["dahai"]));
        assert_eq!(a["attempted"], json!({"type":"pon"}));
        let d = action_ack(8, &AckStatus::Defaulted { action: json!({"type":"none"}) }, Spent::default());
        assert_eq!(d["action"], json!({"type":"none"}));
        assert_eq!(text(&validation_result(false, "x")), r#"{"passed":false,"reason":"x","type":"validation_result"}"#);
        assert_eq!(text(&validation_result(true, "y")), r#"{"passed":true,"reason":"y","type":"validation_result"}"#);
    }

    #[test]
    fn replies_are_read_with_or_without_request_id() {
        let r = parse_reply(r#"{"type":"dahai","pai":"1m","request_id":4,"actor":0}"#).unwrap();
        assert_eq!(r.request_id, Some(4));
        assert_eq!(r.action, json!({"type":"dahai","pai":"1m","actor":0}));
        assert_eq!(parse_reply(r#"{"type":"none"}"#).unwrap().request_id, None);
        for bad in [
            "",
            "nope",
            "[]",
            r#"{"pai":"1m"}"#,
            r#"{"type":3}"#,
            r#"{"type":"none","request_id":-1}"#,
            r#"{"type":"none","request_id":"4"}"#,
        ] {
            assert_eq!(parse_reply(bad), None, "{bad}");
        }
    }
}
