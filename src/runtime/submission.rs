//! Submission intake: a `.zip` with `bot.py` at its root, or a folder holding `bot.py`.
//!
//! Everything is checked before any container or process starts: a bad submission is
//! rejected with one line naming the problem and the fix ([`SubmissionError`]). The result
//! ([`Submission`]) is the list of its files, unpacked on disk in a private temporary folder
//! of its own (removed when the last clone is dropped): its contents are never held in
//! memory. It packs into a tar archive streamed from that folder for the Docker API
//! ([`Submission::tar_stream`], [`super::submission_tar`]) or is copied into a folder
//! ([`Submission::unpack_into`]). Memory stays constant whatever the submission's size: a
//! zip is read from its file and each entry decompressed straight into its own file.
//!
//! Zip bombs: the uncompressed total is counted while decompressing, never taken from the
//! archive's headers.

use std::fs;
use std::io::{Cursor, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::manifest::{Manifest, MANIFEST};

/// Size limits applied while reading a submission.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SubmissionLimits {
    /// Largest accepted archive (or folder total), in bytes. Default 1000 MiB
    /// (the CLI's `--max-submission-mb`).
    pub max_archive_bytes: u64,
    /// Largest accepted uncompressed total, in bytes. Default 2 GiB.
    pub max_unpacked_bytes: u64,
    /// Largest accepted number of files. Default 100 000.
    pub max_files: usize,
}

impl Default for SubmissionLimits {
    fn default() -> Self {
        SubmissionLimits { max_archive_bytes: 1000 * MIB, max_unpacked_bytes: 2048 * MIB, max_files: 100_000 }
    }
}

const MIB: u64 = 1024 * 1024;
/// Longest accepted file or folder name (one path component), in bytes (Linux NAME_MAX).
pub const MAX_NAME_BYTES: usize = 255;

