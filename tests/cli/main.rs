//! The command line around one game: options, `--from`, `hand`, `verify`, `export`, and
//! `--message-format json` of every command the Python package runs.
//!
//! One binary (`cargo test --test cli`), a module per former test file; shared helpers in
//! the support modules below. Where a new test goes: tests/README.md.

#[path = "../e2e_support/mod.rs"]
mod e2e_support;
#[path = "../remote_support/mod.rs"]
mod remote_support;
#[path = "../sanma_support/mod.rs"]
mod sanma_support;

mod cli_connect;
mod cli_export;
mod cli_from;
mod cli_hand;
mod cli_options;
mod cli_sanma;
mod cli_verify;
mod message_format;
