//! PostgreSQL (a throwaway cluster per test, `pg_support`): workers, workers in Docker, leagues, restarts, aggregates under concurrent recorders, the store's admit, the two migration trees compared; the stack of deploy/ under Docker Swarm (`stack_support`).
//!
//! One binary (`cargo test --test pg`), a module per former test file; shared helpers in
//! the support modules below. Where a new test goes: tests/README.md.

#[path = "../aggregates_support/mod.rs"]
mod aggregates_support;
#[path = "../e2e_support/mod.rs"]
mod e2e_support;
#[path = "../pg_support/mod.rs"]
mod pg_support;
#[path = "../stack_support/mod.rs"]
mod stack_support;

mod pg_aggregates;
mod pg_connect;
mod pg_docker_workers;
mod pg_league;
mod pg_live;
mod pg_migrations;
mod pg_restart;
mod pg_stack;
mod pg_workers;
