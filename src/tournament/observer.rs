//! What a tournament run tells whoever drives it: the command line (a progress bar and
//! lines on stderr), the grading server (metrics, logs), a test. The library prints
//! nothing itself; every method has a default that ignores the event.
//!
//! Methods take `&self` and may be called from the run's coordinator task only, in order;
//! an observer that keeps state uses interior mutability (it is shared as `Arc<dyn
//! Observer>`, also with the store's retries, which report outages through the supertrait
//! [`OutageObserver`]).

use super::record::GameRecord;
use super::store::retry::OutageObserver;
use super::store::Counts;

/// A run begins (or a league's first round): what is played, by whom, how far along.
#[derive(Debug, Clone)]
pub struct RunStart {
    /// Where the tournament lives: its folder, or the database's name (no password).
    pub place: String,
    /// The tournament's id.
    pub tid: String,
    /// The bots' names, in bot-list order.
    pub names: Vec<String>,
    /// Wall seed base `[nonce, key]`.
    pub seed: [u64; 2],
    /// Games scheduled (`None`: a league, open-ended).
    pub total: Option<u64>,
    /// Games recorded before this run (a resumed tournament, a league's earlier rounds).
    pub done: Vec<GameRecord>,
    /// Games this process plays at once.
    pub jobs: usize,
}

/// Something worth one line to a person watching.
#[derive(Debug, Clone, PartialEq)]
pub enum Notice {
    /// Games cut off by a crash or a previous life go back to the queue.
    Requeued {
        /// How many.
        games: u64,
        /// Whose: `None` for a resumed tournament folder, a worker's name otherwise.
        worker: Option<String>,
    },
    /// A league has fewer than 4 active bots and idles (the text says so and what to do).
    LeagueIdle(String),
    /// The counts of a database tournament, watched while workers play.
    Counts {
        /// Games by state.
        counts: Counts,
        /// Whether it is a league.
        league: bool,
    },
    /// Containers a previous life of a worker left were removed.
    LeftoversRemoved {
        /// How many.
        containers: u64,
        /// The worker's container label prefix.
        tag: String,
    },
    /// The host cannot run bots (Docker gone, image missing, no GPU runtime): a worker or
    /// a server plays nothing for a while and tries again; the games it held wait in the
    /// queue, unrecorded.
    HostFault {
        /// The fault, one line.
        cause: String,
        /// When it tries again.
        retry_in: std::time::Duration,
    },
}

impl std::fmt::Display for Notice {
    /// The line a person sees (the command line prints it after `mjai-sim: `).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Notice::Requeued { games, worker: None } => {
                write!(f, "{games} game(s) cut off before will be played again from their start")
            }
            Notice::Requeued { games, worker: Some(name) } => {
                write!(f, "worker {name}: {games} game(s) of a previous life go back to the queue")
            }
            Notice::LeagueIdle(note) => f.write_str(note),
            Notice::Counts { counts: c, league: true } => write!(
                f,
                "{} games done, {} running, {} pending, {} failed, {} cancelled",
                c.done, c.running, c.pending, c.failed, c.cancelled
            ),
            Notice::Counts { counts: c, league: false } => write!(
                f,
                "{} of {} games done, {} running, {} pending, {} failed",
                c.done,
                c.total(),
                c.running,
                c.pending,
                c.failed
            ),
            Notice::LeftoversRemoved { containers, tag } => {
                write!(f, "removed {containers} container(s) left by a previous life of {tag}")
            }
            Notice::HostFault { cause, retry_in } => {
                write!(f, "{cause}; playing nothing, trying again in {} s", retry_in.as_secs())
            }
        }
    }
}

/// Hears a tournament run. See the module's docs.
pub trait Observer: OutageObserver {
    /// A run (or a league's first round) begins.
    fn started(&self, start: &RunStart) {
        let _ = start;
    }

    /// The bots changed (a league's bots were added): their names, in bot-list order.
    fn bots(&self, names: &[String]) {
        let _ = names;
    }

    /// Games just recorded (each once, in the order recorded).
    fn recorded(&self, records: &[GameRecord]) {
        let _ = records;
    }

    /// Game `index` failed for `reason`; `retrying`: it will be played once more,
    /// otherwise it failed for good.
    fn game_failed(&self, index: u64, reason: &str, retrying: bool) {
        let _ = (index, reason, retrying);
    }

    /// A line worth showing.
    fn notice(&self, notice: &Notice) {
        let _ = notice;
    }

    /// The run ended (the progress display can go).
    fn finished(&self) {}
}

/// Hears nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct Quiet;

impl OutageObserver for Quiet {}
impl Observer for Quiet {}

/// Tells `tracing` (target `mjai_sim::league`) what a run that nobody watches on a terminal
/// meets: failed games and notices (`warn`), database outages (`warn`, `info` when it is
/// back). The grading server's league loop uses it, so a failed game, a host fault or an
/// outage there leaves a trace in its log.
#[derive(Debug, Clone, Copy, Default)]
pub struct Traced;

/// The `tracing` target of [`Traced`].
pub const LEAGUE_TARGET: &str = "mjai_sim::league";

impl OutageObserver for Traced {
    fn db_down(&self, what: &str, error: &super::store::StoreError, patience: std::time::Duration) {
        tracing::warn!(target: LEAGUE_TARGET, "database unreachable ({what}: {error}); retrying for {} s", patience.as_secs());
    }

    fn db_back(&self, what: &str, after: std::time::Duration) {
        tracing::info!(target: LEAGUE_TARGET, "database back after {} s ({what})", after.as_secs());
    }
}

impl Observer for Traced {
    fn game_failed(&self, index: u64, reason: &str, retrying: bool) {
        tracing::warn!(target: LEAGUE_TARGET, game = index, retrying, "game failed: {reason}");
    }

    fn notice(&self, notice: &Notice) {
        tracing::warn!(target: LEAGUE_TARGET, "{notice}");
    }
}
