//! `mjai-sim check`.

/// Arguments of `check`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `check`; returns the exit code.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let _ = args;
    anyhow::bail!("not implemented yet")
}
