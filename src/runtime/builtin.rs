//! In-process runtime for built-in bots: an [`Agent`] behind the same [`Bot`] interface as
//! external bots, so the match loop treats `builtin:NAME` like any submission.
//!
//! Fault injection for the tests of what a referee's bug does ([`DROP_OFFERS_ENV`]): with
//! `MJAI_SIM_TEST_DROP_OFFERS=1` in the environment, built-ins started from then on forget
//! the legal set they are offered, as every kept built-in did under `--keep-bots` before
//! issue 42 (each answers `none` where it must discard: a chombo per hand). Never set it
//! outside a test: it exists so that the tests can show such a chombo is reported as an
//! internal error and never counted as a result.

use std::time::Duration;

use futures_util::future::BoxFuture;

use super::{Bot, BotError, Offer};
use mjai_sim_bots::{self as bots, Agent, UnknownBot};
use mjai_sim_engine::event::Event;

/// A built-in bot running in process: parses the JSON array line, lets the agent choose
/// among the legal answers the referee offered ([`Bot::offer`]), answers with the action's
/// canonical JSON. Answers at once, so the timeout never applies.
pub struct BuiltinBot {
    name: String,
    agent: Box<dyn Agent>,
    /// The referee's legal set for the next line; taken (emptied) by each answer.
    legal: Vec<Event>,
    /// [`DROP_OFFERS_ENV`] was set when it started: offers are forgotten.
    drop_offers: bool,
}

/// The environment variable that makes built-ins forget their offers (module docs): `1`.
pub const DROP_OFFERS_ENV: &str = "MJAI_SIM_TEST_DROP_OFFERS";

impl BuiltinBot {
    /// Wraps an agent; `name` is for messages only.
    pub fn new(name: impl Into<String>, agent: Box<dyn Agent>) -> BuiltinBot {
        let drop_offers = std::env::var_os(DROP_OFFERS_ENV).is_some_and(|v| v == "1");
        BuiltinBot { name: name.into(), agent, legal: Vec::new(), drop_offers }
    }

    /// A built-in by spec: `builtin:tsumogiri`, `builtin:rulebase`, `builtin:random` (or the bare name).
    pub fn from_spec(spec: &str) -> Result<BuiltinBot, UnknownBot> {
        Ok(BuiltinBot::new(spec.strip_prefix("builtin:").unwrap_or(spec), bots::from_spec(spec)?))
    }

    /// One exchange, synchronously: the answer line for one batch line, chosen among the
    /// legal answers offered since the previous line (none offered: an informational line).
    pub fn answer(&mut self, line: &str) -> Result<String, BotError> {
        let events: Vec<Event> = serde_json::from_str(line).map_err(|e| {
            BotError::Transport(format!(
                "built-in bot '{}' got a line that is not a JSON array of mjai events: {e}",
                self.name
            ))
        })?;
        if events.is_empty() {
            return Err(BotError::Transport(format!("built-in bot '{}' got an empty batch", self.name)));
        }
        let legal = std::mem::take(&mut self.legal);
        Ok(self.agent.react(&events, &legal).to_json())
    }
}

impl Bot for BuiltinBot {
    fn exchange<'a>(&'a mut self, line: &'a str, _timeout: Duration) -> BoxFuture<'a, Result<String, BotError>> {
        let result = self.answer(line);
        Box::pin(async move { result })
    }

    fn offer(&mut self, offer: &Offer<'_>) {
        self.legal.clear();
        if !self.drop_offers {
            self.legal.extend_from_slice(offer.legal);
        }
    }

    fn stop(&mut self) -> BoxFuture<'_, ()> {
        Box::pin(async {})
    }

    /// A built-in writes no stderr.
    fn stderr_tail(&self) -> Vec<String> {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn tsumogiri_behind_the_bot_interface() {
        let mut bot = BuiltinBot::from_spec("builtin:tsumogiri").unwrap();
        let t = Duration::from_secs(1);
        let a = bot.exchange(r#"[{"type":"start_game","names":["0","1","2","3"],"id":1}]"#, t).await.unwrap();
        assert_eq!(a, r#"{"type":"none"}"#);
        let drawn: Event = serde_json::from_str(r#"{"type":"dahai","actor":1,"pai":"5sr","tsumogiri":true}"#).unwrap();
        let other: Event = serde_json::from_str(r#"{"type":"dahai","actor":1,"pai":"E","tsumogiri":false}"#).unwrap();
        bot.offer(&Offer::legal(&[other, drawn]));
        let a = bot.exchange(r#"[{"type":"tsumo","actor":0,"pai":"?"},{"type":"dahai","actor":0,"pai":"E","tsumogiri":true},{"type":"tsumo","actor":1,"pai":"5sr"}]"#, t).await.unwrap();
        assert_eq!(a, r#"{"type":"dahai","actor":1,"pai":"5sr","tsumogiri":true}"#);
        // The offer is used once: the next (informational) line gets `none`.
        let a = bot.exchange(r#"[{"type":"end_kyoku"}]"#, t).await.unwrap();
        assert_eq!(a, r#"{"type":"none"}"#);
    }

    #[test]
    fn bad_lines_and_names_are_errors_not_panics() {
        let mut bot = BuiltinBot::from_spec("tsumogiri").unwrap();
        assert!(matches!(bot.answer("{not json"), Err(BotError::Transport(m)) if m.contains("JSON array")));
        assert!(matches!(bot.answer("[]"), Err(BotError::Transport(m)) if m.contains("empty")));
        let e = BuiltinBot::from_spec("builtin:mortal").err().unwrap().to_string();
        assert!(e.contains("'mortal'") && e.contains("rulebase"), "{e}");
    }
}
