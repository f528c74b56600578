//! `mjai-sim image`: build the bot images (the default one, or the ml one with `--ml`) or
//! report whether they exist.

use std::path::PathBuf;
use std::time::Instant;

use clap::Subcommand;

use crate::runtime::docker::image::{self as img, BaseChoice, BuildOptions, ImageKind};

/// Arguments of `image`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Build mjai-sim-bot:<input hash> unless it exists (base: python:3.11-slim if present,
    /// else a Debian bookworm rootfs made with debootstrap, which needs root); with --ml,
    /// mjai-sim-bot-ml:<hash> (the default image plus torch 2.2.2 and numpy 1.26.4).
    Build(BuildArgs),
    /// Print both images' expected references and whether the daemon has them (exit 0 when
    /// the default image is present, 1 when it is missing; with --ml, the same of the ml image).
    Status(KindArg),
    /// Print the expected image reference only (with --ml, the ml image's).
    Name(KindArg),
}

/// `--ml`: the ml image rather than the default one.
#[derive(Debug, clap::Args)]
struct KindArg {
    /// The ml image (torch 2.2.2, numpy 1.26.4: mjai.app's machine-learning packages).
    #[arg(long)]
    ml: bool,
}

impl KindArg {
    fn kind(&self) -> ImageKind {
        if self.ml {
            ImageKind::Ml
        } else {
            ImageKind::Default
        }
    }
}

#[derive(Debug, clap::Args)]
struct BuildArgs {
    #[command(flatten)]
    kind: KindArg,
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
    /// Folder with the wheels of docker/requirements.txt (and requirements-ml.txt with --ml)
    /// (default: the cache, filled with pip download).
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
            kind: self.kind.kind(),
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
        Command::Name(k) => {
            println!("{}", k.kind().reference());
            Ok(0)
        }
        Command::Build(b) => rt()?.block_on(build(b)),
        Command::Status(k) => rt()?.block_on(status(k.kind())),
    }
}

async fn build(b: BuildArgs) -> anyhow::Result<i32> {
    let docker = img::daemon().await?;
    let start = Instant::now();
    let progress = |line: &str| eprintln!("[{:6.1}s] {line}", start.elapsed().as_secs_f64());
    let image = img::build_image(&docker, &b.options(), &progress).await?;
    println!("{image}");
    Ok(0)
}

/// Prints a line per image; the exit code tells about `wanted`.
async fn status(wanted: ImageKind) -> anyhow::Result<i32> {
    let docker = img::daemon().await?;
    let mut code = 1;
    for kind in ImageKind::ALL {
        let s = img::image_status(&docker, kind).await?;
        let name = kind.name();
        if s.present {
            let or_q = |v: &Option<String>| v.clone().unwrap_or_else(|| "?".into());
            let (id, base, created) = (or_q(&s.id), or_q(&s.base), or_q(&s.created));
            println!("{name}: {} present (id {id}, base {base}, created {created})", s.image);
        } else {
            let flag = if kind == ImageKind::Ml { " --ml" } else { "" };
            println!("{name}: {} missing: run `mjai-sim image build{flag}`", s.image);
        }
        if kind == wanted && s.present {
            code = 0;
        }
    }
    Ok(code)
}
