//! Games are played by futures that are not `Send` (the match loop holds its bots and
//! observers across awaits; the tournament runner uses a `LocalSet`), while the HTTP side
//! runs on the multi-threaded runtime. [`spawn_thread`] runs such a future on its own
//! thread with a current-thread runtime and a `LocalSet`.

use std::future::Future;
use std::thread::JoinHandle;

/// Runs the future `make` returns on a new thread named `name`, with its own
/// current-thread runtime and `LocalSet`. Errors: the thread or its runtime could not be
/// made (the first from here, the second from the handle).
pub fn spawn_thread<F, Fut, T>(name: &str, make: F) -> std::io::Result<JoinHandle<anyhow::Result<T>>>
where
    F: FnOnce() -> Fut + Send + 'static,
    Fut: Future<Output = anyhow::Result<T>> + 'static,
    T: Send + 'static,
{
    std::thread::Builder::new().name(name.to_string()).spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| anyhow::anyhow!("cannot start a runtime for games: {e}"))?;
        tokio::task::LocalSet::new().block_on(&runtime, make())
    })
}

/// Waits for a thread from [`spawn_thread`] without blocking the runtime. Errors: the
/// thread's own error, or its panic.
pub async fn join<T: Send + 'static>(handle: JoinHandle<anyhow::Result<T>>) -> anyhow::Result<T> {
    tokio::task::spawn_blocking(move || handle.join())
        .await
        .map_err(|e| anyhow::anyhow!("joining a game thread: {e}"))?
        .map_err(|_| anyhow::anyhow!("a game thread panicked"))?
}
