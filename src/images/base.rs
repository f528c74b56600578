//! The base image under the bot image: `python:3.11-slim` when the daemon has it (or may pull
//! it), otherwise a Debian bookworm rootfs made with debootstrap on the host and imported
//! through the Docker API, so that air-gapped machines can build the image too.

use std::path::{Path, PathBuf};

use bollard::query_parameters::{CreateImageOptions, CreateImageOptionsBuilder};
use bollard::Docker;
use futures_util::{StreamExt, TryStreamExt};
use tokio::io::{AsyncBufReadExt, BufReader};

use super::error::ImageError;
use super::{image_exists, ProgressLine};
use mjai_sim_runtime::docker::image::inputs::{base_hash, DEBOOTSTRAP_INCLUDE, DEBOOTSTRAP_SUITE, DEBOOTSTRAP_VARIANT};

/// The preferred base: Docker's official Python 3.11 image.
pub const SLIM_BASE: &str = "python:3.11-slim";
/// Repository of the debootstrap-made base.
pub const BASE_REPO: &str = "mjai-sim-base";
/// Debian mirror used by debootstrap unless `--mirror` says otherwise.
pub const DEFAULT_MIRROR: &str = "http://deb.debian.org/debian";

/// Where the base image comes from.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum BaseChoice {
    /// `python:3.11-slim` if present locally, else the debootstrap base (made when missing).
    /// Never contacts a registry.
    #[default]
    Auto,
    /// `python:3.11-slim`, pulled from Docker Hub when missing.
    Pull,
    /// The debootstrap base, made when missing.
    Debootstrap,
    /// A given image, which must provide python3 (3.11) with pip.
    Image(String),
}

/// The reference of the debootstrap base: `mjai-sim-base:bookworm-<hash of the recipe>`.
pub fn debootstrap_base_image() -> String {
    format!("{BASE_REPO}:{DEBOOTSTRAP_SUITE}-{}", base_hash())
}

/// Returns the base image reference to build on, making or pulling it as `choice` says.
/// `force_base` remakes the debootstrap base even when present.
pub async fn resolve_base(
    docker: &Docker,
    choice: &BaseChoice,
    force_base: bool,
    mirror: &str,
    progress: ProgressLine<'_>,
) -> Result<String, ImageError> {
    match choice {
        BaseChoice::Image(image) => {
            if image_exists(docker, image).await? {
                Ok(image.clone())
            } else {
                Err(ImageError::BaseMissing { image: image.clone(), cause: "not present locally".into() })
            }
        }
        BaseChoice::Pull => {
            if !image_exists(docker, SLIM_BASE).await? {
                pull(docker, SLIM_BASE, progress).await?;
            }
            Ok(SLIM_BASE.to_string())
        }
        BaseChoice::Auto if !force_base && image_exists(docker, SLIM_BASE).await? => Ok(SLIM_BASE.to_string()),
        BaseChoice::Auto | BaseChoice::Debootstrap => {
            let image = debootstrap_base_image();
            if force_base || !image_exists(docker, &image).await? {
                make_debootstrap_base(docker, &image, mirror, progress).await?;
            } else {
                progress(&format!("base: {image} (present)"));
            }
            Ok(image)
        }
    }
}

async fn pull(docker: &Docker, image: &str, progress: ProgressLine<'_>) -> Result<(), ImageError> {
    progress(&format!("base: pulling {image}"));
    let options: CreateImageOptions = CreateImageOptionsBuilder::default().from_image(image).build();
    docker
        .create_image(Some(options), None, None)
        .try_for_each(|_| async { Ok(()) })
        .await
        .map_err(|e| ImageError::BaseMissing { image: image.into(), cause: format!("pull failed: {e}") })
}

/// Makes the base with debootstrap in a temporary folder under /var/tmp and imports it as `image`.
async fn make_debootstrap_base(
    docker: &Docker,
    image: &str,
    mirror: &str,
    progress: ProgressLine<'_>,
) -> Result<(), ImageError> {
    if !is_root() {
        return Err(ImageError::NotRoot);
    }
    let debootstrap = find_or_install_debootstrap(progress).await?;
    let work_parent = if Path::new("/var/tmp").is_dir() { PathBuf::from("/var/tmp") } else { std::env::temp_dir() };
    let work = tempfile::Builder::new()
        .prefix("mjai-sim-rootfs-")
        .tempdir_in(&work_parent)
        .map_err(ImageError::io(format!("creating a work folder in {}", work_parent.display())))?;
    let rootfs = work.path().join("rootfs");
    progress(&format!(
        "base: debootstrap {DEBOOTSTRAP_SUITE} ({DEBOOTSTRAP_VARIANT} + {DEBOOTSTRAP_INCLUDE}) from {mirror} (a few minutes)"
    ));
    run_debootstrap(&debootstrap, &rootfs, mirror, progress).await?;

    progress("base: packing the rootfs");
    let tar_path = work.path().join("rootfs.tar");
    let (root, out) = (rootfs.clone(), tar_path.clone());
    let entries = tokio::task::spawn_blocking(move || {
        let file = std::io::BufWriter::new(std::fs::File::create(&out)?);
        super::rootfs::write_rootfs_tar(&root, file)
    })
    .await
    .map_err(|e| ImageError::io("packing the rootfs")(std::io::Error::other(e)))?
    .map_err(ImageError::io(format!("packing {}", rootfs.display())))?;

    progress(&format!("base: importing {entries} files as {image}"));
    let (repo, tag) = image.split_once(':').unwrap_or((image, "latest"));
    let options: CreateImageOptions = CreateImageOptionsBuilder::default().from_src("-").repo(repo).tag(tag).build();
    let file =
        tokio::fs::File::open(&tar_path).await.map_err(ImageError::io(format!("opening {}", tar_path.display())))?;
    let body = bollard::body_try_stream(file_chunks(file));
    docker
        .create_image(Some(options), Some(body), None)
        .try_for_each(|_| async { Ok(()) })
        .await
        .map_err(ImageError::docker("import of the base rootfs"))
}

