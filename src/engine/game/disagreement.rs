//! Where the engine and an mjai log part ways: [`Disagreement`], the log's 0-based event
//! index and a one-line reason. The replay (`replay`), its guard (`replay_guard`) and the
//! reading of a log's walls (`shown`) all report this one error; `replay` re-exports it
//! (`game::replay::Disagreement`).

use std::fmt;

/// The first place where the engine and the log part ways.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Disagreement {
    /// 0-based index of the log event concerned (line number - 1 in a `.jsonl` file).
    pub index: usize,
    /// What went wrong, one line.
    pub reason: String,
}

impl fmt::Display for Disagreement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "log line {}: {}", self.index + 1, self.reason)
    }
}

impl std::error::Error for Disagreement {}

/// A [`Disagreement`] at `log[index]` for `reason`.
pub(super) fn at(index: usize, reason: impl Into<String>) -> Disagreement {
    Disagreement { index, reason: reason.into() }
}
