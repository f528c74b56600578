//! Building mjai-sim's images through the Docker API (`mjai-sim image`): the bot images
//! from the docker/ folder (embedded at compile time, [`mjai_sim_runtime::docker::image::inputs`]),
//! tagged `mjai-sim-bot:<first 12 hex of the sha256 of those inputs>` and rebuilt only when
//! they change (issue 4), and mjai-sim's own image ([`server`]: the server, workers, a stack's
//! database). The references and the layout of the bot images are the runtime's
//! ([`mjai_sim_runtime::docker::image`]), which starts them; this crate makes them, on the
//! host's tools (debootstrap, `pip download`, `apt-get download`) when it must.
//!
//! Two bot images: the default one and the ml image ([`ml`]: the default one plus
//! mjai.app's torch 2.2.2 and numpy 1.26.4), chosen with `--image default|ml` ([`ImageKind`]).

#![warn(missing_docs)]

mod base;
mod context;
mod debs;
mod error;
mod ml;
mod requirements;
mod rootfs;
mod server;
mod wheels;

use std::path::PathBuf;

use bollard::Docker;
use mjai_sim_runtime::docker::image::{default_image, inputs, ml_image};

pub use base::{debootstrap_base_image, is_root, BaseChoice, BASE_REPO, DEFAULT_MIRROR, SLIM_BASE};
pub use context::LABEL_BASE;
pub use error::ImageError;
pub use server::{
    binary_and_sha as server_binary_sha, build_server_image, image_binary, server_image, ServerBuildOptions,
    SERVER_REPO,
};

/// Which of mjai-sim's two bot images.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ImageKind {
    /// `mjai-sim-bot`: Python 3.11 and the packages of docker/requirements.txt.
    #[default]
    Default,
    /// `mjai-sim-bot-ml`: the default image plus docker/requirements-ml.txt (torch 2.2.2,
    /// numpy 1.26.4, as mjai.app's image).
    Ml,
}

impl ImageKind {
    /// Both, in `image status` order.
    pub const ALL: [ImageKind; 2] = [ImageKind::Default, ImageKind::Ml];

    /// The name `--image` takes: `default` or `ml`.
    pub fn name(self) -> &'static str {
        match self {
            ImageKind::Default => "default",
            ImageKind::Ml => "ml",
        }
    }

    /// The reference this binary expects: [`default_image`] or [`ml_image`].
    pub fn reference(self) -> String {
        match self {
            ImageKind::Default => default_image(),
            ImageKind::Ml => ml_image(),
        }
    }

    /// The kind `--image` names (`default`, `ml`); `None` for an image reference.
    pub fn from_name(name: &str) -> Option<ImageKind> {
        ImageKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// Receives one human-readable progress line at a time (the CLI prints them to stderr).
pub type ProgressLine<'a> = &'a (dyn Fn(&str) + Send + Sync);

/// How to build an image.
#[derive(Debug, Clone, Default)]
pub struct BuildOptions {
    /// Which image (the ml image builds the default one first when missing).
    pub kind: ImageKind,
    /// Rebuild even if the tagged image exists (every step, no build cache).
    pub force: bool,
    /// Also remake the debootstrap base (only when the debootstrap base is used).
    pub force_base: bool,
    /// Where the base comes from.
    pub base: BaseChoice,
    /// Folder holding (or receiving) the wheels; default [`default_wheel_dir`].
    pub wheels: Option<PathBuf>,
    /// Do not run `pip download` for missing wheels (air-gapped hosts: fill `wheels` first).
    pub offline: bool,
    /// Debian mirror for debootstrap; default [`DEFAULT_MIRROR`].
    pub mirror: Option<String>,
}

/// What `image status` reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageStatus {
    /// The expected reference ([`ImageKind::reference`]).
    pub image: String,
    /// Whether the daemon has it.
    pub present: bool,
    /// Its image id, when present.
    pub id: Option<String>,
    /// Its base image (label [`LABEL_BASE`]), when present.
    pub base: Option<String>,
    /// Its creation time (RFC 3339), when present.
    pub created: Option<String>,
}

/// The wheel cache: `$MJAI_SIM_CACHE/wheels`, else `$XDG_CACHE_HOME/mjai-sim/wheels`, else
/// `~/.cache/mjai-sim/wheels`, else `/var/tmp/mjai-sim/wheels`.
pub fn default_wheel_dir() -> PathBuf {
    let env = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty()).map(PathBuf::from);
    let cache = env("MJAI_SIM_CACHE")
        .or_else(|| env("XDG_CACHE_HOME").map(|p| p.join("mjai-sim")))
        .or_else(|| env("HOME").map(|p| p.join(".cache/mjai-sim")))
        .unwrap_or_else(|| PathBuf::from("/var/tmp/mjai-sim"));
    cache.join("wheels")
}

/// The Docker daemon ([`mjai_sim_runtime::docker::daemon`]), for building and inspecting
/// images. Errors: [`ImageError::DaemonUnreachable`].
pub async fn daemon() -> Result<Docker, ImageError> {
    use mjai_sim_runtime::docker::{self, DockerError};
    docker::daemon().await.map_err(|e| match e {
        DockerError::Unreachable(cause) => ImageError::DaemonUnreachable(cause),
        other => ImageError::DaemonUnreachable(other.to_string()),
    })
}

/// Whether the daemon has `image`; other failures are errors.
pub async fn image_exists(docker: &Docker, image: &str) -> Result<bool, ImageError> {
    match docker.inspect_image(image).await {
        Ok(_) => Ok(true),
        Err(bollard::errors::Error::DockerResponseServerError { status_code: 404, .. }) => Ok(false),
        Err(e) => Err(ImageError::docker(format!("inspect of {image}"))(e)),
    }
}

