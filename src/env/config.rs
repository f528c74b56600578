//! How an environment is set up ([`EnvConfig`], [`Learners`]) and what it refuses
//! ([`EnvError`]).

use mjai_sim_engine::event::Seat;
use mjai_sim_engine::game::{Players, Rules, MAX_SEATS};

use super::reward::default_uma;

/// Which seats of each table are decided from outside (by the caller of
/// [`super::VecEnv::step`]); the others are played by built-in bots.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Learners {
    /// Every seat of the table.
    All,
    /// These seats (each `< players`), in every game.
    Seats(Vec<Seat>),
    /// One seat per game, rotating: game number `g` (the wall seed's second half) is
    /// decided at seat `g % players`, so a series gives the learner every seat in turn.
    Rotating,
}

impl Learners {
    /// Whether `seat` is decided from outside in game number `game` at a table of `players`.
    pub fn decides(&self, seat: Seat, game: u64, players: Players) -> bool {
        match self {
            Learners::All => true,
            Learners::Seats(seats) => seats.contains(&seat),
            Learners::Rotating => game % players.count() as u64 == u64::from(seat),
        }
    }
}

/// The settings of a [`super::VecEnv`].
#[derive(Debug, Clone)]
pub struct EnvConfig {
    /// Rules of every game (a preset: `Rules::any_preset`); the table size is `rules.players`.
    pub rules: Rules,
    /// Number of tables (at least 1).
    pub num_tables: usize,
    /// Series seed: table `t`'s `k`-th game is game number `g = t + k * num_tables` of the
    /// series and uses wall seed `[seed, g]`, as game `g` of `mjai-sim selfplay --seed SEED`.
    pub seed: u64,
    /// The seats decided from outside.
    pub learners: Learners,
    /// The built-in bot of each seat that is not a learner (names of `mjai_sim_bots::NAMES`,
    /// with or without `builtin:`), [`MAX_SEATS`] entries (those of seats that are always
    /// learners are not read).
    pub opponents: [String; MAX_SEATS],
    /// The `start_game` names, seat order; `None`: `learner` for a learner seat and
    /// `builtin:NAME` for a bot.
    pub names: Option<[String; MAX_SEATS]>,
    /// Placement points by rank (1st first), one entry per seat of the table: the reward of
    /// each seat when its game ends.
    pub uma: Vec<f64>,
    /// Also reward each seat its score change at each hand's end, in thousands of points.
    pub hand_rewards: bool,
    /// Keep each finished game's full log in its [`super::GameEnd`].
    pub keep_logs: bool,
    /// Encode features ([`super::Batch::obs`]); off, `obs` stays empty and the learner
    /// seats' views are not kept.
    pub features: bool,
    /// A fixed series instead of the endless one of `seed`: game number `g` is `games[g]`
    /// (its wall seed, learner seats, bots and names; `seed`, `learners`, `opponents` and
    /// `names` are then unused). A table with no game left stops: no rows, no rewards.
    /// At most as many tables as games.
    pub games: Option<Vec<GameSpec>>,
    /// Threads that step the tables: 1 steps them one after the other on the calling
    /// thread; `n > 1` splits them in `n` runs, the calling thread playing one and a pool of
    /// `n - 1` threads owned by the environment the others; 0 is one thread per CPU
    /// (`std::thread::available_parallelism`). A table's games do not depend on it: the same
    /// seed gives the same batches at any count. Errors: [`EnvError::Config`] when the
    /// threads cannot be started.
    pub threads: usize,
    /// Also give each row riichi.dev's observation ([`super::VecEnv::riichi_dev_observation`]:
    /// the one a `riichilab:` seat is sent with each request, riichienv 0.4.8's
    /// `Observation` / `Observation3P` in base64, physical tile ids); off, no learner seat
    /// keeps RiichiEnv's state and nothing of it is computed.
    pub riichi_dev: bool,
}

/// One game of a fixed series ([`EnvConfig::games`]), as a tournament schedules it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameSpec {
    /// Wall seed `[nonce, key]` (the log's `start_game.seed`).
    pub seed: [u64; 2],
    /// Per seat of the table: `None` decided from outside (a learner), `Some(bot)` the
    /// built-in bot playing it (`rulebase`, `builtin:random`, ...).
    pub seats: Vec<Option<String>>,
    /// The `start_game` names, seat order (one per seat of the table).
    pub names: Vec<String>,
}

