//! `mjai-sim verify LOG`: replays an mjai log (one JSON event per line, as
//! `mjai_log.json`) through the engine and reports the first disagreement.

use std::path::PathBuf;

use anyhow::Context;

use crate::engine::event::Event;
use crate::engine::game::replay::replay;

/// Arguments of `verify`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The mjai log to check: one JSON event per line, `start_game` to `end_game`.
    pub log: PathBuf,
}

/// Runs `verify`; returns 0 when the engine reproduces the log, 1 on a disagreement.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let text = std::fs::read_to_string(&args.log)
        .with_context(|| format!("cannot read {} (give the path of an mjai log)", args.log.display()))?;
    let events = parse_log(&text).with_context(|| format!("{} is not an mjai log", args.log.display()))?;
    match replay(&events) {
        Ok(r) => {
            println!(
                "{}: ok, {} events, {} kyoku reproduced; final scores {:?}",
                args.log.display(),
                r.events,
                r.kyokus,
                r.scores
            );
            Ok(0)
        }
        Err(d) => {
            println!("{}: {d}", args.log.display());
            Ok(1)
        }
    }
}

/// Parses one event per non-empty line; the error names the line.
pub fn parse_log(text: &str) -> anyhow::Result<Vec<Event>> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| serde_json::from_str(l).with_context(|| format!("line {} is not an mjai event", i + 1)))
        .collect()
}
