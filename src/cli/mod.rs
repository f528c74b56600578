//! The command line (clap). Thin glue over the engine, runtimes and arena: each subcommand
//! lives in its own file with its `Args` and a `run` returning the exit code.

use clap::{Parser, Subcommand};

mod check;
mod cleanup;
mod hand;
mod image;
mod play;
mod runtime_args;
mod selfplay;
mod verify;

/// Referee for riichi mahjong games between mjai bots.
#[derive(Debug, Parser)]
#[command(name = "mjai-sim", version, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Play one hanchan (the default when no subcommand is given).
    #[command(flatten)]
    play: play::Args,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Score one hand (yaku, han, fu, points).
    Hand(hand::Args),
    /// Play games between built-in bots in process (no Docker).
    Selfplay(selfplay::Args),
    /// Check that a submission starts and answers correctly.
    Check(check::Args),
    /// Build or inspect the bot image.
    Image(image::Args),
    /// Remove containers left behind by crashed runs.
    Cleanup(cleanup::Args),
    /// Replay an mjai log through the engine and report the first disagreement.
    Verify(verify::Args),
}

/// Runs the command line; returns the process exit code. Errors are printed as one line.
pub fn run() -> i32 {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Hand(a)) => hand::run(a),
        Some(Command::Selfplay(a)) => selfplay::run(a),
        Some(Command::Check(a)) => check::run(a),
        Some(Command::Image(a)) => image::run(a),
        Some(Command::Cleanup(a)) => cleanup::run(a),
        Some(Command::Verify(a)) => verify::run(a),
        None => play::run(cli.play),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("mjai-sim: {e:#}");
            1
        }
    }
}
