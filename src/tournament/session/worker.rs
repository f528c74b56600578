//! A worker's life over a database holding many tournaments (`mjai-sim worker`): put back
//! the games its previous life held, remove that life's containers, then play any
//! tournament with claimable games, round after round ([`super::PlayLoop::worker`]).

use super::{Notice, Observer};
use crate::store::Store;

/// `NAME#nonce`: one life of a worker, written in `claimed_by` (a restarted worker does
/// not renew the leases of its previous life).
pub fn incarnation(name: &str) -> String {
    format!("{name}#{:08x}", rand::random::<u32>())
}

/// Whether `name` can name a worker (it labels containers and `claimed_by`): not empty, no
/// `#`, `/` or space. Errors: the one line saying what to use.
pub fn check_name(name: &str) -> Result<(), String> {
    if name.is_empty() || name.contains(['#', '/', ' ']) {
        return Err(format!("--name `{name}`: use letters, digits, `-`, `_` or `.` (no `#`, `/` or spaces)"));
    }
    Ok(())
}

/// The start of a worker's life named `name`: the games its previous life held go back
/// to the queue and that life's containers (label prefix `worker-NAME-`) are removed, when
/// Docker is reachable. Returns the container tag `worker-NAME`.
pub async fn begin(store: &Store, name: &str, observer: &dyn Observer) -> anyhow::Result<String> {
    let requeued = store.leases().requeue_worker(name).await?;
    if requeued > 0 {
        observer.notice(&Notice::Requeued { games: requeued, worker: Some(name.to_string()) });
    }
    let tag = format!("worker-{name}");
    if let Ok(docker) = mjai_sim_runtime::docker::daemon().await {
        match mjai_sim_runtime::docker::cleanup::remove_containers_with_prefix(&docker, &format!("{tag}-")).await {
            Ok(0) => {}
            Ok(n) => observer.notice(&Notice::LeftoversRemoved { containers: n as u64, tag: tag.clone() }),
            Err(e) => tracing::warn!("cannot list leftover containers: {e}"),
        }
    }
    Ok(tag)
}
