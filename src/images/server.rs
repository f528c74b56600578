//! mjai-sim's own image, `mjai-sim:VERSION` ([`server_image`]): the running mjai-sim binary
//! (built on the host), Debian's PostgreSQL 15 for a stack's database, user `mjai` (uid
//! 1000), on the bot image's base (see docker/server/Dockerfile and docs/deploy.md).
//! Rebuilt when the binary changes: the image carries the binary's sha256 as a label.

use std::path::{Path, PathBuf};

use bollard::Docker;

use super::base::{file_chunks, resolve_base, BaseChoice};
use super::error::ImageError;
use super::wheels::sha256_of_file;
use super::{debs, ProgressLine};

/// Repository of mjai-sim's own image (the bot images are `mjai-sim-bot*`, their base
/// `mjai-sim-base`).
pub const SERVER_REPO: &str = "mjai-sim";
/// Label holding the sha256 (hex) of the binary inside.
pub const LABEL_BINARY: &str = "org.mjai-sim.binary-sha256";
/// `docker/server/Dockerfile`.
const DOCKERFILE: &str = include_str!("../../docker/server/Dockerfile");
/// `docker/server/mjai-sim-postgres`: the stack's database entry point.
const POSTGRES_SCRIPT: &str = include_str!("../../docker/server/mjai-sim-postgres");

/// The reference of mjai-sim's own image: `mjai-sim:<this binary's version>`.
pub fn server_image() -> String {
    format!("{SERVER_REPO}:{}", env!("CARGO_PKG_VERSION"))
}

/// How to build mjai-sim's own image.
#[derive(Debug, Clone, Default)]
pub struct ServerBuildOptions {
    /// Rebuild even when the image holds this binary (no build cache).
    pub force: bool,
    /// The binary to put in [default: the running one].
    pub binary: Option<PathBuf>,
    /// Where the base comes from (as for the bot image).
    pub base: BaseChoice,
    /// Also remake the debootstrap base.
    pub force_base: bool,
    /// Debian mirror for debootstrap.
    pub mirror: Option<String>,
    /// Folder holding (or receiving) the Debian packages [default: [`default_deb_dir`]].
    pub debs: Option<PathBuf>,
    /// Never run apt-get download (the folder must be complete).
    pub offline: bool,
}

/// The package folder: `debs/` beside the wheel cache ([`super::default_wheel_dir`]).
pub fn default_deb_dir() -> PathBuf {
    let wheels = super::default_wheel_dir();
    wheels.parent().map_or_else(|| PathBuf::from("/var/tmp/mjai-sim/debs"), |p| p.join("debs"))
}

/// The sha256 the image of `image` says its binary has; `None` when it is missing or has
/// no such label.
pub async fn image_binary(docker: &Docker, image: &str) -> Result<Option<String>, ImageError> {
    match docker.inspect_image(image).await {
        Ok(info) => Ok(info.config.and_then(|c| c.labels).and_then(|l| l.get(LABEL_BINARY).cloned())),
        Err(bollard::errors::Error::DockerResponseServerError { status_code: 404, .. }) => Ok(None),
        Err(e) => Err(ImageError::docker(format!("inspect of {image}"))(e)),
    }
}

/// The binary to put in the image and its sha256. Errors: it cannot be found or read.
pub fn binary_and_sha(options: &ServerBuildOptions) -> Result<(PathBuf, String), ImageError> {
    let binary = match &options.binary {
        Some(p) => p.clone(),
        None => std::env::current_exe().map_err(ImageError::io("finding the running mjai-sim binary"))?,
    };
    let sha = sha256_of_file(&binary).map_err(ImageError::io(format!("reading {}", binary.display())))?;
    Ok((binary, sha))
}

