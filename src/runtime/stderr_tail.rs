//! The last lines a bot wrote to stderr, kept in memory (pure, no I/O) so that an error
//! entry can show them (`errors.json`'s `stderr_tail`) even when the stderr log file has
//! reached its cap.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

/// Lines kept: the last 20 (the issue's "last ≤ 20 stderr lines").
pub const TAIL_LINES: usize = 20;
/// Longest line kept, in bytes (longer lines are cut on a character boundary): 1 KiB.
pub const TAIL_LINE_BYTES: usize = 1024;

/// The last [`TAIL_LINES`] complete lines and the line being written.
#[derive(Debug, Default, Clone)]
pub struct Tail {
    lines: VecDeque<String>,
    partial: Vec<u8>,
}

impl Tail {
    /// Appends a chunk of stderr (any bytes; invalid UTF-8 is replaced).
    pub fn push(&mut self, chunk: &[u8]) {
        let mut rest = chunk;
        while let Some(end) = rest.iter().position(|&b| b == b'\n') {
            self.keep_partial(&rest[..end]);
            let line = std::mem::take(&mut self.partial);
            self.lines.push_back(to_line(&line));
            if self.lines.len() > TAIL_LINES {
                self.lines.pop_front();
            }
            rest = &rest[end + 1..];
        }
        self.keep_partial(rest);
    }

    /// Buffers the start of a line, at most [`TAIL_LINE_BYTES`] (plus one character).
    fn keep_partial(&mut self, bytes: &[u8]) {
        let room = (TAIL_LINE_BYTES + 4).saturating_sub(self.partial.len());
        self.partial.extend_from_slice(&bytes[..bytes.len().min(room)]);
    }

    /// The last lines, oldest first: at most [`TAIL_LINES`], the unfinished last line
    /// included (a traceback cut by a crash still shows).
    pub fn lines(&self) -> Vec<String> {
        let mut out: Vec<String> = self.lines.iter().cloned().collect();
        if !self.partial.is_empty() {
            out.push(to_line(&self.partial));
            if out.len() > TAIL_LINES {
                out.remove(0);
            }
        }
        out
    }
}

/// A line without its `\r`, lossily decoded, cut to [`TAIL_LINE_BYTES`].
fn to_line(bytes: &[u8]) -> String {
    let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    let text = String::from_utf8_lossy(bytes);
    if text.len() <= TAIL_LINE_BYTES {
        return text.into_owned();
    }
    let mut end = TAIL_LINE_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].to_string()
}

/// A [`Tail`] shared between the task draining a bot's stderr and the bot's handle.
#[derive(Debug, Default, Clone)]
pub struct SharedTail(Arc<Mutex<Tail>>);

impl SharedTail {
    /// Appends a chunk.
    pub fn push(&self, chunk: &[u8]) {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).push(chunk);
    }

    /// The last lines (see [`Tail::lines`]).
    pub fn lines(&self) -> Vec<String> {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).lines()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_last_twenty_lines_across_chunks() {
        let mut tail = Tail::default();
        for i in 0..30 {
            tail.push(format!("line {i}\n").as_bytes());
        }
        tail.push(b"Traceback (most re");
        tail.push(b"cent call last):\r\n  File \"bot.py\"");
        let lines = tail.lines();
        assert_eq!(lines.len(), 20);
        assert_eq!(lines[0], "line 12");
        assert_eq!(lines[18], "Traceback (most recent call last):");
        assert_eq!(lines[19], "  File \"bot.py\"", "the unfinished line is shown");
    }

    #[test]
    fn long_lines_are_cut_and_bad_utf8_replaced() {
        let mut tail = Tail::default();
        tail.push(&vec![b'x'; 100_000]);
        tail.push(b"\n\xff\n");
        let lines = tail.lines();
        assert_eq!(lines[0].len(), TAIL_LINE_BYTES);
        assert_eq!(lines[1], "\u{fffd}");
    }
}
