//! `mjai-sim image`: build the bot images (the default one, or the ml one with `--ml`) or
//! mjai-sim's own image (`--self`, docs/deploy.md), or report whether they exist.

use std::path::PathBuf;
use std::time::Instant;

use clap::Subcommand;

use crate::images::{self as img, BaseChoice, BuildOptions, ImageKind, ServerBuildOptions};

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
    /// mjai-sim-bot-ml:<hash> (the default image plus torch 2.2.2 and numpy 1.26.4); with
    /// --self, mjai-sim:VERSION from this binary unless it holds it already.
    Build(BuildArgs),
    /// Print both images' expected references and whether the daemon has them (exit 0 when
    /// the default image is present, 1 when it is missing; with --ml, the same of the ml image).
    Status(KindArg),
    /// Print the expected image reference only (with --ml, the ml image's).
    Name(KindArg),
}

/// `--ml`: the ml image rather than the default one; `--self`: mjai-sim's own image.
#[derive(Debug, clap::Args)]
struct KindArg {
    /// The ml image (torch 2.2.2, numpy 1.26.4: mjai.app's machine-learning packages).
    #[arg(long)]
    ml: bool,
    /// mjai-sim's own image, mjai-sim:VERSION (this binary and PostgreSQL 15, user mjai:
    /// the image of a stack's server, workers and database; docs/deploy.md).
    #[arg(long = "self", conflicts_with = "ml")]
    own: bool,
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
    /// With --self: the binary to put in [default: this one].
    #[arg(long, value_name = "FILE", requires = "own")]
    binary: Option<PathBuf>,
    /// With --self: folder with postgresql-15 and its dependencies as .deb files (default:
    /// the cache, filled with apt-get download on a Debian bookworm host).
    #[arg(long, value_name = "DIR", requires = "own")]
    debs: Option<PathBuf>,
}

impl BuildArgs {
    fn base(&self) -> BaseChoice {
        match self.base.as_str() {
            "auto" => BaseChoice::Auto,
            "pull" => BaseChoice::Pull,
            "debootstrap" => BaseChoice::Debootstrap,
            other => BaseChoice::Image(other.to_string()),
        }
    }

    fn server_options(&self) -> ServerBuildOptions {
        ServerBuildOptions {
            force: self.force,
            binary: self.binary.clone(),
            base: self.base(),
            force_base: self.force_base,
            mirror: self.mirror.clone(),
            debs: self.debs.clone(),
            offline: self.offline,
        }
    }

    fn options(&self) -> BuildOptions {
        let base = self.base();
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
        Command::Name(k) if k.own => {
            println!("{}", img::server_image());
            Ok(0)
        }
        Command::Name(k) => {
            println!("{}", k.kind().reference());
            Ok(0)
        }
        Command::Build(b) => rt()?.block_on(build(b)),
        Command::Status(k) if k.own => rt()?.block_on(status_self()),
        Command::Status(k) => rt()?.block_on(status(k.kind())),
    }
}

async fn build(b: BuildArgs) -> anyhow::Result<i32> {
    let docker = img::daemon().await?;
    let start = Instant::now();
    let progress = |line: &str| eprintln!("[{:6.1}s] {line}", start.elapsed().as_secs_f64());
    let image = match b.kind.own {
        true => img::build_server_image(&docker, &b.server_options(), &progress).await?,
        false => img::build_image(&docker, &b.options(), &progress).await?,
    };
    println!("{image}");
    Ok(0)
}

/// `status --self`: whether mjai-sim's own image holds this binary (exit 0) or not (1).
async fn status_self() -> anyhow::Result<i32> {
    let docker = img::daemon().await?;
    let image = img::server_image();
    let (_, sha) = img::server_binary_sha(&ServerBuildOptions::default())?;
    match img::image_binary(&docker, &image).await? {
        Some(have) if have == sha => {
            println!("self: {image} present, holds this binary (sha256 {})", &sha[..12]);
            Ok(0)
        }
        Some(have) => {
            let short = &have[..have.len().min(12)];
            println!("self: {image} holds another binary (sha256 {short}): run `mjai-sim image build --self`");
            Ok(1)
        }
        None => {
            println!("self: {image} missing: run `mjai-sim image build --self`");
            Ok(1)
        }
    }
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
