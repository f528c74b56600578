//! What the match loop reports while it runs: new log events, every answer line, errors,
//! warnings, restarts and each exchange (the line sent and the answer). Log writers and progress printers implement [`GameObserver`].

use std::time::Duration;

use serde::Serialize;

use mjai_sim_engine::event::{Event, Seat};
use mjai_sim_engine::game::Players;
use mjai_sim_runtime::BotError;

/// Longest offending line kept in an [`ErrorEntry`] (bytes): 1 KiB.
pub const MAX_LINE_BYTES: usize = 1024;

/// One entry of `errors.json`: mjai.app's fields (`error_type`, `exception`, `player_id`)
/// plus the hand it happened in and the offending answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ErrorEntry {
    /// `invalid` (an answer refused by the rules: unparsable, illegal, `none` when the seat
    /// must act), `timeout`, `crashed`, `closed`, `oversized`, `invalid_utf8`, `runtime`
    /// (see `BotError::kind`), `start` (the bot could not be started), `defaulted` (a
    /// timeout under a clock that plays the default action instead: no chombo), or
    /// `warning`.
    pub error_type: String,
    /// One-line description of the cause.
    pub exception: String,
    /// The seat at fault.
    pub player_id: Seat,
    /// The hand, as `E1-0` (round wind, hand number, honba); absent before the first hand.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kyoku: Option<String>,
    /// The bot's answer line, cut to [`MAX_LINE_BYTES`] (on a character boundary).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<String>,
    /// The offending bot's last stderr lines at that moment (at most 20, oldest first; a
    /// crashed bot's include its last words); absent when it wrote none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub stderr_tail: Vec<String>,
}

/// Largest `meta` kept on a logged action, in bytes of JSON: 16 KiB.
pub const MAX_META_BYTES: usize = 16 * 1024;

/// The `meta` field of a bot's answer (Mortal writes q-values, masks and timings there),
/// kept on the logged action in `mjai_log.json`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnswerMeta {
    /// The meta as compact JSON, at most [`MAX_META_BYTES`].
    Kept(String),
    /// A meta longer than [`MAX_META_BYTES`]: dropped, its size in bytes noted.
    Dropped(usize),
}

impl AnswerMeta {
    /// The meta of an answer line, if it has one (`None` also for unparsable lines).
    pub fn of_answer(line: &str) -> Option<AnswerMeta> {
        if !line.contains("\"meta\"") {
            return None;
        }
        #[derive(serde::Deserialize)]
        struct WithMeta {
            meta: Option<serde_json::Value>,
        }
        let meta = serde_json::from_str::<WithMeta>(line).ok()?.meta?;
        let text = meta.to_string();
        Some(if text.len() <= MAX_META_BYTES { AnswerMeta::Kept(text) } else { AnswerMeta::Dropped(text.len()) })
    }

    /// `event`'s JSON line (the wire form of a table of `players`) with this meta:
    /// `"meta":{..}` (or `"meta_dropped":BYTES`) added
    /// as its last field. mjai readers ignore fields they do not know (`mjai-sim verify` too).
    pub fn on_event_json(&self, event: &Event, players: Players) -> String {
        let mut json = event.to_json_for(players);
        json.pop(); // the closing brace
        match self {
            AnswerMeta::Kept(meta) => {
                json.push_str(",\"meta\":");
                json.push_str(meta);
            }
            AnswerMeta::Dropped(bytes) => json.push_str(&format!(",\"meta_dropped\":{bytes}")),
        }
        json.push('}');
        json
    }
}

/// `text` cut to at most [`MAX_LINE_BYTES`] bytes on a UTF-8 character boundary.
pub fn truncate_line(text: &str) -> String {
    if text.len() <= MAX_LINE_BYTES {
        return text.to_string();
    }
    let mut end = MAX_LINE_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].to_string()
}

/// The hand label `E1-0` of the last `start_kyoku` in `log`, if any.
pub fn kyoku_label(log: &[Event]) -> Option<String> {
    log.iter().rev().find_map(|e| match e {
        Event::StartKyoku { bakaze, kyoku, honba, .. } => Some(format!("{bakaze}{kyoku}-{honba}")),
        _ => None,
    })
}

