//! Local child-process runtime: `python3 -u bot.py SEAT` in a temporary folder holding the
//! unpacked submission. For bot authors without Docker; NOT sandboxed (the bot runs with
//! the user's rights and network).
//!
//! The bot runs in its own process group; [`Bot::stop`] sends SIGKILL to the whole group,
//! so a bot that ignores SIGTERM or forks helpers is still gone. Stderr goes to a capped
//! log file ([`StderrLog`]).

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Stdio};
use std::time::Duration;

use futures_util::future::BoxFuture;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio::time::Instant;

use super::bounded::{join_or_abort, until, within, DRAIN_GRACE};
use super::line::{LineBuffer, DEFAULT_LINE_LIMIT};
use super::stderr_log::{StderrLog, DEFAULT_STDERR_CAP};
use super::stderr_tail::SharedTail;
use super::submission::Submission;
use super::{Bot, BotError, Offer};

/// How long to wait for the process to end once its stdout closed, before calling the
/// bot [`BotError::Closed`] rather than [`BotError::Crashed`].
const EXIT_GRACE: Duration = Duration::from_millis(500);

/// Settings of the process runtime.
#[derive(Debug, Clone)]
pub struct ProcessOptions {
    /// Python interpreter (looked up on PATH when relative). Default `python3`.
    pub python: PathBuf,
    /// Longest answer line, in bytes. Default 1 MiB.
    pub line_limit: usize,
    /// Cap of the stderr log, in bytes. Default 10 MiB.
    pub stderr_cap: u64,
    /// Start `bot.py --batch` (one process serving many table-seats,
    /// [`super::batch`]) instead of `bot.py SEAT`. Default false.
    pub batch: bool,
}

impl Default for ProcessOptions {
    fn default() -> Self {
        ProcessOptions {
            python: "python3".into(),
            line_limit: DEFAULT_LINE_LIMIT,
            stderr_cap: DEFAULT_STDERR_CAP,
            batch: false,
        }
    }
}

/// Writes `mjai_sim.batch` ([`super::batch::BATCH_PY`]) under `dir/.mjai-sim-python` for
/// the bot to import, as bot images have it; returns that folder (for `PYTHONPATH`).
fn batch_module(dir: &Path) -> std::io::Result<PathBuf> {
    let root = dir.join(".mjai-sim-python");
    let package = root.join("mjai_sim");
    std::fs::create_dir_all(&package)?;
    std::fs::write(package.join("__init__.py"), "")?;
    std::fs::write(package.join("batch.py"), super::batch::BATCH_PY)?;
    Ok(root)
}

/// A bot running as a local child process.
pub struct ProcessBot {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: ChildStdout,
    lines: LineBuffer,
    stderr_task: Option<tokio::task::JoinHandle<()>>,
    exit: Option<ExitStatus>,
    /// The bot's process group (its own pid): every process it forks stays in it.
    pgid: Option<i32>,
    tail: SharedTail,
    _dir: Option<tempfile::TempDir>,
}

impl ProcessBot {
    /// Unpacks `submission` into a fresh temporary folder and starts `python3 -u bot.py SEAT`
    /// there; the bot is ready when this returns (its process is running).
    ///
    /// Errors (one line, naming the fix): the folder cannot be written, the stderr log
    /// cannot be created, the interpreter cannot be started.
    pub async fn start(
        submission: &Submission,
        seat: u8,
        stderr_log: &Path,
        options: &ProcessOptions,
    ) -> anyhow::Result<ProcessBot> {
        let dir = tempfile::Builder::new().prefix("mjai-sim-bot-").tempdir()?;
        submission
            .unpack_into(dir.path())
            .map_err(|e| anyhow::anyhow!("seat {seat}: cannot unpack the bot into {}: {e}", dir.path().display()))?;
        let mut command = Command::new(&options.python);
        let role = if options.batch { "--batch".to_string() } else { seat.to_string() };
        command.args(["-u", "bot.py", &role]).current_dir(dir.path());
        // as in the bot images, any bot may import mjai_sim.batch (batched or not: `main`
        // plays one seat too)
        let path =
            batch_module(dir.path()).map_err(|e| anyhow::anyhow!("cannot write mjai_sim.batch beside the bot: {e}"))?;
        let mut paths = vec![path];
        paths.extend(std::env::var_os("PYTHONPATH").iter().flat_map(std::env::split_paths));
        command.env("PYTHONPATH", std::env::join_paths(paths)?);
        let python = options.python.display().to_string();
        let failed =
            move |e: &std::io::Error| format!("{python} ({e}); install Python 3 or pass the interpreter's path");
        // bounded: starting a local process (spawn waits on nothing the bot controls).
        ProcessBot::spawn(command, Some(dir), seat, &failed, stderr_log, options).await
    }

