//! A seat's clock: how long a bot may take over a decision, what extra time it has, when
//! that refills, and what a timeout costs. Two presets, one per site whose games we
//! reproduce:
//!
//! - [`Clock::mjai_app`] (the default): 2 s per decision, no bank, a timeout is a chombo
//!   (a mangan paid, the hand ends, all four bots restarted). mjai.app's docs: "2 seconds
//!   per decision"; the chombo is mjai.app's penalty for any error.
//! - [`Clock::riichi_dev`]: riichi.dev's dialect docs: "3 s grace per request plus a 15 s
//!   bank that refills each hand ... on timeout the server plays the default (tsumogiri on
//!   a draw, none on a claim), acks defaulted, the bank goes to 0, and there is no
//!   penalty". The referee plays [`mjai_sim_engine::game::default_answer`] for the seat, the
//!   bot keeps running (its late answer is skipped by its runtime), and the seat's bank is 0
//!   until the next hand.
//!
//! A crash, an unparsable or an illegal answer is a chombo under either clock. Lines that
//! begin with `start_game` or `start_kyoku` have [`super::MatchOptions::start_timeout`]
//! instead of the decision time, and spend no bank (mjai.app's rule for model loading).

use std::time::Duration;

use serde::{Deserialize, Serialize};

/// When a seat's time bank is filled again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refill {
    /// Once, at the start of the game: what a seat spends is gone for the whole game.
    Game,
    /// At every `start_kyoku` (riichi.dev).
    Hand,
}

/// What a decision without an answer in time costs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnTimeout {
    /// A chombo: a mangan paid, the hand ends, all four bots are restarted (mjai.app).
    Chombo,
    /// The default action is played for the seat ([`mjai_sim_engine::game::default_answer`];
    /// `none` to an informational line), the seat's bank goes to 0 until it refills, no
    /// penalty, no restart (riichi.dev). Recorded as `defaulted`.
    Default,
}

/// A seat's clock. Built from a [`ClockPreset`], then adjusted by `--timeout` and
/// `--time-bank` when they are given ([`Clock::with_overrides`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    /// The preset it was made from (named in messages).
    pub preset: ClockPreset,
    /// Time a bot has for one decision before its bank is drawn on (mjai.app: 2 s;
    /// riichi.dev's "grace per request": 3 s).
    pub decision: Duration,
    /// Extra time a seat may spend beyond `decision`, in all until it refills (mjai.app:
    /// none; riichi.dev: 15 s). A decision may take `decision` plus what is left of it; the
    /// time it takes beyond `decision` is taken from it.
    pub bank: Duration,
    /// When the bank is full again.
    pub refill: Refill,
    /// What a timeout costs.
    pub on_timeout: OnTimeout,
    /// Lines beginning with `start_game` or `start_kyoku` get the game's start timeout
    /// (model loading) and spend no bank: true for both presets; false for a seat of
    /// riichi.dev's dialect, whose every request has the grace and the bank
    /// ([`Clock::riichi_dev_seat`]).
    pub start_lines: bool,
}

impl Clock {
    /// mjai.app's clock (the default): 2 s per decision, no bank (refilled per game, which
    /// only matters when `--time-bank` adds one), a timeout is a chombo.
    pub fn mjai_app() -> Clock {
        Clock {
            preset: ClockPreset::MjaiApp,
            decision: Duration::from_secs(2),
            bank: Duration::ZERO,
            refill: Refill::Game,
            on_timeout: OnTimeout::Chombo,
            start_lines: true,
        }
    }

    /// riichi.dev's clock: 3 s per request plus a 15 s bank that refills at each hand; a
    /// timeout plays the default action with no penalty and empties the bank for the rest
    /// of the hand.
    pub fn riichi_dev() -> Clock {
        Clock {
            preset: ClockPreset::RiichiDev,
            decision: Duration::from_secs(3),
            bank: Duration::from_secs(15),
            refill: Refill::Hand,
            on_timeout: OnTimeout::Default,
            start_lines: true,
        }
    }

    /// riichi.dev's clock as riichi.dev applies it to a bot of its dialect: every request,
    /// a hand's first included, has the 3 s grace plus what is left of the bank (no start
    /// timeout: the dialect asks nothing at `start_game`).
    pub fn riichi_dev_seat() -> Clock {
        Clock { start_lines: false, ..Clock::riichi_dev() }
    }

