//! The command line (clap). Thin glue over the engine, runtimes and arena.

/// Runs the command line; returns the process exit code.
pub fn run() -> i32 {
    0
}
