//! `--rules tenhou|mjai-app|riichi-dev-3p|tenhou-3p` (each also `-east`): the rule preset
//! argument, shared by every command that plays or replays games (the main job, `selfplay`,
//! `verify`, tournaments). The `-3p` presets are three-player (sanma): three seats.

use crate::engine::event::Event;
use crate::engine::game::{Players, Rules};
use crate::engine::log::KyokuStart;

/// A rule preset by name (see [`Rules`] for what each switch changes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum RulesArg {
    /// Tenhou's rules (the default).
    #[default]
    Tenhou,
    /// mjai.app's engine: kuikae and noten riichi discards allowed, triple ron paid, no ron
    /// on an ankan, karaten tenpai at an exhaustive draw.
    MjaiApp,
    /// Tenhou's rules, East round only (tonpuusen; riichi.dev's validation game).
    TenhouEast,
    /// mjai.app's engine, East round only.
    MjaiAppEast,
    /// Three-player (sanma) as riichi.dev ranks it: RiichiEnv's `3p-red-half` (docs/rules.md
    /// "Three-player (sanma)").
    #[value(name = "riichi-dev-3p")]
    RiichiDev3p,
    /// Three-player (sanma) under Tenhou's sanma rules.
    #[value(name = "tenhou-3p")]
    Tenhou3p,
    /// riichi-dev-3p, East round only.
    #[value(name = "riichi-dev-3p-east")]
    RiichiDev3pEast,
    /// tenhou-3p, East round only.
    #[value(name = "tenhou-3p-east")]
    Tenhou3pEast,
}

impl RulesArg {
    /// The engine's rule switches for this preset.
    pub fn rules(self) -> Rules {
        match self {
            RulesArg::Tenhou => Rules::tenhou(),
            RulesArg::MjaiApp => Rules::mjai_app(),
            RulesArg::TenhouEast => Rules::tenhou().east_only(),
            RulesArg::MjaiAppEast => Rules::mjai_app().east_only(),
            RulesArg::RiichiDev3p => Rules::riichi_dev_3p(),
            RulesArg::Tenhou3p => Rules::tenhou_3p(),
            RulesArg::RiichiDev3pEast => Rules::riichi_dev_3p().east_only(),
            RulesArg::Tenhou3pEast => Rules::tenhou_3p().east_only(),
        }
    }
}

/// `--rules PRESET`, to flatten into a command's `Args`.
#[derive(Debug, Clone, Copy, Default, clap::Args)]
pub struct RulesFlag {
    /// Rule preset: tenhou, or mjai-app (mjai.app's engine, to grade exactly like mjai.app
    /// or to verify its logs); riichi-dev-3p or tenhou-3p for three-player games (sanma: give
    /// three bots); `-east` after any plays East-only games (tonpuusen).
    #[arg(long = "rules", value_enum, value_name = "PRESET", default_value_t = RulesArg::Tenhou)]
    pub preset: RulesArg,
}

impl RulesFlag {
    /// The engine's rule switches.
    pub fn rules(self) -> Rules {
        self.preset.rules()
    }
}

/// Refuses a log whose table size ([`KyokuStart::players_of`]) is not the one `rules` seat,
/// in one line naming `what` (the log) and the preset to give instead.
pub(super) fn log_fits_rules(log: &[Event], rules: Rules, what: &str) -> anyhow::Result<()> {
    let Some(logged) = KyokuStart::players_of(log).filter(|&p| p != rules.players) else {
        return Ok(());
    };
    anyhow::bail!(
        "{what} is a {}-player game but --rules {} seats {}: give {}",
        logged.count(),
        rules.name(),
        rules.players.count(),
        match logged {
            Players::Three => "--rules riichi-dev-3p (or tenhou-3p)",
            Players::Four => "a four-player preset, e.g. --rules tenhou",
        }
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Debug, Parser)]
    struct Cli {
        #[command(flatten)]
        rules: RulesFlag,
    }

    #[test]
    fn presets_parse_by_name_and_default_to_tenhou() {
        assert_eq!(Cli::parse_from(["x"]).rules.rules(), Rules::tenhou());
        assert_eq!(Cli::parse_from(["x", "--rules", "mjai-app"]).rules.rules(), Rules::mjai_app());
        assert_eq!(Cli::parse_from(["x", "--rules", "tenhou"]).rules.rules().name(), "tenhou");
        for name in Rules::PRESETS.into_iter().chain(Rules::PRESETS_3P) {
            assert_eq!(Cli::parse_from(["x", "--rules", name]).rules.rules(), Rules::any_preset(name).unwrap());
        }
        let e = Cli::try_parse_from(["x", "--rules", "mortal"]).unwrap_err().to_string();
        assert!(e.contains("tenhou") && e.contains("mjai-app"), "{e}");
    }
}
