//! This host's cache of submissions read from the store: one file per zip, named by its
//! sha256 (`<dir>/<sha256>.zip`), so that a worker or a server fetches a submission once per
//! host, not once per game, and never holds it in memory.
//!
//! - **Fetching** streams the store's pieces into a temporary file in the cache folder
//!   (hashed as written), then renames it into place: a crash leaves at most a `.part` file,
//!   never a half zip under a trusted name (`.part` files older than an hour are removed).
//! - **Every use verifies**: a cached file is hashed again before it is handed out; one that
//!   does not hash to its name (damaged on disk) is removed and fetched again.
//! - **Bounded** by `--cache-mb` ([`DEFAULT_CACHE_MB`]): after each use the least recently
//!   used zips (by modification time, set at each use) are removed until the total is at
//!   most the cap; the zip just used is kept even when it alone is over it.
//! - **Shared** by the processes of one user on the host (workers, the server): the folder
//!   is this user's, mode 0700, under the system's temporary folder unless given; a file
//!   removed by another process while one holds it open stays readable to that one.

use std::fs;
use std::io::{self, Seek};
use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use anyhow::Context;

use super::store::{Store, StoreError};

/// The default bound of the cache, in MiB (`--cache-mb`): 4 GiB.
pub const DEFAULT_CACHE_MB: u64 = 4096;

/// Age after which a leftover `.part` file (a fetch cut short) is removed.
const STALE_PART: Duration = Duration::from_secs(3600);

/// This host's submission cache (see the module docs).
#[derive(Debug)]
pub struct SubmissionCache {
    dir: PathBuf,
    cap_bytes: u64,
    fetches: AtomicU64,
    /// One fetch or check at a time in this process (two games wanting the same new
    /// submission fetch it once).
    lock: tokio::sync::Mutex<()>,
}

/// The default cache folder: `<temp>/mjai-sim-submissions-<uid>`.
pub fn default_dir() -> PathBuf {
    // SAFETY: geteuid has no preconditions.
    let uid = unsafe { libc::geteuid() };
    std::env::temp_dir().join(format!("mjai-sim-submissions-{uid}"))
}

/// Where this host's cache lives and how far it grows (`--cache-dir`, `--cache-mb`): the
/// cache a process opens when it needs one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CachePlace {
    /// Its folder (`None`: [`default_dir`]).
    pub dir: Option<PathBuf>,
    /// Its bound, in MiB ([`DEFAULT_CACHE_MB`] by default).
    pub mb: u64,
}

impl CachePlace {
    /// The cache, its folder created. Errors: the folder cannot be created or is not
    /// private to this user (one line naming it).
    pub fn open(&self) -> anyhow::Result<Arc<SubmissionCache>> {
        let dir = self.dir.clone().unwrap_or_else(default_dir);
        let cache = SubmissionCache::open(&dir, self.mb.saturating_mul(1024 * 1024))
            .with_context(|| format!("the submission cache {} (--cache-dir)", dir.display()))?;
        Ok(Arc::new(cache))
    }
}

impl SubmissionCache {
    /// The cache in `dir` (created, mode 0700), bounded to `cap_bytes` bytes. Errors: the
    /// folder cannot be created, or it is not a folder of this user's that only they can
    /// read (the message names it and the fix).
    pub fn open(dir: &Path, cap_bytes: u64) -> io::Result<SubmissionCache> {
        fs::DirBuilder::new().recursive(true).mode(0o700).create(dir).map_err(|e| at(dir, e))?;
        check_private(dir)?;
        Ok(SubmissionCache {
            dir: dir.to_path_buf(),
            cap_bytes,
            fetches: AtomicU64::new(0),
            lock: tokio::sync::Mutex::new(()),
        })
    }

    /// The cache folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The bound, in bytes.
    pub fn cap_bytes(&self) -> u64 {
        self.cap_bytes
    }

    /// How many submissions this cache read from a store (misses and damaged files).
    pub fn fetches(&self) -> u64 {
        self.fetches.load(Ordering::Relaxed)
    }

    /// Where submission `sha256` lives in the cache.
    pub fn path_of(&self, sha256: &str) -> PathBuf {
        self.dir.join(format!("{sha256}.zip"))
    }

    /// The zip of submission `sha256`, opened at its start and verified: from the cache,
    /// else fetched from `store` piece by piece into it (then the cache is trimmed to its
    /// bound). `None`: the store has no such submission. The handle stays readable even if
    /// another process evicts the file meanwhile. Errors: the store failed or holds damaged
    /// bytes ([`StoreError::Mismatch`]); [`StoreError::LocalFile`] when the cache folder
    /// cannot be written.
    pub async fn open_zip(&self, store: &Store, sha256: &str) -> Result<Option<fs::File>, StoreError> {
        if !is_sha256(sha256) {
            return Err(self.local(store, sha256, &self.dir, io::Error::other("not a sha256 (64 hex digits)")));
        }
        let _one = self.lock.lock().await;
        let path = self.path_of(sha256);
        let cached = self.verified(&path, sha256).await.map_err(|e| self.local(store, sha256, &path, e))?;
        let file = match cached {
            Some(file) => file,
            None => {
                self.fetches.fetch_add(1, Ordering::Relaxed);
                let part = self.dir.join(format!(".{sha256}.{}.{}.part", std::process::id(), rand::random::<u32>()));
                let written = store.blobs().write_submission(sha256, &part).await;
                let renamed = match written {
                    Ok(Some(len)) => {
                        tracing::info!("submission {sha256}: fetched into the cache ({len} bytes)");
                        fs::rename(&part, &path).map_err(|e| self.local(store, sha256, &path, e))
                    }
                    Ok(None) => {
                        let _ = fs::remove_file(&part);
                        return Ok(None);
                    }
                    Err(e) => Err(e),
                };
                if let Err(e) = renamed {
                    let _ = fs::remove_file(&part);
                    return Err(e);
                }
                fs::File::open(&path).map_err(|e| self.local(store, sha256, &path, e))?
            }
        };
        // used now: the youngest, kept by this trim
        let _ = file.set_modified(SystemTime::now());
        let (dir, cap, keep) = (self.dir.clone(), self.cap_bytes, path.clone());
        let trimmed = tokio::task::spawn_blocking(move || trim(&dir, cap, &keep)).await;
        if let Ok(Err(e)) | Err(e) = trimmed.map_err(io::Error::other) {
            tracing::warn!("the submission cache {}: cannot trim it: {e}", self.dir.display());
        }
        Ok(Some(file))
    }

