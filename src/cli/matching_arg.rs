//! `--matching balanced|rating`: how a league picks each set's bots, for the commands that
//! make a league (`tournament --sets 0`, `serve`).

use crate::tournament::config::Matching;

/// A matching by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum MatchingArg {
    /// The bots that played least, then those that met least (the default).
    #[default]
    Balanced,
    /// Once the bot that played least is past its provisional games (40), its table is
    /// drawn among the bots nearest to it in rating (leagues with many bots).
    Rating,
}

/// `--matching MODE`, to flatten into a command's `Args`.
#[derive(Debug, Clone, Copy, Default, clap::Args)]
pub struct MatchingFlag {
    /// How a league picks each set's bots: balanced, or rating (opponents of similar μ once
    /// past the provisional games; leagues only).
    #[arg(long = "matching", value_enum, value_name = "MODE", default_value_t = MatchingArg::Balanced)]
    pub mode: MatchingArg,
}

impl MatchingFlag {
    /// The stored option.
    pub fn matching(self) -> Matching {
        match self.mode {
            MatchingArg::Balanced => Matching::Balanced,
            MatchingArg::Rating => Matching::Rating,
        }
    }
}
