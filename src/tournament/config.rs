//! A tournament's options as stored in its database (JSON in `tournament.config`), so that
//! `mjai-sim tournament --resume DIR` and every worker play the same schedule with the same
//! settings. Parsed once, into checked types ([`TournamentConfig::parse`]): a damaged or
//! unknown value is one error naming the field, never a panic later.
//!
//! The JSON keeps the shape of every earlier version: time limits are seconds as numbers,
//! the rule preset, runtime and transport are names (`"tenhou"`, `"docker"`, `"stdio"`).
//! Fields added later have defaults that mean what older tournaments played under: no
//! `rules` (or `""`) is Tenhou, no `game_timeout` (or 0) is [`DEFAULT_GAME_TIMEOUT`], no
//! `clock` is mjai.app's and no `time_bank` is 0.

use mjai_sim_runtime::batch::BatchConfig;
use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::schedule::Format;
use mjai_sim_arena::launch::{LaunchSettings, RuntimeKind, Transport};
use mjai_sim_arena::{Clock, ClockPreset, MatchOptions, DEFAULT_GAME_TIMEOUT};
use mjai_sim_engine::game::{Players, Rules};
use mjai_sim_runtime::docker::resources::Resources;
use mjai_sim_runtime::submission::SubmissionLimits;

/// Longest accepted time limit, in seconds (one day), as the command line's.
pub const MAX_SECONDS: f64 = 86_400.0;

/// Everything that decides a tournament's games and results.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TournamentConfig {
    /// Duplicate sets, or one-vs-three.
    pub format: Format,
    /// Bot arguments (`builtin:NAME`, paths) in bot-list order; names are in the `bots` table.
    pub bots: Vec<String>,
    /// Sets scheduled; 0: a league (open-ended).
    pub sets: u64,
    /// Wall seed base `[nonce, key]`; set `i` plays `[nonce + i, key]`.
    pub seed: [u64; 2],
    /// Uma by rank, in pt (Mortal's 90, 45, 0, -135): one entry per seat of the table
    /// (`rules.players`; [`TournamentConfig::parse`] checks it).
    pub uma: Vec<f64>,
    /// Time for one decision (stored in seconds): the clock's decision time, as resolved
    /// when the tournament was made (the preset's, or `--timeout`; see
    /// [`TournamentConfig::with_clock`]).
    #[serde(with = "seconds")]
    pub timeout: Duration,
    /// Time for a line beginning with start_game or start_kyoku (stored in seconds).
    #[serde(with = "seconds")]
    pub start_timeout: Duration,
    /// Restarts after which a game is abandoned (and failed).
    pub max_restarts: u32,
    /// Longest a whole game may take (`--game-timeout`, stored in seconds; 0 or missing:
    /// [`DEFAULT_GAME_TIMEOUT`], for tournaments made before the option existed).
    #[serde(default = "default_game_timeout", with = "game_seconds")]
    pub game_timeout: Duration,
    /// Where submissions run.
    pub runtime: RuntimeKind,
    /// How lines reach a bot in Docker.
    pub transport: Transport,
    /// Bot image (`None`: the built image).
    pub image: Option<String>,
    /// Largest accepted submission, MiB.
    pub max_submission_mb: u64,
    /// Bots kept between games.
    pub keep_bots: bool,
    /// Each game's folder written.
    pub logs: bool,
    /// No `game.html` in the game folders (`--no-html`).
    #[serde(default)]
    pub no_html: bool,
    /// Rule preset, stored by name (`tenhou`, `mjai-app`; empty or missing in tournaments
    /// made before presets existed, which played under Tenhou rules).
    #[serde(default = "Rules::tenhou", with = "preset")]
    pub rules: Rules,
    /// Limits of each bot container (`--memory`, `--cpus`, `--pids`, `--gpus`).
    #[serde(default)]
    pub resources: Resources,
    /// How a league picks each set's table (`--matching`; missing in older tournaments:
    /// balanced).
    #[serde(default)]
    pub matching: Matching,
    /// The clock preset (`--clock`, stored by name: `mjai-app`, `riichi-dev`; missing in
    /// older tournaments: mjai-app). It gives the bank's refill and what a timeout costs;
    /// the decision time and the bank are `timeout` and `time_bank`.
    #[serde(default)]
    pub clock: ClockPreset,
    /// Each seat's time bank (stored in seconds; missing in older tournaments: 0), as
    /// resolved when the tournament was made (the preset's, or `--time-bank`).
    #[serde(default, with = "bank_seconds")]
    pub time_bank: Duration,
    /// How bots that opt in are batched (`--no-batch`, `--batch`, `--batch-timeout`;
    /// missing in older tournaments: the default, batching on).
    #[serde(default)]
    pub batch: BatchConfig,
}

