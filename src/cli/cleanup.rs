//! `mjai-sim cleanup`: removes containers, volumes and networks left behind by crashed or
//! killed runs, found by their `mjai-sim.game` label.

use crate::runtime::docker::{cleanup::remove_leftovers, connect};

/// Arguments of `cleanup`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Only the leftovers of this game id (the `mjai-sim.game` label); default: all games.
    #[arg(long)]
    game: Option<String>,
}

/// Runs `cleanup`; returns the exit code (0, also when nothing was left).
pub fn run(args: Args) -> anyhow::Result<i32> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(async {
        let docker = connect().await?;
        let removed = remove_leftovers(&docker, args.game.as_deref()).await?;
        println!(
            "removed {} container(s), {} volume(s), {} network(s)",
            removed.containers, removed.volumes, removed.networks
        );
        Ok(0)
    })
}
