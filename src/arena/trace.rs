//! A game's trace for disputes (issue 54): every line each seat was sent and what it
//! answered, in order, each with the time it took, a request that went unanswered (a
//! timeout, a closed connection) recorded with why. `trace.jsonl` in the game's folder, one
//! JSON object per exchange:
//!
//! ```text
//! {"seat":1,"at_ms":5123,"ms":12.4,"sent":"[{\"type\":\"tsumo\",...}]","answer":"{\"type\":\"dahai\",...}"}
//! {"seat":2,"at_ms":9001,"ms":2000.0,"sent":"[...]","answer":null,"error":"timeout","reason":"no answer within 2 s"}
//! ```
//!
//! `at_ms`: when the request was written, ms from the game's start; `ms`: from the request
//! to the answer (or the failure). What riichi.dev's dialect seats were sent is traced as the
//! mjai lines the referee exchanged with the seat, not the dialect's own messages.
//!
//! Built-in bots' seats are not traced ([`TraceFile::skipping`]); a game of built-ins only
//! has no trace.
//!
//! A game's trace is bounded by [`TRACE_CAP`] bytes: past it, one line
//! `{"truncated":true,"after_bytes":N}` and nothing more. Lines are buffered and written
//! out by [`TraceFile::finish`] at the game's end (a game cut short is played again, and
//! its trace with it), so that tracing costs a game little.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::Serialize;

use mjai_sim_engine::event::Seat;
use mjai_sim_runtime::BotError;

use super::observer::GameObserver;

/// Most bytes one game's trace holds (uncompressed): 16 MiB, about ten times a hanchan's.
pub const TRACE_CAP: u64 = 16 * 1024 * 1024;

/// The trace's file name in a game's folder.
pub const TRACE_FILE: &str = "trace.jsonl";

/// One exchange as a line of the trace (keys in this order).
#[derive(Serialize)]
struct Entry<'a> {
    seat: Seat,
    at_ms: u64,
    ms: f64,
    sent: &'a str,
    /// `null` when unanswered.
    answer: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
}

/// The line ending a trace cut at its cap.
#[derive(Serialize)]
struct Truncated {
    truncated: bool,
    after_bytes: u64,
}

/// Writes a game's `trace.jsonl` (module docs).
pub struct TraceFile {
    path: PathBuf,
    file: BufWriter<File>,
    written: u64,
    cap: u64,
    start: Instant,
    /// Seats not traced ([`TraceFile::skipping`]).
    untraced: Vec<Seat>,
}

impl TraceFile {
    /// Creates `dir/trace.jsonl` (replacing one of an earlier game), capped at [`TRACE_CAP`].
    /// Errors: the file cannot be created (the message names it).
    pub fn create(dir: &Path) -> io::Result<TraceFile> {
        TraceFile::with_cap(dir, TRACE_CAP)
    }

    /// [`TraceFile::create`] capped at `cap` bytes.
    pub fn with_cap(dir: &Path, cap: u64) -> io::Result<TraceFile> {
        let path = dir.join(TRACE_FILE);
        let file = File::create(&path).map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
        let file = BufWriter::with_capacity(256 * 1024, file);
        Ok(TraceFile { path, file, written: 0, cap, start: Instant::now(), untraced: Vec::new() })
    }

    /// This trace without `seats`' exchanges: the seats of built-in bots, which never err
    /// (a built-in's chombo is the referee's bug, failed for good) and are nobody's to
    /// dispute, so that a table of built-ins costs no trace.
    pub fn skipping(mut self, seats: impl IntoIterator<Item = Seat>) -> TraceFile {
        self.untraced.extend(seats);
        self
    }

