//! `mjai-sim verify`.

/// Arguments of `verify`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `verify`; returns the exit code.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let _ = args;
    anyhow::bail!("not implemented yet")
}
