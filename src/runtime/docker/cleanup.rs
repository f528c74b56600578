//! Containers never outlive their game: a guard for live games, a sweep for crashed runs.
//!
//! [`ContainerGuard`] records a game's containers (the runtime registers each one as soon as
//! Docker creates it). Its [`shutdown`](ContainerGuard::shutdown) removes all of them, plus
//! anything else labelled with the game's id. A creation in flight is tracked
//! ([`ContainerGuard::begin_create`]): shutdown waits for it (at most
//! [`CREATE_WAIT`]), and a container that appears after shutdown began removes itself. Dropping the last clone of a guard
//! that was not shut down removes the containers synchronously (panics and early returns
//! are covered). Ctrl-C: wrap the game in [`ContainerGuard::run_until_cancelled`] with the
//! token the binary's signal handling fires.
//!
//! Use in the match loop (src/arena):
//! ```no_run
//! # async fn f(play: impl std::future::Future<Output = ()>, stop: mjai_sim_runtime::cancel::CancelToken) -> anyhow::Result<()> {
//! use mjai_sim_runtime::docker::{cleanup::ContainerGuard, daemon};
//! let guard = ContainerGuard::new(daemon().await?);
//! // `play` launches the four seats with this guard (runtime::launcher) and plays:
//! match guard.run_until_cancelled(stop, play).await {
//!     Ok(()) => guard.shutdown().await, // normal end: containers removed
//!     Err(_interrupted) => {}           // cancelled: already removed
//! }
//! # Ok(()) }
//! ```
//!
//! [`remove_leftovers`] (`mjai-sim cleanup`) removes what a killed process left behind,
//! by label: only what a gone owner made ([`super::owner`]), or everything with `all`.

use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bollard::query_parameters::{
    ListContainersOptions, ListNetworksOptions, ListVolumesOptions, RemoveContainerOptions, RemoveVolumeOptions,
};
use bollard::Docker;
use rand::Rng;

use super::owner::{Owner, LABEL_OWNER};
use super::{DockerError, LABEL_GAME};
use crate::cancel::CancelToken;

/// How long [`ContainerGuard::shutdown`] waits for container creations in flight (seconds
/// matter only when the Docker daemon hangs; a creation takes milliseconds).
pub const CREATE_WAIT: Duration = Duration::from_secs(30);

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
    /// Container creations in flight (see [`ContainerGuard::begin_create`]).
    creating: AtomicUsize,
    created: tokio::sync::Notify,
}

/// One container creation in flight; dropping it ends the creation (see
/// [`ContainerGuard::begin_create`]).
pub struct Creating {
    guard: ContainerGuard,
}

impl Drop for Creating {
    fn drop(&mut self) {
        self.guard.inner.creating.fetch_sub(1, Ordering::SeqCst);
        self.guard.inner.created.notify_waiters();
    }
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
            inner: Arc::new(Inner {
                docker,
                game,
                live: Mutex::default(),
                closed: AtomicBool::new(false),
                creating: AtomicUsize::new(0),
                created: tokio::sync::Notify::new(),
            }),
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

    /// Marks a container creation as in flight until the returned token is dropped: the
    /// creator holds it across `create` and [`register`](Self::register), so that
    /// [`shutdown`](Self::shutdown) can wait for a container Docker is still creating.
    pub fn begin_create(&self) -> Creating {
        self.inner.creating.fetch_add(1, Ordering::SeqCst);
        Creating { guard: self.clone() }
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
    /// volumes; later registrations are refused. Waits first (at most [`CREATE_WAIT`]) for
    /// creations in flight: each either registered before shutdown began (removed here) or
    /// removes itself. Idempotent; errors are logged.
    pub async fn shutdown(&self) {
        self.inner.closed.store(true, Ordering::SeqCst);
        let settled = async {
            loop {
                let created = self.inner.created.notified();
                if self.inner.creating.load(Ordering::SeqCst) == 0 {
                    break;
                }
                created.await;
            }
        };
        if tokio::time::timeout(CREATE_WAIT, settled).await.is_err() {
            tracing::warn!("game {}: a container creation did not finish; removing by label", self.inner.game);
        }
        let ids = self.live();
        futures_util::future::join_all(ids.iter().map(|id| remove_container(&self.inner.docker, id))).await;
        for id in &ids {
            self.forget(id);
        }
        if let Err(e) = remove_leftovers(&self.inner.docker, Some(&self.inner.game), true).await {
            tracing::warn!("cleanup of game {}: {e}", self.inner.game);
        }
    }

    /// Runs `game` (launch included, ideally) until it finishes or `stop` turns true (the
    /// token of `arena::cancel::Cancel`, fired by the binary on SIGINT/SIGTERM); when
    /// cancelled, shuts down (every container removed) and returns [`Interrupted`].
    pub async fn run_until_cancelled<F: Future>(&self, stop: CancelToken, game: F) -> Result<F::Output, Interrupted> {
        tokio::select! {
            output = game => Ok(output),
            _ = stop.cancelled() => {
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
                if let Ok(docker) = super::daemon().await {
                    futures_util::future::join_all(live.iter().map(|id| remove_container(&docker, id))).await;
                }
            });
        });
        let _ = cleanup.join();
        super::host_dir::remove_of_game(&self.game);
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
    /// Containers kept: their owner runs, or cannot be told (no owner label, another host).
    pub kept: usize,
}

