//! `mjai-sim serve backup PATH [--db URL]`: a copy of a grading server's SQLite store,
//! taken while the server runs ([`crate::tournament::store::Store::backup_to`]: `VACUUM
//! INTO`), into the new file PATH (an existing one is refused); prints the copy's size. A
//! PostgreSQL store is refused with the `pg_dump` command that backs it up (docs/server.md
//! "Backups"), without connecting to it. The store is found as `serve author` finds it
//! ([`super::serve_author`]: `--db`, or `./mjai-sim-serve.sqlite` when it exists).

use std::path::{Path, PathBuf};

use anyhow::bail;

use super::serve_author::{store_db, StoreArg};
use crate::tournament::store::backup::BackupError;
use crate::tournament::store::{is_postgres_url, Store};

/// Arguments of `serve backup`.
#[derive(Debug, clap::Args)]
pub struct BackupArgs {
    /// The new file the copy is written to (refused when it exists; its folder must).
    #[arg(value_name = "PATH")]
    pub path: PathBuf,
    /// The store.
    #[command(flatten)]
    pub store: StoreArg,
}

/// Bytes in a MiB.
const MIB: f64 = 1024.0 * 1024.0;

/// Runs `serve backup`; prints `PATH: N bytes (X MiB)` on stdout and returns 0. Errors (one
/// line): a PostgreSQL store (the `pg_dump` command), no such SQLite file, PATH exists, the
/// copy cannot be written, the store failed.
pub async fn run(a: BackupArgs) -> anyhow::Result<i32> {
    let db = store_db(&a.store)?;
    if is_postgres_url(db) {
        bail!("{}", BackupError::postgres(db, &a.path));
    }
    let file = db.strip_prefix("sqlite://").or_else(|| db.strip_prefix("sqlite:")).unwrap_or(db);
    if !Path::new(file).is_file() {
        // opening it would make a new, empty store
        bail!("{file}: no such store; give the running server's --db (the same as `mjai-sim serve`)");
    }
    let store = Store::open(Path::new(file)).await?;
    let copied = store.backup_to(&a.path).await;
    store.close().await;
    let bytes = copied?;
    println!("{}: {bytes} bytes ({:.1} MiB), a copy of {}", a.path.display(), bytes as f64 / MIB, store.name());
    Ok(0)
}
