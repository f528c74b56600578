//! The bot's side of the dialect (`mjai-sim connect ws://HOST/ws/ranked --token T BOT`): an
//! mjai.app bot (a zip, a folder with `bot.py`, or any stdio command) plays on a server of
//! riichi.dev's dialect — riichi.dev itself, or mjai-sim's own.
//!
//! The events of a game are gathered and handed to the bot as mjai.app does: one line (a
//! JSON array) when it must act (at each `request_action`, whose `request_id` is echoed in
//! its answer), and at `start_game`, `end_kyoku` and `end_game` (answers ignored). One game
//! per connection: after `end_game` the server closes; on `/ws/ranked` the client connects
//! again to queue for the next game (until `--games`), on `/ws/validate` it prints the
//! verdict and ends.

use std::time::Duration;

use anyhow::bail;
use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio_tungstenite::tungstenite::Message;

use crate::bridge::{send, BridgeOptions};
use crate::dial::{connect_to, Reconnect, Ws};
use mjai_sim_runtime::bounded::{self, within};
use mjai_sim_runtime::process::ProcessBot;
use mjai_sim_runtime::remote::{CLOSE_TIMEOUT, IDLE_TIMEOUT};
use mjai_sim_runtime::riichi_dev::{ALREADY_CONNECTED_CLOSE, BAD_TOKEN_CLOSE, RANKED_PATH, VALIDATE_PATH};
use mjai_sim_runtime::Bot;

/// Which endpoint a URL names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Endpoint {
    /// `/ws/ranked`: ranked games, one per connection.
    Ranked,
    /// `/ws/validate`: one validation game, then a verdict.
    Validate,
}

/// The dialect endpoint of `url` (by its path), or `None` for another URL (mjai-sim's own
/// bridge protocol).
pub fn endpoint(url: &str) -> Option<Endpoint> {
    let parsed = url::Url::parse(url).ok()?;
    match parsed.path() {
        RANKED_PATH => Some(Endpoint::Ranked),
        VALIDATE_PATH => Some(Endpoint::Validate),
        _ => None,
    }
}

/// What one connection ended with.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// A game was played to `end_game`: the seat and the final scores (points).
    Game {
        /// The seat played.
        seat: u8,
        /// Scores after the last hand, seat order.
        scores: Vec<i64>,
    },
    /// The validation verdict (`validation_result`).
    Verdict {
        /// Passed or not.
        passed: bool,
        /// The server's reason, if any.
        reason: Option<String>,
    },
    /// The connection closed before `end_game`.
    Dropped(String),
    /// The server refused the connection as riichi.dev's does, closing it before the game
    /// with 1008 (the token) or 1013 (the bot is connected already): final.
    Refused {
        /// The close code.
        code: u16,
        /// The server's reason.
        reason: String,
    },
}

/// Extra seconds the local bot may think past a request's deadline before the client stops
/// waiting for it (the server has defaulted it by then; its late line is skipped).
const LATE_SLACK: Duration = Duration::from_secs(5);

/// Plays on `options.url` (a dialect endpoint) until `games` ranked games are played (0:
/// until interrupted) or the validation verdict; `report` gets one line per event worth
/// telling (connected, game start, game over, verdict, a rejected or defaulted action).
/// Returns the last outcome.
///
/// Errors (one line naming the fix): the server refused the token or the connection for
/// good (its status and message, at once), or could not be reached for
/// `options.reconnect_for`.
pub async fn run_client(
    options: &BridgeOptions,
    games: u32,
    report: &mut (dyn FnMut(String) + Send),
) -> anyhow::Result<Outcome> {
    let Some(kind) = endpoint(&options.url) else {
        bail!("`{}` is not a /ws/ranked or /ws/validate URL", options.url);
    };
    let mut played = 0;
    let mut reconnect = Reconnect::new(options.reconnect_for);
    loop {
        // bounded: CONNECT_TIMEOUT.
        let ws = match connect_to(&options.url, &options.token).await {
            Ok(ws) => ws,
            Err(e) => {
                let wait = reconnect.failed(&options.url, &e)?;
                tokio::time::sleep(wait).await; // bounded: at most MAX_BACKOFF.
                continue;
            }
        };
        report(format!("connected to {}; waiting for a game", options.url));
        let outcome = play_one(ws, options, report).await; // bounded: by IDLE_TIMEOUT and the bot's bounds.
        reconnect.connected();
        match &outcome {
            Outcome::Verdict { .. } => return Ok(outcome),
            Outcome::Game { .. } if kind == Endpoint::Validate => return Ok(outcome),
            Outcome::Game { .. } => {
                played += 1;
                if games != 0 && played >= games {
                    return Ok(outcome);
                }
            }
            Outcome::Dropped(why) => report(format!("connection closed ({why}); connecting again")),
            Outcome::Refused { code, reason } => {
                let fix = match *code {
                    BAD_TOKEN_CLOSE => "; check the token",
                    _ => "; stop the bot's other connection first",
                };
                bail!("{} refused the connection (close {code}: {reason}){fix}", options.url);
            }
        }
    }
}

