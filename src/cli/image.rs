//! `mjai-sim image`.

/// Arguments of `image`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `image`; returns the exit code.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let _ = args;
    anyhow::bail!("not implemented yet")
}
