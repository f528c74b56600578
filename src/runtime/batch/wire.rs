//! The batch protocol's two lines (version 1, docs/protocol.md "Batched bots").
//!
//! Sent: one JSON array, one object per request, in cycle order:
//! `{"table": T, "seat": S, "restart": true, "events": [...]}` where `table` is a number the
//! hub gives each game (unique within the run), `seat` is 0 to 3, `restart` is present
//! (and true) only on the first request of a table-seat the process served before (the bot
//! drops that table-seat's state first), and `events` is exactly the line that seat would
//! get one container per seat: a JSON array of mjai events, masked for that seat.
//!
//! Answered: one JSON array of mjai actions, one per request, in the same order.

use serde_json::Value;

/// One request of a cycle, as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request<'a> {
    /// The game's number in this run.
    pub table: u64,
    /// The seat, 0 to 3.
    pub seat: u8,
    /// Whether the bot must drop this table-seat's state before reading `events`.
    pub restart: bool,
    /// The seat's line: a JSON array of mjai events (as the match loop wrote it).
    pub events: &'a str,
}

/// The line of a cycle (no newline). `events` are embedded as they are: the match loop
/// writes each as one JSON array.
pub fn cycle_line(requests: &[Request<'_>]) -> String {
    let mut line = String::with_capacity(requests.iter().map(|r| r.events.len() + 48).sum::<usize>() + 2);
    line.push('[');
    for (n, r) in requests.iter().enumerate() {
        if n > 0 {
            line.push(',');
        }
        line.push_str(&format!(r#"{{"table":{},"seat":{},"#, r.table, r.seat));
        if r.restart {
            line.push_str(r#""restart":true,"#);
        }
        line.push_str(r#""events":"#);
        line.push_str(r.events);
        line.push('}');
    }
    line.push(']');
    line
}

/// Why an answer line cannot be split into actions.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AnswerError {
    /// Not a JSON array.
    #[error("the batch answer is not a JSON array of actions ({0})")]
    NotAnArray(String),
    /// An array of the wrong length.
    #[error("the batch answer has {got} actions for {expected} requests")]
    Count {
        /// Requests in the cycle.
        expected: usize,
        /// Actions in the answer.
        got: usize,
    },
}

/// Splits an answer line into `expected` action lines (each one JSON value, compact), in
/// request order. Errors: [`AnswerError`] (the whole cycle's answers are then unusable).
pub fn split_answer(line: &str, expected: usize) -> Result<Vec<String>, AnswerError> {
    let values: Vec<Value> = match serde_json::from_str(line) {
        Ok(Value::Array(values)) => values,
        Ok(other) => return Err(AnswerError::NotAnArray(format!("got {}", kind(&other)))),
        Err(e) => return Err(AnswerError::NotAnArray(e.to_string())),
    };
    if values.len() != expected {
        return Err(AnswerError::Count { expected, got: values.len() });
    }
    Ok(values.iter().map(Value::to_string).collect())
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cycle_embeds_each_seats_line_and_flags_restarts_only() {
        let requests = [
            Request { table: 3, seat: 0, restart: false, events: r#"[{"type":"start_game","id":0}]"# },
            Request { table: 7, seat: 2, restart: true, events: r#"[{"type":"tsumo","actor":2,"pai":"?"}]"# },
        ];
        let line = cycle_line(&requests);
        assert_eq!(
            line,
            r#"[{"table":3,"seat":0,"events":[{"type":"start_game","id":0}]},{"table":7,"seat":2,"restart":true,"events":[{"type":"tsumo","actor":2,"pai":"?"}]}]"#
        );
        let parsed: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(parsed[1]["events"][0]["actor"], 2);
    }

    #[test]
    fn answers_split_in_order_and_a_wrong_count_or_shape_is_refused() {
        let split =
            split_answer(r#"[{"type":"none"}, {"type":"dahai","actor":1,"pai":"E","tsumogiri":true}]"#, 2).unwrap();
        let parsed: Vec<Value> = split.iter().map(|a| serde_json::from_str(a).unwrap()).collect();
        assert_eq!(parsed[0], serde_json::json!({"type": "none"}));
        assert_eq!(parsed[1], serde_json::json!({"type": "dahai", "actor": 1, "pai": "E", "tsumogiri": true}));
        assert!(split.iter().all(|a| !a.contains('\n')));
        assert_eq!(split_answer(r#"[{"type":"none"}]"#, 2), Err(AnswerError::Count { expected: 2, got: 1 }));
        assert!(
            matches!(split_answer(r#"{"type":"none"}"#, 1), Err(AnswerError::NotAnArray(m)) if m.contains("an object"))
        );
        assert!(matches!(split_answer("not json", 1), Err(AnswerError::NotAnArray(_))));
    }
}
