//! `mjai-sim verify LOG`: replays an mjai log (one JSON event per line, as
//! `mjai_log.json`) through the engine and reports the first disagreement. Logs without a
//! seed (Tenhou games converted by mjai-reviewer) and logs that stop after any `end_kyoku`
//! are accepted; converter conventions are printed as notes.

use std::path::PathBuf;

use anyhow::Context;

use super::rules_arg::{RulesArg, RulesFlag};
use crate::engine::event::parse_log;
use crate::engine::game::replay_converted::replay_lenient_with;

/// Arguments of `verify`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The mjai log to check: one JSON event per line, `start_game` to `end_game` (or to any `end_kyoku`).
    pub log: PathBuf,
    /// Rule preset the log was played under (mjai-app for logs of mjai.app's engine).
    #[command(flatten)]
    pub rules: RulesFlag,
}

/// Runs `verify`; returns 0 when the engine reproduces the log, 1 on a disagreement. The
/// output line names the preset; a failure under `tenhou` that `mjai-app` reproduces says so.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let text = std::fs::read_to_string(&args.log)
        .with_context(|| format!("cannot read {} (give the path of an mjai log)", args.log.display()))?;
    let events = parse_log(&text).with_context(|| format!("{} is not an mjai log", args.log.display()))?;
    let preset = args.rules.preset;
    let name = preset.rules().name();
    match replay_lenient_with(&events, preset.rules()) {
        Ok(lenient) => {
            for n in &lenient.notes {
                println!("{}: note: {n}", args.log.display());
            }
            let Some(r) = lenient.full else {
                println!(
                    "{}: ok under --rules {name}, {} kyoku verified, partial game",
                    args.log.display(),
                    lenient.kyokus
                );
                return Ok(0);
            };
            println!(
                "{}: ok under --rules {name}, {} events, {} kyoku reproduced; final scores {:?}",
                args.log.display(),
                r.events,
                r.kyokus,
                r.scores
            );
            Ok(0)
        }
        Err(d) => {
            let hint = if preset == RulesArg::Tenhou && replay_lenient_with(&events, RulesArg::MjaiApp.rules()).is_ok()
            {
                " (the log replays under --rules mjai-app: it was played by mjai.app's rules)"
            } else {
                ""
            };
            println!("{}: under --rules {name}: {d}{hint}", args.log.display());
            Ok(1)
        }
    }
}
