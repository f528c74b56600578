//! Starting the four seats of a game at once, in Docker or as local processes.
//!
//! ```no_run
//! # async fn f(subs: [std::sync::Arc<mjai_sim_runtime::submission::Submission>; 4]) -> anyhow::Result<()> {
//! use mjai_sim_runtime::launcher::{SubmissionLauncher, SeatSpec};
//! use mjai_sim_runtime::docker::DockerOptions;
//! let launcher = SubmissionLauncher::docker(DockerOptions::default()).await?; // checks daemon + image
//! let seats = subs.map(|s| SeatSpec { submission: s, stderr_log: "player_logs.0.stderr.txt".into() });
//! let bots = launcher.launch(seats).await?; // four Box<dyn Bot>, seat order
//! // Ctrl-C safety: launcher.guard() -> run the game in guard.run_until_cancelled(stop, ..)
//! # Ok(()) }
//! ```

use std::path::PathBuf;
use std::sync::Arc;

use super::docker::cleanup::ContainerGuard;
use super::docker::container::{DockerBot, SeatStart};
use super::docker::{self, DockerError, DockerOptions, Transport};
use super::process::{ProcessBot, ProcessOptions};
use super::submission::Submission;
use super::{Bot, BotError};

/// The seat number a batched bot's process is started as (its container's name and
/// labels; no game has a seat 4).
pub const BATCH_SEAT: u8 = 4;

/// One seat to start.
#[derive(Debug, Clone)]
pub struct SeatSpec {
    /// The checked submission (share one `Arc` between seats playing the same bot).
    pub submission: Arc<Submission>,
    /// The stderr log file of this seat (mjai.app: `player_logs.{SEAT}.stderr.txt`).
    pub stderr_log: PathBuf,
}

/// Why the seats could not be started.
#[derive(Debug, thiserror::Error)]
pub enum LaunchError {
    /// A Docker failure (daemon, image, container).
    #[error(transparent)]
    Docker(#[from] DockerError),
    /// A local process failed to start.
    #[error("seat {seat}: {cause}")]
    Process {
        /// The seat, 0 to 3.
        seat: u8,
        /// Why the process did not start.
        cause: String,
    },
}

impl From<LaunchError> for BotError {
    /// A launch that failed is the host's fault ([`BotError::Host`]: nothing of the bot ran
    /// yet), except a start cut short by the game's own shutdown.
    fn from(e: LaunchError) -> BotError {
        match e {
            LaunchError::Docker(DockerError::Interrupted) => BotError::Transport(e.to_string()),
            e => BotError::Host(e.to_string()),
        }
    }
}

enum Kind {
    Docker { options: Box<DockerOptions>, guard: ContainerGuard, cpus: f64, network: String },
    Process(ProcessOptions),
}

/// Starts games' seats with one runtime.
pub struct SubmissionLauncher {
    kind: Kind,
}

impl SubmissionLauncher {
    /// A Docker launcher for one game: connects, checks the image, prepares the network
    /// (http) and a fresh [`ContainerGuard`].
    ///
    /// Errors: daemon unreachable, image missing (run `mjai-sim image build`), network.
    pub async fn docker(options: DockerOptions) -> Result<SubmissionLauncher, DockerError> {
        let client = docker::daemon().await?;
        SubmissionLauncher::docker_with_guard(options, ContainerGuard::new(client)).await
    }

    /// As [`SubmissionLauncher::docker`], with the caller's guard (and its Docker client and game id).
    pub async fn docker_with_guard(
        options: DockerOptions,
        guard: ContainerGuard,
    ) -> Result<SubmissionLauncher, DockerError> {
        let client = guard.docker().clone();
        docker::require_image(&client, &options.image).await?;
        let cpus = docker::cpu_limit(&client, &options).await;
        let network = match options.transport {
            Transport::Stdio => "none".to_string(),
            Transport::Http => docker::http::ensure_network(&client).await?,
        };
        Ok(SubmissionLauncher::docker_checked(options, guard, cpus, network))
    }