    /// Starts `program ARGS... SEAT` in the current folder (any program speaking mjai lines
    /// on its stdio; `mjai-sim connect -- COMMAND`). Errors as [`ProcessBot::start`].
    pub async fn start_command(
        program: &OsStr,
        args: &[OsString],
        seat: u8,
        stderr_log: &Path,
        options: &ProcessOptions,
    ) -> anyhow::Result<ProcessBot> {
        let mut command = Command::new(program);
        command.args(args).arg(seat.to_string());
        let name = program.to_string_lossy().into_owned();
        let failed = move |e: &std::io::Error| format!("{name} ({e}); check the command after --");
        // bounded: starting a local process (spawn waits on nothing the bot controls).
        ProcessBot::spawn(command, None, seat, &failed, stderr_log, options).await
    }

    async fn spawn(
        mut command: Command,
        dir: Option<tempfile::TempDir>,
        seat: u8,
        failed: &(dyn Fn(&std::io::Error) -> String + Send + Sync),
        stderr_log: &Path,
        options: &ProcessOptions,
    ) -> anyhow::Result<ProcessBot> {
        let mut log = StderrLog::append(stderr_log, options.stderr_cap).await?; // bounded: a local file.
        let tail = log.tail();
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| anyhow::anyhow!("seat {seat}: cannot start {}", failed(&e)))?;
        let (Some(stdin), Some(stdout), Some(mut stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            anyhow::bail!("seat {seat}: the bot's pipes were not created");
        };
        let stderr_task = tokio::spawn(async move {
            let mut buf = vec![0u8; 64 * 1024];
            // bounded: ends with the bot's process group; stop_inner aborts it after DRAIN_GRACE.
            while let Ok(n) = stderr.read(&mut buf).await {
                if n == 0 {
                    break;
                }
                log.write(&buf[..n]).await; // bounded: a local file.
            }
            log.flush().await; // bounded: a local file.
        });
        let pgid = child.id().map(|pid| pid as i32);
        Ok(ProcessBot {
            child,
            stdin: Some(stdin),
            stdout,
            lines: LineBuffer::new(options.line_limit),
            stderr_task: Some(stderr_task),
            exit: None,
            pgid,
            tail,
            _dir: dir,
        })
    }

    /// The OS process id, while running.
    pub fn pid(&self) -> Option<u32> {
        self.child.id()
    }

    async fn exchange_inner(&mut self, line: &str, timeout: Duration) -> Result<String, BotError> {
        let deadline = Instant::now() + timeout;
        let timed_out = || BotError::Timeout(timeout.as_secs_f64());
        let dropped = self.lines.discard_complete_lines();
        if dropped > 0 {
            tracing::warn!("bot printed {dropped} unrequested line(s); dropped");
        }
        let Some(stdin) = self.stdin.as_mut() else { return Err(self.ended().await) }; // bounded: EXIT_GRACE.
        let mut message = Vec::with_capacity(line.len() + 1);
        message.extend_from_slice(line.as_bytes());
        message.push(b'\n');
        match until(deadline, "writing a line", stdin.write_all(&message)).await {
            Err(_) => return Err(timed_out()),
            Ok(Err(_)) => return Err(self.ended().await), // bounded: EXIT_GRACE.
            Ok(Ok(())) => {}
        }
        // Owed until its line is read, also when this request times out (the bot keeps
        // running under a clock that forgives timeouts: its late answer is skipped).
        self.lines.expect_answer();
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            if let Some(answer) = self.lines.take_answer()? {
                return Ok(answer);
            }
            match until(deadline, "reading an answer", self.stdout.read(&mut buf)).await {
                Err(_) => return Err(timed_out()),
                Ok(Ok(0)) | Ok(Err(_)) => return Err(self.ended().await), // bounded: EXIT_GRACE.
                Ok(Ok(n)) => self.lines.push(&buf[..n]),
            }
        }
    }

    /// Why stdout ended: the process exited (Crashed) or only closed its output (Closed).
    /// Once the process has exited, waits (at most [`EXIT_GRACE`]) until its stderr is
    /// drained, so the tail and the log hold its last words (a traceback).
    async fn ended(&mut self) -> BotError {
        if self.exit.is_none() {
            if let Ok(Ok(status)) = within(EXIT_GRACE, "waiting for the exit", self.child.wait()).await {
                self.exit = Some(status);
            }
        }
        if let (Some(_), Some(task)) = (self.exit, self.stderr_task.as_mut()) {
            if within(EXIT_GRACE, "draining stderr", task).await.is_ok() {
                self.stderr_task = None;
            }
        }
        match self.exit {
            Some(status) => BotError::Crashed(describe_exit(status)),
            None => BotError::Closed,
        }
    }

    async fn stop_inner(&mut self) {
        self.stdin = None;
        // The whole group goes, also when the bot itself already exited but left children.
        if let Some(pgid) = self.pgid {
            // SAFETY: kill(2) with a negative pid signals the process group we created with
            // process_group(0); no memory is touched.
            unsafe {
                libc::kill(-pgid, libc::SIGKILL);
            }
        }
        if self.exit.is_none() {
            let _ = self.child.start_kill();
            if let Ok(Ok(status)) = within(EXIT_GRACE, "waiting for the exit", self.child.wait()).await {
                self.exit = Some(status);
            }
        }
        if let Some(pgid) = self.pgid.take() {
            wait_for_group_gone(pgid).await; // bounded: 2 s inside.
        }
        if let Some(mut task) = self.stderr_task.take() {
            // A helper that left the group (setsid) may hold stderr open: not waited for.
            join_or_abort(&mut task, DRAIN_GRACE, "draining stderr").await;
        }
    }
}

