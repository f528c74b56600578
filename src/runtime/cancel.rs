//! Cancellation without signals, one type for the whole program: tokio-util's
//! [`CancellationToken`]. A [`Cancel`] handle gives out [`CancelToken`]s; every game,
//! tournament run, server loop and listener takes one as its `stop`. The library never
//! installs signal handlers; the binary's `Shutdown` (src/cli) owns a [`Cancel`] and fires
//! it on SIGINT or SIGTERM, a server fires it on its own shutdown, a test fires it by hand.
//!
//! ```
//! let cancel = mjai_sim_runtime::cancel::Cancel::new();
//! let token = cancel.token(); // give one to each game or run
//! assert!(!token.is_cancelled());
//! cancel.cancel();
//! assert!(token.is_cancelled() && cancel.is_cancelled());
//! ```

pub use tokio_util::sync::CancellationToken;

/// The stop side every run takes: [`CancellationToken::is_cancelled`] once cancelled,
/// [`CancellationToken::cancelled`] to wait for it. A token whose [`Cancel`] is dropped
/// without cancelling never fires.
pub type CancelToken = CancellationToken;

/// A cancellation handle; clones share it.
#[derive(Debug, Clone, Default)]
pub struct Cancel {
    token: CancellationToken,
}

impl Cancel {
    /// A handle not yet cancelled.
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// A handle cancelled when `parent` fires (at once if it has), which may also be
    /// cancelled on its own without touching `parent`: a run that stops itself on its own
    /// failure, under its caller's stop.
    pub fn child_of(parent: &CancelToken) -> Cancel {
        Cancel { token: parent.child_token() }
    }

    /// A token that fires when [`Cancel::cancel`] is called (at once if it was).
    pub fn token(&self) -> CancelToken {
        self.token.clone()
    }

    /// Cancels: runs holding a token stop their games (bots stopped, containers removed,
    /// unfinished games given back) and return. Idempotent.
    pub fn cancel(&self) {
        self.token.cancel();
    }

    /// Whether [`Cancel::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.token.is_cancelled()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_child_fires_with_its_parent_and_alone_without_touching_it() {
        let parent = Cancel::new();
        let child = Cancel::child_of(&parent.token());
        child.cancel();
        assert!(child.is_cancelled() && !parent.is_cancelled(), "a child's own stop stays its own");
        let child = Cancel::child_of(&parent.token());
        assert!(!child.is_cancelled());
        parent.cancel();
        assert!(child.is_cancelled(), "the parent's stop reaches the child");
        assert!(Cancel::child_of(&parent.token()).is_cancelled(), "a child of a fired parent is fired");
    }
}
