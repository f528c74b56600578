//! The command line (clap). Thin glue over the engine, runtimes and arena: each subcommand
//! lives in its own file with its `Args` and a `run` returning the exit code.

use clap::{Parser, Subcommand};

mod cache_args;
mod check;
mod cleanup;
mod clock_arg;
mod connect;
#[cfg(feature = "parquet")]
mod dataset;
mod db_secret;
mod enum_arg;
mod export;
mod export_games;
mod game_limits;
mod hand;
mod image;
mod league;
#[cfg(feature = "server")]
mod league_store;
mod logging;
mod matching_arg;
mod message_format;
#[cfg_attr(all(feature = "parquet", feature = "server"), allow(dead_code))]
mod not_built;
mod numbers;
mod play;
mod progress;
mod report;
mod rules_arg;
mod runtime_args;
mod selfplay;
#[cfg(feature = "server")]
mod serve;
#[cfg(feature = "server")]
mod serve_author;
#[cfg(feature = "server")]
mod serve_backup;
#[cfg(feature = "server")]
mod serve_season;
#[cfg(feature = "server")]
mod serve_suspend;
#[cfg(feature = "server")]
mod serve_void;
mod shutdown;
mod standings;
mod start_args;
mod tournament;
mod tournament_db;
mod verify;
mod view;
mod worker;

/// Referee for riichi mahjong games between mjai bots.
#[derive(Debug, Parser)]
#[command(name = "mjai-sim", version, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Play one hanchan (the default when no subcommand is given).
    #[command(flatten)]
    play: play::Args,
    /// More diagnostics on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides.
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    verbose: u8,
    /// Fewer diagnostics on stderr (-q errors only, -qq none); RUST_LOG overrides.
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    quiet: u8,
}

// Parsed once per process: the size of the largest command's arguments costs nothing
// (without the server, the next largest is much smaller).
#[allow(clippy::large_enum_variant)]
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
    /// Play a remote seat (remote:NAME) from this machine: run BOT here, relay it to the game.
    Connect(connect::Args),
    /// Remove containers left behind by crashed runs.
    Cleanup(cleanup::Args),
    /// Replay an mjai log through the engine and report the first disagreement.
    Verify(verify::Args),
    /// Convert an mjai log to another format (tenhou.net/6).
    Export(export::Args),
    /// Turn mjai logs into a Parquet table of decisions or of riichi waits.
    #[cfg(feature = "parquet")]
    Dataset(dataset::Args),
    /// Not in this build (the `parquet` feature).
    #[cfg(not(feature = "parquet"))]
    #[command(hide = true)]
    Dataset(not_built::Args),
    /// Write a self-contained HTML viewer of a game.
    View(view::Args),
    /// Write report.html for a tournament folder.
    Report(report::Args),
    /// Play many games between N bots (duplicate sets or 1v3), resumable, with standings.
    Tournament(tournament::Args),
    /// Print the standings of a tournament folder or database (finished or running).
    Standings(standings::Args),
    /// Write every finished game of a database tournament as the main job writes it.
    ExportGames(export_games::Args),
    /// Play scheduled games of every tournament in a PostgreSQL database (scale-out).
    Worker(worker::Args),
    /// Add a bot to a league (a tournament made with --sets 0) or retire one.
    League(league::Args),
    /// The grading server: uploads, validation games, a league and its read API (or `serve author add`).
    #[cfg(feature = "server")]
    Serve(serve::Args),
    /// Not in this build (the `server` feature).
    #[cfg(not(feature = "server"))]
    #[command(hide = true)]
    Serve(not_built::Args),
}

/// Runs the command line; returns the process exit code. Errors are printed as one line;
/// a malformed or out-of-range option exits 1 like any other error before a game starts
/// (clap's own code 2 would read as "abandoned").
pub fn run() -> i32 {
    // every game this process plays is stamped with this build (src/arena/engine_stamp.rs)
    crate::arena::engine_stamp::set_build(env!("CARGO_PKG_VERSION"), env!("MJAI_SIM_COMMIT"));
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            if e.use_stderr() && message_format::argv_asks_json() {
                message_format::emit_option_error(&e);
            }
            return if e.use_stderr() { 1 } else { 0 };
        }
    };
    logging::init(cli.verbose, cli.quiet);
    let json = cli.json_messages();
    if json {
        message_format::report_panics();
    }
    let result = match cli.command {
        Some(Command::Hand(a)) => hand::run(a),
        Some(Command::Selfplay(a)) => selfplay::run(a),
        Some(Command::Check(a)) => check::run(a),
        Some(Command::Image(a)) => image::run(a),
        Some(Command::Cleanup(a)) => cleanup::run(a),
        Some(Command::Connect(a)) => connect::run(a),
        Some(Command::Verify(a)) => verify::run(a),
        Some(Command::Export(a)) => export::run(a),
        #[cfg(feature = "parquet")]
        Some(Command::Dataset(a)) => dataset::run(a),
        #[cfg(not(feature = "parquet"))]
        Some(Command::Dataset(_)) => not_built::run("dataset", "parquet"),
        Some(Command::View(a)) => view::run(a),
        Some(Command::Report(a)) => report::run(a),
        Some(Command::Tournament(a)) if a.db.is_some() => tournament_db::run(a),
        Some(Command::Tournament(a)) => tournament::run(a),
        Some(Command::Standings(a)) => standings::run(a),
        Some(Command::Worker(a)) => worker::run(a),
        Some(Command::League(a)) => league::run(a),
        #[cfg(feature = "server")]
        Some(Command::Serve(a)) => serve::run(a),
        #[cfg(not(feature = "server"))]
        Some(Command::Serve(_)) => not_built::run("serve", "server"),
        Some(Command::ExportGames(a)) => export_games::run(a),
        None => play::run(cli.play),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("mjai-sim: {e:#}");
            if json {
                message_format::emit(&crate::messages::Message::Error(crate::messages::ErrorMessage::of(&e)));
            }
            1
        }
    }
}

impl Cli {
    /// Whether the command asked for JSON messages on stdout (`--message-format json`).
    fn json_messages(&self) -> bool {
        match &self.command {
            None => self.play.messages.json(),
            Some(Command::Verify(a)) => a.messages.json(),
            Some(Command::Export(a)) => a.messages.json(),
            #[cfg(feature = "parquet")]
            Some(Command::Dataset(a)) => a.messages.json(),
            Some(Command::View(a)) => a.messages.json(),
            Some(Command::Tournament(a)) => a.messages.json(),
            Some(Command::Standings(a)) => a.messages.json(),
            Some(_) => false,
        }
    }
}

#[cfg(test)]
mod tests {
    /// clap's own checks of every command and flag (a name used twice panics at run time,
    /// e.g. two flattened arguments both named `preset`).
    #[test]
    fn the_command_line_passes_clap_s_checks() {
        use clap::CommandFactory;
        super::Cli::command().debug_assert();
    }
}
