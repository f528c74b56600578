//! Options shared by every command that starts submissions (`play`, `check`): where they
//! run, how lines reach them, which image, and the intake size limit.

use std::path::PathBuf;

use crate::arena::launch::{LaunchSettings, RuntimeKind, Transport};

/// Where and how submissions run.
#[derive(Debug, Clone, clap::Args)]
pub struct RuntimeArgs {
    /// Where submissions run (built-in bots always run in process).
    #[arg(long, value_enum, default_value_t = RuntimeKind::Docker)]
    pub runtime: RuntimeKind,
    /// How lines reach a bot in Docker: its stdin/stdout, or mjai.app's HTTP relay.
    #[arg(long, value_enum, default_value_t = Transport::Stdio)]
    pub transport: Transport,
    /// Bot image [default: the image `mjai-sim image build` makes].
    #[arg(long, value_name = "IMAGE")]
    pub image: Option<String>,
    /// Largest accepted submission, in MiB.
    #[arg(long, value_name = "MIB", default_value_t = 1000)]
    pub max_submission_mb: u64,
}

impl RuntimeArgs {
    /// The launch settings these options give, with each seat's stderr log path.
    pub fn settings(&self, stderr_paths: [PathBuf; 4]) -> LaunchSettings {
        LaunchSettings {
            runtime: self.runtime,
            transport: self.transport,
            image: self.image.clone(),
            max_submission_bytes: self.max_submission_mb.saturating_mul(1024 * 1024),
            stderr_paths,
        }
    }
}
