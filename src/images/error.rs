//! Why the bot image could not be found or built: one variant per cause, each message naming
//! the cause and the fix.

use std::path::PathBuf;

/// An error of `mjai-sim image` or [`super::ensure_image`].
#[derive(Debug, thiserror::Error)]
pub enum ImageError {
    /// The Docker daemon did not answer a ping.
    #[error("cannot reach the Docker daemon ({0}): start it (`systemctl start docker`) or set DOCKER_HOST")]
    DaemonUnreachable(String),
    /// Some pinned wheels are not in the wheel folder and could not be downloaded.
    #[error(
        "missing wheels in {dir}: {missing} ({cause}); on a machine with internet run \
         `pip download --only-binary=:all: --python-version 3.11 --platform manylinux2014_x86_64 \
         --require-hashes -r docker/requirements.txt -d WHEELS` and pass `--wheels WHEELS`"
    )]
    MissingWheels {
        /// The folder searched (and downloaded into).
        dir: PathBuf,
        /// The requirements without a matching wheel, comma-separated.
        missing: String,
        /// Why downloading them failed.
        cause: String,
    },
    /// debootstrap is not installed and cannot be installed here.
    #[error("debootstrap is not installed ({0}); install it as root (`apt-get install -y debootstrap`) or give a base image with Python 3.11 and pip (`--base IMAGE`, e.g. after `docker load` of python:3.11-slim)")]
    DebootstrapMissing(String),
    /// Building the base needs root (debootstrap creates device nodes and chroots).
    #[error("making the base image with debootstrap needs root: run `sudo mjai-sim image build` once, or give a base image with Python 3.11 and pip (`--base IMAGE`)")]
    NotRoot,
    /// debootstrap ran and failed.
    #[error("debootstrap failed ({status}): {tail}; check that {mirror} is reachable (or pass `--mirror URL`)")]
    Debootstrap {
        /// Its exit status.
        status: String,
        /// The last lines it printed.
        tail: String,
        /// The Debian mirror used.
        mirror: String,
    },
    /// The requested base image is not present and pulling was not allowed or failed.
    #[error("base image {image} is not available ({cause}); `docker load` it, pass `--base pull` (python:3.11-slim from Docker Hub), or use `--base debootstrap`")]
    BaseMissing {
        /// The base image reference.
        image: String,
        /// Why it is unavailable.
        cause: String,
    },
    /// The ml image is built by bind-mounting the host's wheel folder: the daemon must be local.
    #[error("the ml image must be built on the Docker host (DOCKER_HOST names a daemon elsewhere): run `mjai-sim image build --ml` there")]
    MlNeedsLocalDaemon,
    /// The Debian packages of mjai-sim's own image could not be gathered.
    #[error("cannot gather the Debian packages of mjai-sim's image: {cause}; on a Debian bookworm host run `{command}` and pass `--debs DIR`")]
    Debs {
        /// Why.
        cause: String,
        /// The command that fills the folder by hand.
        command: String,
    },
    /// `docker build` reported an error.
    #[error("building {image} failed: {cause}")]
    Build {
        /// The image being built.
        image: String,
        /// The daemon's message (the failing step's output precedes it in the progress).
        cause: String,
    },
    /// Any other Docker API failure, with the operation that failed.
    #[error("docker {op} failed: {source}")]
    Docker {
        /// What was being done (e.g. "import of the base rootfs").
        op: String,
        /// The bollard error.
        source: bollard::errors::Error,
    },
    /// A local file operation failed.
    #[error("{op}: {source}")]
    Io {
        /// What was being done, naming the path.
        op: String,
        /// The I/O error.
        source: std::io::Error,
    },
}

impl ImageError {
    /// Wraps an I/O error with what was being done.
    pub(crate) fn io(op: impl Into<String>) -> impl FnOnce(std::io::Error) -> ImageError {
        let op = op.into();
        move |source| ImageError::Io { op, source }
    }

    /// Wraps a bollard error with what was being done.
    pub(crate) fn docker(op: impl Into<String>) -> impl FnOnce(bollard::errors::Error) -> ImageError {
        let op = op.into();
        move |source| ImageError::Docker { op, source }
    }
}
