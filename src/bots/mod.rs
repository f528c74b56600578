//! Built-in bots: pure deciders over mjai events (no I/O, no async).
//!
//! - [`PlayerState`]: what one seat knows, rebuilt from the masked events it receives.
//! - [`Agent`]: the decider trait: one batch of events and the engine's legal answers in,
//!   one action out (the seat rules exist once, in the engine).
//! - [`Tsumogiri`], [`Rulebase`] and [`Random`]: the built-in bots, by name through
//!   [`by_name`].
//! - [`selfplay`]: games between four agents in process, log in memory.

#![warn(missing_docs)]

mod agent;
mod random;
mod rulebase;
pub mod selfplay;
mod state;
pub mod stats;
#[cfg(test)]
mod tests;
mod tsumogiri;

pub use agent::Agent;
pub use random::Random;
pub use rulebase::Rulebase;
pub use state::PlayerState;
pub use tsumogiri::Tsumogiri;

/// Names accepted by [`by_name`] (and so by `builtin:NAME` on the command line).
pub const NAMES: [&str; 3] = ["tsumogiri", "rulebase", "random"];

/// Error for a built-in bot name that does not exist.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown built-in bot '{0}' (known: tsumogiri, rulebase, random)")]
pub struct UnknownBot(pub String);

/// A fresh built-in agent by name: `"tsumogiri"`, `"rulebase"` or `"random"`.
pub fn by_name(name: &str) -> Result<Box<dyn Agent>, UnknownBot> {
    match name {
        "tsumogiri" => Ok(Box::new(Tsumogiri::new())),
        "rulebase" => Ok(Box::new(Rulebase::new())),
        "random" => Ok(Box::new(Random::new())),
        other => Err(UnknownBot(other.to_string())),
    }
}

/// Parses a bot spec `builtin:NAME` into an agent; errors name the spec and the fix.
pub fn from_spec(spec: &str) -> Result<Box<dyn Agent>, UnknownBot> {
    by_name(spec.strip_prefix("builtin:").unwrap_or(spec))
}