/// Builds [`server_image`] unless it already holds this binary (or `options.force`) and
/// returns its reference: resolves the base, gathers the Debian packages (apt-get download
/// on the host, once), streams the context from a temporary file and builds with networking
/// off (about a minute once the packages are there). Errors: one line naming cause and fix.
pub async fn build_server_image(
    docker: &Docker,
    options: &ServerBuildOptions,
    progress: ProgressLine<'_>,
) -> Result<String, ImageError> {
    let image = server_image();
    let (binary, sha) = binary_and_sha(options)?;
    if !options.force && image_binary(docker, &image).await?.as_deref() == Some(sha.as_str()) {
        progress(&format!("{image} is up to date (binary {})", &sha[..12]));
        return Ok(image);
    }
    let old = docker_id(docker, &image).await;
    let mirror = options.mirror.as_deref().unwrap_or(super::DEFAULT_MIRROR);
    let base = resolve_base(docker, &options.base, options.force_base, mirror, progress).await?;
    let deb_dir = options.debs.clone().unwrap_or_else(default_deb_dir);
    let debs = debs::ensure_debs(&deb_dir, !options.offline, progress).await?;
    progress(&format!("packages: {} ready in {}", debs.len(), deb_dir.display()));
    let work = tempfile::Builder::new()
        .prefix("mjai-sim-image-")
        .tempdir()
        .map_err(ImageError::io("creating a temporary folder for the build context"))?;
    let tar_path = work.path().join("context.tar");
    let (out, bin) = (tar_path.clone(), binary.clone());
    tokio::task::spawn_blocking(move || write_context(&out, &bin, &debs))
        .await
        .map_err(|e| ImageError::io("packing the build context")(std::io::Error::other(e)))?
        .map_err(ImageError::io("packing the build context"))?;
    progress(&format!("building {image} on {base} from {}", binary.display()));
    let file =
        tokio::fs::File::open(&tar_path).await.map_err(ImageError::io(format!("opening {}", tar_path.display())))?;
    let labels = [(LABEL_BINARY, sha.as_str())];
    super::context::docker_build_stream(docker, &image, &base, file_chunks(file), &labels, options.force, progress)
        .await?;
    progress(&format!("built {image}"));
    let new = docker_id(docker, &image).await;
    if let Some(old) = old.filter(|id| new.as_ref().is_some_and(|n| n != id)) {
        // the image of the last binary, now untagged (kept when a container still uses it)
        let _ = docker.remove_image(&old, None::<bollard::query_parameters::RemoveImageOptions>, None).await;
    }
    Ok(image)
}

/// The id of `image`, when the daemon has it.
async fn docker_id(docker: &Docker, image: &str) -> Option<String> {
    docker.inspect_image(image).await.ok().and_then(|i| i.id)
}

/// Writes the context tar to `out`: Dockerfile, mjai-sim-postgres, the binary as `mjai-sim`,
/// the packages under `debs/`.
fn write_context(out: &Path, binary: &Path, debs: &[PathBuf]) -> std::io::Result<()> {
    let mut b = tar::Builder::new(std::io::BufWriter::new(std::fs::File::create(out)?));
    let mut add = |name: &str, bytes: &[u8], mode: u32| {
        let mut h = tar::Header::new_gnu();
        h.set_size(bytes.len() as u64);
        h.set_mode(mode);
        h.set_mtime(0);
        h.set_cksum();
        b.append_data(&mut h, name, bytes)
    };
    add("Dockerfile", DOCKERFILE.as_bytes(), 0o644)?;
    add("mjai-sim-postgres", POSTGRES_SCRIPT.as_bytes(), 0o755)?;
    let mut file = |name: &str, path: &Path, mode: u32| -> std::io::Result<()> {
        let f = std::fs::File::open(path)?;
        let mut h = tar::Header::new_gnu();
        h.set_size(f.metadata()?.len());
        h.set_mode(mode);
        h.set_mtime(0);
        h.set_cksum();
        b.append_data(&mut h, name, f)
    };
    file("mjai-sim", binary, 0o755)?;
    for deb in debs {
        let name = deb.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
        file(&format!("debs/{name}"), deb, 0o644)?;
    }
    b.into_inner()?.into_inner().map_err(|e| e.into_error())?.sync_all()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_image_is_named_after_the_version_apart_from_the_bot_images() {
        assert_eq!(server_image(), format!("mjai-sim:{}", env!("CARGO_PKG_VERSION")));
        assert_ne!(SERVER_REPO, mjai_sim_runtime::docker::image::IMAGE_REPO);
        assert_ne!(SERVER_REPO, super::super::BASE_REPO);
    }

    #[test]
    fn the_context_holds_the_dockerfile_the_script_the_binary_and_the_packages() {
        let dir = tempfile::tempdir().unwrap();
        let (bin, deb) = (dir.path().join("bin"), dir.path().join("x_1_amd64.deb"));
        std::fs::write(&bin, b"ELF").unwrap();
        std::fs::write(&deb, b"!<arch>").unwrap();
        let out = dir.path().join("c.tar");
        write_context(&out, &bin, &[deb]).unwrap();
        let mut archive = tar::Archive::new(std::fs::File::open(&out).unwrap());
        let names: Vec<(String, u32)> = archive
            .entries()
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                (e.path().unwrap().to_string_lossy().to_string(), e.header().mode().unwrap())
            })
            .collect();
        let want =
            [("Dockerfile", 0o644), ("mjai-sim-postgres", 0o755), ("mjai-sim", 0o755), ("debs/x_1_amd64.deb", 0o644)];
        assert_eq!(names, want.map(|(n, m)| (n.to_string(), m)));
        assert!(DOCKERFILE.contains("USER mjai") && DOCKERFILE.contains("MJAI_SIM_DB="));
    }
}
