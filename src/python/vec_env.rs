//! `mjai_sim.VecEnv`: the Python class over [`mjai_sim_env::VecEnv`]. Stepping runs with
//! the GIL released (`Python::detach`).

use std::sync::{Arc, Mutex};

use mjai_sim_engine::event::batch_line_for;
use mjai_sim_env::{action_space, EnvConfig, EnvError};
use pyo3::exceptions::{PyIndexError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use super::decisions::Decisions;
use super::shared::{no_row, Inner, Shared};
use super::{actions, options};

/// N tables of mjai-sim's own games, stepped from Python (docs/python.md, "Training
/// environment").
///
/// Args:
///     num_envs: tables (at least 1).
///     rules: a rules preset: "tenhou", "mjai-app", "tenhou-3p", "riichi-dev-3p", ... (and
///         their "-east" forms).
///     seed: series seed: table t's k-th game is game number g = t + k * num_envs, wall
///         seed [seed, g], as `mjai-sim selfplay --seed SEED`'s game g.
///     learners: the seats decided from Python: None or "all" (every seat), "rotating"
///         (one seat per game: g % seats), a seat, or a list of seats.
///     opponents: built-in bots of the other seats: None ("rulebase"), one name, or one
///         per seat ("tsumogiri", "rulebase", "random"; "builtin:" optional).
///     hand_rewards: also reward each hand's score change, in thousands of points.
///     uma: placement points by rank, one per seat (default 90, 45, 0, -135; three
///         players 90, 0, -90).
///     keep_logs: each finished game's `ended` entry carries its full mjai log.
///     features: compute `obs` (off: `obs` is None, a little faster).
///     names: `start_game` names, one per seat (default "learner" / "builtin:NAME").
///     games: a fixed series instead of the endless one: one dict per game, game g is
///         games[g]: `seed` (nonce, key), `seats` (per seat None, decided from Python, or a
///         built-in's name), `names`; `seed`, `learners`, `opponents` and `names` are then
///         unused, and a table with no game left stops (no rows). At most one table per
///         game. `mjai_sim.evaluate` plays tournaments' schedules this way.
///     threads: threads that step the tables while the GIL is released: 1 (the default)
///         the calling thread; n > 1 the calling thread and a pool of n - 1 threads the
///         environment owns, each playing a run of tables; 0 one per CPU. The games do
///         not depend on it. Pays with many tables (1,024), not with 64 on 2 cores.
///     riichi_dev: also build riichi.dev's observation of each row (`Decisions.riichi_dev`,
///         `Decisions.observation`): the one a `riichilab:` seat is sent, riichienv
///         0.4.8's `Observation` / `Observation3P` with physical tile ids (off: none is
///         built, nothing is spent on it).
///
/// Raises:
///     ValueError: an unknown preset or bot, a bad seat, uma of the wrong length.
///     TypeError: an option of the wrong type.
#[pyclass(module = "mjai_sim._env")]
pub struct VecEnv {
    inner: Shared,
}

impl VecEnv {
    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock()
    }
}

/// An environment error as a Python exception: bad input is `ValueError`, a step before
/// `reset` or an engine failure `RuntimeError`. An answer that is not legal carries the
/// attributes `row`, `table`, `seat` and `reason` (the engine's words, or the message).
pub fn to_py(e: EnvError) -> PyErr {
    let message = e.to_string();
    match e {
        EnvError::NotReset | EnvError::Engine { .. } => PyRuntimeError::new_err(message),
        EnvError::IllegalIndex { row, table, seat, .. } => illegal(message.clone(), row, table, seat, message),
        EnvError::IllegalAction { row, table, seat, reason } => illegal(message, row, table, seat, reason),
        _ => PyValueError::new_err(message),
    }
}

/// `ValueError(message)` with the row, table, seat and reason as attributes.
fn illegal(message: String, row: usize, table: usize, seat: u8, reason: String) -> PyErr {
    let err = PyValueError::new_err(message);
    Python::attach(|py| {
        let value = err.value(py);
        // setting attributes on a fresh exception does not fail; the message says it all if it did
        let _ = value.setattr("row", row);
        let _ = value.setattr("table", table);
        let _ = value.setattr("seat", seat);
        let _ = value.setattr("reason", reason);
    });
    err
}

