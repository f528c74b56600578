//! Which engine played a game (issue 54): mjai-sim's version and commit, the rules preset,
//! the clock and the runtime, written in the full log's `start_game` as `meta.engine`
//! ([`super::logs::LogDir::with_engine`]) and in `summary.json` as `engine`, so that errata
//! (docs/errata.md names commits) can be matched to the games they touched and those games
//! voided by engine version.
//!
//! The commit is the binary's: the `mjai-sim` binary sets it once at start from its build
//! ([`set_build`]); a library user that does not says `unknown`.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use super::clock::Clock;

/// What played one game. JSON: `{"version", "commit", "rules", "clock", "runtime"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngineStamp {
    /// mjai-sim's version (`0.1.0`).
    pub version: String,
    /// The git commit it was built from (12 hex digits; `unknown` when not built from a
    /// checkout, or by a caller that did not say).
    pub commit: String,
    /// The rules preset's name ([`mjai_sim_engine::game::Rules::name`]: `tenhou`,
    /// `mjai-app`, `riichi-dev-3p`, ...).
    pub rules: String,
    /// The clock: its preset, the decision time and the bank, in seconds
    /// (`mjai-app 2s+0s`).
    pub clock: String,
    /// The runtime the submissions ran in (`docker`, `process`; `none` when every seat was
    /// a built-in or remote bot, in a tournament).
    pub runtime: String,
}

static BUILD: OnceLock<(String, String)> = OnceLock::new();

/// Sets this process's version and commit (once; later calls are ignored): what every
/// [`EngineStamp`] made afterwards carries.
pub fn set_build(version: &str, commit: &str) {
    let _ = BUILD.set((version.to_string(), commit.to_string()));
}

/// This process's `(version, commit)`: as [`set_build`] set them, else this crate's version
/// and `unknown`.
pub fn build() -> (String, String) {
    BUILD.get().cloned().unwrap_or_else(|| (env!("CARGO_PKG_VERSION").to_string(), "unknown".to_string()))
}

impl EngineStamp {
    /// The stamp of a game played here under `rules` (a preset name), `clock` and `runtime`.
    pub fn new(rules: &str, clock: &Clock, runtime: &str) -> EngineStamp {
        let (version, commit) = build();
        EngineStamp {
            version,
            commit,
            rules: rules.to_string(),
            clock: format!("{} {}s+{}s", clock.preset, clock.decision.as_secs_f64(), clock.bank.as_secs_f64()),
            runtime: runtime.to_string(),
        }
    }

    /// The stamp as `start_game`'s `meta` holds it: `{"engine": {...}}`, the stamp's keys in
    /// their declared order.
    pub fn meta_json(&self) -> String {
        #[derive(Serialize)]
        struct Meta<'a> {
            engine: &'a EngineStamp,
        }
        serde_json::to_string(&Meta { engine: self }).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stamp_names_its_parts() {
        let stamp = EngineStamp::new("tenhou", &Clock::mjai_app(), "process");
        assert_eq!(stamp.rules, "tenhou");
        assert_eq!(stamp.clock, "mjai-app 2s+0s");
        assert_eq!(stamp.runtime, "process");
        assert_eq!(stamp.version, env!("CARGO_PKG_VERSION"));
        let meta: serde_json::Value = serde_json::from_str(&stamp.meta_json()).unwrap();
        assert_eq!(meta["engine"]["runtime"], "process");
        assert_eq!(meta["engine"].as_object().unwrap().len(), 5);
    }
}
