//! Containers never outlive their game: a guard for live games, a sweep for crashed runs.
//!
//! [`ContainerGuard`] records a game's containers (the runtime registers each one as soon as
//! Docker creates it). Its [`shutdown`](ContainerGuard::shutdown) removes all of them, plus
//! anything else labelled with the game's id; after shutdown, a container whose creation
//! was still in flight is removed as soon as it appears. Dropping the last clone of a guard
//! that was not shut down removes the containers synchronously (panics and early returns
//! are covered). Ctrl-C: wrap the game in [`ContainerGuard::run_until_ctrl_c`].
//!
//! Use in the match loop (src/arena):
//! ```no_run
//! # async fn f(play: impl std::future::Future<Output = ()>) -> anyhow::Result<()> {
//! use mjai_sim::runtime::docker::{cleanup::ContainerGuard, connect};
//! let guard = ContainerGuard::new(connect().await?);
//! // ... launch the four seats with this guard (runtime::launcher), then:
//! match guard.run_until_ctrl_c(play).await {
//!     Ok(()) => guard.shutdown().await,          // normal end: containers removed
//!     Err(_interrupted) => std::process::exit(130), // already removed
//! }
//! # Ok(()) }
//! ```
//!
//! [`remove_leftovers`] (`mjai-sim cleanup`) removes what a killed process left behind,
//! by label.

use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use bollard::query_parameters::{
    ListContainersOptions, ListNetworksOptions, ListVolumesOptions, RemoveContainerOptions, RemoveVolumeOptions,
};
use bollard::Docker;
use rand::Rng;

use super::{DockerError, LABEL_GAME};

/// Records the live containers of one game and removes them on shutdown. Cheap to clone.
#[derive(Clone)]
pub struct ContainerGuard {
    inner: Arc<Inner>,
}

struct Inner {
    docker: Docker,
    game: String,
    live: Mutex<HashSet<String>>,
    closed: AtomicBool,
}

/// The game was interrupted by Ctrl-C; its containers have been removed.
#[derive(Debug, thiserror::Error)]
#[error("interrupted by Ctrl-C; the game's containers were removed")]
pub struct Interrupted;

impl ContainerGuard {
    /// A guard for a new game with a fresh random id (12 hex digits).
    pub fn new(docker: Docker) -> ContainerGuard {
        let id: u64 = rand::rng().random();
        ContainerGuard::with_game_id(docker, format!("{:012x}", id & 0xffff_ffff_ffff))
    }

    /// A guard for the game `game` (the value of the `mjai-sim.game` label).
    pub fn with_game_id(docker: Docker, game: String) -> ContainerGuard {
        ContainerGuard {
            inner: Arc::new(Inner { docker, game, live: Mutex::default(), closed: AtomicBool::new(false) }),
        }
    }

    /// The game id.
    pub fn game(&self) -> &str {
        &self.inner.game
    }

    /// The Docker client.
    pub fn docker(&self) -> &Docker {
        &self.inner.docker
    }

    /// Records a created container. Returns false when shutdown has begun: the caller must
    /// remove the container itself and give up.
    pub fn register(&self, id: &str) -> bool {
        self.lock().insert(id.to_string());
        !self.inner.closed.load(Ordering::SeqCst)
    }

    /// Forgets a container the caller removed.
    pub fn forget(&self, id: &str) {
        self.lock().remove(id);
    }

    /// Ids of the containers recorded and not yet removed.
    pub fn live(&self) -> Vec<String> {
        self.lock().iter().cloned().collect()
    }

    /// Whether shutdown has begun.
    pub fn is_closed(&self) -> bool {
        self.inner.closed.load(Ordering::SeqCst)
    }

    /// Removes every container of the game (recorded or found by label) and their
    /// volumes; later registrations are refused. Idempotent; errors are logged.
    pub async fn shutdown(&self) {
        self.inner.closed.store(true, Ordering::SeqCst);
        let ids = self.live();
        futures_util::future::join_all(ids.iter().map(|id| remove_container(&self.inner.docker, id))).await;
        for id in &ids {
            self.forget(id);
        }
        if let Err(e) = remove_leftovers(&self.inner.docker, Some(&self.inner.game)).await {
            tracing::warn!("cleanup of game {}: {e}", self.inner.game);
        }
    }

