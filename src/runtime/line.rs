//! Splitting a bot's stdout into answer lines, with a length cap (pure, no I/O).
//!
//! Both runtimes push the raw stdout chunks they receive and take whole lines out. A line
//! longer than the cap is an error as soon as the cap is passed, so a bot cannot make the
//! referee buffer without bound.

use super::BotError;

/// Longest accepted answer line, in bytes, without its newline: 1 MiB.
pub const DEFAULT_LINE_LIMIT: usize = 1024 * 1024;

/// Bytes received from a bot's stdout, not yet returned as lines.
#[derive(Debug, Default)]
pub struct LineBuffer {
    buf: Vec<u8>,
    limit: usize,
}

impl LineBuffer {
    /// An empty buffer accepting lines of at most `limit` bytes.
    pub fn new(limit: usize) -> LineBuffer {
        LineBuffer { buf: Vec::new(), limit }
    }

    /// Appends a chunk of stdout.
    pub fn push(&mut self, chunk: &[u8]) {
        self.buf.extend_from_slice(chunk);
    }

    /// Removes and returns the first complete line (without `\n` or `\r\n`).
    ///
    /// `Ok(None)`: no complete line yet. Errors: [`BotError::Oversized`] when the first line
    /// is (or has already grown) longer than the limit, [`BotError::InvalidUtf8`].
    pub fn take_line(&mut self) -> Result<Option<String>, BotError> {
        let Some(end) = self.buf.iter().position(|&b| b == b'\n') else {
            if self.buf.len() > self.limit {
                self.buf.clear();
                return Err(BotError::Oversized(self.limit));
            }
            return Ok(None);
        };
        let mut line: Vec<u8> = self.buf.drain(..=end).collect();
        line.pop();
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        if line.len() > self.limit {
            return Err(BotError::Oversized(self.limit));
        }
        String::from_utf8(line).map(Some).map_err(|_| BotError::InvalidUtf8)
    }

    /// Drops every complete line still buffered (answers nobody asked for, which must not
    /// be taken as the answer to the next request); returns how many were dropped.
    pub fn discard_complete_lines(&mut self) -> usize {
        match self.buf.iter().rposition(|&b| b == b'\n') {
            Some(last) => {
                let dropped = self.buf[..=last].iter().filter(|&&b| b == b'\n').count();
                self.buf.drain(..=last);
                dropped
            }
            None => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_come_out_whole_across_chunks() {
        let mut b = LineBuffer::new(100);
        b.push(b"{\"type\":");
        assert_eq!(b.take_line().unwrap(), None);
        b.push(b"\"none\"}\r\nnext\n");
        assert_eq!(b.take_line().unwrap().as_deref(), Some("{\"type\":\"none\"}"));
        assert_eq!(b.take_line().unwrap().as_deref(), Some("next"));
        assert_eq!(b.take_line().unwrap(), None);
    }

    #[test]
    fn oversized_without_newline_fails_early() {
        let mut b = LineBuffer::new(10);
        b.push(&[b'a'; 11]);
        assert_eq!(b.take_line(), Err(BotError::Oversized(10)));
    }

    #[test]
    fn oversized_complete_line_fails_but_limit_is_inclusive() {
        let mut b = LineBuffer::new(3);
        b.push(b"abc\nabcd\n");
        assert_eq!(b.take_line().unwrap().as_deref(), Some("abc"));
        assert_eq!(b.take_line(), Err(BotError::Oversized(3)));
    }

    #[test]
    fn invalid_utf8_is_reported() {
        let mut b = LineBuffer::new(10);
        b.push(b"\xff\xfe\n");
        assert_eq!(b.take_line(), Err(BotError::InvalidUtf8));
    }

    #[test]
    fn stale_lines_are_discarded_but_partial_line_kept() {
        let mut b = LineBuffer::new(100);
        b.push(b"old1\nold2\npar");
        assert_eq!(b.discard_complete_lines(), 2);
        b.push(b"tial\n");
        assert_eq!(b.take_line().unwrap().as_deref(), Some("partial"));
    }
}
