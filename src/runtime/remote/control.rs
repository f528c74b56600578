//! Control messages between the game side and a bridge, beside the mjai lines.
//!
//! An mjai line is a JSON array (game side to bridge) or the bot's answer object; a control
//! message is a JSON object whose `type` is `"mjai-sim"`, with an `event`:
//!
//! - game side to bridge: `start` (`seat`, `generation`: start a fresh bot for `seat`,
//!   stopping the one running), `stop` (stop the bot), `game_over` (`seat`, `scores`
//!   (points), `chombos`, `rank` 1..4), `bye` (no more games: the bridge exits);
//! - bridge to game side: `ready` (`generation`: the bot of that start runs), `error`
//!   (`message`: the bot could not start or gave no answer line, e.g. it crashed),
//!   `draining` (the bridge is going away: it finishes the game in play, if any, then
//!   closes; the game side seats this connection in no new game).

use serde::{Deserialize, Serialize};

use mjai_sim_engine::game::{ranks_for, Players, MAX_SEATS};

/// The `type` of every control message.
pub const CONTROL_TYPE: &str = "mjai-sim";

/// One control message (see the module doc).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Control {
    /// Start a fresh bot for `seat` (0..4); answer `ready` with the same `generation`.
    Start {
        /// The seat the bot plays (its `bot.py SEAT` argument).
        seat: u8,
        /// Counts the starts on this connection; `ready` echoes it.
        generation: u64,
    },
    /// The bot of start `generation` runs.
    Ready {
        /// The `generation` of the `start` answered.
        generation: u64,
    },
    /// Stop the running bot (a restart or the game's end follows).
    Stop,
    /// The game ended: the seat this connection played last, every seat's final score
    /// (points) and chombos, the seat's rank (1 to 4, or 1 to 3 at a three-player table).
    /// Built by [`Control::game_over`].
    GameOver {
        /// The seat played.
        seat: u8,
        /// Final scores by seat, in points: one entry per seat of the table (4, or 3).
        scores: Vec<i32>,
        /// Chombos by seat (one entry per seat of the table).
        chombos: Vec<u32>,
        /// The seat's rank, 1 to 4 (as `summary.json`'s `rank`).
        rank: u8,
    },
    /// The validation of `version` ended (the grading server tells every connection of the
    /// bot): passed, or failed for `reason` (one line).
    Verdict {
        /// The version validated.
        version: u32,
        /// Whether it passed (the version is active).
        passed: bool,
        /// Why it failed; absent when it passed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    /// No more games on this connection: from a game (or tournament), the bridge stops its
    /// bot and exits; from the grading server (it is stopping), the bridge connects again.
    Bye,
    /// The bridge is going away (`mjai-sim connect` got SIGTERM): it finishes the game in
    /// play, if any, then closes; the connection is seated in no new game.
    Draining,
    /// The bridge's bot gave no answer line or could not start; the reason.
    Error {
        /// One line, e.g. "bot exited (exit code 1)".
        message: String,
    },
}

#[derive(Serialize, Deserialize)]
struct Wire {
    #[serde(rename = "type")]
    kind: String,
    #[serde(flatten)]
    control: Control,
}

impl Control {
    /// The `game_over` of `seat` at a table of `players`, from the match report's per-seat
    /// arrays ([`MAX_SEATS`] wide): the table's scores and chombos, and the seat's rank
    /// (ties to the earlier seat, as `summary.json`).
    pub fn game_over(seat: u8, players: Players, scores: [i32; MAX_SEATS], chombos: [u32; MAX_SEATS]) -> Control {
        let rank = ranks_for(scores, players)[usize::from(seat).min(MAX_SEATS - 1)];
        Control::GameOver { seat, scores: players.seat_list(scores), chombos: players.seat_list(chombos), rank }
    }

    /// The message as sent: `{"type":"mjai-sim","event":...}`.
    pub fn to_text(&self) -> String {
        let wire = Wire { kind: CONTROL_TYPE.to_string(), control: self.clone() };
        serde_json::to_string(&wire).unwrap_or_default()
    }

    /// The control message in `text`, or `None` when `text` is not one (an mjai line).
    pub fn parse(text: &str) -> Option<Control> {
        if !text.trim_start().starts_with('{') || !text.contains(CONTROL_TYPE) {
            return None;
        }
        let wire: Wire = serde_json::from_str(text).ok()?;
        (wire.kind == CONTROL_TYPE).then_some(wire.control)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_messages_round_trip_and_mjai_lines_are_not_controls() {
        let start = Control::Start { seat: 2, generation: 7 };
        assert_eq!(start.to_text(), r#"{"type":"mjai-sim","event":"start","seat":2,"generation":7}"#);
        assert_eq!(Control::parse(&start.to_text()), Some(start));
        assert_eq!(Control::parse(r#"{"type":"mjai-sim","event":"bye"}"#), Some(Control::Bye));
        let failed = Control::Verdict { version: 2, passed: false, reason: Some("seat 1 chombo".into()) };
        assert_eq!(
            failed.to_text(),
            r#"{"type":"mjai-sim","event":"verdict","version":2,"passed":false,"reason":"seat 1 chombo"}"#
        );
        assert_eq!(Control::parse(&failed.to_text()), Some(failed));
        assert_eq!(Control::parse(r#"[{"type":"end_game"}]"#), None);
        assert_eq!(Control::parse(r#"{"type":"dahai","actor":0,"pai":"1m","tsumogiri":true}"#), None);
        assert_eq!(Control::parse(r#"{"type":"mjai-sim","event":"nonsense"}"#), None);
    }

    #[test]
    fn game_over_lists_the_tables_seats_and_ranks_among_them() {
        let three = Control::game_over(2, Players::Three, [40000, 40000, 25000, 0], [0, 1, 0, 0]);
        assert_eq!(
            three.to_text(),
            r#"{"type":"mjai-sim","event":"game_over","seat":2,"scores":[40000,40000,25000],"chombos":[0,1,0],"rank":3}"#,
            "three entries; the empty seat's 0 ranks nobody below it"
        );
        assert_eq!(Control::parse(&three.to_text()), Some(three));
        let four = Control::game_over(1, Players::Four, [25000, 30000, 25000, 20000], [0; 4]);
        assert_eq!(
            four,
            Control::GameOver { seat: 1, scores: vec![25000, 30000, 25000, 20000], chombos: vec![0; 4], rank: 1 }
        );
    }
}
