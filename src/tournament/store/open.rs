//! Opening a store: a SQLite file or a PostgreSQL URL, behind sqlx's `Any` driver, with the
//! schema brought up to date by the dialect's migrations (`migrations/`, `migrations_pg/`).

use std::path::Path;
use std::time::Duration;

use sqlx::any::AnyPoolOptions;
use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{AnyConnection, AnyPool};
use sqlx::{ConnectOptions, Connection, Executor};

use super::StoreError;

/// How long a SQLite write waits for another connection's lock before failing.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// How long connecting to PostgreSQL may take before it is an error.
#[cfg(feature = "postgres")]
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// The SQL dialect of a store: the few fragments that differ between the two engines.
/// Private to the store: callers ask the store ([`super::Store::lookup`]), never the engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Dialect {
    /// One tournament per file (`t` = 1).
    Sqlite,
    /// Many tournaments per database; claims lock rows with `FOR UPDATE SKIP LOCKED`.
    Postgres,
}

impl Dialect {
    /// The database clock in milliseconds since the Unix epoch (an SQL expression).
    pub(super) fn now_ms(self) -> &'static str {
        match self {
            Dialect::Sqlite => "CAST((julianday('now') - 2440587.5) * 86400000.0 AS BIGINT)",
            Dialect::Postgres => "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)",
        }
    }

    /// The current UTC time as `YYYY-MM-DD HH:MM:SS` text (an SQL expression).
    pub(super) fn now_text(self) -> &'static str {
        match self {
            Dialect::Sqlite => "datetime('now')",
            Dialect::Postgres => "to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')",
        }
    }

    /// Row locking for a claim's sub-select (SQLite serialises writers instead).
    pub(super) fn skip_locked(self) -> &'static str {
        match self {
            Dialect::Sqlite => "",
            Dialect::Postgres => " FOR UPDATE SKIP LOCKED",
        }
    }

    /// Row locking for a read whose rows the transaction then writes (the fold's cursor):
    /// ` FOR UPDATE` in PostgreSQL; SQLite serialises writers instead.
    pub(super) fn for_update(self) -> &'static str {
        match self {
            Dialect::Sqlite => "",
            Dialect::Postgres => " FOR UPDATE",
        }
    }

    /// The first statement of a transaction that changes a league (top-up, adding or
    /// retiring a bot): locks tournament `$1`'s row until the transaction ends, so that
    /// such transactions run one after another. PostgreSQL: `SELECT ... FOR UPDATE`;
    /// SQLite: a write that changes nothing, which takes the file's write lock at once (a
    /// transaction that read first could not upgrade to a write when another wrote meanwhile).
    pub(super) fn lock_tournament(self) -> &'static str {
        match self {
            Dialect::Sqlite => "UPDATE tournament SET open_ended = open_ended WHERE id = $1",
            Dialect::Postgres => "SELECT id FROM tournament WHERE id = $1 FOR UPDATE",
        }
    }
}

/// True when `db` names a PostgreSQL database (`postgres://` or `postgresql://`).
pub fn is_postgres_url(db: &str) -> bool {
    db.starts_with("postgres://") || db.starts_with("postgresql://")
}

/// `url` without its password, for messages.
pub fn redact(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut u) if u.password().is_some() => {
            let _ = u.set_password(Some("***"));
            u.to_string()
        }
        Ok(u) => u.to_string(),
        Err(_) => url.split('@').next_back().unwrap_or(url).to_string(),
    }
}

/// Opens the SQLite file `path` (created if missing) in WAL mode with a busy timeout.
pub async fn sqlite(path: &Path, name: &str) -> Result<AnyPool, StoreError> {
    sqlx::any::install_default_drivers();
    let url = SqliteConnectOptions::new().filename(path).create_if_missing(true).to_url_lossy().to_string();
    let busy = format!("PRAGMA busy_timeout = {}", BUSY_TIMEOUT.as_millis());
    // One connection first: a file that is not a database fails here at once (the pool
    // would retry it until its acquire timeout, 30 s).
    let mut probe = AnyConnection::connect(&url).await.map_err(|e| super::db_error(name, e))?;
    probe.execute("PRAGMA journal_mode = WAL").await.map_err(|e| super::db_error(name, e))?;
    let _ = probe.close().await;
    let pool = AnyPoolOptions::new()
        .max_connections(4)
        .after_connect(move |conn, _| {
            let busy = busy.clone();
            Box::pin(async move {
                conn.execute("PRAGMA journal_mode = WAL").await?;
                conn.execute("PRAGMA synchronous = NORMAL").await?;
                conn.execute("PRAGMA foreign_keys = ON").await?;
                conn.execute(sqlx::AssertSqlSafe(busy)).await?;
                Ok(())
            })
        })
        .connect(&url)
        .await
        .map_err(|e| super::db_error(name, e))?;
    sqlx::migrate!("../../migrations").run(&pool).await.map_err(|e| migrate_error(name, e))?;
    Ok(pool)
}

/// Connects to the PostgreSQL database `url`. Errors (one line each): unreachable server,
/// refused password, missing database, a schema made by a newer mjai-sim.
#[cfg(feature = "postgres")]
pub async fn postgres(url: &str, name: &str, connections: u32) -> Result<AnyPool, StoreError> {
    sqlx::any::install_default_drivers();
    let pool = AnyPoolOptions::new()
        .max_connections(connections.max(2))
        .acquire_timeout(CONNECT_TIMEOUT)
        .connect(url)
        .await
        .map_err(|e| connect_error(name, e))?;
    sqlx::migrate!("../../migrations_pg").run(&pool).await.map_err(|e| migrate_error(name, e))?;
    Ok(pool)
}

/// A build without the `postgres` feature: the one error, naming the feature and the fix.
#[cfg(not(feature = "postgres"))]
pub async fn postgres(_url: &str, name: &str, _connections: u32) -> Result<AnyPool, StoreError> {
    Err(StoreError::Connect {
        db: name.to_string(),
        cause: "this mjai-sim was built without PostgreSQL (the `postgres` feature)".to_string(),
        fix: "install the default build (`cargo install --path .`) or add `--features postgres`",
    })
}

#[cfg(feature = "postgres")]
fn connect_error(name: &str, e: sqlx::Error) -> StoreError {
    // By the server's SQLSTATE (PostgreSQL, Appendix A), not the message's text.
    let sqlstate = match &e {
        sqlx::Error::Database(d) => d.code().map(|c| c.into_owned()),
        _ => None,
    };
    let fix = match sqlstate.as_deref() {
        // invalid_authorization_specification, invalid_password
        Some("28000" | "28P01") => "check the user and password in --db",
        // invalid_catalog_name
        Some("3D000") => "create the database (createdb NAME) or fix its name in --db",
        _ => "check that PostgreSQL runs and the host and port in --db",
    };
    let cause = e.to_string().replace('\n', " ");
    StoreError::Connect { db: name.to_string(), cause, fix }
}

fn migrate_error(name: &str, e: sqlx::migrate::MigrateError) -> StoreError {
    match e {
        sqlx::migrate::MigrateError::VersionMissing(v) => StoreError::Newer { db: name.to_string(), version: v },
        e => super::db_error(name, sqlx::Error::Migrate(Box::new(e))),
    }
}
