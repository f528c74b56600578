//! Nothing to build. This script exists so that `[build-dependencies]` in Cargo.toml reach
//! the host crates: it makes the proc-macros' `syn` carry the features the test build gives
//! it, so that `cargo build --profile test` and `cargo test` share every compiled unit
//! (docs/testing.md, "One build").

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
}