/// Why a submission was rejected. Each message is one line naming the cause and the fix.
#[derive(Debug, thiserror::Error)]
pub enum SubmissionError {
    /// The path does not exist or cannot be read.
    #[error("{path}: cannot read the submission ({cause}); pass an existing .zip file or folder")]
    Unreadable {
        /// The submission's path, as given.
        path: PathBuf,
        /// The I/O error.
        cause: String,
    },
    /// The file is not a zip archive.
    #[error("{path}: not a zip archive ({cause}); pack the bot with `zip -r bot.zip .` inside its folder")]
    NotZip {
        /// The submission's path, as given.
        path: PathBuf,
        /// The zip reader's error.
        cause: String,
    },
    /// The archive or folder holds no files.
    #[error("{path}: the submission is empty; it must hold bot.py at its root")]
    Empty {
        /// The submission's path, as given.
        path: PathBuf,
    },
    /// No `bot.py` at the root, but one in a single top folder.
    #[error("{path}: bot.py is inside the folder `{folder}`; zip the folder's contents, not the folder")]
    NestedBotPy {
        /// The submission's path, as given.
        path: PathBuf,
        /// The single top folder holding `bot.py`.
        folder: String,
    },
    /// No `bot.py` at the root.
    #[error(
        "{path}: no bot.py at the root of the submission; add bot.py (the program run as `python3 -u bot.py SEAT`)"
    )]
    NoBotPy {
        /// The submission's path, as given.
        path: PathBuf,
    },
    /// An entry name escapes the bot's folder (absolute path or `..`).
    #[error("{path}: entry `{entry}` points outside the bot's folder (absolute path or `..`); use relative paths inside the folder")]
    UnsafePath {
        /// The submission's path, as given.
        path: PathBuf,
        /// The entry's name inside the archive or folder.
        entry: String,
    },
    /// An entry is a symbolic link.
    #[error("{path}: entry `{entry}` is a symbolic link; replace it with the file it points to")]
    Symlink {
        /// The submission's path, as given.
        path: PathBuf,
        /// The entry's name inside the archive or folder.
        entry: String,
    },
    /// A name is longer than [`MAX_NAME_BYTES`] or not valid UTF-8.
    #[error("{path}: entry `{entry}` has a name longer than 255 bytes or not UTF-8; rename it")]
    BadName {
        /// The submission's path, as given.
        path: PathBuf,
        /// The entry's name inside the archive or folder.
        entry: String,
    },
    /// `mjai-sim.toml` at the root cannot be read or is not valid.
    #[error("{path}: {cause}")]
    Manifest {
        /// The submission's path, as given.
        path: PathBuf,
        /// The manifest's problem and its fix ([`super::manifest::Manifest::parse`]).
        cause: String,
    },
    /// The same file appears twice.
    #[error("{path}: entry `{entry}` appears twice; remove the duplicate")]
    Duplicate {
        /// The submission's path, as given.
        path: PathBuf,
        /// The entry's name inside the archive or folder.
        entry: String,
    },
    /// The archive file (or folder total) is over the size limit.
    #[error(
        "{path}: {bytes} bytes is over the {limit}-byte submission limit; shrink the bot or raise --max-submission-mb"
    )]
    TooLarge {
        /// The submission's path, as given.
        path: PathBuf,
        /// The submission's size in bytes.
        bytes: u64,
        /// The limit in bytes.
        limit: u64,
    },
    /// The uncompressed total is over the limit (possibly a zip bomb).
    #[error("{path}: unpacks to more than {limit} bytes (zip bomb?); shrink the bot's files")]
    TooLargeUnpacked {
        /// The submission's path, as given.
        path: PathBuf,
        /// The limit in bytes.
        limit: u64,
    },
    /// More files than the limit.
    #[error("{path}: more than {limit} files; remove unneeded files")]
    TooManyFiles {
        /// The submission's path, as given.
        path: PathBuf,
        /// The limit on the number of files.
        limit: usize,
    },
    /// An entry could not be written to the submission's temporary folder.
    #[error("{path}: cannot unpack entry `{entry}` ({cause}); a file and a folder may share a name (rename one), or the temporary folder (TMPDIR) is full or not writable")]
    Unpack {
        /// The submission's path, as given.
        path: PathBuf,
        /// The entry's name inside the archive or folder.
        entry: String,
        /// The file system's error.
        cause: String,
    },
    /// An entry could not be decompressed.
    #[error("{path}: entry `{entry}` is corrupt ({cause}); re-create the zip")]
    Corrupt {
        /// The submission's path, as given.
        path: PathBuf,
        /// The entry's name inside the archive or folder.
        entry: String,
        /// The decompressor's error.
        cause: String,
    },
}

/// One regular file of a submission.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubmissionFile {
    /// Relative path with `/` separators, no `..`, no leading `/`.
    pub path: String,
    /// Unix permission bits (`0o644`, `0o755`); setuid/setgid/sticky bits removed.
    pub mode: u32,
    /// Its size in bytes.
    pub len: u64,
}

/// A checked submission: regular files only, `bot.py` at the root, unpacked in a private
/// temporary folder ([`Submission::dir`]) that lives as long as any clone.
#[derive(Debug, Clone)]
pub struct Submission {
    source: PathBuf,
    dir: Arc<tempfile::TempDir>,
    files: Vec<SubmissionFile>,
    manifest: Manifest,
}

impl Submission {
    /// Reads and checks a `.zip` file or a folder (packed on the fly).
    ///
    /// Errors: see [`SubmissionError`]; nothing is written outside the submission's own
    /// temporary folder.
    pub fn load(path: &Path, limits: &SubmissionLimits) -> Result<Submission, SubmissionError> {
        let meta = fs::metadata(path).map_err(|e| unreadable(path, e))?;
        if !meta.is_dir() {
            return Submission::from_zip_file(path, path, limits);
        }
        let dir = private_dir(path)?;
        let files = read_folder(path, dir.path(), limits)?;
        Submission::check(path, dir, files)
    }

