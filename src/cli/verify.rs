//! `mjai-sim verify LOG`: replays an mjai log (one JSON event per line, as
//! `mjai_log.json`) through the engine and reports the first disagreement. Logs without a
//! seed (Tenhou games converted by mjai-reviewer) and logs that stop after any `end_kyoku`
//! are accepted; converter conventions are printed as notes.

use std::path::PathBuf;

use anyhow::Context;

use super::message_format::{emit, emit_result, MessageFormatFlag};
use super::rules_arg::{log_fits_rules, RulesArg, RulesFlag};
use crate::engine::event::parse_log;
use crate::engine::game::replay_converted::replay_lenient_with;
use crate::messages::results::VerifyResult;
use crate::messages::{CommandResult, ErrorCode, ErrorMessage, Message};

/// Arguments of `verify`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The mjai log to check: one JSON event per line, `start_game` to `end_game` (or to any `end_kyoku`).
    pub log: PathBuf,
    /// Rule preset the log was played under (mjai-app for logs of mjai.app's engine).
    #[command(flatten)]
    pub rules: RulesFlag,
    /// What stdout carries: the verdict line, or JSON messages (the result or the error).
    #[command(flatten)]
    pub messages: MessageFormatFlag,
}

/// Runs `verify`; returns 0 when the engine reproduces the log, 1 on a disagreement. The
/// output line names the preset; a failure under `tenhou` that `mjai-app` reproduces says so.
/// With JSON messages: a `result`, or an `error` `verify_mismatch` naming the log line.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let text = std::fs::read_to_string(&args.log)
        .with_context(|| format!("cannot read {} (give the path of an mjai log)", args.log.display()))?;
    let events = parse_log(&text).with_context(|| format!("{} is not an mjai log", args.log.display()))?;
    let preset = args.rules.preset;
    let name = preset.rules().name();
    let log = args.log.display().to_string();
    let json = args.messages.json();
    let players = preset.rules().players;
    log_fits_rules(&events, preset.rules(), &log)?;
    match replay_lenient_with(&events, preset.rules()) {
        Ok(lenient) => {
            let message = match &lenient.full {
                None => format!("ok under --rules {name}, {} kyoku verified, partial game", lenient.kyokus),
                Some(r) => format!(
                    "ok under --rules {name}, {} events, {} kyoku reproduced; final scores {:?}",
                    r.events,
                    r.kyokus,
                    players.seat_list(r.scores)
                ),
            };
            if json {
                emit_result(CommandResult::Verify(VerifyResult {
                    log,
                    rules: name.to_string(),
                    kyokus: lenient.full.map_or(lenient.kyokus, |r| r.kyokus),
                    events: lenient.full.map(|r| r.events),
                    final_scores: lenient.full.map(|r| players.seat_list(r.scores)),
                    partial: lenient.full.is_none(),
                    notes: lenient.notes,
                    message,
                }));
                return Ok(0);
            }
            for n in &lenient.notes {
                println!("{log}: note: {n}");
            }
            println!("{log}: {message}");
            Ok(0)
        }
        Err(d) => {
            let hint = if preset == RulesArg::Tenhou && replay_lenient_with(&events, RulesArg::MjaiApp.rules()).is_ok()
            {
                " (the log replays under --rules mjai-app: it was played by mjai.app's rules)"
            } else {
                ""
            };
            let message = format!("under --rules {name}: {d}{hint}");
            if json {
                let error =
                    ErrorMessage { line: Some(d.index + 1), ..ErrorMessage::new(ErrorCode::VerifyMismatch, message) };
                emit(&Message::Error(error));
            } else {
                println!("{log}: {message}");
            }
            Ok(1)
        }
    }
}
