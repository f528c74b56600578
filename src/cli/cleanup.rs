//! `mjai-sim cleanup`: removes containers and volumes left behind by crashed or killed runs,
//! found by their `mjai-sim.game` label: only those whose owner process (label
//! `mjai-sim.owner`, host/pid/start) is gone, so a running server's or tournament's games
//! stay. `--all` removes every labelled container, volume, seat folder and network,
//! running games' included (containers of an older mjai-sim carry no owner: only `--all`
//! removes them).

use crate::runtime::docker::{cleanup::remove_leftovers, daemon};

/// Arguments of `cleanup`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Only the leftovers of this game id (the `mjai-sim.game` label); default: all games.
    #[arg(long)]
    game: Option<String>,
    /// Also what live (or unknown) owners run: every labelled container, volume and network.
    #[arg(long)]
    all: bool,
}

/// Runs `cleanup`; returns the exit code (0, also when nothing was left).
pub fn run(args: Args) -> anyhow::Result<i32> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(async {
        let docker = daemon().await?;
        let removed = remove_leftovers(&docker, args.game.as_deref(), args.all).await?;
        println!(
            "removed {} container(s), {} volume(s), {} network(s)",
            removed.containers, removed.volumes, removed.networks
        );
        if removed.kept > 0 {
            eprintln!(
                "mjai-sim: kept {} container(s) whose owner runs or is unknown (`cleanup --all` removes them too)",
                removed.kept
            );
        }
        Ok(0)
    })
}
