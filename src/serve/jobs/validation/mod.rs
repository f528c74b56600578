//! The validation of an uploaded version: the bot plays every seat, in two full hanchans
//! against the built-in opponent ([`seatings()`]: seats 0 and 2, then 1 and 3; in a
//! three-player league seats 0 and 2, then 1; a bot that fails only in one seat is
//! caught), in the league's runtime (Docker by default), under
//! the league's time limits and its whole-game bound (`--game-timeout`, the arena's
//! watchdog), so it always ends. It passes when both games completed with no chombo of the
//! bot; then the version is admitted to the league. Otherwise it is rejected at the first
//! failing game with a one-line reason naming the seat and the hand. Either way the last
//! game's log, summary, errors and the bot's stderr (tail, of the seat that failed, else
//! of its first seat) are stored for the author. Cost: two hanchans at once (each takes a
//! slot of `--max-validations`, default 2), up to four containers of the bot at once
//! (three in a three-player league).
//!
//! A remote bot (issue 29, [`BotKind::Remote`](mjai_sim_tournament::store::BotKind::Remote)) is validated when its first connection
//! comes: one connection plays one seat, so it plays a hanchan in each seat, one after
//! the other ([`remote_seatings`]: four, or three), over that connection (its stderr stays
//! on its author's machine).
//!
//! At most `--max-validations` games run at once (a semaphore, taken per game); a version still
//! `validating` when the server stopped is validated again at the next start (a remote one
//! at its next connection). A version already queued or playing is not queued twice.
//!
//! Not verdicts (issue 42): a validation game the host could not play (Docker gone, the
//! image missing: [`is_host_fault`](mjai_sim_tournament::session::is_host_fault)) records nothing and is tried again after 5 s, doubling
//! up to 5 minutes; one in which the built-in opponent took a chombo (the referee's bug)
//! records nothing and is logged as an error (validated again at the next start).
//!
//! One concept a file: [`Validator`] (`queue.rs`: the queue, each version once, and the
//! validation thread), `retry.rs` (a version tried again after host faults), `version.rs`
//! (one version's games and which verdict counts), `game.rs` (one game, once a slot is
//! free), `judge.rs` (what a game decided, the files kept), `verdict.rs` (the verdict
//! recorded, the version admitted), `seatings.rs` (the bot's seats in each game).
//!
//! Why not the session API's loop ([`mjai_sim_tournament::session::PlayLoop`]): it plays
//! a stored tournament's scheduled games (claims, leases, results in the store) between
//! admitted bots; a validation game is none of these (a version not yet admitted against
//! the built-in opponent, a fresh random wall, judged per seat, its files stored with the
//! version, not as a game). Its one game is the arena's [`run_game`](mjai_sim_arena::game_run::run_game), as every tournament
//! game is; what is its own here is the bound on games at once and the waits after host
//! faults (the league loop's waits, `retry.rs`).

mod game;
mod judge;
mod queue;
mod retry;
mod seatings;
mod verdict;
mod version;

use std::path::PathBuf;
use std::sync::Arc;

use tokio::sync::Semaphore;

use mjai_sim_arena::cancel::Cancel;
use mjai_sim_arena::launch::{LaunchSettings, RemoteSeats};
use mjai_sim_arena::MatchOptions;
use mjai_sim_engine::game::Rules;
use mjai_sim_tournament::store::Store;
use mjai_sim_tournament::submission_cache::SubmissionCache;

pub use judge::STDERR_KEPT;
pub use queue::Validator;
pub use seatings::{remote_seatings, seatings, validation_slot, RIICHI_DEV_SEATING};

/// How validation games are played.
#[derive(Debug, Clone)]
pub struct ValidationSettings {
    /// Runtime, transport, image and container limits (stderr paths are set per game).
    pub launch: LaunchSettings,
    /// Time limits, restart cap and whole-game bound.
    pub options: MatchOptions,
    /// The league's rules.
    pub rules: Rules,
    /// The built-in opponent (a `builtin:` name), in the seats the bot does not hold.
    pub opponent: String,
    /// Where games are played (a folder per game, removed after).
    pub work_dir: PathBuf,
    /// Where remote bots' connections wait (the server's hub); `None`: no remote bot is
    /// validated (their validation fails with a reason saying so).
    pub remote: Option<RemoteSeats>,
    /// This host's submission cache (`--cache-dir`, `--cache-mb`); `None`: the zip is
    /// written from the store straight into the game's folder.
    pub cache: Option<Arc<SubmissionCache>>,
}

/// The validation thread's side: what every version's games need.
struct Games {
    settings: Arc<ValidationSettings>,
    store: Store,
    cancel: Cancel,
    /// Games at once (`--max-validations`).
    slots: Semaphore,
}
