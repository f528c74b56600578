//! Machine-readable messages of the command line (`--message-format json`, issue 28 item 4):
//! one JSON object per line on stdout, each with a `"reason"` naming its kind, as cargo's
//! `--message-format json`. Defined here, below the front ends, so that the command line,
//! the grading server and any other driver speak the same messages; docs/message-format.md
//! lists every `reason`, its fields and every error `code`.
//!
//! - [`Message`]: every kind of line; [`Message::to_line`] its JSON text.
//! - [`code`]: [`ErrorCode`] and [`ErrorMessage`], read off an error's typed causes.
//! - [`results`]: the final `result` of each command ([`CommandResult`]).
//! - [`game`]: [`GameLines`], the arena observer writing `hand`, `bot-error`, `bot-warning`
//!   and `restart` lines.
//! - [`tournament`]: [`TournamentLines`], the tournament observer writing
//!   `tournament-started`, `game-finished`, `game-failed`, `progress` and `notice` lines.

#![warn(missing_docs)]

use std::io::Write;

use serde::Serialize;

use mjai_sim_arena::observer::ErrorEntry;

pub mod code;
pub mod game;
pub mod results;
pub mod tournament;

pub use code::{CodedError, ErrorCode, ErrorMessage};
pub use game::{GameLines, Hand, HandResult};
pub use results::CommandResult;
pub use tournament::TournamentLines;

/// One line of `--message-format json` output. Serialized with its kind as `"reason"`
/// (kebab-case, e.g. `{"reason":"hand",...}`) and the variant's fields beside it.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "reason", rename_all = "kebab-case")]
pub enum Message {
    /// One game's bots are ready and its first hand is about to be dealt.
    GameStarted {
        /// Wall seed `[nonce, key]`, as in the log's `start_game.seed`.
        seed: [u64; 2],
        /// The game's output folder (`mjai_log.json`, `summary.json`, ...).
        logs_dir: String,
        /// The bot of each seat, as given on the command line.
        bots: Vec<String>,
        /// The `mjai-sim.game` label of the game's containers; `null` without Docker.
        containers_label: Option<String>,
    },
    /// A hand (kyoku) ended: what happened and the scores after it.
    Hand(Hand),
    /// A bot error that cost a chombo: `errors.json`'s entry.
    BotError(ErrorEntry),
    /// A harmless oddity of a bot (e.g. an answer other than `none` to `end_kyoku`).
    BotWarning(ErrorEntry),
    /// All four bots were restarted (after a chombo).
    Restart {
        /// Restarts so far in this game.
        restarts: u32,
    },
    /// A tournament run begins (or a league's first round).
    TournamentStarted {
        /// Its folder, or the database's name (no password).
        place: String,
        /// The tournament's id.
        tid: String,
        /// The bots' names, in bot-list order (the `bot` indices of other messages).
        bots: Vec<String>,
        /// Wall seed base `[nonce, key]`.
        seed: [u64; 2],
        /// Games scheduled; `null` for a league (open-ended).
        total: Option<u64>,
        /// Games recorded before this run (a resumed tournament).
        done: u64,
        /// Games this process plays at once.
        jobs: usize,
    },
    /// A tournament game was recorded.
    GameFinished {
        /// The game's schedule index (its folder `games/<index>/`).
        index: u64,
        /// Its duplicate set.
        set: u64,
        /// The bot (index into `tournament-started.bots`) of each seat, seat 0 first: one
        /// per seat of the table (4, or 3 in a three-player tournament), as below.
        seats: Vec<usize>,
        /// Final scores in points, by seat.
        scores: Vec<i32>,
        /// Ranks 1..=seats, by seat.
        ranks: Vec<u8>,
    },
    /// A tournament game failed.
    GameFailed {
        /// The game's schedule index.
        index: u64,
        /// Why, one line.
        message: String,
        /// `true`: it will be played once more; `false`: it failed for good.
        retrying: bool,
    },
    /// How far a tournament is, after each recorded batch of games.
    Progress {
        /// Games recorded (this run's and earlier ones).
        done: u64,
        /// Games scheduled; `null` for a league.
        total: Option<u64>,
    },
    /// A line worth showing to a person (the same text as on stderr, without `mjai-sim: `).
    Notice {
        /// The line.
        message: String,
    },
    /// The command's outcome (the last line, unless an `error` follows it).
    Result(CommandResult),
    /// The command failed, or its outcome is partial (after a `result`): the last line.
    Error(ErrorMessage),
}

impl Message {
    /// The message as one line of JSON, without the newline.
    pub fn to_line(&self) -> String {
        // Serializing these types cannot fail: string keys, no non-finite floats refused by
        // serde_json (they become null), no maps with non-string keys.
        serde_json::to_string(self).unwrap_or_else(|e| {
            format!(r#"{{"reason":"error","code":"internal","message":"cannot serialize a message: {e}"}}"#)
        })
    }

    /// Writes the message as one line to `out` and flushes it (a reader sees each line as
    /// it happens). Errors: `out`'s.
    pub fn write_to(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let mut line = self.to_line();
        line.push('\n');
        out.write_all(line.as_bytes())?;
        out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_has_its_reason_beside_the_fields() {
        let m = Message::Progress { done: 3, total: Some(8) };
        assert_eq!(m.to_line(), r#"{"reason":"progress","done":3,"total":8}"#);
        let r = Message::Result(CommandResult::View { path: "g/game.html".into() });
        assert_eq!(r.to_line(), r#"{"reason":"result","command":"view","path":"g/game.html"}"#);
        let e = Message::Error(ErrorMessage::new(ErrorCode::Interrupted, "interrupted"));
        let v: serde_json::Value = serde_json::from_str(&e.to_line()).unwrap();
        assert_eq!((v["reason"].as_str(), v["code"].as_str()), (Some("error"), Some("interrupted")));
        assert!(v.get("seat").is_none(), "absent fields are left out: {v}");
    }
}
