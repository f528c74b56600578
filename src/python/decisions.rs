//! `Decisions`: what `reset` and `step` return, as numpy arrays, with the raw mjai of each
//! row read lazily from the environment.

use mjai_sim_engine::event::batch_line_for;
use mjai_sim_env::{action_space::NUM_ACTIONS, Batch, GameEnd};
use numpy::{PyArray1, PyArray2, PyArray3, PyArrayMethods};
use pyo3::exceptions::{PyImportError, PyRuntimeError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use super::shared::{no_row, Inner, Shared};

/// The decisions now pending, one row each (table order, then seat order).
///
/// Attributes (numpy arrays):
///     mask: bool (rows, num_actions): the legal action indices of each row.
///     table: int64 (rows,): its table.
///     seat: int64 (rows,): its seat.
///     obs: float32 (rows, planes, 34): its features (None when features=False).
///     rewards: float32 (num_envs, seats): each seat's reward during this call.
///     dones: bool (num_envs,): a game ended at the table during this call (its next
///         game has started: the table's rows are the new game's).
///     ended: list of dicts, one per finished game: table, game, scores, ranks, points
///         (its placement points), rewards (per seat, the part of this call's rewards that
///         is this game's: `rewards` can also hold the table's next game's, a hand that
///         ended before its first decision), learners (bool per seat), chombos, and log (a
///         list of JSON lines) with keep_logs.
#[pyclass(module = "mjai_sim._env", frozen)]
pub struct Decisions {
    env: Shared,
    generation: u64,
    rows: usize,
    #[pyo3(get)]
    mask: Py<PyArray2<bool>>,
    #[pyo3(get)]
    table: Py<PyArray1<i64>>,
    #[pyo3(get)]
    seat: Py<PyArray1<i64>>,
    #[pyo3(get)]
    obs: Option<Py<PyArray3<f32>>>,
    #[pyo3(get)]
    rewards: Py<PyArray2<f32>>,
    #[pyo3(get)]
    dones: Py<PyArray1<bool>>,
    #[pyo3(get)]
    ended: Py<PyList>,
}

impl Decisions {
    /// The arrays of `batch`, from the environment `env` at batch number `generation`.
    pub fn new(
        py: Python<'_>,
        env: Shared,
        generation: u64,
        batch: Batch,
        inner: &mjai_sim_env::VecEnv,
    ) -> PyResult<Decisions> {
        let rows = batch.table.len();
        let seats = inner.config().rules.players.count();
        let tables = batch.dones.len();
        let mut mask = vec![false; rows * NUM_ACTIONS];
        for (r, &m) in batch.mask.iter().enumerate() {
            let mut bits = m;
            while bits != 0 {
                mask[r * NUM_ACTIONS + bits.trailing_zeros() as usize] = true;
                bits &= bits - 1;
            }
        }
        let mask = PyArray1::from_vec(py, mask).reshape([rows, NUM_ACTIONS])?.unbind();
        let table = PyArray1::from_vec(py, batch.table.iter().map(|&t| t as i64).collect()).unbind();
        let seat = PyArray1::from_vec(py, batch.seat.iter().map(|&s| i64::from(s)).collect()).unbind();
        let obs = if inner.config().features {
            let planes = inner.encoder().channels();
            Some(PyArray1::from_vec(py, batch.obs).reshape([rows, planes, mjai_sim_engine::tile::KINDS])?.unbind())
        } else {
            None
        };
        let rewards: Vec<f32> = batch.rewards.iter().flat_map(|r| r[..seats].iter().copied()).collect();
        let rewards = PyArray1::from_vec(py, rewards).reshape([tables, seats])?.unbind();
        let dones = PyArray1::from_vec(py, batch.dones).unbind();
        let ended = PyList::empty(py);
        for end in &batch.ended {
            ended.append(ended_dict(py, end, inner)?)?;
        }
        Ok(Decisions { env, generation, rows, mask, table, seat, obs, rewards, dones, ended: ended.unbind() })
    }

    fn check_current<'a>(&self, g: &'a Inner, row: usize) -> PyResult<&'a mjai_sim_env::VecEnv> {
        if g.generation != self.generation {
            return Err(PyRuntimeError::new_err(
                "these decisions are stale: the environment has stepped since (use the latest step's)",
            ));
        }
        if row >= self.rows {
            return Err(no_row(row));
        }
        Ok(&g.env)
    }
}