/// The file as a stream of 256 KiB chunks.
pub(super) fn file_chunks(
    file: tokio::fs::File,
) -> impl futures_util::Stream<Item = std::io::Result<bytes::Bytes>> + Send + 'static {
    use tokio::io::AsyncReadExt;
    futures_util::stream::try_unfold(file, |mut f| async move {
        let mut buf = vec![0u8; 256 * 1024];
        let n = f.read(&mut buf).await?;
        buf.truncate(n);
        Ok((n > 0).then(|| (bytes::Bytes::from(buf), f)))
    })
}

async fn run_debootstrap(
    debootstrap: &Path,
    rootfs: &Path,
    mirror: &str,
    progress: ProgressLine<'_>,
) -> Result<(), ImageError> {
    let mut child = tokio::process::Command::new(debootstrap)
        .arg(format!("--variant={DEBOOTSTRAP_VARIANT}"))
        .arg(format!("--include={DEBOOTSTRAP_INCLUDE}"))
        .arg(DEBOOTSTRAP_SUITE)
        .arg(rootfs)
        .arg(mirror)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| ImageError::DebootstrapMissing(format!("cannot run {}: {e}", debootstrap.display())))?;
    let mut tail: Vec<String> = Vec::new();
    let stdout = BufReader::new(child.stdout.take().expect("piped")).lines();
    let stderr = BufReader::new(child.stderr.take().expect("piped")).lines();
    let mut lines = futures_util::stream::select(tokio_stream_lines(stdout), tokio_stream_lines(stderr));
    while let Some(line) = lines.next().await {
        let stage = ["I: Retrieving Packages", "I: Unpacking the base", "I: Configuring the base", "I: Base system"];
        if stage.iter().any(|s| line.starts_with(s)) {
            progress(&format!("debootstrap: {}", line.trim_start_matches("I: ")));
        }
        tail.push(line);
        if tail.len() > 3 {
            tail.remove(0);
        }
    }
    let status = child.wait().await.map_err(ImageError::io("waiting for debootstrap"))?;
    if status.success() {
        return Ok(());
    }
    let log = std::fs::read_to_string(rootfs.join("debootstrap/debootstrap.log")).unwrap_or_default();
    let log_tail: Vec<&str> = log.lines().rev().take(2).collect();
    let mut tail = tail.join(" | ");
    if !log_tail.is_empty() {
        tail = format!("{tail} | log: {}", log_tail.into_iter().rev().collect::<Vec<_>>().join(" | "));
    }
    Err(ImageError::Debootstrap { status: status.to_string(), tail, mirror: mirror.to_string() })
}

fn tokio_stream_lines<R: tokio::io::AsyncBufRead + Unpin + Send + 'static>(
    lines: tokio::io::Lines<R>,
) -> impl futures_util::Stream<Item = String> + Unpin + Send {
    Box::pin(futures_util::stream::unfold(lines, |mut l| async move {
        l.next_line().await.ok().flatten().map(|line| (line, l))
    }))
}

/// Finds debootstrap (PATH, /usr/sbin); installs it with apt-get when missing (root only).
async fn find_or_install_debootstrap(progress: ProgressLine<'_>) -> Result<PathBuf, ImageError> {
    if let Some(p) = find_program("debootstrap") {
        return Ok(p);
    }
    if find_program("apt-get").is_none() {
        return Err(ImageError::DebootstrapMissing("no apt-get on this host".into()));
    }
    progress("base: installing debootstrap with apt-get");
    let install = || tokio::process::Command::new("apt-get").args(["install", "-y", "-q", "debootstrap"]).output();
    let mut out = install().await.map_err(|e| ImageError::DebootstrapMissing(format!("apt-get: {e}")))?;
    if !out.status.success() {
        let _ = tokio::process::Command::new("apt-get").args(["update", "-q"]).output().await;
        out = install().await.map_err(|e| ImageError::DebootstrapMissing(format!("apt-get: {e}")))?;
    }
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let last = err.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("no output").trim().to_string();
        return Err(ImageError::DebootstrapMissing(format!("apt-get install failed: {last}")));
    }
    find_program("debootstrap").ok_or_else(|| ImageError::DebootstrapMissing("not found after apt-get install".into()))
}

fn find_program(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(["/usr/sbin", "/sbin"].map(PathBuf::from))
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// Whether this process runs with effective uid 0 (from /proc/self/status; false if unknown).
pub fn is_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("Uid:"))
                .and_then(|ids| ids.split_whitespace().nth(1).map(|e| e == "0"))
        })
        .unwrap_or(false)
}
