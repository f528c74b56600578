//! `mjai-sim export LOG --format tenhou6 [-o FILE] [--urls]`: a game's mjai log in
//! tenhou.net/6 form (see [`crate::export::tenhou6`]). Reads `errors.json` beside the log
//! when present, to explain chombos.

use std::path::PathBuf;

use anyhow::Context;

use super::message_format::{emit_result, MessageFormatFlag};
use crate::export::tenhou6::{error_notes, export, kyoku_urls, ErrorNote};
use crate::messages::CommandResult;

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// tenhou.net/6 JSON (Tenhou's viewer, mjai-reviewer).
    Tenhou6,
}

/// Arguments of `export`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The mjai log: one JSON event per line (`mjai_log.json`, mjai.app or Mortal logs).
    pub log: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value = "tenhou6")]
    pub format: Format,
    /// Write the JSON here instead of stdout.
    #[arg(short = 'o', long)]
    pub output: Option<PathBuf>,
    /// Also print one `https://tenhou.net/6/#json=` link per kyoku (printed only, nothing is fetched).
    #[arg(long)]
    pub urls: bool,
    /// What stdout carries: human text, or JSON messages (the result or the error).
    #[command(flatten)]
    pub messages: MessageFormatFlag,
}

/// Runs `export`; 0 on success. Notes (chombos, hands scored differently) go to stderr.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let text = std::fs::read_to_string(&args.log)
        .with_context(|| format!("cannot read {} (give the path of an mjai log)", args.log.display()))?;
    let events =
        crate::engine::event::parse_log(&text).with_context(|| format!("{} is not an mjai log", args.log.display()))?;
    let errors = read_errors(&args.log)?;
    let game = match args.format {
        Format::Tenhou6 => export(&events, &errors).with_context(|| format!("cannot export {}", args.log.display()))?,
    };
    let json = serde_json::to_string(&game)?;
    match &args.output {
        Some(path) => {
            std::fs::write(path, format!("{json}\n")).with_context(|| format!("cannot write {}", path.display()))?
        }
        None if !args.urls && !args.messages.json() => println!("{json}"),
        None => {}
    }
    for n in &game.notes {
        eprintln!("note: {n}");
    }
    if args.messages.json() {
        let output = args.output.as_ref().map(|p| p.display().to_string());
        emit_result(CommandResult::Export { game: Box::new(game), output });
    } else if args.urls {
        for u in kyoku_urls(&game) {
            println!("{u}");
        }
    }
    Ok(0)
}

/// `errors.json` beside the log, if any (mjai.app writes `[{}]` for none: skipped).
fn read_errors(log: &std::path::Path) -> anyhow::Result<Vec<ErrorNote>> {
    let path = log.with_file_name("errors.json");
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(Vec::new());
    };
    error_notes(&text).with_context(|| format!("{} is not a JSON list of errors", path.display()))
}