    /// Checks the zip file at `file` and unpacks it, reading it piece by piece (memory does
    /// not grow with its size); `label` names it in error messages. Errors: see
    /// [`SubmissionError`].
    pub fn from_zip_file(label: &Path, file: &Path, limits: &SubmissionLimits) -> Result<Submission, SubmissionError> {
        let handle = fs::File::open(file).map_err(|e| unreadable(label, e))?;
        Submission::from_open_zip(label, handle, limits)
    }

    /// [`Submission::from_zip_file`] on a zip file already open (at any position: it is
    /// read from its start). Errors: see [`SubmissionError`].
    pub fn from_open_zip(
        label: &Path,
        handle: fs::File,
        limits: &SubmissionLimits,
    ) -> Result<Submission, SubmissionError> {
        let len = handle.metadata().map_err(|e| unreadable(label, e))?.len();
        within_archive_limit(label, len, limits)?;
        let dir = private_dir(label)?;
        let reader = std::io::BufReader::with_capacity(UNPACK_BUFFER, handle);
        let files = read_zip_from(label, reader, len == 0, Some(dir.path()), limits)?;
        Submission::check(label, dir, files)
    }

    /// Checks a zip archive held in memory (small ones: tests, `check` on bytes); `label`
    /// names it in error messages. Errors: see [`SubmissionError`].
    pub fn from_zip_bytes(
        label: &Path,
        bytes: &[u8],
        limits: &SubmissionLimits,
    ) -> Result<Submission, SubmissionError> {
        within_archive_limit(label, bytes.len() as u64, limits)?;
        let dir = private_dir(label)?;
        let files = read_zip_from(label, Cursor::new(bytes), bytes.is_empty(), Some(dir.path()), limits)?;
        Submission::check(label, dir, files)
    }

    /// Checks the zip file at `file` as [`Submission::from_zip_bytes`] checks bytes, in
    /// constant memory (entries are decompressed and counted, not kept): what the grading
    /// server runs on an upload spooled to disk. `label` names it in error messages.
    pub fn check_zip_file(label: &Path, file: &Path, limits: &SubmissionLimits) -> Result<(), SubmissionError> {
        let handle = fs::File::open(file).map_err(|e| unreadable(label, e))?;
        let len = handle.metadata().map_err(|e| unreadable(label, e))?.len();
        within_archive_limit(label, len, limits)?;
        let files = read_zip_from(label, std::io::BufReader::new(handle), len == 0, None, limits)?;
        check_files(label, files).map(|_| ())
    }

    fn check(path: &Path, dir: tempfile::TempDir, files: Vec<SubmissionFile>) -> Result<Submission, SubmissionError> {
        let files = check_files(path, files)?;
        let manifest = read_manifest(path, dir.path(), &files)?;
        Ok(Submission { source: path.to_owned(), dir: Arc::new(dir), files, manifest })
    }
}

/// Longest `mjai-sim.toml` read, in bytes.
const MAX_MANIFEST_BYTES: u64 = 64 * 1024;

/// The submission's `mjai-sim.toml` (defaults when it has none). Errors:
/// [`SubmissionError::Manifest`].
fn read_manifest(path: &Path, dir: &Path, files: &[SubmissionFile]) -> Result<Manifest, SubmissionError> {
    let bad = |cause: String| SubmissionError::Manifest { path: path.to_owned(), cause };
    let Some(file) = files.iter().find(|f| f.path == MANIFEST) else {
        return Ok(Manifest::default());
    };
    if file.len > MAX_MANIFEST_BYTES {
        return Err(bad(format!("{MANIFEST} is {} bytes; keep it under {MAX_MANIFEST_BYTES}", file.len)));
    }
    let text = fs::read(dir.join(MANIFEST)).map_err(|e| bad(format!("cannot read {MANIFEST} ({e})")))?;
    let text = String::from_utf8(text).map_err(|_| bad(format!("{MANIFEST} is not UTF-8; save it as UTF-8")))?;
    Manifest::parse(&text).map_err(bad)
}