/// One connection: the game it plays, through to the server's close.
async fn play_one(ws: Ws, options: &BridgeOptions, report: &mut (dyn FnMut(String) + Send)) -> Outcome {
    let (mut sink, mut stream) = ws.split();
    let mut game = Game::default();
    let mut bot: Option<ProcessBot> = None;
    let outcome = loop {
        let next = within(IDLE_TIMEOUT, "reading", stream.next()).await; // bounded: IDLE_TIMEOUT.
        let text = match next {
            Err(_) => break Outcome::Dropped(format!("nothing received for {} s", IDLE_TIMEOUT.as_secs())),
            Ok(Some(Ok(Message::Close(Some(frame)))))
                if game.seat.is_none()
                    && matches!(u16::from(frame.code), BAD_TOKEN_CLOSE | ALREADY_CONNECTED_CLOSE) =>
            {
                break Outcome::Refused { code: u16::from(frame.code), reason: frame.reason.to_string() };
            }
            Ok(None) | Ok(Some(Ok(Message::Close(_)))) => break game.closed(),
            Ok(Some(Err(e))) => break game.closed_by(e.to_string()),
            Ok(Some(Ok(Message::Text(text)))) => text,
            Ok(Some(Ok(_))) => continue,
        };
        let Ok(Value::Object(message)) = serde_json::from_str::<Value>(text.as_str()) else { continue };
        let kind = message.get("type").and_then(Value::as_str).unwrap_or("").to_string();
        match kind.as_str() {
            "request_action" => {
                let id = message.get("request_id").cloned().unwrap_or(Value::Null);
                let deadline_ms = message.get("time").and_then(|t| t.get("deadline_ms")).and_then(Value::as_u64);
                let limit = Duration::from_millis(deadline_ms.unwrap_or(3000)) + LATE_SLACK;
                let Some(process) = bot.as_mut() else { continue };
                let line = game.take_line();
                // bounded: limit.
                let answer = match process.exchange(&line, limit).await {
                    Ok(answer) => answer,
                    Err(e) => {
                        report(format!("the bot gave no answer ({e}); the server plays the default"));
                        continue;
                    }
                };
                let reply = match serde_json::from_str::<Value>(&answer) {
                    Ok(Value::Object(mut action)) => {
                        action.insert("request_id".into(), id);
                        Value::Object(action).to_string()
                    }
                    _ => answer, // the server acks it unparseable
                };
                // bounded: WRITE_TIMEOUT.
                if let Err(e) = send(&mut sink, reply).await {
                    break Outcome::Dropped(e);
                }
            }
            "action_ack" => {
                let status = message.get("status").and_then(Value::as_str).unwrap_or("");
                if status != "accepted" {
                    report(format!("action_ack {status}: {}", Value::Object(message.clone())));
                }
            }
            "validation_result" => {
                let passed = message.get("passed").and_then(Value::as_bool).unwrap_or(false);
                let reason = message.get("reason").and_then(Value::as_str).map(str::to_string);
                report(match &reason {
                    Some(r) if !passed => format!("validation failed: {r}"),
                    _ if passed => "validation passed".to_string(),
                    _ => "validation failed".to_string(),
                });
                game.verdict = Some(Outcome::Verdict { passed, reason });
            }
            "start_game" => {
                let seat = message.get("id").and_then(Value::as_u64).and_then(|s| u8::try_from(s).ok()).unwrap_or(0);
                if let Some(mut old) = bot.take() {
                    bounded::stop(&mut old).await; // bounded: STOP_GRACE.
                }
                // bounded: a local process start.
                bot = match options.start_bot(seat).await {
                    Ok(b) => Some(b),
                    Err(e) => break Outcome::Dropped(format!("the bot could not start: {e:#}")),
                };
                report(format!("game started: seat {seat}"));
                game.seat = Some(seat);
                game.push(Value::Object(message));
                game.flush_to(bot.as_mut()).await; // bounded: inside.
            }
            "end_kyoku" | "end_game" => {
                game.push(Value::Object(message));
                game.flush_to(bot.as_mut()).await; // bounded: inside.
                if kind == "end_game" {
                    game.over = true;
                    report(format!(
                        "game over: seat {}, scores {}",
                        game.seat.unwrap_or(0),
                        game.scores.iter().map(i64::to_string).collect::<Vec<_>>().join(",")
                    ));
                }
            }
            _ => game.push(Value::Object(message)),
        }
    };
    if let Some(mut process) = bot.take() {
        bounded::stop(&mut process).await; // bounded: STOP_GRACE.
    }
    let _ = within(CLOSE_TIMEOUT, "closing", sink.close()).await;
    outcome
}

