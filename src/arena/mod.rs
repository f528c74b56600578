//! The match loop: one game, four bots, logs and summary (issue 5).
//!
//! - [`refereed_game`]: the rules the loop referees ([`RefereedGame`], implemented by the engine's `Game`).
//! - [`relay`]: what each seat has seen; batching and masking of the lines it receives.
//! - [`seats`]: the four running bots; concurrent exchanges with timeouts, launch and stop.
//! - [`match_loop`]: [`play_match`], the referee loop with chombo and restart.
//! - [`clock`]: each seat's [`Clock`]: decision time, time bank, what a timeout costs.
//! - [`observer`]: what the loop reports as it goes ([`GameObserver`], [`ErrorEntry`]).
//! - [`logs`]: the output folder (`mjai_log.json`, `errors.json`, `player_logs.*`).
//! - [`summary`]: `summary.json` (mjai.app's fields plus ours), ranks, per-hand records.
//! - [`stats`]: decision-time statistics.
//! - [`trace`]: every line each seat was sent and answered, with times (disputes).
//! - [`engine_stamp`]: which engine played a game (version, commit, rules, clock, runtime).
//! - [`progress`]: one line per hand on stderr; [`scoreboard`]: the final table.
//! - [`game_run`]: [`game_run::run_game`], one whole game into an output folder (the main job's game).
//! - [`shutdown`]: SIGINT/SIGTERM into the `stop` channel of games (one path for every command).
//! - [`launch`]: BOT arguments (`builtin:NAME`, zip, folder) to running bots.
//! - [`watchdog`]: the bound over a whole game (progress and total time).
//! - [`builtin_fault`]: a built-in bot's chombo, which is the referee's bug, never a result.

#![warn(missing_docs)]

use std::time::Duration;

use futures_util::future::BoxFuture;

use mjai_sim_engine::event::Seat;
use mjai_sim_runtime::{Bot, BotError};

pub mod builtin_fault;
pub mod cancel;
pub mod clock;
pub mod engine_stamp;
pub mod game_html;
pub mod game_run;
pub mod launch;
pub mod logs;
pub mod match_loop;
pub mod observer;
pub mod progress;
pub mod refereed_game;
pub mod relay;
pub mod remote_seats;
pub mod run_id;
pub mod scoreboard;
pub mod seats;
pub mod stats;
pub mod summary;
pub mod trace;
pub mod verdict;
pub mod watchdog;

pub use clock::{Clock, ClockPreset, OnTimeout, Refill};
pub use match_loop::{play_match, MatchError, MatchReport};
pub use observer::{ErrorEntry, GameObserver};
pub use refereed_game::RefereedGame;

/// Starts a fresh bot for a seat. The match loop calls it once per seat at the start and
/// again after every chombo (all four bots are restarted).
pub trait Launcher: Send + Sync {
    /// Starts the bot for `seat` (0..4). The bot's stderr should go wherever the launcher
    /// was told (e.g. `player_logs.{seat}.stderr.txt`). An error means the bot cannot run:
    /// [`BotError::Host`] (the host's fault) stops the game ([`MatchError::Host`]); any
    /// other error makes the seat fail (a chombo) and the loop tries again at the next
    /// restart, unless every seat failed in the same words (then the host is at fault too).
    fn launch(&self, seat: Seat) -> BoxFuture<'_, Result<Box<dyn Bot>, BotError>>;

    /// The clock `seat` plays under when it is not the match's ([`MatchOptions::clock`]),
    /// e.g. riichi.dev's for a seat that speaks riichi.dev's dialect. Asked once per seat
    /// when the match starts. Default: `None` (the match's clock).
    fn seat_clock(&self, seat: Seat) -> Option<Clock> {
        let _ = seat;
        None
    }
}

/// Limits of one match.
#[derive(Debug, Clone, PartialEq)]
pub struct MatchOptions {
    /// Each seat's clock (default [`Clock::mjai_app`]: 2 s per decision, no bank, a timeout
    /// is a chombo); a seat whose launcher names its own ([`Launcher::seat_clock`]) plays
    /// under that one.
    pub clock: Clock,
    /// Time a bot has for a line that begins with `start_game` or `start_kyoku` (model
    /// loading; default 20 s, as mjai.app); such lines spend no time bank.
    pub start_timeout: Duration,
    /// Restarts of the four bots (one per chombo) after which the match is aborted
    /// (default 32; mjai.app: 10).
    pub max_restarts: u32,
    /// Longest a whole game may take (`--game-timeout`, default 3600 s); past it the game
    /// ends as failed ([`watchdog`]).
    pub game_timeout: Duration,
}

/// Default of [`MatchOptions::game_timeout`]: one hour, about twice the longest game of
/// bots that use most of a 2 s decision timeout on every decision.
pub const DEFAULT_GAME_TIMEOUT: Duration = Duration::from_secs(3600);

impl Default for MatchOptions {
    fn default() -> Self {
        MatchOptions {
            clock: Clock::mjai_app(),
            start_timeout: Duration::from_secs(20),
            max_restarts: 32,
            game_timeout: DEFAULT_GAME_TIMEOUT,
        }
    }
}
