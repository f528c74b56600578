//! A bot's stderr, written to a log file up to a cap, then one truncation marker line.
//!
//! The writer never blocks the bot: past the cap, chunks are counted and dropped, so the
//! caller can keep draining the bot's stderr pipe.

use std::path::{Path, PathBuf};

use tokio::io::AsyncWriteExt;

/// Default cap on a bot's stderr log, in bytes: 10 MiB.
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
}

impl StderrLog {
    /// Creates (truncates) the log file at `path`, keeping at most `cap` bytes of stderr.
    /// Errors: the file cannot be created (the message names the path).
    pub async fn create(path: &Path, cap: u64) -> std::io::Result<StderrLog> {
        let file = tokio::fs::File::create(path)
            .await
            .map_err(|e| std::io::Error::new(e.kind(), format!("cannot create stderr log {}: {e}", path.display())))?;
        Ok(StderrLog { file: Some(file), path: path.to_owned(), written: 0, cap, truncated: false })
    }

    /// Appends a chunk, cutting it at the cap and writing the marker once. A write
    /// failure stops logging (reported once through `tracing`), never the bot.
    pub async fn write(&mut self, chunk: &[u8]) {
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

    /// Whether the cap was reached.
    pub fn truncated(&self) -> bool {
        self.truncated
    }
}
