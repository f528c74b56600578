//! `mjai-sim image`: build the bot image or report whether it exists.

use std::path::PathBuf;
use std::time::Instant;

use clap::Subcommand;

use crate::runtime::docker::image::{self as img, BaseChoice, BuildOptions};

/// Arguments of `image`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Build mjai-sim-bot:<input hash> unless it exists (base: python:3.11-slim if present,
    /// else a Debian bookworm rootfs made with debootstrap, which needs root).
    Build(BuildArgs),
    /// Print the expected image reference and whether the daemon has it (exit 0 present, 1 missing).
    Status,
    /// Print the expected image reference only.
    Name,
}

#[derive(Debug, clap::Args)]
struct BuildArgs {
    /// Rebuild even if the image exists (no build cache).
    #[arg(long)]
    force: bool,
    /// Also remake the debootstrap base.
    #[arg(long)]
    force_base: bool,
    /// Base image: `auto` (python:3.11-slim if present locally, else debootstrap; never contacts
    /// a registry), `pull` (pull python:3.11-slim when missing), `debootstrap`, or an image
    /// reference providing Python 3.11 with pip.
    #[arg(long, default_value = "auto", value_name = "auto|pull|debootstrap|IMAGE")]
    base: String,
    /// Folder with the wheels of docker/requirements.txt (default: the cache, filled with pip download).
    #[arg(long, value_name = "DIR")]
    wheels: Option<PathBuf>,
    /// Never run pip download (the wheel folder must hold every wheel).
    #[arg(long)]
    offline: bool,
    /// Debian mirror for debootstrap.
    #[arg(long, value_name = "URL")]
    mirror: Option<String>,
}

impl BuildArgs {
    fn options(&self) -> BuildOptions {
        let base = match self.base.as_str() {
            "auto" => BaseChoice::Auto,
            "pull" => BaseChoice::Pull,
            "debootstrap" => BaseChoice::Debootstrap,
            other => BaseChoice::Image(other.to_string()),
        };
        BuildOptions {
            force: self.force,
            force_base: self.force_base,
            base,
            wheels: self.wheels.clone(),
            offline: self.offline,
            mirror: self.mirror.clone(),
        }
    }
}

/// Runs `image`; returns the exit code.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let rt = || tokio::runtime::Builder::new_multi_thread().enable_all().build();
    match args.command {
        Command::Name => {
            println!("{}", img::default_image());
            Ok(0)
        }
        Command::Build(b) => rt()?.block_on(build(b)),
        Command::Status => rt()?.block_on(status()),
    }
}

async fn build(b: BuildArgs) -> anyhow::Result<i32> {
    let docker = img::connect_docker().await?;
    let start = Instant::now();
    let progress = |line: &str| eprintln!("[{:6.1}s] {line}", start.elapsed().as_secs_f64());
    let image = img::build_image(&docker, &b.options(), &progress).await?;
    println!("{image}");
    Ok(0)
}

async fn status() -> anyhow::Result<i32> {
    let docker = img::connect_docker().await?;
    let s = img::image_status(&docker).await?;
    if s.present {
        let or_q = |v: &Option<String>| v.clone().unwrap_or_else(|| "?".into());
        println!("{} present (id {}, base {}, created {})", s.image, or_q(&s.id), or_q(&s.base), or_q(&s.created));
        Ok(0)
    } else {
        println!("{} missing: run `mjai-sim image build`", s.image);
        Ok(1)
    }
}
