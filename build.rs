//! Two jobs:
//! - `[build-dependencies]` in Cargo.toml reach the host crates through this script: it
//!   makes the proc-macros' `syn` carry the features the test build gives it, so that
//!   `cargo build --profile test` and `cargo test` share every compiled unit
//!   (docs/testing.md, "One build");
//! - the commit the binary is built from, `MJAI_SIM_COMMIT` (12 hex digits; `unknown`
//!   outside a git checkout), which every game's engine stamp names
//!   (src/arena/engine_stamp.rs). Rerun when HEAD moves; changes not committed yet are
//!   not told apart.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    let commit = git(&["rev-parse", "--short=12", "HEAD"]);
    if let Some(head) = git(&["rev-parse", "--git-path", "HEAD"]) {
        println!("cargo::rerun-if-changed={head}");
        // the branch's ref moves at each commit (loose, or packed)
        if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
            if let Some(path) = git(&["rev-parse", "--git-path", &branch]) {
                println!("cargo::rerun-if-changed={path}");
            }
        }
        if let Some(packed) = git(&["rev-parse", "--git-path", "packed-refs"]) {
            println!("cargo::rerun-if-changed={packed}");
        }
    }
    println!("cargo::rustc-env=MJAI_SIM_COMMIT={}", commit.unwrap_or_else(|| "unknown".into()));
}
