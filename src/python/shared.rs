//! The environment as the Python objects share it: `VecEnv` steps it, a `Decisions` reads
//! its rows lazily (and refuses once the environment has stepped past it).

use std::sync::{Arc, Mutex, MutexGuard};

use pyo3::exceptions::PyIndexError;
use pyo3::PyErr;

/// The environment and the number of its last batch.
pub struct Inner {
    /// The Rust environment.
    pub env: mjai_sim_env::VecEnv,
    /// Batches made so far: a `Decisions` of an earlier one is stale.
    pub generation: u64,
}

/// [`Inner`] behind a lock (pyo3 classes are shared across threads).
#[derive(Clone)]
pub struct Shared(pub Arc<Mutex<Inner>>);

impl Shared {
    /// The environment, locked (a panic while it was held leaves it usable).
    pub fn lock(&self) -> MutexGuard<'_, Inner> {
        self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// `IndexError` for a row that does not exist.
pub fn no_row(row: usize) -> PyErr {
    PyIndexError::new_err(format!("no pending row {row}"))
}
