//! Docker runtime through bollard (no docker CLI): one hardened container per seat.
//!
//! A seat's life: create the container from the bot image ([`hardening::container_body`]:
//! no network, no capabilities, read-only root, limits, labels) with the submission
//! bind-mounted from the seat's host folder ([`host_dir`]; a remote daemon: uploaded as a
//! tar archive into a volume) → attach → start `python3 -u bot.py SEAT` → exchange lines
//! ([`container::DockerBot`]; through FIFOs in the host folder, or the attach stream) →
//! force-remove (SIGKILL, container, volume and host folder gone).
//!
//! Transports ([`Transport`]): `stdio` (default) talks to the bot's stdin/stdout through the
//! attach stream; `http` runs the image's mjai.app-compatible relay on port 3000 and POSTs
//! each batch to it through a port published on 127.0.0.1 ([`http`]).
//!
//! Cleanup: every container carries the labels `mjai-sim.game=<id>`, `mjai-sim.seat=<n>` and
//! `mjai-sim.owner=<host/pid/start>` ([`owner`]);
//! a [`cleanup::ContainerGuard`] records a game's containers and removes them on shutdown
//! (Ctrl-C included); [`cleanup::remove_leftovers`] removes those of crashed runs (owner gone).

use std::time::Duration;

use bollard::Docker;

use super::line::DEFAULT_LINE_LIMIT;
use super::stderr_log::DEFAULT_STDERR_CAP;

pub mod cleanup;
pub mod container;
pub mod hardening;
pub mod host_dir;
pub mod http;
pub mod image;
pub mod owner;
pub mod resources;
pub mod stdio;

/// Label holding the game id on every container, volume and network we create.
pub const LABEL_GAME: &str = "mjai-sim.game";
/// Label holding the seat (0-3) on every container.
pub const LABEL_SEAT: &str = "mjai-sim.seat";

/// How the referee talks to a bot inside its container (`--transport stdio|http`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Transport {
    /// The bot's own stdin/stdout through the Docker attach stream; network mode `none` (fastest).
    #[default]
    Stdio,
    /// mjai.app-compatible: the image's relay (port 3000) runs the bot; the host POSTs each
    /// batch to 127.0.0.1:<ephemeral port>. Needs a bridge network (see [`http`]).
    Http,
}

impl Transport {
    /// Every transport, in `--help` order.
    pub const ALL: [Transport; 2] = [Transport::Stdio, Transport::Http];

    /// The name `--transport` takes: `stdio` or `http`.
    pub fn name(self) -> &'static str {
        match self {
            Transport::Stdio => "stdio",
            Transport::Http => "http",
        }
    }
}

/// Settings of the Docker runtime; `Default` gives the hardened defaults.
#[derive(Debug, Clone)]
pub struct DockerOptions {
    /// Image reference. Default [`image::default_image`].
    pub image: String,
    /// Transport. Default [`Transport::Stdio`].
    pub transport: Transport,
    /// Platform requested at create time. Default `linux/amd64` (as mjai.app).
    pub platform: String,
    /// Memory limit (swap included), in bytes. Default 4 GiB (as mjai.app).
    pub memory_bytes: i64,
    /// CPU limit, in CPUs. `None`: min(4, the Docker host's CPUs) (mjai.app hard-codes 4,
    /// which fails on smaller hosts).
    pub cpus: Option<f64>,
    /// Largest number of processes and threads. Default 512.
    pub pids_limit: i64,
    /// Size of the writable tmpfs at /tmp, in bytes. Default 256 MiB.
    pub tmp_bytes: u64,
    /// Numeric user and group the bot runs as. Default 1000:1000 (`bot` in the image).
    pub uid: u64,
    /// See `uid`.
    pub gid: u64,
    /// The bot's (writable) working folder, where the submission is unpacked. Default `/workspace`.
    pub workdir: String,
    /// Python interpreter inside the image, looked up on the image's PATH. Default `python3`.
    pub python: String,
    /// Path of the http relay inside the image. Default `/opt/mjai-sim/relay.py`.
    pub relay_path: String,
    /// Longest answer line, in bytes. Default 1 MiB.
    pub line_limit: usize,
    /// Cap of each stderr log, in bytes. Default 10 MiB.
    pub stderr_cap: u64,
    /// How long a container may take to become ready (http: relay answering), in seconds.
    pub ready_timeout: Duration,
    /// GPUs given to the container (a Docker device request). Default none.
    pub gpus: Option<resources::Gpus>,
    /// The daemon shares this host's files: each seat's files are bind-mounted from a host
    /// folder and stdio goes through FIFOs in it ([`host_dir`]). `false`: files uploaded
    /// through the API into a volume, stdio through the attach stream. Default: true
    /// unless DOCKER_HOST names a daemon elsewhere ([`daemon_is_local`]).
    pub local: bool,
    /// Start `bot.py --batch` (one container serving many table-seats,
    /// [`crate::batch`]) instead of `bot.py SEAT`; stdio only. Default false.
    pub batch: bool,
}

