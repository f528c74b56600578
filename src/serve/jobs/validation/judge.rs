//! What one validation game decided ([`Judged`]): a verdict with the files kept for the
//! author (the log, summary, errors and the stderr tail of one of the bot's seats), or no
//! verdict at all (the server stopped; the referee's bug; the host's fault).

use std::path::Path;

use mjai_sim_arena::game_run::GameOutcome;
use mjai_sim_arena::launch::BotRefused;
use mjai_sim_arena::logs::stderr_path_in;
use mjai_sim_arena::match_loop::MatchEnding;
use mjai_sim_arena::verdict::{validation_verdict, Judging};
use mjai_sim_tournament::store::{gzip, ValidationFiles};

use super::Games;

/// Bytes of the bot's stderr kept with its validation game.
pub const STDERR_KEPT: usize = 64 * 1024;

/// What one validation game decided.
pub(super) enum Judged {
    /// The game was stopped by the server's shutdown: no verdict.
    Stopped,
    /// The files to keep and the verdict (a failure's one-line reason).
    Verdict(ValidationFiles, Result<(), String>),
}

impl Games {
    /// What a validation game's `outcome` (played in `game_dir`, with the bot in `seats`)
    /// means: a verdict with the files to keep, or no verdict (the server stopped: validated
    /// again at the next start). Errors, recording no verdict (`dir` removed): the built-in
    /// opponent's chombo (the referee's bug) or a host fault (not the bot's).
    pub(super) fn judge(
        &self,
        outcome: anyhow::Result<GameOutcome>,
        dir: &Path,
        game_dir: &Path,
        seats: &[usize],
        judging: Judging,
    ) -> anyhow::Result<Judged> {
        match outcome {
            Ok(outcome) if self.cancel.is_cancelled() && outcome.report.ending == MatchEnding::Interrupted => {
                let _ = std::fs::remove_dir_all(dir);
                Ok(Judged::Stopped)
            }
            // A built-in opponent's chombo is the referee's bug and a host fault is the
            // host's: neither is a verdict on the bot. None is recorded; the version is
            // validated again at the next start.
            Ok(outcome) if outcome.builtin_fault.is_some() => {
                let _ = std::fs::remove_dir_all(dir);
                let fault = outcome.builtin_fault.map(|f| f.to_string()).unwrap_or_default();
                anyhow::bail!("{fault}; no verdict recorded");
            }
            Err(e) if !e.chain().any(|c| c.is::<BotRefused>()) => {
                let _ = std::fs::remove_dir_all(dir);
                Err(e.context("the validation game could not be played (not the bot's fault): no verdict recorded; validated again at the next start"))
            }
            Ok(outcome) => {
                let verdict = validation_verdict(&outcome.report, seats, judging);
                let shown = verdict.as_ref().err().map_or(seats[0], |(seat, _)| *seat);
                Ok(Judged::Verdict(read_files(game_dir, shown)?, verdict.map_err(|(_, reason)| reason)))
            }
            Err(e) => Ok(Judged::Verdict(empty_files(), Err(format!("the validation game could not start: {e:#}")))),
        }
    }
}

/// `text` on one line of at most 500 characters (a reason shown to the author).
pub(super) fn one_line(text: &str) -> String {
    let line: String = text.replace(['\n', '\r'], " ");
    line.chars().take(500).collect()
}

/// No files: a game that could not start.
fn empty_files() -> ValidationFiles {
    ValidationFiles { log_gz: Vec::new(), stderr: String::new(), summary: String::new(), errors: "[]".into() }
}

/// The stored form of a validation game's folder: the log gzipped, the stderr tail of the
/// bot in `seat`.
fn read_files(dir: &Path, seat: usize) -> anyhow::Result<ValidationFiles> {
    let log = std::fs::read(dir.join("mjai_log.json")).unwrap_or_default();
    let stderr = std::fs::read(stderr_path_in(dir, seat as u8)).unwrap_or_default();
    let tail = &stderr[stderr.len().saturating_sub(STDERR_KEPT)..];
    let text = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap_or_default();
    Ok(ValidationFiles {
        log_gz: gzip(&log)?,
        stderr: String::from_utf8_lossy(tail).into_owned(),
        summary: text("summary.json"),
        errors: text("errors.json"),
    })
}
