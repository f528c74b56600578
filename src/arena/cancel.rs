//! Cancellation without signals: a [`Cancel`] handle whose [`CancelToken`]s every game,
//! tournament run and server loop takes as its `stop`. The library never installs signal
//! handlers; the binary's `Shutdown` (src/cli) owns a [`Cancel`] and fires it on SIGINT or
//! SIGTERM, a server fires it on its own shutdown, a test fires it by hand.
//!
//! ```
//! let cancel = mjai_sim::arena::cancel::Cancel::new();
//! let token = cancel.token(); // give one to each game or run
//! assert!(!*token.borrow());
//! cancel.cancel();
//! assert!(*token.borrow() && cancel.is_cancelled());
//! ```

use tokio::sync::watch;

/// The stop side every run takes: `true` once cancelled (await `changed()` to wait for it).
pub type CancelToken = watch::Receiver<bool>;

/// A cancellation handle; clones share it.
#[derive(Debug, Clone)]
pub struct Cancel {
    tx: std::sync::Arc<watch::Sender<bool>>,
}

impl Default for Cancel {
    fn default() -> Cancel {
        Cancel::new()
    }
}

impl Cancel {
    /// A handle not yet cancelled.
    pub fn new() -> Cancel {
        Cancel { tx: std::sync::Arc::new(watch::channel(false).0) }
    }

    /// A token that turns `true` when [`Cancel::cancel`] is called (at once if it was).
    pub fn token(&self) -> CancelToken {
        self.tx.subscribe()
    }

    /// Cancels: runs holding a token stop their games (bots stopped, containers removed,
    /// unfinished games given back) and return. Idempotent.
    pub fn cancel(&self) {
        self.tx.send_replace(true);
    }

    /// Whether [`Cancel::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        *self.tx.borrow()
    }
}
