//! `mjai-sim cleanup`.

/// Arguments of `cleanup`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `cleanup`; returns the exit code.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let _ = args;
    anyhow::bail!("not implemented yet")
}
