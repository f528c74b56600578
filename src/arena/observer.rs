//! What the match loop reports while it runs: new log events, every answer line, errors,
//! warnings and restarts. Log writers and progress printers implement [`Observer`].

use serde::Serialize;

use crate::engine::event::{Event, Seat};

/// Longest offending line kept in an [`ErrorEntry`] (bytes): 1 KiB.
pub const MAX_LINE_BYTES: usize = 1024;

/// One entry of `errors.json`: mjai.app's fields (`error_type`, `exception`, `player_id`)
/// plus the hand it happened in and the offending answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ErrorEntry {
    /// `invalid` (an answer refused by the rules: unparsable, illegal, `none` when the seat
    /// must act), `timeout`, `crashed`, `closed`, `oversized`, `invalid_utf8`, `runtime`
    /// (see `BotError::kind`), `start` (the bot could not be started), or `warning`.
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
pub trait Observer {
    /// Events appended to the game log, in order (the first call starts with `start_game`).
    fn on_events(&mut self, events: &[Event]) -> std::io::Result<()> {
        let _ = events;
        Ok(())
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
}

/// Does nothing; for callers that need no reports.
#[derive(Debug, Default, Clone, Copy)]
pub struct Silent;

impl Observer for Silent {}

/// Forwards every report to each observer in turn (stops at the first error).
pub struct Fanout<'a>(pub Vec<&'a mut dyn Observer>);

impl Observer for Fanout<'_> {
    fn on_events(&mut self, events: &[Event]) -> std::io::Result<()> {
        self.0.iter_mut().try_for_each(|o| o.on_events(events))
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
}
