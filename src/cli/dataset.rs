//! `mjai-sim dataset LOG_OR_DIR... --kind decisions|riichi -o FILE.parquet`: mjai logs to
//! one Parquet table (docs/dataset.md). A damaged log is skipped with one line naming the
//! file and the event; no readable log at all is an error, and no file is written.

use std::path::PathBuf;

use anyhow::bail;

use super::message_format::{emit_result, MessageFormatFlag};
use super::rules_arg::RulesFlag;
use crate::export::dataset::files::{self, Unreadable};
use crate::export::dataset::writer::Writer;
use crate::export::dataset::{self, Kind};
use crate::messages::results::Skipped;
use crate::messages::{CodedError, CommandResult, ErrorCode};

/// Which table (`--kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum KindArg {
    /// One row per request in which a seat had more than one legal answer.
    Decisions,
    /// One row per riichi declaration, labelled with the declarer's waits.
    Riichi,
}

/// Arguments of `dataset`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// mjai logs, or folders searched for `mjai_log.json` / `mjai_log.json.gz` (a game, a
    /// selfplay --logs-dir, a tournament folder).
    #[arg(value_name = "LOG_OR_DIR", required = true)]
    pub paths: Vec<PathBuf>,
    /// Which table: decisions or riichi.
    #[arg(long, value_enum)]
    pub kind: KindArg,
    /// The Parquet file to write.
    #[arg(short, long, value_name = "FILE.parquet")]
    pub output: PathBuf,
    /// Rule preset the logs were played under (decisions replay them; mjai-app for logs of
    /// mjai.app's or Mortal's engine).
    #[command(flatten)]
    pub rules: RulesFlag,
    /// What stdout carries: human text, or JSON messages (the result or the error).
    #[command(flatten)]
    pub messages: MessageFormatFlag,
}

/// Runs `dataset`; returns 0 when at least one log was exported (skipped ones are counted
/// on stderr).
pub fn run(args: Args) -> anyhow::Result<i32> {
    let kind = match args.kind {
        KindArg::Decisions => Kind::Decisions,
        KindArg::Riichi => Kind::Riichi,
    };
    let logs = files::find(&args.paths).map_err(|e| CodedError::new(ErrorCode::NotFound, e))?;
    if logs.is_empty() {
        bail!(CodedError::new(
            ErrorCode::NotFound,
            "no mjai log found (a folder is searched for mjai_log.json or mjai_log.json.gz; give log files or game folders)"
        ));
    }
    let mut writer = Writer::create(&args.output, &dataset::empty(kind)).map_err(anyhow::Error::msg)?;
    let (mut read, mut skipped) = (0usize, Vec::new());
    for path in &logs {
        let name = path.display().to_string();
        let batch = match files::read(path) {
            Ok(log) => dataset::batch(kind, &name, &log, args.rules.rules()).map_err(|d| d.to_string()),
            Err(Unreadable::Io(why)) => Err(why),
            Err(Unreadable::Line { line, cause }) => {
                Err(format!("event {} (line {line}): not an mjai event: {cause}", line - 1))
            }
        };
        match batch {
            Ok(b) => {
                if let Err(e) = writer.write(&b) {
                    writer.abandon();
                    bail!(e);
                }
                read += 1;
            }
            Err(why) => {
                eprintln!("mjai-sim: skipped {name}: {why}");
                skipped.push(Skipped { log: name, reason: why });
            }
        }
    }
    if read == 0 {
        writer.abandon();
        bail!(CodedError::new(
            ErrorCode::NotMjaiLog,
            format!("none of the {} logs could be read; {} not written", skipped.len(), args.output.display())
        ));
    }
    let rows = writer.finish().map_err(anyhow::Error::msg)?;
    eprintln!("mjai-sim: wrote {rows} rows from {read} logs to {} ({} skipped)", args.output.display(), skipped.len());
    if args.messages.json() {
        let output = args.output.display().to_string();
        emit_result(CommandResult::Dataset { output, rows: rows as u64, logs: read as u64, skipped });
    }
    Ok(0)
}
