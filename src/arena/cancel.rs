//! Cancellation: the runtime's one type ([`mjai_sim_runtime::cancel`], tokio-util's
//! `CancellationToken`), re-exported where games and runs have always found it.

pub use mjai_sim_runtime::cancel::{Cancel, CancelToken};
