//! `--cache-dir` and `--cache-mb`: this host's submission cache
//! ([`crate::tournament::submission_cache`]), for the processes that read submissions from a
//! store (`worker`, `serve`, `tournament --db`).

use std::path::PathBuf;
use std::sync::Arc;

use crate::tournament::submission_cache::{CachePlace, SubmissionCache, DEFAULT_CACHE_MB};

/// The cache's arguments.
#[derive(Debug, Clone, clap::Args)]
pub struct CacheArgs {
    /// This host's cache of submissions read from the database, one zip per sha256, shared
    /// by this user's workers and servers [default: mjai-sim-submissions-UID under the
    /// system's temporary folder].
    #[arg(long, value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,
    /// Bound of the submission cache in MiB: the least recently used zips are removed
    /// beyond it (the one in use is kept even when larger).
    #[arg(long, value_name = "MB", default_value_t = DEFAULT_CACHE_MB)]
    pub cache_mb: u64,
}

impl CacheArgs {
    /// The cache these arguments name, to open when needed.
    pub fn place(&self) -> CachePlace {
        CachePlace { dir: self.cache_dir.clone(), mb: self.cache_mb }
    }

    /// The cache these arguments name, its folder created. Errors: the folder cannot be
    /// created or is not private to this user (one line naming it).
    pub fn open(&self) -> anyhow::Result<Arc<SubmissionCache>> {
        self.place().open()
    }
}
