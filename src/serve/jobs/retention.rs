//! The traces' retention (`serve --trace-days N`): every [`EVERY`], the traces of league
//! games that finished more than N days ago are deleted (their logs, results and errors
//! stay). A failed round is logged and tried again at the next.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use mjai_sim_arena::cancel::Cancel;
use mjai_sim_tournament::store::Store;

/// How often old traces are looked for (the first time at once).
pub const EVERY: Duration = Duration::from_secs(3600);

/// Deletes traces older than `days` days now, then every [`EVERY`], until `cancel`.
pub async fn run(store: Store, days: u32, cancel: Cancel) {
    let token = cancel.token();
    loop {
        let now_ms = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64);
        let before = now_ms.saturating_sub(i64::from(days) * 86_400_000);
        match store.blobs().forget_traces_before(before).await {
            Ok(0) => {}
            Ok(n) => tracing::info!("{n} game trace(s) older than {days} days deleted (--trace-days)"),
            Err(e) => tracing::warn!("deleting old game traces failed (tried again in an hour): {e}"),
        }
        tokio::select! {
            _ = token.cancelled() => return,
            _ = tokio::time::sleep(EVERY) => {}
        }
    }
}