fn ended_dict<'py>(py: Python<'py>, end: &GameEnd, env: &mjai_sim_env::VecEnv) -> PyResult<Bound<'py, PyDict>> {
    let players = env.config().rules.players;
    let n = players.count();
    let d = PyDict::new(py);
    d.set_item("table", end.table)?;
    d.set_item("game", end.game)?;
    d.set_item("scores", end.scores[..n].to_vec())?;
    d.set_item("ranks", end.ranks[..n].to_vec())?;
    d.set_item("points", end.points[..n].to_vec())?;
    d.set_item("rewards", end.rewards[..n].to_vec())?;
    d.set_item("learners", end.learners[..n].to_vec())?;
    let chombos: Vec<(u8, String)> = end.chombos.clone();
    d.set_item("chombos", chombos)?;
    if let Some(log) = &end.log {
        let lines: Vec<String> = log.iter().map(|e| e.to_json_for(players)).collect();
        d.set_item("log", lines)?;
    }
    Ok(d)
}

#[pymethods]
impl Decisions {
    /// Number of rows.
    fn __len__(&self) -> usize {
        self.rows
    }

    /// The JSON array of the mjai events row `row`'s seat saw since its previous decision
    /// (what a bot is sent).
    ///
    /// Raises:
    ///     IndexError: no such row. RuntimeError: the environment has stepped since.
    fn events(&self, row: usize) -> PyResult<String> {
        let g = self.env.lock();
        let inner = self.check_current(&g, row)?;
        let events = inner.events(row).ok_or_else(|| no_row(row))?;
        Ok(batch_line_for(&events, inner.config().rules.players))
    }

    /// The JSON array of row `row`'s legal answers (canonical mjai actions).
    ///
    /// Raises:
    ///     IndexError: no such row. RuntimeError: the environment has stepped since.
    fn legal(&self, row: usize) -> PyResult<String> {
        let g = self.env.lock();
        let inner = self.check_current(&g, row)?;
        let legal = inner.legal(row).ok_or_else(|| no_row(row))?;
        Ok(mjai_sim_engine::event::batch_line(legal))
    }

    /// riichi.dev's observation of row `row`'s seat at this decision, as the dialect sends
    /// it: riichienv 0.4.8's `Observation` (`Observation3P` at three seats) as its
    /// `serialize_to_base64` writes it, with physical tile ids (docs/protocol.md,
    /// "riichi.dev's dialect").
    ///
    /// Raises:
    ///     IndexError: no such row. RuntimeError: `VecEnv(..., riichi_dev=True)` was not
    ///     asked, the environment has stepped since, or RiichiEnv could not build it.
    fn riichi_dev(&self, row: usize) -> PyResult<String> {
        let g = self.env.lock();
        let inner = self.check_current(&g, row)?;
        if !inner.config().riichi_dev {
            return Err(PyRuntimeError::new_err("riichi.dev's observation is off: VecEnv(..., riichi_dev=True)"));
        }
        match inner.riichi_dev_observation(row) {
            Some(text) if !text.is_empty() => Ok(text.to_string()),
            _ => Err(PyRuntimeError::new_err(format!("row {row}: RiichiEnv could not build the observation"))),
        }
    }

    /// `riichi_dev(row)` decoded by riichienv: `riichienv.Observation` at four seats,
    /// `riichienv.Observation3P` at three (`deserialize_from_base64`).
    ///
    /// Raises:
    ///     ImportError: riichienv is not installed (`pip install riichienv==0.4.8`, the
    ///     version riichi.dev's bots run). The errors of `riichi_dev(row)`.
    fn observation<'py>(&self, py: Python<'py>, row: usize) -> PyResult<Bound<'py, PyAny>> {
        let text = self.riichi_dev(row)?;
        let seats = self.env.lock().env.config().rules.players.count();
        let module = py.import("riichienv").map_err(|e| {
            PyImportError::new_err(format!(
                "Decisions.observation decodes with riichienv: pip install riichienv==0.4.8 ({e})"
            ))
        })?;
        let class = module.getattr(if seats == 3 { "Observation3P" } else { "Observation" })?;
        class.call_method1("deserialize_from_base64", (text,))
    }

    fn __repr__(&self) -> String {
        format!("<Decisions: {} rows>", self.rows)
    }
}