impl Default for DockerOptions {
    fn default() -> Self {
        DockerOptions {
            image: image::default_image(),
            transport: Transport::Stdio,
            platform: "linux/amd64".into(),
            memory_bytes: 4 << 30,
            cpus: None,
            pids_limit: 512,
            tmp_bytes: 256 << 20,
            uid: image::BOT_UID.into(),
            gid: image::BOT_UID.into(),
            workdir: image::BOT_DIR.into(),
            python: "python3".into(),
            relay_path: image::RELAY_PATH.into(),
            line_limit: DEFAULT_LINE_LIMIT,
            stderr_cap: DEFAULT_STDERR_CAP,
            ready_timeout: Duration::from_secs(20),
            gpus: None,
            local: daemon_is_local(),
            batch: false,
        }
    }
}

/// Whether the Docker daemon runs on this host: DOCKER_HOST unset, empty or `unix://...`.
pub fn daemon_is_local() -> bool {
    std::env::var("DOCKER_HOST").map_or(true, |h| h.is_empty() || h.starts_with("unix://"))
}

/// Why the Docker runtime could not start a game's bots. One line each, naming the fix.
#[derive(Debug, thiserror::Error)]
pub enum DockerError {
    /// The daemon does not answer.
    #[error("cannot reach the Docker daemon ({0}); start Docker, check DOCKER_HOST, or use the process runtime")]
    Unreachable(String),
    /// The bot image is not on the Docker host.
    #[error("image {0} is missing on the Docker host; run `mjai-sim image build`")]
    ImageMissing(String),
    /// A seat's container could not be created, filled or started.
    #[error("seat {seat}: container failed to start ({cause}); check `docker info` and the image, then retry")]
    Start {
        /// The seat, 0 to 3.
        seat: u8,
        /// Docker's error.
        cause: String,
    },
    /// Shutdown (Ctrl-C) began while containers were starting.
    #[error("interrupted: the game is shutting down")]
    Interrupted,
    /// Any other Docker API failure.
    #[error("Docker API error while {doing}: {cause}")]
    Api {
        /// What was being done, e.g. "creating a container".
        doing: &'static str,
        /// Docker's error.
        cause: String,
    },
}

/// The Docker daemon named by DOCKER_HOST (default: the local socket), reached and agreed
/// with on an API version (Docker 20.10 speaks 1.41): the one way every part of mjai-sim
/// reaches Docker (containers, image builds, cleanup).
///
/// Errors: [`DockerError::Unreachable`].
pub async fn daemon() -> Result<Docker, DockerError> {
    let docker = Docker::connect_with_defaults().map_err(|e| DockerError::Unreachable(e.to_string()))?;
    docker.negotiate_version().await.map_err(|e| DockerError::Unreachable(e.to_string()))
}

/// Checks that `image` exists on the Docker host.
///
/// Errors: [`DockerError::ImageMissing`], or [`DockerError::Unreachable`].
pub async fn require_image(docker: &Docker, image: &str) -> Result<(), DockerError> {
    match docker.inspect_image(image).await {
        Ok(_) => Ok(()),
        Err(bollard::errors::Error::DockerResponseServerError { status_code: 404, .. }) => {
            Err(DockerError::ImageMissing(image.to_string()))
        }
        Err(e) => Err(DockerError::Unreachable(e.to_string())),
    }
}

/// The CPU limit to apply: `options.cpus`, else min(4, the Docker host's CPUs).
pub async fn cpu_limit(docker: &Docker, options: &DockerOptions) -> f64 {
    if let Some(cpus) = options.cpus {
        return cpus;
    }
    let host = docker.info().await.ok().and_then(|i| i.ncpu).unwrap_or(1).max(1);
    (host.min(4)) as f64
}