    /// Runs `game` until it finishes or Ctrl-C (SIGINT) arrives; on Ctrl-C, shuts down
    /// (every container removed) and returns [`Interrupted`].
    pub async fn run_until_ctrl_c<F: Future>(&self, game: F) -> Result<F::Output, Interrupted> {
        tokio::select! {
            output = game => Ok(output),
            _ = tokio::signal::ctrl_c() => {
                self.shutdown().await;
                Err(Interrupted)
            }
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashSet<String>> {
        self.inner.live.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl Drop for Inner {
    fn drop(&mut self) {
        let live: Vec<String> = self.live.get_mut().map(|s| s.drain().collect()).unwrap_or_default();
        if live.is_empty() {
            return;
        }
        // A fresh client on a private runtime: the game's runtime may be shutting down.
        let cleanup = std::thread::spawn(move || {
            let Ok(rt) = tokio::runtime::Builder::new_current_thread().enable_all().build() else { return };
            rt.block_on(async {
                if let Ok(docker) = super::connect().await {
                    futures_util::future::join_all(live.iter().map(|id| remove_container(&docker, id))).await;
                }
            });
        });
        let _ = cleanup.join();
    }
}

/// Force-removes a container (SIGKILL first) with its anonymous volumes. A container
/// already gone counts as removed.
pub async fn remove_container(docker: &Docker, id: &str) {
    let options = RemoveContainerOptions { force: true, v: true, ..Default::default() };
    match docker.remove_container(id, Some(options)).await {
        Ok(()) | Err(bollard::errors::Error::DockerResponseServerError { status_code: 404, .. }) => {}
        // 409: removal already in progress (another path is removing it).
        Err(bollard::errors::Error::DockerResponseServerError { status_code: 409, .. }) => {}
        Err(e) => tracing::warn!("cannot remove container {id}: {e}"),
    }
}

/// What [`remove_leftovers`] removed.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Removed {
    /// Containers removed.
    pub containers: usize,
    /// Volumes removed.
    pub volumes: usize,
    /// Networks removed.
    pub networks: usize,
}

/// Removes containers, volumes and (unused) networks labelled `mjai-sim.game` — of one
/// game, or of every game when `game` is `None`.
///
/// Errors: [`DockerError::Api`] when listing fails.
pub async fn remove_leftovers(docker: &Docker, game: Option<&str>) -> Result<Removed, DockerError> {
    let label = match game {
        Some(game) => format!("{LABEL_GAME}={game}"),
        None => LABEL_GAME.to_string(),
    };
    let filters = HashMap::from([("label".to_string(), vec![label])]);
    let api = |doing: &'static str| move |e: bollard::errors::Error| DockerError::Api { doing, cause: e.to_string() };
    let containers = docker
        .list_containers(Some(ListContainersOptions { all: true, filters: Some(filters.clone()), ..Default::default() }))
        .await
        .map_err(api("listing containers"))?;
    let ids: Vec<String> = containers.into_iter().filter_map(|c| c.id).collect();
    futures_util::future::join_all(ids.iter().map(|id| remove_container(docker, id))).await;
    let mut removed = Removed { containers: ids.len(), ..Default::default() };
    let volumes = docker
        .list_volumes(Some(ListVolumesOptions { filters: Some(filters.clone()) }))
        .await
        .map_err(api("listing volumes"))?;
    for volume in volumes.volumes.unwrap_or_default() {
        if docker.remove_volume(&volume.name, Some(RemoveVolumeOptions { force: true })).await.is_ok() {
            removed.volumes += 1;
        }
    }
    if game.is_none() {
        let networks = docker
            .list_networks(Some(ListNetworksOptions { filters: Some(filters) }))
            .await
            .map_err(api("listing networks"))?;
        for network in networks {
            // A network still used by a running game refuses removal; that is fine.
            if let Some(id) = network.id {
                if docker.remove_network(&id).await.is_ok() {
                    removed.networks += 1;
                }
            }
        }
    }
    Ok(removed)
}
