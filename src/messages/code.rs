//! Error codes: a stable snake_case name for each way a command fails, read off the typed
//! causes of an error (not off its text), and the `error` message that carries one.

use serde::Serialize;

use mjai_sim_arena::launch::{BotRef, BotRefused};
use mjai_sim_arena::match_loop::HostFault;
use mjai_sim_engine::event::LogLineError;
use mjai_sim_images::ImageError;
use mjai_sim_runtime::docker::DockerError;
use mjai_sim_runtime::launcher::LaunchError;
use mjai_sim_tournament::store::StoreError;

/// Why a command failed, or why its outcome is partial. Stable: a code is never renamed;
/// new ones may be added (a reader treats an unknown code as [`ErrorCode::Other`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// A malformed, missing or out-of-range option or argument (exit 1).
    BadOption,
    /// A BOT was refused at intake: unknown built-in, unreadable or malformed submission
    /// (no `bot.py` at the root, too large, ...). `seat` or `bot` names it (exit 1).
    BadSubmission,
    /// The Docker daemon does not answer (exit 1).
    DockerUnavailable,
    /// The host could not start the bots once a game was under way (the Docker daemon gone,
    /// the image removed, no GPU runtime for `--gpus`, every seat failing to start the same
    /// way): the game was stopped and nothing was recorded as a result; a tournament's game
    /// went back to the queue (exit 1).
    HostFault,
    /// The bot image is missing or could not be built (exit 1).
    ImageUnavailable,
    /// Another Docker failure: a container could not be created or started (exit 1).
    DockerError,
    /// A file could not be read or written (the message names it; exit 1).
    IoError,
    /// An input named on the command line is not there: no tournament in the folder, no
    /// mjai log in the folders given (exit 1).
    NotFound,
    /// A line of an mjai log is not an mjai event; `line` is its number (exit 1).
    NotMjaiLog,
    /// `verify`: the engine disagrees with the log; `line` is the log line (exit 1).
    VerifyMismatch,
    /// The tournament's database failed (exit 1).
    StoreError,
    /// The game was abandoned after `--max-restarts` restarts (after its `result`; exit 2).
    RestartLimit,
    /// The game was ended by its watchdog (`--game-timeout`, no progress; after its
    /// `result`; exit 2).
    GameFailed,
    /// Some tournament games failed twice (after the `result`, which lists them; exit 2).
    GamesFailed,
    /// SIGINT (Ctrl-C) or SIGTERM stopped the command; what was done is kept (after a
    /// `result` when there is one; exit 130 or 143).
    Interrupted,
    /// A bug in mjai-sim: it crashed (exit 101), or a built-in bot took a chombo (a built-in
    /// never errs; the game is not counted: one game exits 3 after its `result`, a
    /// tournament marks the game failed and exits 3 after its `result`).
    Internal,
    /// Any other failure (exit 1).
    Other,
}

impl ErrorCode {
    /// The code as written in messages, e.g. `bad_submission`.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::BadOption => "bad_option",
            ErrorCode::BadSubmission => "bad_submission",
            ErrorCode::DockerUnavailable => "docker_unavailable",
            ErrorCode::HostFault => "host_fault",
            ErrorCode::ImageUnavailable => "image_unavailable",
            ErrorCode::DockerError => "docker_error",
            ErrorCode::IoError => "io_error",
            ErrorCode::NotFound => "not_found",
            ErrorCode::NotMjaiLog => "not_mjai_log",
            ErrorCode::VerifyMismatch => "verify_mismatch",
            ErrorCode::StoreError => "store_error",
            ErrorCode::RestartLimit => "restart_limit",
            ErrorCode::GameFailed => "game_failed",
            ErrorCode::GamesFailed => "games_failed",
            ErrorCode::Interrupted => "interrupted",
            ErrorCode::Internal => "internal",
            ErrorCode::Other => "other",
        }
    }
}

/// An error made by a front end's own check, carrying its code (e.g. a wrong number of
/// BOT arguments: [`ErrorCode::BadOption`]). Displays as its message alone.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct CodedError {
    /// The code.
    pub code: ErrorCode,
    /// The one-line message.
    pub message: String,
}

impl CodedError {
    /// The error `message` with `code`.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> CodedError {
        CodedError { code, message: message.into() }
    }
}

/// The `error` message: a code, the one line a person sees (without the `mjai-sim: `
/// prefix), and what it names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ErrorMessage {
    /// The code.
    pub code: ErrorCode,
    /// The same one line the command prints on stderr, without its `mjai-sim: ` (or
    /// clap's `error: `) prefix.
    pub message: String,
    /// The seat (0-3) at fault, for a BOT of one game refused at intake.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat: Option<u8>,
    /// The bot's name, for a tournament bot refused at intake.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bot: Option<String>,
    /// The 1-based line of the mjai log named (`not_mjai_log`, `verify_mismatch`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
}

