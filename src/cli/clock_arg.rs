//! `--clock mjai-app|riichi-dev`, `--timeout SECS`, `--time-bank SECS`: the clock every
//! seat plays under, shared by the one-game command and, through `GameLimits`, by
//! `tournament` and `serve`. The preset comes first; `--timeout` and `--time-bank`, when
//! given, replace its decision time and its bank.

use std::time::Duration;

use super::enum_arg::one_of;
use super::numbers::{Seconds, SecondsOrZero};
use crate::arena::{Clock, ClockPreset};

/// The clock flags, to flatten into a command's `Args`.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct ClockFlags {
    /// Each seat's clock: mjai-app (2 s a decision, a timeout is a chombo) or riichi-dev
    /// (3 s a decision plus a 15 s bank refilled each hand; a timeout plays the default
    /// action with no penalty). --timeout and --time-bank adjust it.
    #[arg(id = "clock", long = "clock", value_name = "PRESET", default_value_t = ClockPreset::MjaiApp,
          value_parser = one_of(&ClockPreset::ALL, ClockPreset::name, ClockPreset::describe))]
    pub preset: ClockPreset,
    /// Seconds a bot has for one decision before its time bank is drawn on [default: the
    /// clock's: 2 for mjai-app, 3 for riichi-dev].
    #[arg(long, value_name = "SECS")]
    pub timeout: Option<Seconds>,
    /// Each seat's extra seconds, spent when a decision takes longer than --timeout; for
    /// the whole game under mjai-app, refilled each hand under riichi-dev (0: none)
    /// [default: the clock's: 0 for mjai-app, 15 for riichi-dev].
    #[arg(long, value_name = "SECS")]
    pub time_bank: Option<SecondsOrZero>,
}

impl ClockFlags {
    /// The preset's clock with `--timeout` and `--time-bank` applied where given.
    pub fn clock(&self) -> Clock {
        self.preset.clock().with_overrides(self.timeout(), self.time_bank())
    }

    /// `--timeout`, if given.
    pub fn timeout(&self) -> Option<Duration> {
        self.timeout.map(Seconds::duration)
    }

    /// `--time-bank`, if given.
    pub fn time_bank(&self) -> Option<Duration> {
        self.time_bank.map(SecondsOrZero::duration)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::OnTimeout;
    use clap::Parser;

    #[derive(Debug, Parser)]
    struct Cli {
        #[command(flatten)]
        clock: ClockFlags,
    }

    fn clock(args: &[&str]) -> Clock {
        Cli::try_parse_from(std::iter::once("x").chain(args.iter().copied())).unwrap().clock.clock()
    }

    #[test]
    fn the_preset_comes_first_then_the_overrides() {
        assert_eq!(clock(&[]), Clock::mjai_app());
        assert_eq!(clock(&["--clock", "riichi-dev"]), Clock::riichi_dev());
        let c = clock(&["--time-bank", "18"]);
        assert_eq!(
            (c.decision, c.bank, c.on_timeout),
            (Duration::from_secs(2), Duration::from_secs(18), OnTimeout::Chombo)
        );
        let c = clock(&["--timeout", "0.5", "--clock", "riichi-dev", "--time-bank", "0"]);
        assert_eq!(
            (c.decision, c.bank, c.on_timeout),
            (Duration::from_millis(500), Duration::ZERO, OnTimeout::Default)
        );
        assert!(Cli::try_parse_from(["x", "--clock", "tenhou"]).is_err());
    }
}
