//! The game limits `tournament` and `serve` share (`#[command(flatten)]`): a decision's
//! timeout, the start timeout, restarts, and a game's longest time.

use super::numbers::Seconds;
use crate::tournament::config::TournamentConfig;

/// `--timeout`, `--start-timeout`, `--max-restarts`, `--game-timeout`.
#[derive(Debug, Clone, clap::Args)]
pub struct GameLimits {
    /// Seconds a bot has for one decision.
    #[arg(long, value_name = "SECS", default_value = "2")]
    pub timeout: Seconds,
    /// Seconds a bot has for a line beginning with start_game or start_kyoku.
    #[arg(long, value_name = "SECS", default_value = "20")]
    pub start_timeout: Seconds,
    /// Restarts after which a game is abandoned (then failed, retried once).
    #[arg(long, value_name = "N", default_value_t = 32)]
    pub max_restarts: u32,
    /// Longest one game may take, in seconds (league and validation games); past it the
    /// game fails (retried once).
    #[arg(long, value_name = "SECS", default_value = "3600")]
    pub game_timeout: Seconds,
}

impl GameLimits {
    /// `config` with these limits.
    pub fn apply(&self, config: TournamentConfig) -> TournamentConfig {
        TournamentConfig {
            timeout: self.timeout.duration(),
            start_timeout: self.start_timeout.duration(),
            max_restarts: self.max_restarts,
            game_timeout: self.game_timeout.duration(),
            ..config
        }
    }
}
