//! The binary's signal handling, for every command that runs bots (one game, `check`,
//! tournaments and their workers): SIGINT (Ctrl-C) and SIGTERM are handled the same way.
//! The library never touches signals: it takes a [`CancelToken`], and this owns the
//! [`Cancel`] behind it.
//!
//! The first signal cancels: the game stops at once, every bot is stopped and every
//! container removed, the logs written so far stay, `summary.json` says `interrupted`. A
//! second signal exits at once with the same code (then `mjai-sim cleanup` removes what is
//! left). Exit codes: 128 + the signal, i.e. 130 after SIGINT and 143 after SIGTERM
//! ([`Shutdown::exit_code`]).

use std::io::Write;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::Arc;

use tokio::signal::unix::{signal, SignalKind};

use crate::arena::cancel::{Cancel, CancelToken};

/// The process's signal handling: which signal asked to stop, and the `stop` channel.
#[derive(Debug, Clone)]
pub struct Shutdown {
    cancel: Cancel,
    signal: Arc<AtomicI32>,
}

impl Shutdown {
    /// Installs the SIGINT and SIGTERM handlers (they replace the default "die at once" for
    /// the rest of the process) and returns at once. Must be called inside a tokio runtime.
    /// The first signal prints one line on stderr and sets [`Shutdown::stop`]; a second
    /// one exits the process with 128 + its number.
    ///
    /// Errors: the handlers cannot be installed (the message says so).
    pub fn install() -> std::io::Result<Shutdown> {
        Shutdown::install_saying("stopping the bots and removing their containers")
    }

    /// Like [`Shutdown::install`], printing `doing` after the first signal's name (e.g.
    /// `stopping the games and their bot processes` for a server without containers).
    pub fn install_saying(doing: &'static str) -> std::io::Result<Shutdown> {
        let wrap = |e: std::io::Error| std::io::Error::new(e.kind(), format!("cannot handle SIGINT/SIGTERM: {e}"));
        let mut int = signal(SignalKind::interrupt()).map_err(wrap)?;
        let mut term = signal(SignalKind::terminate()).map_err(wrap)?;
        let cancel = Cancel::new();
        let tx = cancel.clone();
        let received = Arc::new(AtomicI32::new(0));
        let record = received.clone();
        tokio::spawn(async move {
            for round in 0.. {
                let signo = tokio::select! {
                    _ = int.recv() => libc::SIGINT,
                    _ = term.recv() => libc::SIGTERM,
                };
                let name = if signo == libc::SIGINT { "SIGINT" } else { "SIGTERM" };
                // Stop first, then say so: stderr may be a pipe nobody reads any more (the
                // parent gone), and eprintln! would panic there, leaving the signal unheard.
                if round == 0 {
                    record.store(signo, Ordering::SeqCst);
                    tx.cancel();
                    let _ = writeln!(std::io::stderr(), "mjai-sim: {name}: {doing} (again to quit at once)");
                } else {
                    let line = "quitting now; run `mjai-sim cleanup` to remove leftovers";
                    let _ = writeln!(std::io::stderr(), "mjai-sim: {name} again: {line}");
                    std::process::exit(128 + signo);
                }
            }
        });
        Ok(Shutdown { cancel, signal: received })
    }

    /// A receiver that becomes `true` at the first signal (give one to each game).
    pub fn stop(&self) -> CancelToken {
        self.cancel.token()
    }

    /// 128 + the first signal's number (130 for SIGINT, 143 for SIGTERM), or `None`.
    pub fn exit_code(&self) -> Option<i32> {
        match self.signal.load(Ordering::SeqCst) {
            0 => None,
            signo => Some(128 + signo),
        }
    }

    /// Waits until a signal asks to stop.
    pub async fn stopped(&self) {
        self.cancel.token().cancelled().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_sigterm_sets_stop_and_gives_exit_code_143() {
        let shutdown = Shutdown::install().unwrap();
        assert_eq!(shutdown.exit_code(), None);
        // SAFETY: raise(3) sends a signal to this process; the handler above catches it.
        unsafe {
            libc::raise(libc::SIGTERM);
        }
        shutdown.stopped().await;
        assert_eq!(shutdown.exit_code(), Some(143));
    }
}