#[pymethods]
impl VecEnv {
    #[new]
    #[pyo3(signature = (num_envs, rules="tenhou", seed=0, learners=None, opponents=None, *, hand_rewards=false, uma=None, keep_logs=false, features=true, names=None, games=None, threads=1, riichi_dev=false))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        num_envs: usize,
        rules: &str,
        seed: u64,
        learners: Option<&Bound<'_, PyAny>>,
        opponents: Option<&Bound<'_, PyAny>>,
        hand_rewards: bool,
        uma: Option<Vec<f64>>,
        keep_logs: bool,
        features: bool,
        names: Option<Vec<String>>,
        games: Option<Vec<Bound<'_, pyo3::types::PyDict>>>,
        threads: usize,
        riichi_dev: bool,
    ) -> PyResult<VecEnv> {
        let rules = options::rules(rules)?;
        let seats = rules.players.count();
        let mut config = EnvConfig::new(rules, num_envs, seed);
        config.learners = options::learners(learners)?;
        config.opponents = options::opponents(opponents, seats)?;
        config.names = options::names(names, seats)?;
        if let Some(uma) = uma {
            config.uma = uma;
        }
        config.hand_rewards = hand_rewards;
        config.keep_logs = keep_logs;
        config.features = features;
        config.games = options::games(games)?;
        config.threads = threads;
        config.riichi_dev = riichi_dev;
        options::check(&config)?;
        let env = mjai_sim_env::VecEnv::new(config).map_err(to_py)?;
        Ok(VecEnv { inner: Shared(Arc::new(Mutex::new(Inner { env, generation: 0 }))) })
    }

    /// Starts every table at its first game; returns the first pending decisions.
    fn reset(&self, py: Python<'_>) -> PyResult<Decisions> {
        let inner = &self.inner;
        let (batch, generation) = py.detach(|| {
            let mut g = inner.lock();
            g.generation += 1;
            (g.env.reset(), g.generation)
        });
        let g = self.lock();
        Decisions::new(py, self.inner.clone(), generation, batch.map_err(to_py)?, &g.env)
    }

    /// Answers every pending decision and plays on; returns the next pending decisions.
    ///
    /// Args:
    ///     actions: one per row of the last decisions: a numpy integer array of action
    ///         indices, or a sequence of ints (indices), dicts (mjai actions, as a bot
    ///         answers) or str (their JSON).
    ///
    /// Raises:
    ///     ValueError: a wrong number of actions, an index or action that is not legal at
    ///         its row (nothing is applied; the same decisions stay pending).
    ///     TypeError: actions of the wrong type.
    ///     RuntimeError: step before reset.
    fn step(&self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<Decisions> {
        let parsed = actions::parse(actions)?;
        let inner = &self.inner;
        let result = py.detach(|| {
            let mut g = inner.lock();
            let batch = g.env.step(&parsed)?;
            g.generation += 1;
            Ok::<_, EnvError>((batch, g.generation))
        });
        let (batch, generation) = result.map_err(to_py)?;
        let g = self.lock();
        Decisions::new(py, self.inner.clone(), generation, batch, &g.env)
    }

    /// Size of the action space (120): the columns of `mask`.
    #[getter]
    fn num_actions(&self) -> usize {
        action_space::NUM_ACTIONS
    }

    /// Number of tables.
    #[getter]
    fn num_envs(&self) -> usize {
        self.lock().env.config().num_tables
    }

    /// Seats at each table (4, or 3 under a three-player preset).
    #[getter]
    fn seats(&self) -> usize {
        self.lock().env.config().rules.players.count()
    }

    /// Shape of one row of `obs`: (planes, 34).
    #[getter]
    fn obs_shape(&self) -> (usize, usize) {
        (self.lock().env.encoder().channels(), mjai_sim_engine::tile::KINDS)
    }

    /// Threads stepping the tables (1: the calling thread).
    #[getter]
    fn threads(&self) -> usize {
        self.lock().env.threads()
    }

    /// Games finished since the last reset.
    #[getter]
    fn games_finished(&self) -> u64 {
        self.lock().env.games_finished()
    }

    /// The current game's full unmasked mjai log at table `table`, one JSON line per event.
    ///
    /// Raises:
    ///     IndexError: no such table (or before reset).
    fn log(&self, table: usize) -> PyResult<Vec<String>> {
        let g = self.lock();
        let players = g.env.config().rules.players;
        let game = g.env.game(table).ok_or_else(|| PyIndexError::new_err(format!("no table {table}")))?;
        Ok(game.log().iter().map(|e| e.to_json_for(players)).collect())
    }

    /// The mjai JSON of row `row`'s events since its previous decision (a JSON array, as a
    /// bot receives it). Raises IndexError for a row that does not exist.
    fn events(&self, row: usize) -> PyResult<String> {
        let g = self.lock();
        let players = g.env.config().rules.players;
        let events = g.env.events(row).ok_or_else(|| no_row(row))?;
        Ok(batch_line_for(&events, players))
    }

    /// The JSON array of row `row`'s legal answers (canonical mjai actions).
    fn legal(&self, row: usize) -> PyResult<String> {
        let g = self.lock();
        let legal = g.env.legal(row).ok_or_else(|| no_row(row))?;
        Ok(mjai_sim_engine::event::batch_line(legal))
    }

    /// The mjai JSON of the legal answer at `index` for row `row`.
    ///
    /// Raises:
    ///     IndexError: no such row. ValueError: `index` is not legal there.
    fn action(&self, row: usize, index: i64) -> PyResult<String> {
        let g = self.lock();
        let legal = g.env.legal(row).ok_or_else(|| no_row(row))?;
        usize::try_from(index)
            .ok()
            .and_then(|i| action_space::action_of(legal, i))
            .map(|a| a.to_json())
            .ok_or_else(|| PyValueError::new_err(format!("row {row}: action index {index} is not legal now")))
    }
}
