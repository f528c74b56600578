//! `mjai_sim._env`: the training environment (`mjai-sim-env`) for Python, its batches as
//! numpy arrays (pyo3, the numpy crate). The Python package re-exports [`vec_env::VecEnv`]
//! as `mjai_sim.VecEnv` (docs/python.md, "Training environment"); [`standings::standings`]
//! gives `mjai_sim.evaluate` the CLI's standings code.
//!
//! Bad input from Python (a wrong number of actions, an illegal index, a bad dict, an
//! unknown preset or bot) raises `ValueError` or `TypeError` with one line naming it; the
//! engine's own failures (never expected) raise `RuntimeError`. Nothing here panics on
//! input.

#![warn(missing_docs)]

mod actions;
mod decisions;
mod options;
mod shared;
mod standings;
mod vec_env;

use pyo3::prelude::*;

/// The short name of action index `index` (`"dahai:5mr"`, `"tsumogiri"`, `"chi:low:red"`,
/// `"ankan:E"`, `"none"`).
///
/// Raises:
///     ValueError: `index` is outside `0..num_actions`.
#[pyfunction]
fn action_name(index: usize) -> PyResult<String> {
    if index >= mjai_sim_env::NUM_ACTIONS {
        return Err(pyo3::exceptions::PyValueError::new_err(format!(
            "action index {index} is outside 0..{}",
            mjai_sim_env::NUM_ACTIONS
        )));
    }
    Ok(mjai_sim_env::action_space::name_of(index))
}

/// The extension module `mjai_sim._env`.
#[pymodule]
fn _env(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<vec_env::VecEnv>()?;
    m.add_class::<decisions::Decisions>()?;
    m.add_function(wrap_pyfunction!(action_name, m)?)?;
    m.add_function(wrap_pyfunction!(standings::standings, m)?)?;
    m.add("NUM_ACTIONS", mjai_sim_env::NUM_ACTIONS)?;
    Ok(())
}