/// The checks on the whole list of files: not empty, no duplicate, `bot.py` at the root.
/// Returns them sorted by path.
fn check_files(path: &Path, mut files: Vec<SubmissionFile>) -> Result<Vec<SubmissionFile>, SubmissionError> {
    if files.is_empty() {
        return Err(SubmissionError::Empty { path: path.to_owned() });
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    if let Some(w) = files.windows(2).find(|w| w[0].path == w[1].path) {
        return Err(SubmissionError::Duplicate { path: path.to_owned(), entry: w[0].path.clone() });
    }
    if !files.iter().any(|f| f.path == "bot.py") {
        let nested: Vec<&str> =
            files.iter().filter_map(|f| f.path.strip_suffix("/bot.py")).filter(|dir| !dir.contains('/')).collect();
        let top: std::collections::BTreeSet<&str> =
            files.iter().map(|f| f.path.split('/').next().unwrap_or("")).collect();
        return Err(match nested.as_slice() {
            [dir] if top.len() <= 2 => SubmissionError::NestedBotPy { path: path.to_owned(), folder: dir.to_string() },
            _ => SubmissionError::NoBotPy { path: path.to_owned() },
        });
    }
    Ok(files)
}

impl Submission {
    /// What its `mjai-sim.toml` asks (defaults when it has none).
    pub fn manifest(&self) -> Manifest {
        self.manifest
    }

    /// Where the submission was read from.
    pub fn source(&self) -> &Path {
        &self.source
    }

    /// The regular files, sorted by path.
    pub fn files(&self) -> &[SubmissionFile] {
        &self.files
    }

    /// Total uncompressed size, in bytes.
    pub fn unpacked_bytes(&self) -> u64 {
        self.files.iter().map(|f| f.len).sum()
    }

    /// The private folder holding the unpacked files (read it, never write it: every seat
    /// of every game copies from it).
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    /// Where `file` (one of [`Submission::files`]) is on disk.
    pub fn path_of(&self, file: &SubmissionFile) -> PathBuf {
        self.dir.path().join(&file.path)
    }

    /// Copies the files under `dir` (which must exist), creating folders and setting modes,
    /// from disk to disk (memory does not grow with their size). Errors: a file cannot be
    /// read or written (the I/O error).
    pub fn unpack_into(&self, dir: &Path) -> std::io::Result<()> {
        use std::os::unix::fs::PermissionsExt;
        for file in &self.files {
            let target = dir.join(&file.path);
            if let Some(parent) = target.parent() {
                fs::create_dir_all(parent)?;
            }
            fs::copy(self.path_of(file), &target)?;
            fs::set_permissions(&target, fs::Permissions::from_mode(file.mode))?;
        }
        Ok(())
    }
}

/// Read buffer of a zip being unpacked, in bytes.
const UNPACK_BUFFER: usize = 256 * 1024;

/// A new private temporary folder (mode 0700, in `$TMPDIR`) for the files of the
/// submission `path`. Errors: [`SubmissionError::Unpack`].
fn private_dir(path: &Path) -> Result<tempfile::TempDir, SubmissionError> {
    tempfile::Builder::new().prefix("mjai-sim-submission-").tempdir().map_err(|e| SubmissionError::Unpack {
        path: path.to_owned(),
        entry: String::new(),
        cause: format!("cannot create a temporary folder: {e}"),
    })
}

/// Writes `reader` to the new file `rel` under `dest` (parents created), at most `limit`
/// bytes; returns how many it read (`limit + 1` when there were more: the caller refuses
/// them). `corrupt` maps a read error, `unpack` a write error.
fn write_entry(
    dest: &Path,
    rel: &str,
    reader: &mut dyn Read,
    limit: u64,
    corrupt: &dyn Fn(std::io::Error) -> SubmissionError,
    unpack: &dyn Fn(std::io::Error) -> SubmissionError,
) -> Result<u64, SubmissionError> {
    use std::io::Write;
    let target = dest.join(rel);
    if let Some(parent) = target.parent() {
        fs::create_dir_all(parent).map_err(unpack)?;
    }
    let mut out = std::io::BufWriter::with_capacity(UNPACK_BUFFER, fs::File::create(&target).map_err(unpack)?);
    let mut limited = reader.take(limit + 1);
    let mut buf = vec![0u8; 64 * 1024];
    let mut total = 0u64;
    loop {
        let n = match limited.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(corrupt(e)),
        };
        out.write_all(&buf[..n]).map_err(unpack)?;
        total += n as u64;
    }
    out.flush().map_err(unpack)?;
    Ok(total)
}