impl ErrorMessage {
    /// `message` with `code`, naming nothing.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> ErrorMessage {
        ErrorMessage { code, message: message.into(), seat: None, bot: None, line: None }
    }

    /// The message of `error`: its one line (`{error:#}`, as the command prints it) and the
    /// code of its outermost cause of a known type ([`CodedError`], [`BotRefused`], Docker,
    /// image, store, log line and I/O errors); [`ErrorCode::Other`] when none is known.
    pub fn of(error: &anyhow::Error) -> ErrorMessage {
        let mut out = ErrorMessage::new(ErrorCode::Other, format!("{error:#}"));
        for cause in error.chain() {
            if let Some(c) = cause.downcast_ref::<CodedError>() {
                out.code = c.code;
            } else if let Some(r) = cause.downcast_ref::<BotRefused>() {
                out.code = ErrorCode::BadSubmission;
                match &r.who {
                    BotRef::Seat(seat) => out.seat = Some(*seat),
                    BotRef::Named(name) => out.bot = Some(name.clone()),
                }
            } else if HostFault::is(cause) {
                out.code = ErrorCode::HostFault;
            } else if let Some(d) = cause.downcast_ref::<DockerError>() {
                out.code = docker_code(d);
            } else if let Some(l) = cause.downcast_ref::<LaunchError>() {
                out.code = match l {
                    LaunchError::Docker(d) => docker_code(d),
                    LaunchError::Process { .. } => ErrorCode::Other,
                };
            } else if let Some(i) = cause.downcast_ref::<ImageError>() {
                out.code = match i {
                    ImageError::DaemonUnreachable(_) => ErrorCode::DockerUnavailable,
                    _ => ErrorCode::ImageUnavailable,
                };
            } else if let Some(l) = cause.downcast_ref::<LogLineError>() {
                out.code = ErrorCode::NotMjaiLog;
                out.line = Some(l.line);
            } else if cause.downcast_ref::<StoreError>().is_some() {
                out.code = ErrorCode::StoreError;
            } else if cause.downcast_ref::<std::io::Error>().is_some() {
                out.code = ErrorCode::IoError;
            } else {
                continue;
            }
            break;
        }
        out
    }
}

fn docker_code(error: &DockerError) -> ErrorCode {
    match error {
        DockerError::Unreachable(_) => ErrorCode::DockerUnavailable,
        DockerError::ImageMissing(_) => ErrorCode::ImageUnavailable,
        DockerError::Interrupted => ErrorCode::Interrupted,
        DockerError::Start { .. } | DockerError::Api { .. } => ErrorCode::DockerError,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_code_comes_from_the_typed_cause_under_any_context() {
        let refused = BotRefused { who: BotRef::Seat(2), cause: "no bot.py".into() };
        let e = anyhow::Error::new(refused).context("cannot start the game");
        let m = ErrorMessage::of(&e);
        assert_eq!(
            (m.code, m.seat, m.message.as_str()),
            (ErrorCode::BadSubmission, Some(2), "cannot start the game: seat 2: no bot.py")
        );

        let e = anyhow::Error::new(DockerError::Unreachable("no socket".into()));
        assert_eq!(ErrorMessage::of(&e).code, ErrorCode::DockerUnavailable);
        let fault = HostFault("seat 1: no GPU runtime".into());
        let e = anyhow::Error::new(mjai_sim_arena::match_loop::MatchError::Host(fault.clone())).context("game 3");
        assert_eq!(ErrorMessage::of(&e).code, ErrorCode::HostFault);
        assert_eq!(ErrorMessage::of(&anyhow::Error::new(fault)).code, ErrorCode::HostFault);

        let e = anyhow::Error::new(LogLineError { line: 7, cause: "eof".into() }).context("x is not an mjai log");
        let m = ErrorMessage::of(&e);
        assert_eq!((m.code, m.line), (ErrorCode::NotMjaiLog, Some(7)));

        let e = anyhow::Error::new(std::io::Error::other("disk full")).context("cannot write x");
        assert_eq!(ErrorMessage::of(&e).code, ErrorCode::IoError);
        assert_eq!(ErrorMessage::of(&anyhow::anyhow!("plain text")).code, ErrorCode::Other);
        let coded = anyhow::Error::new(CodedError::new(ErrorCode::BadOption, "3 BOT given"));
        assert_eq!(ErrorMessage::of(&coded).code, ErrorCode::BadOption);
    }

    #[test]
    fn codes_serialize_as_their_names() {
        for code in [ErrorCode::BadSubmission, ErrorCode::VerifyMismatch, ErrorCode::Other] {
            assert_eq!(serde_json::to_value(code).unwrap(), code.as_str());
        }
    }
}
