//! `mjai-sim selfplay`.

/// Arguments of `selfplay`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `selfplay`; returns the exit code.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let _ = args;
    anyhow::bail!("not implemented yet")
}
