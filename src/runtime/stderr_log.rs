//! A bot's stderr, appended to a log file up to a cap, then one truncation marker line.
//!
//! One file holds every incarnation of a seat's bot (a game restarts all four bots after a
//! chombo): [`StderrLog::append`] opens it for appending and counts the bytes already in it
//! against the cap, so the cap holds for the whole game. Each incarnation that reaches the
//! cap appends the marker once, so the file is at most the cap plus one marker per start
//! (plus the restart lines the arena writes between incarnations).
//!
//! The writer never blocks the bot: past the cap, chunks are dropped, so the caller can
//! keep draining the bot's stderr pipe. Every chunk also goes to an in-memory
//! [`SharedTail`] (the last 20 lines, cap or not) for error reports.

use std::path::{Path, PathBuf};

use tokio::io::AsyncWriteExt;

use super::stderr_tail::SharedTail;

/// Default cap on a bot's stderr log for a whole game, in bytes: 10 MiB.
pub const DEFAULT_STDERR_CAP: u64 = 10 * 1024 * 1024;

/// The line appended once the cap is reached.
pub fn truncation_marker(cap: u64) -> String {
    format!("\n[mjai-sim: stderr truncated after {cap} bytes]\n")
}

/// A capped stderr log file.
#[derive(Debug)]
pub struct StderrLog {
    file: Option<tokio::fs::File>,
    path: PathBuf,
    written: u64,
    cap: u64,
    truncated: bool,
    tail: SharedTail,
}

impl StderrLog {
    /// Opens the log file at `path` for appending (creating it when missing), keeping the
    /// file at most `cap` bytes of stderr in all, the bytes already in it included.
    /// Errors: the file cannot be opened (the message names the path).
    pub async fn append(path: &Path, cap: u64) -> std::io::Result<StderrLog> {
        let file =
            tokio::fs::OpenOptions::new().append(true).create(true).open(path).await.map_err(|e| {
                std::io::Error::new(e.kind(), format!("cannot open stderr log {}: {e}", path.display()))
            })?;
        let written = file.metadata().await.map(|m| m.len()).unwrap_or(0);
        Ok(StderrLog {
            file: Some(file),
            path: path.to_owned(),
            written,
            cap,
            truncated: false,
            tail: SharedTail::default(),
        })
    }

    /// The in-memory tail this log feeds (clone it before moving the log into its task).
    pub fn tail(&self) -> SharedTail {
        self.tail.clone()
    }

    /// Appends a chunk, cutting it at the cap and writing the marker once. A write
    /// failure stops logging (reported once through `tracing`), never the bot.
    pub async fn write(&mut self, chunk: &[u8]) {
        self.tail.push(chunk);
        let Some(file) = self.file.as_mut() else { return };
        let room = self.cap.saturating_sub(self.written) as usize;
        let keep = &chunk[..chunk.len().min(room)];
        let mut result = file.write_all(keep).await;
        self.written += keep.len() as u64;
        if keep.len() < chunk.len() && !self.truncated && result.is_ok() {
            self.truncated = true;
            result = file.write_all(truncation_marker(self.cap).as_bytes()).await;
        }
        if let Err(e) = result {
            tracing::warn!("stderr log {} stopped: {e}", self.path.display());
            self.file = None;
        }
    }

    /// Flushes buffered bytes to the file.
    pub async fn flush(&mut self) {
        if let Some(file) = self.file.as_mut() {
            let _ = file.flush().await;
        }
    }

    /// Whether this incarnation reached the cap.
    pub fn truncated(&self) -> bool {
        self.truncated
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_second_incarnation_appends_under_the_same_cap() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("player_logs.0.stderr.txt");
        let mut first = StderrLog::append(&path, 10).await.unwrap();
        first.write(b"Traceback").await;
        first.flush().await;
        drop(first);
        let mut second = StderrLog::append(&path, 10).await.unwrap();
        second.write(b"abcdef").await;
        second.write(b"more").await;
        second.flush().await;
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text, format!("Tracebacka{}", truncation_marker(10)), "the first bot's stderr is kept");
        assert_eq!(second.tail().lines(), vec!["abcdefmore"], "the tail goes on past the cap");
    }
}
