//! The stdio transport: one JSON line each way, through the container's attach stream
//! (remote daemon) or through two FIFOs in the seat's host folder (local daemon, see
//! [`super::host_dir`]; the attach stream then carries stderr only).
//!
//! A pump task reads the multiplexed attach output: stdout chunks go to a bounded channel
//! (read by [`StdioConn::exchange`]), stderr goes to the capped log. The pump never stalls
//! on stderr, so a bot flooding stderr is drained; a bot flooding stdout unasked is held
//! back by the channel bound (and its extra lines are dropped before the next request).

use std::pin::Pin;
use std::time::Duration;

use bollard::container::LogOutput;
use bytes::Bytes;
use futures_util::{Stream, StreamExt};
use tokio::io::{AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc;
use tokio::time::Instant;

use crate::bounded::{until, within};
use crate::line::LineBuffer;
use crate::stderr_log::StderrLog;
use crate::BotError;

/// The attach output stream as bollard gives it.
pub type OutputStream = Pin<Box<dyn Stream<Item = Result<LogOutput, bollard::errors::Error>> + Send>>;

/// Chunks of stdout buffered between the pump and the exchange.
const STDOUT_CHUNKS: usize = 64;

/// Longest wait for the bot's stdin to close (a bot that stopped reading holds it full).
const CLOSE_GRACE: Duration = Duration::from_secs(1);

/// Spawns the pump. Returns the stdout receiver (closed when the stream ends: the
/// container's process exited) and the task handle (finishes after flushing the log).
/// With `keep_stdout` false (http relay), stdout is dropped.
pub fn spawn_pump(
    mut output: OutputStream,
    mut log: StderrLog,
    keep_stdout: bool,
) -> (mpsc::Receiver<Bytes>, tokio::task::JoinHandle<()>) {
    let (tx, rx) = mpsc::channel(STDOUT_CHUNKS);
    let task = tokio::spawn(async move {
        // bounded: the stream ends when the container is removed (or the task is aborted).
        while let Some(item) = output.next().await {
            match item {
                Ok(LogOutput::StdOut { message }) | Ok(LogOutput::Console { message }) => {
                    // bounded: fails at once when the receiver is closed (StdioConn::close).
                    if keep_stdout && tx.send(message).await.is_err() {
                        break;
                    }
                }
                Ok(LogOutput::StdErr { message }) => log.write(&message).await, // bounded: a local file.
                Ok(LogOutput::StdIn { .. }) => {}
                Err(e) => {
                    tracing::debug!("attach stream ended: {e}");
                    break;
                }
            }
        }
        log.flush().await; // bounded: a local file.
    });
    (rx, task)
}

/// As [`spawn_pump`] for a bot whose stdout is a FIFO (`stdout`, see
/// [`super::host_dir`]) and whose attach stream carries stderr only: stdout chunks come
/// from the FIFO, and when the attach stream ends (the process exited) what is left in the
/// FIFO is forwarded before the stdout receiver closes — as much as the channel takes
/// without waiting (the last words of a bot that exited are small; a flood is dropped:
/// this process holds the FIFO's write end too, so the FIFO never ends by itself).
pub fn spawn_fifo_pump(
    mut output: OutputStream,
    mut log: StderrLog,
    mut stdout: tokio::net::unix::pipe::Receiver,
) -> (mpsc::Receiver<Bytes>, tokio::task::JoinHandle<()>) {
    use tokio::io::AsyncReadExt;
    let (tx, rx) = mpsc::channel(STDOUT_CHUNKS);
    let task = tokio::spawn(async move {
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            tokio::select! {
                item = output.next() => match item {
                    Some(Ok(LogOutput::StdErr { message })) => log.write(&message).await, // bounded: a local file.
                    Some(Ok(_)) => {}
                    Some(Err(e)) => {
                        tracing::debug!("attach stream ended: {e}");
                        break;
                    }
                    None => break,
                },
                read = stdout.read(&mut buf) => match read {
                    Ok(n) if n > 0 => {
                        // bounded: fails at once when the receiver is closed (StdioConn::close).
                        if tx.send(Bytes::copy_from_slice(&buf[..n])).await.is_err() {
                            break;
                        }
                    }
                    _ => break,
                },
            }
        }
        // The process is gone: forward its last words (an answer written just before exit),
        // never waiting: a full channel means nobody reads them in time.
        while let Ok(n) = stdout.try_read(&mut buf) {
            if n == 0 || tx.try_send(Bytes::copy_from_slice(&buf[..n])).is_err() {
                break;
            }
        }
        log.flush().await; // bounded: a local file.
    });
    (rx, task)
}

/// The host side of one stdio conversation.
pub struct StdioConn {
    input: Pin<Box<dyn AsyncWrite + Send>>,
    stdout: mpsc::Receiver<Bytes>,
    lines: LineBuffer,
}

/// What ended an exchange early: the bot's stdout stream is over (the caller asks Docker why).
pub enum Failure {
    /// A [`BotError`] known without asking Docker (timeout, oversized, invalid UTF-8).
    Bot(BotError),
    /// The output stream ended or the input broke: the container's process is gone.
    Ended,
}

impl StdioConn {
    /// Wraps the attach input and the pump's stdout receiver; lines capped at `line_limit` bytes.
    pub fn new(input: Pin<Box<dyn AsyncWrite + Send>>, stdout: mpsc::Receiver<Bytes>, line_limit: usize) -> StdioConn {
        StdioConn { input, stdout, lines: LineBuffer::new(line_limit) }
    }

    /// Writes `line` and a newline, then waits for one answer line until `timeout` passes.
    pub async fn exchange(&mut self, line: &str, timeout: Duration) -> Result<String, Failure> {
        let deadline = Instant::now() + timeout;
        let timed_out = || Failure::Bot(BotError::Timeout(timeout.as_secs_f64()));
        // Lines that arrived unasked are not answers to this request.
        while let Ok(chunk) = self.stdout.try_recv() {
            self.lines.push(&chunk);
        }
        let dropped = self.lines.discard_complete_lines();
        if dropped > 0 {
            tracing::warn!("bot printed {dropped} unrequested line(s); dropped");
        }
        let mut message = Vec::with_capacity(line.len() + 1);
        message.extend_from_slice(line.as_bytes());
        message.push(b'\n');
        let write = async {
            self.input.write_all(&message).await?; // bounded: by until(deadline) below.
            self.input.flush().await // bounded: by until(deadline) below.
        };
        match until(deadline, "writing a line", write).await {
            Err(_) => return Err(timed_out()),
            Ok(Err(_)) => return Err(Failure::Ended),
            Ok(Ok(())) => {}
        }
        // Owed until its line is read, also when this request times out (the bot keeps
        // running under a clock that forgives timeouts: its late answer is skipped).
        self.lines.expect_answer();
        loop {
            if let Some(answer) = self.lines.take_answer().map_err(Failure::Bot)? {
                return Ok(answer);
            }
            match until(deadline, "reading an answer", self.stdout.recv()).await {
                Err(_) => return Err(timed_out()),
                Ok(None) => return Err(Failure::Ended),
                Ok(Some(chunk)) => self.lines.push(&chunk),
            }
        }
    }

    /// Ends the conversation: closes the bot's stdin (end of input; at most
    /// [`CLOSE_GRACE`], errors ignored) and the stdout receiver, so that a pump blocked on a
    /// full channel (a bot that flooded stdout) fails its send and ends.
    pub async fn close(&mut self) {
        let _ = within(CLOSE_GRACE, "closing the bot's stdin", self.input.shutdown()).await;
        self.stdout.close();
    }
}