/// What the client knows of the game on one connection.
#[derive(Default)]
struct Game {
    /// Events not yet handed to the bot.
    batch: Vec<Value>,
    seat: Option<u8>,
    scores: Vec<i64>,
    over: bool,
    verdict: Option<Outcome>,
}

impl Game {
    fn push(&mut self, event: Value) {
        match event.get("type").and_then(Value::as_str) {
            Some("start_kyoku") => {
                self.scores = event["scores"]
                    .as_array()
                    .map(|a| a.iter().filter_map(Value::as_i64).collect())
                    .unwrap_or_default();
            }
            Some("hora" | "ryukyoku") => {
                if let Some(deltas) = event["deltas"].as_array() {
                    for (s, d) in self.scores.iter_mut().zip(deltas) {
                        *s += d.as_i64().unwrap_or(0);
                    }
                }
            }
            _ => {}
        }
        self.batch.push(event);
    }

    /// The gathered events as one mjai line; the batch empties.
    fn take_line(&mut self) -> String {
        Value::Array(std::mem::take(&mut self.batch)).to_string()
    }

    /// Hands the gathered events to the bot as an informational line (its answer, `none`,
    /// is not sent anywhere).
    async fn flush_to(&mut self, bot: Option<&mut ProcessBot>) {
        let line = self.take_line();
        if let Some(bot) = bot {
            // bounded: the start timeout of mjai.app.
            if let Err(e) = bot.exchange(&line, Duration::from_secs(20)).await {
                tracing::warn!("the bot did not acknowledge an informational line: {e}");
            }
        }
    }

    fn closed(&mut self) -> Outcome {
        if let Some(v) = self.verdict.take() {
            return v;
        }
        match (self.over, self.seat) {
            (true, Some(seat)) => Outcome::Game { seat, scores: self.scores.clone() },
            _ => Outcome::Dropped("the server closed the connection before end_game".into()),
        }
    }

    fn closed_by(&mut self, why: String) -> Outcome {
        match self.closed() {
            Outcome::Dropped(_) => Outcome::Dropped(why),
            done => done,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoints_are_told_by_path() {
        assert_eq!(endpoint("ws://127.0.0.1:9/ws/ranked"), Some(Endpoint::Ranked));
        assert_eq!(endpoint("wss://riichi.dev/ws/validate"), Some(Endpoint::Validate));
        assert_eq!(endpoint("ws://127.0.0.1:9/remote/alice"), None);
        assert_eq!(endpoint("ws://127.0.0.1:9/ws/ranked/x"), None);
        assert_eq!(endpoint("not a url"), None);
    }
}
