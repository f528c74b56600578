//! `mjai-sim hand`.

/// Arguments of `hand`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `hand`; returns the exit code.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let _ = args;
    anyhow::bail!("not implemented yet")
}