impl EnvConfig {
    /// `num_tables` tables under `rules`, every seat a learner, series seed `seed`,
    /// `rulebase` opponents, the default uma of the table size.
    pub fn new(rules: Rules, num_tables: usize, seed: u64) -> EnvConfig {
        EnvConfig {
            rules,
            num_tables,
            seed,
            learners: Learners::All,
            opponents: std::array::from_fn(|_| "rulebase".to_string()),
            names: None,
            uma: default_uma(rules.players),
            hand_rewards: false,
            keep_logs: false,
            features: true,
            games: None,
            threads: 1,
            riichi_dev: false,
        }
    }

    /// Checks the settings; the error names the bad one.
    pub fn check(&self) -> Result<(), EnvError> {
        let n = self.rules.players.count();
        if self.num_tables == 0 {
            return Err(EnvError::Config("num_tables must be at least 1".into()));
        }
        if self.uma.len() != n {
            return Err(EnvError::Config(format!("uma has {} entries, the table has {n} seats", self.uma.len())));
        }
        if let Some(games) = &self.games {
            return check_games(games, self.num_tables, n);
        }
        if let Learners::Seats(seats) = &self.learners {
            if seats.is_empty() {
                return Err(EnvError::Config("learners must name at least one seat".into()));
            }
            if let Some(s) = seats.iter().find(|&&s| usize::from(s) >= n) {
                return Err(EnvError::Config(format!("learner seat {s} does not exist at a table of {n} seats")));
            }
        }
        for (s, name) in self.opponents[..n].iter().enumerate() {
            let always_learner = match &self.learners {
                Learners::All => true,
                Learners::Seats(seats) => seats.contains(&(s as Seat)),
                Learners::Rotating => false,
            };
            if !always_learner {
                mjai_sim_bots::from_spec(name).map_err(|e| EnvError::Config(format!("seat {s}: {e}")))?;
            }
        }
        Ok(())
    }
}

/// Checks a fixed series: games for every table, a seat list and a name list of the
/// table's size in each, known bots.
fn check_games(games: &[GameSpec], tables: usize, n: usize) -> Result<(), EnvError> {
    if games.len() < tables {
        return Err(EnvError::Config(format!("{tables} tables for {} games: at most one table per game", games.len())));
    }
    for (g, spec) in games.iter().enumerate() {
        if spec.seats.len() != n || spec.names.len() != n {
            let (seats, names) = (spec.seats.len(), spec.names.len());
            return Err(EnvError::Config(format!(
                "game {g}: {seats} seats and {names} names, the table has {n} seats"
            )));
        }
        for (s, bot) in spec.seats.iter().enumerate() {
            if let Some(bot) = bot {
                mjai_sim_bots::from_spec(bot).map_err(|e| EnvError::Config(format!("game {g}, seat {s}: {e}")))?;
            }
        }
    }
    Ok(())
}

/// What the environment refuses. Nothing is applied when a step is refused: the same
/// decisions stay pending.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EnvError {
    /// A bad setting (names it).
    #[error("bad environment setting: {0}")]
    Config(String),
    /// `step` got a number of actions other than the number of pending decisions.
    #[error("step got {got} actions for {expected} pending decisions (one per row)")]
    ActionCount {
        /// Pending decisions.
        expected: usize,
        /// Actions given.
        got: usize,
    },
    /// An index that is not legal at its row's decision.
    #[error("row {row} (table {table}, seat {seat}): action index {index} is not legal now (legal: {legal:?})")]
    IllegalIndex {
        /// The row of the decision.
        row: usize,
        /// Its table.
        table: usize,
        /// Its seat.
        seat: Seat,
        /// The index given.
        index: i64,
        /// The legal indices.
        legal: Vec<usize>,
    },
    /// An mjai action that is not legal (or not an action) at its row's decision.
    #[error("row {row} (table {table}, seat {seat}): {reason}")]
    IllegalAction {
        /// The row of the decision.
        row: usize,
        /// Its table.
        table: usize,
        /// Its seat.
        seat: Seat,
        /// The engine's reason.
        reason: String,
    },
    /// `step` before `reset`.
    #[error("step before reset: call reset() first")]
    NotReset,
    /// The engine refused answers it had validated, or stalled: an engine bug.
    #[error("engine error at table {table}: {reason}")]
    Engine {
        /// The table.
        table: usize,
        /// What went wrong.
        reason: String,
    },
}
