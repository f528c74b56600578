//! One game: the match loop with scripted bots, end to end with real bots in processes and Docker, bot output, signals.
//!
//! One binary (`cargo test --test arena`), a module per former test file; shared helpers in
//! the support modules below. Where a new test goes: tests/README.md.

#[path = "../arena_support/mod.rs"]
mod arena_support;
#[path = "../batch_support/mod.rs"]
mod batch_support;
#[path = "../e2e_support/mod.rs"]
mod e2e_support;
#[path = "../remote_support/mod.rs"]
mod remote_support;
#[path = "../riichienv_support/mod.rs"]
mod riichienv_support;

mod arena_loop;
mod batch;
mod bot_output;
mod e2e_docker;
mod e2e_process;
mod remote_game;
mod riichi_dev_game;
mod signals;
