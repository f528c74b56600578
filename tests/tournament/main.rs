//! Tournaments on one machine (SQLite): the command, Docker tournaments, signals, bootstrap intervals, the per-bot aggregates.
//!
//! One binary (`cargo test --test tournament`), a module per former test file; shared helpers in
//! the support modules below. Where a new test goes: tests/README.md.

#[path = "../aggregates_support/mod.rs"]
mod aggregates_support;
#[path = "../batch_support/mod.rs"]
mod batch_support;
#[path = "../e2e_support/mod.rs"]
mod e2e_support;
#[path = "../remote_support/mod.rs"]
mod remote_support;

mod aggregates;
mod batch;
mod canaries;
mod command;
mod host_faults;
mod league_anchors;
mod remote_entrant;
mod sanma;
mod tournament_bootstrap;
mod tournament_docker;
mod tournament_signals;
