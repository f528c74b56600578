//! Where bots run: the process and Docker runtimes, interrupts, cleanup of containers, container limits, submissions.
//!
//! One binary (`cargo test --test runtime`), a module per former test file; shared helpers in
//! the support modules below. Where a new test goes: tests/README.md.

#[path = "../e2e_support/mod.rs"]
mod e2e_support;
#[path = "../runtime_support/mod.rs"]
mod runtime_support;

mod docker_resources;
mod remote_hostile;
mod runtime_cleanup;
mod runtime_docker;
mod runtime_interrupt;
mod runtime_process;
mod submission;