/// Reports whether the image of `kind` for the current inputs exists, with its id, base and date.
pub async fn image_status(docker: &Docker, kind: ImageKind) -> Result<ImageStatus, ImageError> {
    let image = kind.reference();
    match docker.inspect_image(&image).await {
        Ok(info) => {
            let labels = info.config.and_then(|c| c.labels).unwrap_or_default();
            Ok(ImageStatus {
                image,
                present: true,
                id: info.id,
                base: labels.get(LABEL_BASE).cloned(),
                created: info.created,
            })
        }
        Err(bollard::errors::Error::DockerResponseServerError { status_code: 404, .. }) => {
            Ok(ImageStatus { image, present: false, id: None, base: None, created: None })
        }
        Err(e) => Err(ImageError::docker(format!("inspect of {image}"))(e)),
    }
}

/// Builds the image of `options.kind` unless it exists (or `options.force`) and returns its
/// reference. The default image: resolves the base (see [`BaseChoice`]), gathers the wheels,
/// sends the context, tags the result (minutes when debootstrap runs, about a minute
/// otherwise). The ml image: the default one first (built when missing, never forced), then
/// [`ml`]'s container and commit (the 2.5 GB of wheels downloaded once into the cache; a few
/// minutes). Errors: one line naming cause and fix ([`ImageError`]).
pub async fn build_image(
    docker: &Docker,
    options: &BuildOptions,
    progress: ProgressLine<'_>,
) -> Result<String, ImageError> {
    let image = options.kind.reference();
    if !options.force && image_exists(docker, &image).await? {
        progress(&format!("{image} is up to date"));
        return Ok(image);
    }
    let wheel_dir = options.wheels.clone().unwrap_or_else(default_wheel_dir);
    if options.kind == ImageKind::Ml {
        if !mjai_sim_runtime::docker::daemon_is_local() {
            return Err(ImageError::MlNeedsLocalDaemon);
        }
        let default = BuildOptions { kind: ImageKind::Default, force: false, ..options.clone() };
        let base = Box::pin(build_image(docker, &default, progress)).await?;
        let wheels = wheels::ensure_wheels(inputs::REQUIREMENTS_ML, &wheel_dir, !options.offline, progress).await?;
        progress(&format!("wheels: {} ready in {}", wheels.len(), wheel_dir.display()));
        progress(&format!("building {image} on {base} (pip install of torch: a few minutes)"));
        ml::commit_ml_image(docker, &image, &base, &wheel_dir, progress).await?;
        progress(&format!("built {image}"));
        return Ok(image);
    }
    let wheels = wheels::ensure_wheels(inputs::REQUIREMENTS, &wheel_dir, !options.offline, progress).await?;
    progress(&format!("wheels: {} ready in {}", wheels.len(), wheel_dir.display()));
    let mirror = options.mirror.as_deref().unwrap_or(DEFAULT_MIRROR);
    let base = base::resolve_base(docker, &options.base, options.force_base, mirror, progress).await?;
    progress(&format!("building {image} on {base}"));
    let context = tokio::task::spawn_blocking(move || context::context_tar(&wheels))
        .await
        .map_err(|e| ImageError::io("packing the build context")(std::io::Error::other(e)))?
        .map_err(ImageError::io("packing the build context"))?;
    context::docker_build(docker, &image, &base, context, options.force, progress).await?;
    progress(&format!("built {image}"));
    Ok(image)
}

/// What a game calls before starting containers: returns the reference of `options.kind` at
/// once when the daemon has it, else builds it with `options` (the error says how to build
/// it by hand when building is impossible here, e.g. not root and no base image).
pub async fn ensure_image(
    docker: &Docker,
    options: &BuildOptions,
    progress: ProgressLine<'_>,
) -> Result<String, ImageError> {
    let image = options.kind.reference();
    if image_exists(docker, &image).await? {
        return Ok(image);
    }
    let what = match options.kind {
        ImageKind::Default => "once per change of docker/",
        ImageKind::Ml => "once per change of docker/; downloads 2.5 GB of wheels the first time",
    };
    progress(&format!("{image} is missing: building it ({what})"));
    build_image(docker, &BuildOptions { force: false, ..options.clone() }, progress).await
}

/// The image a game runs, from `--image`: absent or `default`: the default image, `ml`: the
/// ml image, each built when missing ([`ensure_image`]); anything else is an image reference
/// returned as it is (the runtime checks that the daemon has it).
pub async fn resolve_image(
    docker: &Docker,
    choice: Option<&str>,
    progress: ProgressLine<'_>,
) -> Result<String, ImageError> {
    let kind = match choice {
        None => ImageKind::Default,
        Some(name) => match ImageKind::from_name(name) {
            Some(kind) => kind,
            None => return Ok(name.to_string()),
        },
    };
    ensure_image(docker, &BuildOptions { kind, ..Default::default() }, progress).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn image_kinds_by_name() {
        assert_eq!(ImageKind::from_name("ml"), Some(ImageKind::Ml));
        assert_eq!(ImageKind::from_name("default"), Some(ImageKind::Default));
        assert_eq!(ImageKind::from_name("mjai-sim-bot:abc"), None);
        assert!(ImageKind::Ml.reference().starts_with("mjai-sim-bot-ml:"));
        assert_ne!(ImageKind::Ml.reference(), ImageKind::Default.reference());
    }

    #[test]
    fn debootstrap_base_is_tagged_with_its_recipe_hash() {
        let base = debootstrap_base_image();
        assert!(base.starts_with("mjai-sim-base:bookworm-"), "{base}");
        assert_eq!(base.len(), "mjai-sim-base:bookworm-".len() + 12);
    }
}
