//! `mjai-sim play`.

/// Arguments of `play`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `play`; returns the exit code.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let _ = args;
    anyhow::bail!("not implemented yet")
}
