//! A seat's host folder, for a Docker daemon on this host (the default): the bot's files
//! are bind-mounted from it instead of uploaded, and its stdin and stdout are two FIFOs in
//! it instead of the attach stream, so no Docker daemon copies the bot's lines.
//!
//! Layout: `<temp>/mjai-sim-bots-<uid>/<container name>/` (the root is this user's, mode
//! 0700), holding
//! - `work/`: the unpacked submission, owned by the bot's user (or world-writable when
//!   this process cannot change owners), mounted read-write at the bot's working folder;
//! - `io/`: the FIFOs `in` (the bot's stdin) and `out` (its stdout), mounted read-only at
//!   [`IO_DIR`] (a FIFO in a read-only mount can still be opened for reading and writing,
//!   but the bot cannot replace it).
//!
//! The host opens both FIFOs read-write before the container starts: opening never blocks,
//! the referee never follows a path the bot could have changed, and a read never sees
//! end-of-file (the bot's exit is noticed through the attach stream, which still carries
//! stderr). Why: relaying every line through dockerd and containerd-shim cost about 0.5
//! CPU-seconds per hanchan; a FIFO costs the kernel's copy only.
//!
//! The folder is removed with its container ([`remove`], [`remove_of_game`],
//! [`remove_with_prefix`]).

use std::fs;
use std::io;
use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
use std::path::{Path, PathBuf};

use crate::submission::Submission;

/// Where the FIFOs appear inside the container.
pub const IO_DIR: &str = "/run/mjai-sim";

/// One seat's host folder (see the module docs).
#[derive(Debug, Clone)]
pub struct HostDir {
    root: PathBuf,
}

/// The folder holding every seat folder of this user: `<temp>/mjai-sim-bots-<uid>`.
pub fn host_root() -> PathBuf {
    // SAFETY: geteuid has no preconditions.
    let uid = unsafe { libc::geteuid() };
    std::env::temp_dir().join(format!("mjai-sim-bots-{uid}"))
}

impl HostDir {
    /// Creates the folder of container `name` under [`host_root`]: the submission unpacked
    /// in `work/` for user `uid:gid`, the FIFOs `io/in` and `io/out`. A folder left by an
    /// earlier container of the same name is replaced.
    ///
    /// Errors: the temporary folder is not writable or full (the message names the path).
    pub fn create(name: &str, submission: &Submission, uid: u32, gid: u32) -> io::Result<HostDir> {
        let base = host_root();
        fs::DirBuilder::new().recursive(true).mode(0o700).create(&base).map_err(|e| at(&base, e))?;
        check_private(&base)?;
        let root = base.join(name);
        if root.exists() {
            fs::remove_dir_all(&root).map_err(|e| at(&root, e))?;
        }
        let dir = HostDir { root };
        if let Err(e) = dir.fill(submission, uid, gid) {
            dir.remove();
            return Err(e);
        }
        Ok(dir)
    }

    fn fill(&self, submission: &Submission, uid: u32, gid: u32) -> io::Result<()> {
        let (work, io_dir) = (self.work(), self.io_dir());
        fs::DirBuilder::new().recursive(true).mode(0o755).create(&work).map_err(|e| at(&work, e))?;
        fs::DirBuilder::new().mode(0o755).create(&io_dir).map_err(|e| at(&io_dir, e))?;
        submission.unpack_into(&work).map_err(|e| at(&work, e))?;
        for fifo in [self.stdin_path(), self.stdout_path()] {
            nix_mkfifo(&fifo)?;
        }
        // The bot's user must write its folder and both FIFOs.
        let owned = chown_tree(&work, uid, gid).is_ok()
            && chown(&self.stdin_path(), uid, gid).is_ok()
            && chown(&self.stdout_path(), uid, gid).is_ok();
        if !owned {
            open_up_tree(&work)?;
            for fifo in [self.stdin_path(), self.stdout_path()] {
                fs::set_permissions(&fifo, fs::Permissions::from_mode(0o666)).map_err(|e| at(&fifo, e))?;
            }
        }
        Ok(())
    }

    /// The seat folder.
    pub fn path(&self) -> &Path {
        &self.root
    }

    /// The unpacked submission (bind-mounted read-write at the bot's working folder).
    pub fn work(&self) -> PathBuf {
        self.root.join("work")
    }

    /// The FIFO folder (bind-mounted read-only at [`IO_DIR`]).
    pub fn io_dir(&self) -> PathBuf {
        self.root.join("io")
    }

    /// The FIFO the bot reads as stdin.
    pub fn stdin_path(&self) -> PathBuf {
        self.io_dir().join("in")
    }

    /// The FIFO the bot writes as stdout.
    pub fn stdout_path(&self) -> PathBuf {
        self.io_dir().join("out")
    }

    /// Deletes the folder (its container is gone or going); errors are logged.
    pub fn remove(&self) {
        remove_path(&self.root);
    }
}

/// Deletes the seat folders of game `game`'s containers (`mjai-sim-<game>-<seat>`).
pub fn remove_of_game(game: &str) {
    let prefix = format!("mjai-sim-{game}-");
    remove_where(|name| name.strip_prefix(&prefix).is_some_and(|seat| seat.len() == 1));
}