    /// A Docker launcher whose checks were done once by the caller (a tournament starts
    /// thousands of containers: it asks the daemon for the image, the CPU count and the
    /// network once, not per container). `cpus` and `network` as
    /// [`SubmissionLauncher::docker_with_guard`] finds them.
    pub fn docker_checked(
        options: DockerOptions,
        guard: ContainerGuard,
        cpus: f64,
        network: String,
    ) -> SubmissionLauncher {
        SubmissionLauncher { kind: Kind::Docker { options: Box::new(options), guard, cpus, network } }
    }

    /// The options of a Docker launcher (its image resolved and checked), else `None`.
    pub fn docker_options(&self) -> Option<&DockerOptions> {
        match &self.kind {
            Kind::Docker { options, .. } => Some(options),
            Kind::Process(_) => None,
        }
    }

    /// The CPU limit and network a Docker launcher uses (after its checks), else `None`.
    pub fn docker_settings(&self) -> Option<(f64, &str)> {
        match &self.kind {
            Kind::Docker { cpus, network, .. } => Some((*cpus, network)),
            Kind::Process(_) => None,
        }
    }

    /// A local-process launcher (not sandboxed).
    pub fn process(options: ProcessOptions) -> SubmissionLauncher {
        SubmissionLauncher { kind: Kind::Process(options) }
    }

    /// The container guard of a Docker launcher (use it for Ctrl-C safety), else `None`.
    pub fn guard(&self) -> Option<&ContainerGuard> {
        match &self.kind {
            Kind::Docker { guard, .. } => Some(guard),
            Kind::Process(_) => None,
        }
    }

    /// Starts the four seats concurrently; returns them in seat order, each ready (its
    /// process running). When one fails, those already started are stopped and the first
    /// error is returned.
    pub async fn launch(&self, seats: [SeatSpec; 4]) -> Result<Vec<Box<dyn Bot>>, LaunchError> {
        let starts = seats.iter().enumerate().map(|(n, spec)| self.start_seat(n as u8, spec));
        let results = futures_util::future::join_all(starts).await;
        let mut bots = Vec::with_capacity(4);
        let mut first_error = None;
        for result in results {
            match result {
                Ok(bot) => bots.push(bot),
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        match first_error {
            None => Ok(bots),
            Some(e) => {
                futures_util::future::join_all(bots.iter_mut().map(|b| b.stop())).await;
                Err(e)
            }
        }
    }

    /// Starts a batched bot's one process (`bot.py --batch`, [`super::batch`]); ready on
    /// return. Its container (Docker) is named as seat [`BATCH_SEAT`] of the launcher's game.
    pub async fn start_batch(&self, spec: &SeatSpec) -> Result<Box<dyn Bot>, LaunchError> {
        match &self.kind {
            Kind::Process(options) => {
                let options = ProcessOptions { batch: true, ..options.clone() };
                ProcessBot::start(&spec.submission, BATCH_SEAT, &spec.stderr_log, &options)
                    .await
                    .map(|b| Box::new(b) as Box<dyn Bot>)
                    .map_err(|e| LaunchError::Process { seat: BATCH_SEAT, cause: format!("{e:#}") })
            }
            Kind::Docker { options, guard, cpus, network } => {
                let options = DockerOptions { batch: true, ..(**options).clone() };
                let start = SeatStart {
                    seat: BATCH_SEAT,
                    submission: &spec.submission,
                    stderr_log: &spec.stderr_log,
                    cpus: *cpus,
                    network,
                };
                Ok(Box::new(DockerBot::start(guard, &options, start).await?))
            }
        }
    }

    /// Starts one seat (for games mixing built-in bots with submissions); ready on return.
    pub async fn start_seat(&self, seat: u8, spec: &SeatSpec) -> Result<Box<dyn Bot>, LaunchError> {
        match &self.kind {
            Kind::Process(options) => ProcessBot::start(&spec.submission, seat, &spec.stderr_log, options)
                .await
                .map(|b| Box::new(b) as Box<dyn Bot>)
                .map_err(|e| LaunchError::Process { seat, cause: format!("{e:#}") }),
            Kind::Docker { options, guard, cpus, network } => {
                let start = SeatStart {
                    seat,
                    submission: &spec.submission,
                    stderr_log: &spec.stderr_log,
                    cpus: *cpus,
                    network,
                };
                let bot = DockerBot::start(guard, options, start).await?;
                Ok(Box::new(bot))
            }
        }
    }
}