    /// Writes out what is buffered. Errors: the disk's (the message names the file).
    pub fn finish(mut self) -> io::Result<()> {
        let path = self.path.clone();
        self.file.flush().map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))
    }

    /// The file written.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl GameObserver for TraceFile {
    fn on_exchange(
        &mut self,
        seat: Seat,
        sent: &str,
        answer: Result<&str, &BotError>,
        elapsed: Duration,
    ) -> io::Result<()> {
        if self.written > self.cap || self.untraced.contains(&seat) {
            return Ok(());
        }
        let entry = Entry {
            seat,
            at_ms: self.start.elapsed().saturating_sub(elapsed).as_millis() as u64,
            ms: (elapsed.as_secs_f64() * 10_000.0).round() / 10.0,
            sent,
            answer: answer.ok(),
            error: answer.err().map(BotError::kind),
            reason: answer.err().map(BotError::to_string),
        };
        let line = serde_json::to_string(&entry).map_err(io::Error::other)? + "\n";
        let size = line.len() as u64;
        if self.written + size > self.cap {
            self.written = self.cap + 1;
            let marker = serde_json::to_string(&Truncated { truncated: true, after_bytes: self.cap })
                .map_err(io::Error::other)?
                + "\n";
            self.file.write_all(marker.as_bytes())?;
        } else {
            self.written += size;
            self.file.write_all(line.as_bytes())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(path: &Path) -> Vec<serde_json::Value> {
        std::fs::read_to_string(path).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
    }

    #[test]
    fn answers_and_timeouts_are_traced_and_the_cap_holds_from_both_sides() {
        let dir = tempfile::tempdir().unwrap();
        let mut trace = TraceFile::create(dir.path()).unwrap();
        trace.on_exchange(1, "[{\"type\":\"tsumo\"}]", Ok("{\"type\":\"none\"}"), Duration::from_millis(12)).unwrap();
        let timeout = BotError::Timeout(2.0);
        trace.on_exchange(2, "[]", Err(&timeout), Duration::from_secs(2)).unwrap();
        let path = trace.path().to_path_buf();
        trace.finish().unwrap();
        let got = lines(&path);
        assert_eq!(got.len(), 2);
        assert_eq!((got[0]["seat"].as_u64(), got[0]["ms"].as_f64()), (Some(1), Some(12.0)));
        assert_eq!(got[0]["sent"], "[{\"type\":\"tsumo\"}]");
        assert_eq!(got[0]["answer"], "{\"type\":\"none\"}");
        assert!(got[1]["answer"].is_null() && got[1]["error"] == "timeout", "{}", got[1]);

        // a skipped seat (a built-in's) leaves no line
        let dir = tempfile::tempdir().unwrap();
        let mut some = TraceFile::create(dir.path()).unwrap().skipping([0, 2]);
        for seat in 0..4 {
            some.on_exchange(seat, "[]", Ok("{\"type\":\"none\"}"), Duration::from_millis(1)).unwrap();
        }
        let path = some.path().to_path_buf();
        some.finish().unwrap();
        let seats: Vec<u64> = lines(&path).iter().map(|l| l["seat"].as_u64().unwrap()).collect();
        assert_eq!(seats, [1, 3]);

        // a line that just fits is kept; the next one over the cap is replaced by the marker
        let one = |seat| {
            serde_json::json!({"seat": seat, "at_ms": 0, "ms": 1.0, "sent": "x", "answer": "y"}).to_string().len()
                as u64
                + 1
        };
        let dir = tempfile::tempdir().unwrap();
        let mut small = TraceFile::with_cap(dir.path(), one(0)).unwrap();
        small.start = Instant::now() + Duration::from_secs(3600); // at_ms 0
        small.on_exchange(0, "x", Ok("y"), Duration::from_millis(1)).unwrap();
        small.on_exchange(0, "x", Ok("y"), Duration::from_millis(1)).unwrap();
        small.on_exchange(0, "x", Ok("y"), Duration::from_millis(1)).unwrap();
        let path = small.path().to_path_buf();
        small.finish().unwrap();
        let got = lines(&path);
        assert_eq!(got.len(), 2, "{got:?}");
        assert_eq!(got[0]["answer"], "y");
        assert_eq!(got[1]["truncated"], true);
    }
}