/// Receives what the match loop does, as it happens. Every method has a no-op default.
/// An error from an observer (e.g. the disk is full) aborts the match: logs are never
/// silently lost.
pub trait GameObserver {
    /// Events appended to the game log, in order (the first call starts with `start_game`).
    fn on_events(&mut self, events: &[Event]) -> std::io::Result<()> {
        let _ = events;
        Ok(())
    }
    /// As [`GameObserver::on_events`], with the `meta` a bot sent on the answer that made each
    /// event ([`AnswerMeta`], same length as `events`, or empty when no event has one).
    /// The default ignores the metas.
    fn on_events_with_meta(&mut self, events: &[Event], metas: &[Option<AnswerMeta>]) -> std::io::Result<()> {
        let _ = metas;
        self.on_events(events)
    }
    /// An answer line received from `seat` (every line, informational ones included).
    fn on_answer(&mut self, seat: Seat, line: &str) -> std::io::Result<()> {
        let _ = (seat, line);
        Ok(())
    }
    /// A bot error that costs a chombo (or, after the game ended, is only recorded).
    fn on_error(&mut self, entry: &ErrorEntry) -> std::io::Result<()> {
        let _ = entry;
        Ok(())
    }
    /// Something odd but harmless, e.g. an answer other than `none` to `end_kyoku`.
    fn on_warning(&mut self, entry: &ErrorEntry) -> std::io::Result<()> {
        let _ = entry;
        Ok(())
    }
    /// All four bots were restarted; `restarts` counts restarts so far.
    fn on_restart(&mut self, restarts: u32) -> std::io::Result<()> {
        let _ = restarts;
        Ok(())
    }
    /// One exchange with `seat`: the line it was `sent`, and its answer line or why there
    /// is none (a timeout: the request went unanswered), `elapsed` after the line was
    /// written ([`super::trace::TraceFile`] keeps them for disputes).
    fn on_exchange(
        &mut self,
        seat: Seat,
        sent: &str,
        answer: Result<&str, &BotError>,
        elapsed: Duration,
    ) -> std::io::Result<()> {
        let _ = (seat, sent, answer, elapsed);
        Ok(())
    }
}

/// Does nothing; for callers that need no reports.
#[derive(Debug, Default, Clone, Copy)]
pub struct Silent;

impl GameObserver for Silent {}

/// Forwards every report to each observer in turn (stops at the first error).
pub struct Fanout<'a>(pub Vec<&'a mut dyn GameObserver>);

impl GameObserver for Fanout<'_> {
    fn on_events(&mut self, events: &[Event]) -> std::io::Result<()> {
        self.0.iter_mut().try_for_each(|o| o.on_events(events))
    }
    fn on_events_with_meta(&mut self, events: &[Event], metas: &[Option<AnswerMeta>]) -> std::io::Result<()> {
        self.0.iter_mut().try_for_each(|o| o.on_events_with_meta(events, metas))
    }
    fn on_answer(&mut self, seat: Seat, line: &str) -> std::io::Result<()> {
        self.0.iter_mut().try_for_each(|o| o.on_answer(seat, line))
    }
    fn on_error(&mut self, entry: &ErrorEntry) -> std::io::Result<()> {
        self.0.iter_mut().try_for_each(|o| o.on_error(entry))
    }
    fn on_warning(&mut self, entry: &ErrorEntry) -> std::io::Result<()> {
        self.0.iter_mut().try_for_each(|o| o.on_warning(entry))
    }
    fn on_restart(&mut self, restarts: u32) -> std::io::Result<()> {
        self.0.iter_mut().try_for_each(|o| o.on_restart(restarts))
    }
    fn on_exchange(
        &mut self,
        seat: Seat,
        sent: &str,
        answer: Result<&str, &BotError>,
        elapsed: Duration,
    ) -> std::io::Result<()> {
        self.0.iter_mut().try_for_each(|o| o.on_exchange(seat, sent, answer, elapsed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncation_keeps_char_boundaries() {
        let long = "é".repeat(1000); // 2000 bytes
        let cut = truncate_line(&long);
        assert_eq!(cut.len(), 1024);
        assert!(cut.chars().all(|c| c == 'é'));
        let odd = format!("a{}", "é".repeat(1000));
        assert_eq!(truncate_line(&odd).len(), 1023);
        assert_eq!(truncate_line("short"), "short");
    }

    #[test]
    fn meta_is_kept_on_the_action_line_or_dropped_when_too_big() {
        let dahai: Event = serde_json::from_str(r#"{"type":"dahai","actor":2,"pai":"5m","tsumogiri":false}"#).unwrap();
        let answer =
            r#"{"type":"dahai","actor":2,"pai":"5m","tsumogiri":false,"meta":{"q_values":[0.5,-1],"mask_bits":3}}"#;
        let meta = AnswerMeta::of_answer(answer).unwrap();
        let line = meta.on_event_json(&dahai, Players::Four);
        let back: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(back["meta"]["q_values"][1], -1);
        assert_eq!(back["pai"], "5m");
        assert_eq!(serde_json::from_str::<Event>(&line).unwrap(), dahai, "readers ignore the meta");
        let big = format!(r#"{{"type":"none","meta":{{"x":"{}"}}}}"#, "a".repeat(MAX_META_BYTES));
        let dropped = AnswerMeta::of_answer(&big).unwrap();
        assert_eq!(dropped, AnswerMeta::Dropped(MAX_META_BYTES + 8));
        assert!(dropped
            .on_event_json(&dahai, Players::Four)
            .ends_with(&format!(",\"meta_dropped\":{}}}", MAX_META_BYTES + 8)));
        assert_eq!(AnswerMeta::of_answer(r#"{"type":"none"}"#), None);
    }
}
