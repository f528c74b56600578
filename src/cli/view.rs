//! `mjai-sim view LOG|DIR [-o FILE.html]`: one self-contained HTML page of a game.
//!
//! The main job and tournaments write the same page as `game.html` beside each game's files
//! ([`crate::arena::game_html::write_game_html`]).

use std::path::{Path, PathBuf};

use anyhow::Context;

use super::message_format::{emit_result, MessageFormatFlag};
use crate::arena::game_html::game_page;
use crate::messages::CommandResult;

/// Arguments of `view`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A game folder (holding mjai_log.json, and errors.json and player_logs.* when present)
    /// or an mjai log file.
    #[arg(value_name = "LOG|DIR")]
    pub input: PathBuf,
    /// Output file [default: DIR/game.html for a folder, LOG with .html for a file].
    #[arg(short, long, value_name = "FILE.html")]
    pub output: Option<PathBuf>,
    /// What stdout carries: human text, or JSON messages (the result or the error).
    #[command(flatten)]
    pub messages: MessageFormatFlag,
}

/// Runs `view`; prints the page's path. Errors (one line): unreadable input, not an mjai
/// log, unwritable output.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let (dir, log) = if args.input.is_dir() {
        (args.input.clone(), args.input.join("mjai_log.json"))
    } else {
        (args.input.parent().map(Path::to_path_buf).unwrap_or_default(), args.input.clone())
    };
    let out = args.output.clone().unwrap_or_else(|| {
        if args.input.is_dir() {
            dir.join("game.html")
        } else {
            log.with_extension("html")
        }
    });
    let title = title_of(&args.input);
    let html = game_page(&dir, &log, title)?;
    std::fs::write(&out, html).with_context(|| format!("cannot write {} (choose another with -o)", out.display()))?;
    if args.messages.json() {
        emit_result(CommandResult::View { path: out.display().to_string() });
    } else {
        println!("{}", out.display());
    }
    Ok(0)
}

fn title_of(path: &Path) -> String {
    let p = if path.is_dir() { path } else { path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(path) };
    p.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned())
}