/// Waits (at most 2 s) until no process of group `pgid` is left but zombies awaiting their
/// new parent: SIGKILL is delivered asynchronously, so forked children may still be running
/// for a moment after the signal.
async fn wait_for_group_gone(pgid: i32) {
    let deadline = Instant::now() + Duration::from_secs(2);
    while group_has_live_members(pgid) && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(2)).await; // bounded: until the deadline.
    }
}

/// True while some process of group `pgid` is running (zombies do not count). Reads /proc;
/// where /proc is missing, falls back to kill(2)'s answer.
fn group_has_live_members(pgid: i32) -> bool {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        // SAFETY: signal 0 only checks for existence; no memory is touched.
        return unsafe { libc::kill(-pgid, 0) } == 0;
    };
    entries.flatten().any(|e| {
        let Ok(stat) = std::fs::read_to_string(e.path().join("stat")) else { return false };
        // Fields after the command name: state ppid pgrp ...
        let mut rest = stat.rsplit_once(')').map(|(_, r)| r.split_whitespace()).into_iter().flatten();
        let state = rest.next();
        let _ppid = rest.next();
        rest.next().and_then(|g| g.parse::<i32>().ok()) == Some(pgid) && state != Some("Z")
    })
}

/// "exit code 1" or "killed by signal 9 (SIGKILL)".
pub fn describe_exit(status: ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exit code {code}"),
        (None, Some(sig)) => format!("killed by signal {sig}{}", signal_name(sig)),
        (None, None) => "ended".to_string(),
    }
}

/// " (SIGKILL)" for well-known signals, "" otherwise.
pub fn signal_name(sig: i32) -> &'static str {
    match sig {
        libc::SIGKILL => " (SIGKILL)",
        libc::SIGTERM => " (SIGTERM)",
        libc::SIGSEGV => " (SIGSEGV)",
        libc::SIGABRT => " (SIGABRT)",
        libc::SIGINT => " (SIGINT)",
        libc::SIGBUS => " (SIGBUS)",
        _ => "",
    }
}

impl Drop for ProcessBot {
    /// A bot dropped without [`Bot::stop`] (its game was cancelled by a watchdog or a
    /// panic) takes its whole process group with it, not only its first process.
    fn drop(&mut self) {
        if let Some(pgid) = self.pgid.take() {
            // SAFETY: as in stop_inner: signals our own process group, touches no memory.
            unsafe {
                libc::kill(-pgid, libc::SIGKILL);
            }
        }
    }
}

impl Bot for ProcessBot {
    /// Computes its own options from the events: the referee's legal set is not needed.
    fn offer(&mut self, _offer: &Offer<'_>) {}

    fn exchange<'a>(&'a mut self, line: &'a str, timeout: Duration) -> BoxFuture<'a, Result<String, BotError>> {
        Box::pin(self.exchange_inner(line, timeout))
    }

    fn stop(&mut self) -> BoxFuture<'_, ()> {
        Box::pin(self.stop_inner())
    }

    fn stderr_tail(&self) -> Vec<String> {
        self.tail.lines()
    }
}
