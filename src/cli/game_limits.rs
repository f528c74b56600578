//! The game limits `tournament` and `serve` share (`#[command(flatten)]`): the clock (a
//! decision's time, the time bank, what a timeout costs), the start timeout, restarts, and
//! a game's longest time.

use super::clock_arg::ClockFlags;
use super::numbers::Seconds;
use crate::tournament::config::TournamentConfig;

/// `--clock`, `--timeout`, `--time-bank`, `--start-timeout`, `--max-restarts`, `--game-timeout`.
#[derive(Debug, Clone, clap::Args)]
pub struct GameLimits {
    /// The clock: `--clock`, `--timeout`, `--time-bank`.
    #[command(flatten)]
    pub clock: ClockFlags,
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
    /// `config` with these limits (the clock: the preset, then `--timeout` and
    /// `--time-bank` where given).
    pub fn apply(&self, config: TournamentConfig) -> TournamentConfig {
        let config = config.with_clock(self.clock.preset, self.clock.timeout(), self.clock.time_bank());
        TournamentConfig {
            start_timeout: self.start_timeout.duration(),
            max_restarts: self.max_restarts,
            game_timeout: self.game_timeout.duration(),
            ..config
        }
    }
}
