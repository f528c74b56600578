//! `--rules tenhou|mjai-app|tenhou-east|mjai-app-east`: the rule preset argument, shared by every command that plays
//! or replays games (the main job, `selfplay`, `verify`, tournaments).

use crate::engine::game::Rules;

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
}

impl RulesArg {
    /// The engine's rule switches for this preset.
    pub fn rules(self) -> Rules {
        match self {
            RulesArg::Tenhou => Rules::tenhou(),
            RulesArg::MjaiApp => Rules::mjai_app(),
            RulesArg::TenhouEast => Rules::tenhou().east_only(),
            RulesArg::MjaiAppEast => Rules::mjai_app().east_only(),
        }
    }
}

/// `--rules PRESET`, to flatten into a command's `Args`.
#[derive(Debug, Clone, Copy, Default, clap::Args)]
pub struct RulesFlag {
    /// Rule preset: tenhou, or mjai-app (mjai.app's engine, to grade exactly like mjai.app
    /// or to verify its logs); `-east` after either plays East-only games (tonpuusen).
    #[arg(long = "rules", value_enum, value_name = "PRESET", default_value_t = RulesArg::Tenhou)]
    pub preset: RulesArg,
}

impl RulesFlag {
    /// The engine's rule switches.
    pub fn rules(self) -> Rules {
        self.preset.rules()
    }
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
        for name in Rules::PRESETS {
            assert_eq!(Cli::parse_from(["x", "--rules", name]).rules.rules(), Rules::preset(name).unwrap());
        }
        let e = Cli::try_parse_from(["x", "--rules", "mortal"]).unwrap_err().to_string();
        assert!(e.contains("tenhou") && e.contains("mjai-app"), "{e}");
    }
}
