//! A copy of a SQLite store taken while it is in use ([`Store::backup_to`], `mjai-sim serve
//! backup PATH`): SQLite's `VACUUM INTO`, which writes a consistent snapshot of the database
//! into a new file under a read transaction, so a running server (WAL mode) neither waits
//! for it nor loses a write to it; the copy is compacted, and a store of its own (open it
//! with `--db PATH`). A PostgreSQL store is backed up with `pg_dump` instead
//! ([`pg_dump_command`], docs/server.md "Backups").

use std::io;
use std::path::Path;

use super::open::Dialect;
use super::{Store, StoreError};

/// Why a backup was not made; every message is one line naming the cause and the fix.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    /// The target exists: a backup never overwrites a file.
    #[error("{path} exists: a backup never overwrites a file; give a new PATH (or move that file away first)")]
    Exists {
        /// The target, as given.
        path: String,
    },
    /// The store is a PostgreSQL database: `pg_dump` backs it up.
    #[error("{db} is a PostgreSQL database: back it up with pg_dump (a consistent snapshot while the league plays): {command}")]
    Postgres {
        /// The database, without its password.
        db: String,
        /// The `pg_dump` command writing to the asked file ([`pg_dump_command`]).
        command: String,
    },
    /// The copy could not be written (no such folder, no permission, disk full).
    #[error("{path}: cannot write the backup ({cause}); check that its folder exists, is writable and has room")]
    Write {
        /// The target, as given.
        path: String,
        /// What failed.
        cause: String,
    },
    /// The store failed (locked beyond the busy timeout, damaged).
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl BackupError {
    /// The refusal of a backup of the PostgreSQL database `url` into `file`, with the
    /// `pg_dump` command that makes it.
    pub fn postgres(url: &str, file: &Path) -> BackupError {
        BackupError::Postgres { db: without_password(url), command: pg_dump_command(url, file) }
    }
}

/// The documented command backing up the PostgreSQL database `url` into `file`:
/// `pg_dump --format=custom --file=FILE 'URL'`, the URL without its password (`pg_dump`
/// asks for it, or reads `PGPASSWORD` or `~/.pgpass`); `pg_restore` reads the file back.
pub fn pg_dump_command(url: &str, file: &Path) -> String {
    let file = file.display().to_string();
    format!("pg_dump --format=custom --file={} {}", shell_word(&file), shell_word(&without_password(url)))
}

/// `url` with no password at all (a redacted one, `***`, included).
fn without_password(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut u) => {
            let _ = u.set_password(None);
            u.to_string()
        }
        Err(_) => url.split('@').next_back().unwrap_or(url).to_string(),
    }
}

/// `word` as one word of a POSIX shell: as it is when it holds only safe characters, else
/// in single quotes.
fn shell_word(word: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "_-./:@%+=,".contains(c);
    if !word.is_empty() && word.chars().all(safe) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

impl Store {
    /// Copies this SQLite store into the new file `path` while the store may be in use by
    /// other connections and processes (a running server): `VACUUM INTO`, a consistent
    /// snapshot; the copy is then flushed to disk (SQLite does not). Returns the copy's
    /// size in bytes. Errors: `path` exists (nothing is written); a PostgreSQL store (the
    /// `pg_dump` command to use instead); the copy cannot be written (a partial file is
    /// removed); the store failed.
    pub async fn backup_to(&self, path: &Path) -> Result<u64, BackupError> {
        let shown = path.display().to_string();
        if self.dialect == Dialect::Postgres {
            return Err(BackupError::postgres(&self.path, path));
        }
        if path.symlink_metadata().is_ok() {
            return Err(BackupError::Exists { path: shown });
        }
        let write = |cause: String| BackupError::Write { path: shown.clone(), cause };
        let Some(target) = path.to_str() else {
            return Err(write("the path is not UTF-8; give another".into()));
        };
        let vacuum = sqlx::query("VACUUM INTO $1").bind(target).execute(&self.pool).await;
        if let Err(e) = vacuum {
            let cause = e.to_string().replace('\n', " ");
            if cause.contains("output file already exists") {
                return Err(BackupError::Exists { path: shown }); // made meanwhile, by another
            }
            let _ = std::fs::remove_file(path); // a partial copy, ours: it did not exist
            return match e {
                sqlx::Error::Database(_) => Err(write(cause)),
                e => Err(self.err(e).into()),
            };
        }
        flushed(path).map_err(|e| write(e.to_string()))
    }
}

/// Flushes the file at `path` to disk; its size.
fn flushed(path: &Path) -> io::Result<u64> {
    let file = std::fs::File::open(path)?;
    file.sync_all()?;
    Ok(file.metadata()?.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_copy_holds_the_store_and_never_overwrites() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("a.sqlite")).await.unwrap();
        assert!(store.authors().add("alice", &"ab".repeat(32), false).await.unwrap());
        let copy = dir.path().join("copy.sqlite");
        let size = store.backup_to(&copy).await.unwrap();
        assert_eq!(size, std::fs::metadata(&copy).unwrap().len());
        let restored = Store::open(&copy).await.unwrap();
        let names: Vec<String> = restored.authors().list().await.unwrap().into_iter().map(|a| a.name).collect();
        assert_eq!(names, ["alice"]);
        // the limit's other side: an existing file, even an empty one, is left as it is
        let taken = dir.path().join("taken");
        std::fs::write(&taken, b"").unwrap();
        let e = store.backup_to(&taken).await.unwrap_err();
        assert!(matches!(e, BackupError::Exists { .. }), "{e}");
        assert_eq!(std::fs::read(&taken).unwrap(), b"");
        assert!(store.backup_to(&copy).await.is_err(), "the first copy is kept");
        let nowhere = dir.path().join("no/such/folder/x.sqlite");
        let e = store.backup_to(&nowhere).await.unwrap_err().to_string();
        assert!(e.contains("cannot write the backup") && !e.contains('\n'), "{e}");
        assert!(!nowhere.exists());
    }

    #[test]
    fn postgres_is_backed_up_with_pg_dump_without_the_password() {
        let e = BackupError::postgres("postgres://mjai:s3cret@db:5432/mjai", Path::new("league 1.dump")).to_string();
        assert!(e.contains("pg_dump --format=custom --file='league 1.dump' postgres://mjai@db:5432/mjai"), "{e}");
        assert!(!e.contains("s3cret") && !e.contains('\n'), "{e}");
        let redacted = pg_dump_command("postgres://mjai:***@db/mjai", Path::new("b.dump"));
        assert_eq!(redacted, "pg_dump --format=custom --file=b.dump postgres://mjai@db/mjai");
        assert_eq!(shell_word("it's"), r"'it'\''s'");
    }
}