fn unreadable(path: &Path, e: std::io::Error) -> SubmissionError {
    SubmissionError::Unreadable { path: path.to_owned(), cause: e.to_string() }
}

/// Checks one entry name: relative, no `..`, short UTF-8 components. Returns it normalised
/// (no `./` parts, no trailing `/`).
fn check_name(path: &Path, raw: &[u8]) -> Result<String, SubmissionError> {
    let shown = String::from_utf8_lossy(raw).into_owned();
    let bad_name = || SubmissionError::BadName { path: path.to_owned(), entry: shown.clone() };
    let name = std::str::from_utf8(raw).map_err(|_| bad_name())?;
    let unsafe_path = || SubmissionError::UnsafePath { path: path.to_owned(), entry: shown.clone() };
    let name = name.replace('\\', "/");
    if name.starts_with('/') || name.as_bytes().get(1) == Some(&b':') || name.contains('\0') {
        return Err(unsafe_path());
    }
    let mut parts = Vec::new();
    for part in name.split('/') {
        match part {
            "" | "." => {}
            ".." => return Err(unsafe_path()),
            p if p.len() > MAX_NAME_BYTES => return Err(bad_name()),
            p => parts.push(p),
        }
    }
    Ok(parts.join("/"))
}

/// [`SubmissionError::TooLarge`] when `bytes` is over the archive limit.
fn within_archive_limit(path: &Path, bytes: u64, limits: &SubmissionLimits) -> Result<(), SubmissionError> {
    match bytes > limits.max_archive_bytes {
        true => Err(SubmissionError::TooLarge { path: path.to_owned(), bytes, limit: limits.max_archive_bytes }),
        false => Ok(()),
    }
}

/// Reads and checks every entry of the zip in `reader` (`empty`: it has no bytes at all).
/// `dest`: the files are written under it; `None`: they are decompressed and counted only.
/// Either way in constant memory.
fn read_zip_from<R: Read + std::io::Seek>(
    path: &Path,
    reader: R,
    empty: bool,
    dest: Option<&Path>,
    limits: &SubmissionLimits,
) -> Result<Vec<SubmissionFile>, SubmissionError> {
    let mut archive = zip::ZipArchive::new(reader).map_err(|e| {
        if empty {
            SubmissionError::Empty { path: path.to_owned() }
        } else {
            SubmissionError::NotZip { path: path.to_owned(), cause: plain_zip_cause(&e) }
        }
    })?;
    if archive.len() > limits.max_files {
        return Err(SubmissionError::TooManyFiles { path: path.to_owned(), limit: limits.max_files });
    }
    let mut files = Vec::new();
    let mut total: u64 = 0;
    for index in 0..archive.len() {
        let mut entry = archive.by_index(index).map_err(|e| SubmissionError::Corrupt {
            path: path.to_owned(),
            entry: format!("#{index}"),
            cause: e.to_string(),
        })?;
        let name = check_name(path, entry.name_raw())?;
        if entry.is_symlink() {
            return Err(SubmissionError::Symlink { path: path.to_owned(), entry: name });
        }
        if entry.is_dir() || name.is_empty() {
            continue;
        }
        let mode = entry.unix_mode().map_or(0o644, |m| (m & 0o777) | 0o400);
        // Count what decompression really yields: read at most one byte past the budget.
        let budget = limits.max_unpacked_bytes - total;
        let corrupt = |e: std::io::Error| SubmissionError::Corrupt {
            path: path.to_owned(),
            entry: name.clone(),
            cause: e.to_string(),
        };
        let unpack = |e: std::io::Error| SubmissionError::Unpack {
            path: path.to_owned(),
            entry: name.clone(),
            cause: e.to_string(),
        };
        let size = match dest {
            Some(dest) => write_entry(dest, &name, &mut entry, budget, &corrupt, &unpack)?,
            None => std::io::copy(&mut (&mut entry).take(budget + 1), &mut std::io::sink()).map_err(corrupt)?,
        };
        if size > budget {
            return Err(SubmissionError::TooLargeUnpacked { path: path.to_owned(), limit: limits.max_unpacked_bytes });
        }
        total += size;
        files.push(SubmissionFile { path: name, mode, len: size });
    }
    Ok(files)
}