    /// Submission `sha256` as the file `dest` (a hard link to the cached zip where the
    /// cache and `dest` share a file system, else a copy): a path that eviction cannot take
    /// away. Returns false when the store has no such submission. Errors as
    /// [`SubmissionCache::open_zip`], and `dest` cannot be written.
    pub async fn link_into(&self, store: &Store, sha256: &str, dest: &Path) -> Result<bool, StoreError> {
        let Some(mut file) = self.open_zip(store, sha256).await? else { return Ok(false) };
        let _ = fs::remove_file(dest);
        // the file under a trusted name was verified as it was written and again just now
        if fs::hard_link(self.path_of(sha256), dest).is_ok() {
            return Ok(true);
        }
        let copied = tokio::task::spawn_blocking({
            let dest = dest.to_path_buf();
            move || -> io::Result<()> {
                file.rewind()?;
                io::copy(&mut file, &mut fs::File::create(&dest)?)?;
                Ok(())
            }
        })
        .await
        .map_err(io::Error::other)
        .and_then(|r| r);
        copied.map_err(|e| self.local(store, sha256, dest, e))?;
        Ok(true)
    }

    /// The cached file at `path`, opened, if it hashes to `sha256`; a damaged one is
    /// removed (and `None` returned, so it is fetched again).
    async fn verified(&self, path: &Path, sha256: &str) -> io::Result<Option<fs::File>> {
        let (path, sha) = (path.to_path_buf(), sha256.to_string());
        let checked = tokio::task::spawn_blocking(move || -> io::Result<Option<fs::File>> {
            let mut file = match fs::File::open(&path) {
                Ok(f) => f,
                Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
                Err(e) => return Err(e),
            };
            let mut hasher = <sha2::Sha256 as sha2::Digest>::new();
            io::copy(&mut file, &mut hasher)?;
            if hex::encode(sha2::Digest::finalize(hasher)) != sha {
                tracing::warn!(
                    "the cached submission {} is damaged (its sha256 differs): fetched again",
                    path.display()
                );
                let _ = fs::remove_file(&path);
                return Ok(None);
            }
            file.rewind()?;
            Ok(Some(file))
        });
        checked.await.map_err(io::Error::other)?
    }

    fn local(&self, store: &Store, sha256: &str, file: &Path, e: io::Error) -> StoreError {
        StoreError::LocalFile {
            db: store.name().to_string(),
            sha256: sha256.to_string(),
            file: file.display().to_string(),
            cause: e.to_string(),
        }
    }
}

/// Whether `s` is 64 lower-case hex digits (a cache file name never holds anything else).
fn is_sha256(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// Removes the least recently used zips of `dir` until their total is at most `cap`
/// bytes, never `keep`; removes `.part` files older than [`STALE_PART`].
fn trim(dir: &Path, cap: u64, keep: &Path) -> io::Result<()> {
    let mut zips = Vec::new();
    let mut total = 0u64;
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let Ok(meta) = entry.metadata() else { continue }; // removed meanwhile
        let modified = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
        if name.ends_with(".part") {
            if modified.elapsed().is_ok_and(|age| age > STALE_PART) {
                let _ = fs::remove_file(entry.path());
            }
            continue;
        }
        if name.strip_suffix(".zip").is_some_and(is_sha256) && meta.is_file() {
            total += meta.len();
            zips.push((modified, entry.path(), meta.len()));
        }
    }
    zips.sort();
    for (_, path, len) in zips {
        if total <= cap {
            break;
        }
        if path == keep {
            continue;
        }
        match fs::remove_file(&path) {
            Ok(()) => total -= len,
            Err(e) if e.kind() == io::ErrorKind::NotFound => total -= len,
            Err(e) => return Err(at(&path, e)),
        }
    }
    Ok(())
}

/// An error naming a folder of this user's that others can read or that is not theirs.
fn check_private(dir: &Path) -> io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    let meta = fs::symlink_metadata(dir).map_err(|e| at(dir, e))?;
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    if !meta.is_dir() || meta.uid() != me || meta.mode() & 0o077 != 0 {
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!(
                "{}: not a private folder of this user (owner uid {}, mode {:o}); remove it or pass another --cache-dir",
                dir.display(),
                meta.uid(),
                meta.mode() & 0o7777
            ),
        ));
    }
    Ok(())
}

fn at(path: &Path, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

#[cfg(test)]
#[path = "submission_cache_tests.rs"]
mod tests;
