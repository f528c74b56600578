//! `mjai-sim dataset`: Parquet tables of decisions and riichi waits, checked against the
//! live games that wrote the logs, the masked events each seat was sent, the Python
//! `mahjong` package, and damaged input.

#[path = "../reference_support/mod.rs"]
mod reference_support;
#[path = "../sanma_support/mod.rs"]
mod sanma_support;

mod bad_input;
mod decisions;
mod sanma;
mod support;
mod view;
mod waits;
