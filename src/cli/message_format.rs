//! `--message-format human|json` (cargo's flag) on the commands the Python package runs:
//! with `json`, stdout carries one JSON message per line (the library's
//! [`Message`](crate::messages::Message), docs/message-format.md) instead of the human
//! output; stderr keeps its lines. Without the flag nothing changes.

use std::io::Write;

use crate::messages::{CommandResult, ErrorCode, ErrorMessage, Message};

/// What stdout carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum MessageFormat {
    /// Text for people (tables, verdict lines, paths).
    #[default]
    Human,
    /// One JSON object per line, each with a `reason` (docs/message-format.md).
    Json,
}

/// The `--message-format` option of a command.
#[derive(Debug, Clone, Copy, Default, clap::Args)]
pub struct MessageFormatFlag {
    /// `json`: one JSON message per line on stdout (progress, errors with a `code`, the
    /// final `result`; docs/message-format.md) instead of the human output.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = MessageFormat::Human)]
    pub message_format: MessageFormat,
}

impl MessageFormatFlag {
    /// Whether messages are JSON.
    pub fn json(self) -> bool {
        self.message_format == MessageFormat::Json
    }
}

/// Writes `message` as one line on stdout. A closed stdout is ignored (stderr still tells).
pub fn emit(message: &Message) {
    let _ = message.write_to(&mut std::io::stdout().lock());
}

/// Writes the `result` message.
pub fn emit_result(result: CommandResult) {
    emit(&Message::Result(result));
}

/// Writes an `error` message of `code` with the one line a person sees on stderr.
pub fn emit_error(code: ErrorCode, line: &str) {
    emit(&Message::Error(ErrorMessage::new(code, line)));
}

/// Whether the raw arguments ask for JSON messages (`--message-format json` or
/// `--message-format=json`): read when clap refused the command line, to answer in kind.
pub fn argv_asks_json() -> bool {
    let args: Vec<String> = std::env::args_os().map(|a| a.to_string_lossy().into_owned()).collect();
    args.iter().any(|a| a == "--message-format=json")
        || args.windows(2).any(|w| w[0] == "--message-format" && w[1] == "json")
}

/// The `error` message (`bad_option`) of an option error clap printed: its first line,
/// without clap's `error: ` prefix.
pub fn emit_option_error(error: &clap::Error) {
    let text = error.to_string();
    let first = text.lines().next().unwrap_or_default();
    emit_error(ErrorCode::BadOption, first.strip_prefix("error: ").unwrap_or(first));
}

/// With JSON messages, a panic (a bug) also ends stdout with an `internal` error; the
/// default hook still prints the panic on stderr.
pub fn report_panics() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        default(info);
        let what = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".into());
        let place = info.location().map(|l| format!(" at {}:{}", l.file(), l.line())).unwrap_or_default();
        let line = format!("mjai-sim crashed (a bug, please report it): {what}{place}");
        let _ = Message::Error(ErrorMessage::new(ErrorCode::Internal, line)).write_to(&mut std::io::stdout());
        let _ = std::io::stdout().flush();
    }));
}
