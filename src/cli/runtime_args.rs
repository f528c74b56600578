//! Options shared by every command that starts submissions (`play`, `check`): where they
//! run, how lines reach them, which image, the intake size limit and the container limits.

use std::path::PathBuf;

use super::enum_arg::one_of;
use super::numbers::{Bounded, Cpus, MemorySize, Seconds};
use crate::arena::launch::{LaunchSettings, RuntimeKind, Transport};
use crate::runtime::batch::BatchConfig;
use crate::runtime::docker::resources::{Gpus, Resources};

/// Where and how submissions run.
#[derive(Debug, Clone, clap::Args)]
pub struct RuntimeArgs {
    /// Where submissions run (built-in bots always run in process).
    #[arg(long, default_value = "docker", value_parser = one_of(&RuntimeKind::ALL, RuntimeKind::name, runtime_help))]
    pub runtime: RuntimeKind,
    /// How lines reach a bot in Docker: its stdin/stdout, or mjai.app's HTTP relay.
    #[arg(long, default_value = "stdio", value_parser = one_of(&Transport::ALL, Transport::name, transport_help))]
    pub transport: Transport,
    /// Bot image: `default` (Python 3.11, mjai, mahjong, numpy), `ml` (the default plus
    /// mjai.app's torch 2.2.2 and numpy 1.26.4; `mjai-sim image build --ml`), or an image
    /// reference. `default` and `ml` are built when missing [default: default].
    #[arg(long, value_name = "default|ml|IMAGE")]
    pub image: Option<String>,
    /// Largest accepted submission, in MiB (1 to 1048576).
    #[arg(long, value_name = "MIB", default_value = "1000")]
    pub max_submission_mb: Bounded<1, 1_048_576>,
    /// Memory of each bot container, swap included: 512m, 4g, ... (6m to 1t) [default: 4g].
    #[arg(long, value_name = "SIZE")]
    pub memory: Option<MemorySize>,
    /// CPUs of each bot container (0.01 to 1024) [default: min(4, the Docker host's CPUs)].
    #[arg(long, value_name = "CPUS")]
    pub cpus: Option<Cpus>,
    /// Largest number of processes and threads in each bot container (16 to 4194304) [default: 512].
    #[arg(long, value_name = "N")]
    pub pids: Option<Bounded<16, 4_194_304>>,
    /// GPUs for each bot container: `all` or ids `0,1` (needs a GPU runtime in Docker) [default: none].
    #[arg(long, value_name = "all|IDS")]
    pub gpus: Option<Gpus>,
    /// Play bots that opt in to batching (`batch = true` in their mjai-sim.toml) one
    /// process per seat, like any bot.
    #[arg(long, conflicts_with_all = ["batch", "batch_timeout"])]
    pub no_batch: bool,
    /// Most requests a batched bot gets in one line (1 to 65536) [default: 256].
    #[arg(long, value_name = "N")]
    pub batch: Option<Bounded<1, 65_536>>,
    /// A batched bot's time for each request, from the moment its line is written, when
    /// longer than the decision timeout [default: the decision timeout].
    #[arg(long, value_name = "SECS")]
    pub batch_timeout: Option<Seconds>,
}

/// `--runtime`'s help for each runtime.
fn runtime_help(kind: RuntimeKind) -> &'static str {
    match kind {
        RuntimeKind::Docker => "One hardened container per seat (the default)",
        RuntimeKind::Process => "A local `python3 -u bot.py SEAT` process: fast, NOT sandboxed; for bot authors",
    }
}

/// `--transport`'s help for each transport.
fn transport_help(transport: Transport) -> &'static str {
    match transport {
        Transport::Stdio => {
            "The bot's own stdin/stdout through the Docker attach stream; network mode `none` (fastest)"
        }
        Transport::Http => {
            "mjai.app-compatible: the image's relay (port 3000) runs the bot; the host POSTs each batch to \
             127.0.0.1:<ephemeral port>. Needs a bridge network"
        }
    }
}

impl RuntimeArgs {
    /// The launch settings these options give, with each seat's stderr log path.
    pub fn settings(&self, stderr_paths: [PathBuf; 4]) -> LaunchSettings {
        LaunchSettings {
            runtime: self.runtime,
            transport: self.transport,
            image: self.image.clone(),
            max_submission_bytes: self.max_submission_mb.get().saturating_mul(1024 * 1024),
            stderr_paths,
            resources: self.resources(),
            batch: self.batch().options(),
        }
    }

    /// The batching chosen (`--no-batch`, `--batch`, `--batch-timeout`).
    pub fn batch(&self) -> BatchConfig {
        let default = BatchConfig::default();
        BatchConfig {
            enabled: !self.no_batch,
            max: self.batch.map(|n| n.get() as usize).unwrap_or(default.max),
            timeout_s: self.batch_timeout.map(|s| s.duration().as_secs_f64()),
        }
    }

    /// The container limits given (Docker only).
    pub fn resources(&self) -> Resources {
        Resources {
            memory_bytes: self.memory.map(MemorySize::bytes),
            nano_cpus: self.cpus.map(|c| (c.get() * 1e9).round() as u64),
            pids_limit: self.pids.map(Bounded::get),
            gpus: self.gpus.clone(),
        }
    }
}
