//! Splitting a bot's stdout into answer lines, with a length cap (pure, no I/O).
//!
//! Both runtimes push the raw stdout chunks they receive and take whole lines out. A line
//! longer than the cap is an error as soon as the cap is passed, so a bot cannot make the
//! referee buffer without bound.
//!
//! The buffer also counts the answers the bot owes: one per line written to it
//! ([`LineBuffer::expect_answer`]), paid by each line it prints. A request that timed out
//! leaves its answer owed; when it comes (late: the bot was not restarted, as under
//! riichi.dev's clock) it is skipped, never taken as the answer to a later request
//! ([`LineBuffer::take_answer`], [`LineBuffer::discard_complete_lines`]).

use super::BotError;

/// Longest accepted answer line, in bytes, without its newline: 1 MiB.
pub const DEFAULT_LINE_LIMIT: usize = 1024 * 1024;

/// Bytes received from a bot's stdout, not yet returned as lines.
#[derive(Debug, Default)]
pub struct LineBuffer {
    buf: Vec<u8>,
    limit: usize,
    /// Answers owed: lines written to the bot whose answer has not been read.
    owed: usize,
}

impl LineBuffer {
    /// An empty buffer accepting lines of at most `limit` bytes.
    pub fn new(limit: usize) -> LineBuffer {
        LineBuffer { buf: Vec::new(), limit, owed: 0 }
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

    /// Drops every complete line still buffered, before a new request is written: late
    /// answers to earlier requests (each pays one owed answer) and lines nobody asked for;
    /// neither may be taken as the answer to the next request. Returns how many of the
    /// dropped lines were unrequested (beyond the answers owed).
    pub fn discard_complete_lines(&mut self) -> usize {
        let dropped = match self.buf.iter().rposition(|&b| b == b'\n') {
            Some(last) => {
                let dropped = self.buf[..=last].iter().filter(|&&b| b == b'\n').count();
                self.buf.drain(..=last);
                dropped
            }
            None => 0,
        };
        let late = dropped.min(self.owed);
        self.owed -= late;
        dropped - late
    }

    /// Records that a line was written to the bot: one more answer owed. Call it once the
    /// whole line is written.
    pub fn expect_answer(&mut self) {
        self.owed += 1;
    }

    /// Answers owed: lines written whose answer has not been read yet (more than one after
    /// a request timed out and another was written).
    pub fn owed(&self) -> usize {
        self.owed
    }

    /// Removes and returns the answer to the last line written, skipping the late answers
    /// to earlier lines still owed (each complete line pays one). `Ok(None)`: not here yet.
    /// Errors as [`LineBuffer::take_line`]; a late answer that is not UTF-8 is skipped too.
    pub fn take_answer(&mut self) -> Result<Option<String>, BotError> {
        loop {
            let line = match self.take_line() {
                Ok(Some(line)) => line,
                Ok(None) => return Ok(None),
                Err(BotError::InvalidUtf8) if self.owed > 1 => {
                    self.owed -= 1;
                    continue;
                }
                Err(e) => {
                    self.owed = self.owed.saturating_sub(1);
                    return Err(e);
                }
            };
            if self.owed > 1 {
                self.owed -= 1;
                tracing::debug!("a late answer to an earlier request skipped");
                continue;
            }
            self.owed = 0;
            return Ok(Some(line));
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
    fn a_late_answer_is_skipped_whether_it_arrives_before_or_after_the_next_request() {
        // after the next request is written: the first line pays the old request
        let mut b = LineBuffer::new(100);
        b.expect_answer(); // request 1, timed out
        b.expect_answer(); // request 2
        assert_eq!(b.owed(), 2);
        b.push(b"late1\nfre");
        assert_eq!(b.take_answer().unwrap(), None, "the late line is skipped, the fresh one is not whole");
        b.push(b"sh2\n");
        assert_eq!(b.take_answer().unwrap().as_deref(), Some("fresh2"));
        assert_eq!(b.owed(), 0);

        // before it: dropped with the buffered lines, not counted as unrequested
        let mut b = LineBuffer::new(100);
        b.expect_answer(); // request 1, timed out
        b.push(b"late1\n");
        assert_eq!(b.discard_complete_lines(), 0, "a late answer is owed, not unrequested");
        assert_eq!(b.owed(), 0);
        b.expect_answer(); // request 2
        b.push(b"fresh2\n");
        assert_eq!(b.take_answer().unwrap().as_deref(), Some("fresh2"));
    }

    #[test]
    fn an_unparsable_late_answer_is_skipped_but_the_answers_errors_are_not() {
        let mut b = LineBuffer::new(100);
        b.expect_answer();
        b.expect_answer();
        b.push(b"\xff\nok\n");
        assert_eq!(b.take_answer().unwrap().as_deref(), Some("ok"));
        b.expect_answer();
        b.push(b"\xff\n");
        assert_eq!(b.take_answer(), Err(BotError::InvalidUtf8));
    }

    #[test]
    fn unrequested_lines_beyond_the_owed_answers_are_counted() {
        let mut b = LineBuffer::new(100);
        b.expect_answer();
        b.push(b"late\nextra1\nextra2\n");
        assert_eq!(b.discard_complete_lines(), 2);
        assert_eq!(b.owed(), 0);
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