/// Removes containers and volumes labelled `mjai-sim.game` whose owner process is gone
/// ([`Owner::is_gone`]), or every one with `all`, with their seats' host folders
/// ([`super::host_dir`]) — of one game, or of every game when `game` is `None`; with `all`
/// and no `game`, also every seat folder and the unused labelled networks.
///
/// Errors: [`DockerError::Api`] when listing fails.
pub async fn remove_leftovers(docker: &Docker, game: Option<&str>, all: bool) -> Result<Removed, DockerError> {
    let label = match game {
        Some(game) => format!("{LABEL_GAME}={game}"),
        None => LABEL_GAME.to_string(),
    };
    let filters = HashMap::from([("label".to_string(), vec![label])]);
    let api = |doing: &'static str| move |e: bollard::errors::Error| DockerError::Api { doing, cause: e.to_string() };
    let containers = docker
        .list_containers(Some(ListContainersOptions {
            all: true,
            filters: Some(filters.clone()),
            ..Default::default()
        }))
        .await
        .map_err(api("listing containers"))?;
    let total = containers.len();
    let (games, ids): (HashSet<String>, Vec<String>) = containers
        .into_iter()
        .filter(|c| all || leftover(c.labels.as_ref()))
        .filter_map(|c| Some((c.labels.as_ref()?.get(LABEL_GAME)?.clone(), c.id?)))
        .unzip();
    futures_util::future::join_all(ids.iter().map(|id| remove_container(docker, id))).await;
    match (game, all) {
        (None, true) => super::host_dir::remove_with_prefix(""),
        // a game's own shutdown: its folders go even when its containers went before
        (Some(game), true) => super::host_dir::remove_of_game(game),
        _ => games.iter().for_each(|g| super::host_dir::remove_of_game(g)),
    }
    let mut removed = Removed { containers: ids.len(), kept: total - ids.len(), ..Default::default() };
    let volumes = docker
        .list_volumes(Some(ListVolumesOptions { filters: Some(filters.clone()) }))
        .await
        .map_err(api("listing volumes"))?;
    for volume in volumes.volumes.unwrap_or_default() {
        if !all && !leftover(Some(&volume.labels)) {
            continue;
        }
        if docker.remove_volume(&volume.name, Some(RemoveVolumeOptions { force: true })).await.is_ok() {
            removed.volumes += 1;
        }
    }
    if game.is_none() && all {
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

/// Whether labels `labels` mark a leftover: an owner label naming a gone process.
fn leftover(labels: Option<&HashMap<String, String>>) -> bool {
    Owner::of(labels.and_then(|l| l.get(LABEL_OWNER)).map(String::as_str)).is_gone()
}

/// Removes every container whose `mjai-sim.game` label starts with `prefix` (a worker's
/// leftovers from a previous life: its containers are labelled `worker-NAME-...`).
/// Returns how many were removed.
///
/// Errors: [`DockerError::Api`] when listing fails.
pub async fn remove_containers_with_prefix(docker: &Docker, prefix: &str) -> Result<usize, DockerError> {
    let filters = HashMap::from([("label".to_string(), vec![LABEL_GAME.to_string()])]);
    let containers = docker
        .list_containers(Some(ListContainersOptions { all: true, filters: Some(filters), ..Default::default() }))
        .await
        .map_err(|e| DockerError::Api { doing: "listing containers", cause: e.to_string() })?;
    let ids: Vec<String> = containers
        .into_iter()
        .filter(|c| c.labels.as_ref().and_then(|l| l.get(LABEL_GAME)).is_some_and(|g| g.starts_with(prefix)))
        .filter_map(|c| c.id)
        .collect();
    futures_util::future::join_all(ids.iter().map(|id| remove_container(docker, id))).await;
    super::host_dir::remove_with_prefix(prefix);
    Ok(ids.len())
}