/// The files of the folder `root`, copied under `dest` (a snapshot: later changes to the
/// folder do not reach the games).
fn read_folder(root: &Path, dest: &Path, limits: &SubmissionLimits) -> Result<Vec<SubmissionFile>, SubmissionError> {
    use std::os::unix::fs::PermissionsExt;
    let mut files = Vec::new();
    let mut total: u64 = 0;
    let mut stack = vec![root.to_owned()];
    while let Some(dir) = stack.pop() {
        let entries = fs::read_dir(&dir).map_err(|e| unreadable(&dir, e))?;
        for entry in entries {
            let entry = entry.map_err(|e| unreadable(&dir, e))?;
            let full = entry.path();
            let rel = full.strip_prefix(root).unwrap_or(&full);
            let name = check_name(root, rel.as_os_str().as_encoded_bytes())?;
            let meta = fs::symlink_metadata(&full).map_err(|e| unreadable(&full, e))?;
            if meta.file_type().is_symlink() {
                return Err(SubmissionError::Symlink { path: root.to_owned(), entry: name });
            }
            if meta.is_dir() {
                stack.push(full);
                continue;
            }
            if !meta.is_file() {
                continue;
            }
            total += meta.len();
            within_archive_limit(root, total, limits)?;
            if files.len() >= limits.max_files {
                return Err(SubmissionError::TooManyFiles { path: root.to_owned(), limit: limits.max_files });
            }
            let mut source = fs::File::open(&full).map_err(|e| unreadable(&full, e))?;
            let corrupt = |e: std::io::Error| unreadable(&full, e);
            let unpack = |e: std::io::Error| SubmissionError::Unpack {
                path: root.to_owned(),
                entry: name.clone(),
                cause: e.to_string(),
            };
            let len = write_entry(dest, &name, &mut source, meta.len(), &corrupt, &unpack)?;
            let mode = (meta.permissions().mode() & 0o777) | 0o400;
            files.push(SubmissionFile { path: name, mode, len });
        }
    }
    Ok(files)
}

/// Why a file is not a readable zip, in words an author knows (the zip reader speaks of
/// "EOCD" and central directories).
fn plain_zip_cause(e: &zip::result::ZipError) -> String {
    use zip::result::ZipError;
    match e {
        ZipError::InvalidArchive(_) => {
            "its zip structure is missing or damaged: a truncated upload, a file of another kind renamed .zip, \
             or a damaged archive"
                .into()
        }
        ZipError::UnsupportedArchive(what) => format!("it uses a zip feature this reader lacks ({what})"),
        ZipError::Io(io) => format!("it could not be read: {io}"),
        other => other.to_string(),
    }
}