/// Deletes the seat folders whose container name starts with `mjai-sim-<prefix>` (`""`:
/// all of this user's).
pub fn remove_with_prefix(prefix: &str) {
    let prefix = format!("mjai-sim-{prefix}");
    remove_where(|name| name.starts_with(&prefix));
}

fn remove_where(matches: impl Fn(&str) -> bool) {
    let Ok(entries) = fs::read_dir(host_root()) else { return };
    for entry in entries.flatten() {
        if entry.file_name().to_str().is_some_and(&matches) {
            remove_path(&entry.path());
        }
    }
}

fn remove_path(path: &Path) {
    match fs::remove_dir_all(path) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => tracing::warn!("cannot remove the bot folder {}: {e}", path.display()),
    }
}

/// The root must be a real folder of this user that nobody else can enter: in a shared
/// temporary folder another user could have made it first (or made it a symlink) to read
/// or swap the bots' files and FIFOs.
fn check_private(base: &Path) -> io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    let meta = fs::symlink_metadata(base).map_err(|e| at(base, e))?;
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    if !meta.is_dir() || meta.uid() != me || meta.mode() & 0o077 != 0 {
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!(
                "{}: not a private folder of this user (owner uid {}, mode {:o}); remove it or set TMPDIR elsewhere",
                base.display(),
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

fn nix_mkfifo(path: &Path) -> io::Result<()> {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).map_err(|e| at(path, io::Error::other(e)))?;
    // SAFETY: `c` is a valid NUL-terminated path.
    if unsafe { libc::mkfifo(c.as_ptr(), 0o600) } == 0 {
        Ok(())
    } else {
        Err(at(path, io::Error::last_os_error()))
    }
}

fn chown(path: &Path, uid: u32, gid: u32) -> io::Result<()> {
    std::os::unix::fs::lchown(path, Some(uid), Some(gid))
}

fn chown_tree(dir: &Path, uid: u32, gid: u32) -> io::Result<()> {
    chown(dir, uid, gid)?;
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        if entry.file_type()?.is_dir() {
            chown_tree(&entry.path(), uid, gid)?;
        } else {
            chown(&entry.path(), uid, gid)?;
        }
    }
    Ok(())
}

/// Without the right to change owners (rootless): folders 0777, files writable by all.
fn open_up_tree(dir: &Path) -> io::Result<()> {
    fs::set_permissions(dir, fs::Permissions::from_mode(0o777)).map_err(|e| at(dir, e))?;
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        if entry.file_type()?.is_dir() {
            open_up_tree(&path)?;
        } else {
            let mode = entry.metadata()?.permissions().mode() | 0o666;
            fs::set_permissions(&path, fs::Permissions::from_mode(mode)).map_err(|e| at(&path, e))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::FileTypeExt;

    use super::*;
    use crate::submission::SubmissionLimits;

    fn submission() -> Submission {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("model")).unwrap();
        fs::write(dir.path().join("bot.py"), "print('hi')\n").unwrap();
        fs::write(dir.path().join("model/w.bin"), [1u8, 2, 3]).unwrap();
        Submission::load(dir.path(), &SubmissionLimits::default()).unwrap()
    }

    #[test]
    fn a_seat_folder_holds_the_bot_and_two_fifos_and_goes_with_its_game() {
        let game = format!("hostdir-test-{}", std::process::id());
        let name = format!("mjai-sim-{game}-2");
        let dir = HostDir::create(&name, &submission(), 1000, 1000).unwrap();
        assert_eq!(dir.path(), host_root().join(&name));
        assert_eq!(fs::read(dir.work().join("model/w.bin")).unwrap(), [1, 2, 3]);
        for fifo in [dir.stdin_path(), dir.stdout_path()] {
            assert!(fs::metadata(&fifo).unwrap().file_type().is_fifo(), "{}", fifo.display());
        }
        let root_mode = fs::metadata(host_root()).unwrap().permissions().mode() & 0o777;
        assert_eq!(root_mode, 0o700, "other users of this host must not reach the FIFOs");
        // A second container of the same name gets a fresh folder.
        fs::write(dir.work().join("left.txt"), "x").unwrap();
        let again = HostDir::create(&name, &submission(), 1000, 1000).unwrap();
        assert!(!again.work().join("left.txt").exists());
        // Another game's folder is not touched by this game's removal.
        let other = HostDir::create(&format!("mjai-sim-{game}x-0"), &submission(), 1000, 1000).unwrap();
        remove_of_game(&game);
        assert!(!dir.path().exists());
        assert!(other.path().exists());
        remove_with_prefix(&format!("{game}x"));
        assert!(!other.path().exists());
    }

    #[test]
    fn a_root_that_others_can_enter_is_refused() {
        let base = tempfile::tempdir().unwrap();
        let open = base.path().join("open");
        fs::DirBuilder::new().mode(0o777).create(&open).unwrap();
        fs::set_permissions(&open, fs::Permissions::from_mode(0o777)).unwrap();
        let e = check_private(&open).unwrap_err();
        assert!(e.to_string().contains("not a private folder"), "{e}");
        let link = base.path().join("link");
        std::os::unix::fs::symlink(base.path(), &link).unwrap();
        assert!(check_private(&link).is_err(), "a symlink is refused");
        let private = base.path().join("private");
        fs::DirBuilder::new().mode(0o700).create(&private).unwrap();
        check_private(&private).unwrap();
    }
}