    /// This clock with its decision time and bank replaced by those given (`--timeout`,
    /// `--time-bank`): the preset first, then the overrides.
    pub fn with_overrides(self, decision: Option<Duration>, bank: Option<Duration>) -> Clock {
        Clock { decision: decision.unwrap_or(self.decision), bank: bank.unwrap_or(self.bank), ..self }
    }

    /// The longest one decision line may take: the decision time plus a full bank.
    pub fn longest_decision(&self) -> Duration {
        self.decision + self.bank
    }
}

impl Default for Clock {
    /// [`Clock::mjai_app`].
    fn default() -> Clock {
        Clock::mjai_app()
    }
}

/// A clock by name (`--clock mjai-app|riichi-dev`; stored by name in a tournament's
/// options: `"mjai-app"`, `"riichi-dev"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ClockPreset {
    /// [`Clock::mjai_app`]: 2 s per decision, no bank, a timeout is a chombo (the default).
    #[default]
    MjaiApp,
    /// [`Clock::riichi_dev`]: 3 s per request plus a 15 s bank refilled each hand; a
    /// timeout plays the default action, no penalty.
    RiichiDev,
}

impl ClockPreset {
    /// Every preset, in `--help` order.
    pub const ALL: [ClockPreset; 2] = [ClockPreset::MjaiApp, ClockPreset::RiichiDev];

    /// The name `--clock` takes and a tournament stores: `mjai-app` or `riichi-dev`.
    pub fn name(self) -> &'static str {
        match self {
            ClockPreset::MjaiApp => "mjai-app",
            ClockPreset::RiichiDev => "riichi-dev",
        }
    }

    /// What the preset means, in one line (`--help`).
    pub fn describe(self) -> &'static str {
        match self {
            ClockPreset::MjaiApp => "mjai.app: 2 s per decision, no time bank; a timeout is a chombo (the default)",
            ClockPreset::RiichiDev => {
                "riichi.dev: 3 s per decision plus a 15 s bank refilled each hand; a timeout plays the default \
                 action (tsumogiri, none), empties the bank for the hand, no penalty"
            }
        }
    }

    /// The preset's clock.
    pub fn clock(self) -> Clock {
        match self {
            ClockPreset::MjaiApp => Clock::mjai_app(),
            ClockPreset::RiichiDev => Clock::riichi_dev(),
        }
    }
}

impl std::fmt::Display for ClockPreset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_hold_their_sites_figures() {
        let m = Clock::mjai_app();
        assert_eq!(
            (m.decision, m.bank, m.refill, m.on_timeout),
            (Duration::from_secs(2), Duration::ZERO, Refill::Game, OnTimeout::Chombo)
        );
        let r = Clock::riichi_dev();
        assert_eq!(
            (r.decision, r.bank, r.refill, r.on_timeout),
            (Duration::from_secs(3), Duration::from_secs(15), Refill::Hand, OnTimeout::Default)
        );
        assert_eq!(r.longest_decision(), Duration::from_secs(18));
        assert_eq!(Clock::default(), m);
        for p in ClockPreset::ALL {
            assert_eq!(p.clock().preset, p);
        }
    }

    #[test]
    fn overrides_replace_only_what_is_given() {
        let r = Clock::riichi_dev();
        assert_eq!(r.with_overrides(None, None), r);
        let c = r.with_overrides(Some(Duration::from_millis(500)), None);
        assert_eq!(
            (c.decision, c.bank, c.on_timeout),
            (Duration::from_millis(500), Duration::from_secs(15), OnTimeout::Default)
        );
        let c = r.with_overrides(None, Some(Duration::ZERO));
        assert_eq!((c.decision, c.bank, c.refill), (Duration::from_secs(3), Duration::ZERO, Refill::Hand));
    }

    #[test]
    fn presets_are_stored_by_their_kebab_names() {
        for p in ClockPreset::ALL {
            let json = serde_json::to_string(&p).unwrap();
            assert_eq!(json, format!("\"{}\"", p.name()));
            assert_eq!(serde_json::from_str::<ClockPreset>(&json).unwrap(), p);
        }
        assert!(serde_json::from_str::<ClockPreset>("\"tenhou\"").is_err());
    }
}