/// How a league's top-up picks the bots of a set ([`crate::schedule::Scheduler`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Matching {
    /// The bots that played least, then those that met least (the duplicate scheduler).
    #[default]
    Balanced,
    /// As balanced, but once the bot that played least is past its provisional games, its
    /// table is drawn among the bots nearest to it in μ (leagues only: a fixed schedule is
    /// made before any game).
    Rating,
}

impl Default for TournamentConfig {
    /// The command line's defaults: one duplicate set between no bots (fill `bots`), seed
    /// `[0, 0]`, Mortal's uma, 2 s / 20 s / 32 restarts / 3600 s, Docker over stdio with
    /// the built image, 1000 MiB submissions, logs and viewer pages written, Tenhou rules.
    fn default() -> TournamentConfig {
        let limits = MatchOptions::default();
        TournamentConfig {
            format: Format::Duplicate,
            bots: Vec::new(),
            sets: 1,
            seed: [0, 0],
            uma: super::standings::MORTAL_UMA.to_vec(),
            timeout: limits.clock.decision,
            start_timeout: limits.start_timeout,
            max_restarts: limits.max_restarts,
            game_timeout: limits.game_timeout,
            runtime: RuntimeKind::Docker,
            transport: Transport::Stdio,
            image: None,
            max_submission_mb: 1000,
            keep_bots: false,
            logs: true,
            no_html: false,
            rules: Rules::tenhou(),
            resources: Resources::default(),
            matching: Matching::Balanced,
            clock: limits.clock.preset,
            time_bank: limits.clock.bank,
            batch: BatchConfig::default(),
        }
    }
}

impl TournamentConfig {
    /// Reads stored options. Errors: the one line naming the damaged field (e.g.
    /// `timeout: -1 s is out of range ...`, `rules: unknown preset "x" ...`).
    pub fn parse(text: &str) -> Result<TournamentConfig, String> {
        let config: TournamentConfig = serde_json::from_str(text).map_err(|e| e.to_string())?;
        config.check_uma()?;
        Ok(config)
    }

    /// The table size of every game (`rules.players`).
    pub fn players(&self) -> Players {
        self.rules.players
    }

    /// Errors unless `uma` has one finite entry per seat of the table, e.g. `uma: 4 values
    /// for a three-player preset (riichi-dev-3p), which needs 3, e.g. 90,0,-90`.
    pub fn check_uma(&self) -> Result<(), String> {
        let seats = self.players().count();
        if self.uma.len() == seats && self.uma.iter().all(|x| x.is_finite()) {
            return Ok(());
        }
        let example = super::standings::default_uma(self.players()).iter().map(f64::to_string).collect::<Vec<_>>();
        Err(format!(
            "uma: {} values for the {} preset ({}-player), which needs {seats} finite numbers, e.g. {}",
            self.uma.len(),
            self.rules.name(),
            seats,
            example.join(",")
        ))
    }

