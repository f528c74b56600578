//! Standings of a tournament from its game records (`standings.json`, schema in
//! docs/output-files.md, "standings.json"): computed in the pure crate `mjai-sim-stats`
//! ([`mjai_sim_stats::standings`], the rules there), so the Python extension's in-process
//! arena gives the same figures; re-exported here.

pub use mjai_sim_stats::standings::*;