    /// The options as stored (JSON).
    pub fn to_json(&self) -> String {
        // Every field is a plain number, string, list or map: serializing cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Whether this is a league (`--sets 0`: open-ended, bots added and retired).
    pub fn is_league(&self) -> bool {
        self.sets == 0
    }

    /// The time limits and restart cap every game plays under.
    pub fn match_options(&self) -> MatchOptions {
        MatchOptions {
            clock: self.clock(),
            start_timeout: self.start_timeout,
            max_restarts: self.max_restarts,
            game_timeout: self.game_timeout,
        }
    }

    /// The clock every seat plays under (unless its launcher names its own): the stored
    /// preset with the stored decision time and bank.
    pub fn clock(&self) -> Clock {
        self.clock.clock().with_overrides(Some(self.timeout), Some(self.time_bank))
    }

    /// These options with the clock `preset`, adjusted by `timeout` and `time_bank` where
    /// given (`--clock`, then `--timeout`, `--time-bank`): the preset's figures are stored
    /// unless overridden.
    pub fn with_clock(
        self,
        preset: ClockPreset,
        timeout: Option<Duration>,
        time_bank: Option<Duration>,
    ) -> TournamentConfig {
        let clock = preset.clock().with_overrides(timeout, time_bank);
        TournamentConfig { clock: preset, timeout: clock.decision, time_bank: clock.bank, ..self }
    }

    /// The intake limits of its submissions.
    pub fn submission_limits(&self) -> SubmissionLimits {
        SubmissionLimits {
            max_archive_bytes: self.max_submission_mb.saturating_mul(1024 * 1024),
            ..SubmissionLimits::default()
        }
    }

    /// How its games start their bots (stderr of each seat goes to the game's folder, set
    /// by the runner).
    pub fn launch_settings(&self) -> LaunchSettings {
        LaunchSettings {
            runtime: self.runtime,
            transport: self.transport,
            image: self.image.clone(),
            max_submission_bytes: self.max_submission_mb.saturating_mul(1024 * 1024),
            stderr_paths: std::array::from_fn(|_| PathBuf::from("/dev/null")),
            resources: self.resources.clone(),
            batch: self.batch.options(),
        }
    }
}

fn default_game_timeout() -> Duration {
    DEFAULT_GAME_TIMEOUT
}

/// A time limit in seconds, checked like the command line's (`0 < s <= 1 day`).
fn checked_seconds(value: f64) -> Result<Duration, String> {
    if value.is_finite() && value > 0.0 && value <= MAX_SECONDS {
        Ok(Duration::from_secs_f64(value))
    } else {
        Err(format!("{value} s is out of range: seconds above 0 and at most {MAX_SECONDS}"))
    }
}

/// `Duration` as seconds (a number), checked on reading.
mod seconds {
    use std::time::Duration;

    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(d.as_secs_f64())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
        super::checked_seconds(f64::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

/// [`seconds`], with 0 meaning the default game timeout (tournaments made before it).
mod game_seconds {
    use std::time::Duration;

    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
        super::seconds::serialize(d, s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
        match f64::deserialize(d)? {
            0.0 => Ok(super::DEFAULT_GAME_TIMEOUT),
            v => super::checked_seconds(v).map_err(serde::de::Error::custom),
        }
    }
}

/// A time bank in seconds: 0 allowed (no bank), else as [`seconds`].
mod bank_seconds {
    use std::time::Duration;

    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
        super::seconds::serialize(d, s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
        match f64::deserialize(d)? {
            0.0 => Ok(Duration::ZERO),
            v => super::checked_seconds(v).map_err(serde::de::Error::custom),
        }
    }
}

/// [`Rules`] by preset name; `""` is Tenhou (tournaments made before presets).
mod preset {
    use serde::{Deserialize, Deserializer, Serializer};

    use mjai_sim_engine::game::Rules;

    pub fn serialize<S: Serializer>(rules: &Rules, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(rules.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Rules, D::Error> {
        let name = String::deserialize(d)?;
        match name.as_str() {
            "" => Ok(Rules::tenhou()),
            _ => Rules::preset(&name).or_else(|| Rules::preset_3p(&name)).ok_or_else(|| {
                let known: Vec<&str> = Rules::PRESETS.iter().chain(&Rules::PRESETS_3P).copied().collect();
                serde::de::Error::custom(format!("unknown rule preset {name:?} (known: {})", known.join(", ")))
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Options as a tournament made on 2026-11-23 stored them (before presets and the game
    /// timeout), written by hand.
    const OLD: &str = r#"{"format":"Duplicate","bots":["builtin:tsumogiri","a.zip"],"sets":2,
        "seed":[7,0],"uma":[90.0,45.0,0.0,-135.0],"timeout":2.0,"start_timeout":20.0,
        "max_restarts":32,"runtime":"docker","transport":"http","image":null,
        "max_submission_mb":1000,"keep_bots":false,"logs":true}"#;

    #[test]
    fn options_of_older_tournaments_read_with_the_defaults_they_played_under() {
        let c = TournamentConfig::parse(OLD).unwrap();
        assert_eq!(c.rules, Rules::tenhou());
        assert_eq!(c.game_timeout, Duration::from_secs(3600));
        assert_eq!(c.timeout, Duration::from_secs(2));
        assert_eq!((c.runtime, c.transport), (RuntimeKind::Docker, Transport::Http));
        assert!(!c.no_html && c.resources == Resources::default());
        assert_eq!((c.clock, c.time_bank), (ClockPreset::MjaiApp, Duration::ZERO));
        assert_eq!(c.match_options().clock, Clock::mjai_app(), "older tournaments keep mjai.app's clock");
        let zero = OLD.replace(r#""logs":true"#, r#""logs":true,"game_timeout":0,"rules":"""#);
        assert_eq!(TournamentConfig::parse(&zero).unwrap(), c);
    }

    #[test]
    fn stored_options_read_back_equal() {
        let c = TournamentConfig {
            bots: vec!["builtin:random".into(); 4],
            sets: 0,
            rules: Rules::mjai_app(),
            runtime: RuntimeKind::Process,
            timeout: Duration::from_millis(1500),
            ..TournamentConfig::default()
        };
        let text = c.to_json();
        assert!(text.contains(r#""rules":"mjai-app""#) && text.contains(r#""timeout":1.5"#), "{text}");
        assert_eq!(TournamentConfig::parse(&text).unwrap(), c);
        assert!(c.is_league());
    }

    #[test]
    fn the_clock_is_stored_by_preset_with_its_figures() {
        let c = TournamentConfig::default().with_clock(ClockPreset::RiichiDev, None, None);
        assert_eq!((c.timeout, c.time_bank), (Duration::from_secs(3), Duration::from_secs(15)));
        assert_eq!(c.match_options().clock, Clock::riichi_dev());
        let text = c.to_json();
        assert!(text.contains(r#""clock":"riichi-dev""#) && text.contains(r#""time_bank":15.0"#), "{text}");
        assert_eq!(TournamentConfig::parse(&text).unwrap(), c);
        // --timeout and --time-bank adjust the preset
        let c = TournamentConfig::default().with_clock(
            ClockPreset::RiichiDev,
            Some(Duration::from_secs(1)),
            Some(Duration::ZERO),
        );
        let clock = c.match_options().clock;
        assert_eq!(
            (clock.decision, clock.bank, clock.on_timeout),
            (Duration::from_secs(1), Duration::ZERO, mjai_sim_arena::OnTimeout::Default)
        );
        let e = TournamentConfig::parse(&OLD.replace(r#""logs":true"#, r#""logs":true,"clock":"fast""#)).unwrap_err();
        assert!(e.contains("unknown variant `fast`"), "{e}");
    }

    #[test]
    fn a_damaged_field_is_named() {
        let e = TournamentConfig::parse(&OLD.replace(r#""timeout":2.0"#, r#""timeout":-1"#)).unwrap_err();
        assert!(e.contains("out of range"), "{e}");
        let e = TournamentConfig::parse(&OLD.replace(r#""logs":true"#, r#""logs":true,"rules":"mortal""#)).unwrap_err();
        assert!(e.contains("unknown rule preset \"mortal\""), "{e}");
        let e = TournamentConfig::parse(&OLD.replace(r#""runtime":"docker""#, r#""runtime":"vm""#)).unwrap_err();
        assert!(e.contains("unknown variant `vm`"), "{e}");
    }
}
