//! The results store of a tournament: `DIR/tournament.sqlite`, or a PostgreSQL database
//! shared by workers on many hosts (`--db postgres://...`), through sqlx's `Any` driver.
//!
//! One small interface ([`Store`]) for both engines and every caller (the tournament
//! runner, `mjai-sim worker`, standings): create a tournament with its bots, submissions
//! and scheduled games, claim games under a lease ([`lease`]), record results with the
//! game's files (one transaction per batch), mark a game failed, list records and metadata;
//! leagues ([`league`]): top the schedule up, add and retire bots; a grading server's
//! authors ([`authors`]) and bot versions ([`versions`]).
//! The queries are the same for both engines except four fragments ([`Dialect`]): the
//! clock, the creation time, `FOR UPDATE SKIP LOCKED` and the lock of a league's row. Schemas: `migrations/` (SQLite,
//! one tournament per file, `t` = 1) and `migrations_pg/` (many tournaments, `t` =
//! `tournament.id`); the same tables and columns.
//!
//! Why `Any` and not an enum over two pools: the queries are written once and bound the
//! same way (`$1` placeholders work in both engines), so the two back ends cannot drift
//! apart; the price is that `Any` knows only plain types (integers, text, bytes), which is
//! all this schema uses.
//!
//! Guarantees: results are keyed by (tournament, game, seat), so a game recorded twice
//! counts once and its files are written by the first recording only; a game claimed but
//! never finished (crash, `kill -9`, host gone) is claimable again once its lease expires
//! (or at once on `--resume`) and is played again from its start. SQLite runs in WAL mode
//! with a busy timeout, so readers (`mjai-sim standings DIR`) never block the runner.

mod aggregates;
mod authors;
mod blobs;
mod board;
mod connect;
mod league;
mod lease;
pub mod retry;
mod rows;
mod versions;

use std::path::Path;

use sqlx::AnyPool;
use sqlx::Row;

use super::record::GameRecord;
use super::schedule::ScheduledGame;
pub use crate::tournament::leaderboard::BotKind;
pub use aggregates::Aggregates;
pub use authors::{AuthorListing, AuthorRow};
pub use blobs::sha256_hex;
pub use blobs::{GameFiles, SeatBot};
pub use connect::{is_postgres_url, redact, Dialect};
pub use league::{AddBot, Online, Retire, TopUp};
pub use rows::{BotRow, Counts, FailedGame};
pub use versions::{league_name, remote_sha256, Upload, UploadLimits, UploadedZip, ValidationFiles, VersionRow};

/// The database file of a tournament folder.
pub const DB_FILE: &str = "tournament.sqlite";

/// A game fails for good at this many failed attempts (it is retried once).
pub const MAX_ATTEMPTS: i64 = 2;

/// Why the store refused or failed; every message is one line naming the database and the fix.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database is locked by another process beyond the busy timeout.
    #[error(
        "{path}: the database is locked (another mjai-sim is using this tournament?); stop it or choose another --dir"
    )]
    Locked {
        /// The database, as named in messages (a file path, or a URL without its password).
        path: String,
    },
    /// Any other database failure (disk full, permissions, corrupt file, connection lost).
    #[error("{path}: database error: {cause} (check free space, permissions and that the database runs)")]
    Db {
        /// The database, as named in messages (a file path, or a URL without its password).
        path: String,
        /// The driver's error.
        cause: String,
    },
    /// A stored row does not have the expected shape.
    #[error("{path}: unexpected content: {cause} (was this file made by another version of mjai-sim?)")]
    Corrupt {
        /// The database, as named in messages (a file path, or a URL without its password).
        path: String,
        /// What was unexpected.
        cause: String,
    },
    /// The connection to a running store broke (server stopped or restarting, network
    /// gone, pool timed out): transient; callers retry it ([`retry`]).
    #[error("{db}: the database is unreachable ({cause}); start it or check the network (workers retry for --db-patience seconds)")]
    Unavailable {
        /// The database, as named in messages (a URL without its password).
        db: String,
        /// The driver's error.
        cause: String,
    },
    /// The PostgreSQL server cannot be reached or refused the connection.
    #[error("{db}: cannot connect: {cause} ({fix})")]
    Connect {
        /// The database, as named in messages (a URL without its password).
        db: String,
        /// The driver's error.
        cause: String,
        /// What to check or change.
        fix: &'static str,
    },
    /// The schema was migrated by a newer mjai-sim.
    #[error("{db}: the schema has migration {version}, unknown to this mjai-sim (made by a newer version); upgrade mjai-sim")]
    Newer {
        /// The database, as named in messages (a URL without its password).
        db: String,
        /// The newest migration recorded in the database.
        version: i64,
    },
    /// Stored submission bytes do not hash to their key.
    #[error("{db}: submission {sha256}: the stored bytes hash to {actual} (damaged); add the submission again")]
    Mismatch {
        /// The database, as named in messages (a URL without its password).
        db: String,
        /// The submission's key (sha256 of its bytes).
        sha256: String,
        /// The sha256 of the bytes stored.
        actual: String,
    },
}

/// An open store, scoped to one tournament (`t`; always 1 in SQLite).
#[derive(Clone)]
pub struct Store {
    pool: AnyPool,
    path: String,
    dialect: Dialect,
    t: i64,
    online: Option<league::Online>,
}

impl Store {
    /// Opens (creating if missing) the SQLite store at `path` and brings its schema up to
    /// date. Errors: the file cannot be created or opened, is locked, or is not a database.
    pub async fn open(path: &Path) -> Result<Store, StoreError> {
        let name = path.display().to_string();
        let pool = connect::sqlite(path, &name).await?;
        Ok(Store { pool, path: name, dialect: Dialect::Sqlite, t: 1, online: None })
    }

    /// Opens the database `db`: a PostgreSQL URL (`postgres://user:pass@host:port/name`),
    /// `sqlite:PATH` or a plain file path; `connections` is the PostgreSQL pool size. The
    /// store is scoped to no tournament until [`Store::create`] or [`Store::tournament`].
    /// Errors: unreachable server, wrong password, missing database, newer schema.
    pub async fn open_url(db: &str, connections: u32) -> Result<Store, StoreError> {
        if is_postgres_url(db) {
            let name = redact(db);
            let pool = connect::postgres(db, &name, connections).await?;
            return Ok(Store { pool, path: name, dialect: Dialect::Postgres, t: 0, online: None });
        }
        let path = db.strip_prefix("sqlite://").or_else(|| db.strip_prefix("sqlite:")).unwrap_or(db);
        Store::open(Path::new(path)).await
    }

    /// The tournament this store is scoped to (`tournament.id`; 1 in SQLite).
    pub fn id(&self) -> i64 {
        self.t
    }

    /// The engine behind the store.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// The database's name for messages (a path, or a URL without its password).
    pub fn name(&self) -> &str {
        &self.path
    }

    /// The same database scoped to tournament `t` (a `tournament.id`).
    pub fn scoped(&self, t: i64) -> Store {
        Store { t, ..self.clone() }
    }

    /// The same database scoped to the tournament named `tid`; `None` when there is none.
    pub async fn tournament(&self, tid: &str) -> Result<Option<Store>, StoreError> {
        let row = sqlx::query("SELECT id FROM tournament WHERE tid = $1")
            .bind(tid)
            .fetch_optional(&self.pool)
            .await
            .map_err(|e| self.err(e))?;
        row.map(|r| r.try_get::<i64, _>(0).map(|t| self.scoped(t)).map_err(|e| self.err(e))).transpose()
    }

    /// Writes a new tournament in one transaction: its id, options (JSON text), bots and
    /// every scheduled game (state `pending`). Options with `"sets": 0` make it a league
    /// (open-ended: no game yet, topped up by [`Store::top_up`]). Returns the store scoped
    /// to it.
    pub async fn create(
        &self,
        tid: &str,
        config: &str,
        bots: &[BotRow],
        games: &[ScheduledGame],
    ) -> Result<Store, StoreError> {
        let mut tx = self.pool.begin().await.map_err(|e| self.err(e))?;
        let insert = match self.dialect {
            Dialect::Sqlite => {
                "INSERT INTO tournament (id, tid, config, created_at) VALUES (1, $1, $2, {now}) RETURNING id"
            }
            Dialect::Postgres => "INSERT INTO tournament (tid, config, created_at) VALUES ($1, $2, {now}) RETURNING id",
        }
        .replace("{now}", self.dialect.now_text());
        let row = sqlx::query(sqlx::AssertSqlSafe(insert))
            .bind(tid)
            .bind(config)
            .fetch_one(&mut *tx)
            .await
            .map_err(|e| self.err(e))?;
        let t: i64 = row.try_get(0).map_err(|e| self.err(e))?;
        for b in bots {
            insert_bot(&mut tx, t, b).await.map_err(|e| self.err(e))?;
        }
        insert_games(&mut tx, t, games).await.map_err(|e| self.err(e))?;
        if is_open_ended(config) {
            sqlx::query("UPDATE tournament SET open_ended = 1 WHERE id = $1")
                .bind(t)
                .execute(&mut *tx)
                .await
                .map_err(|e| self.err(e))?;
        }
        tx.commit().await.map_err(|e| self.err(e))?;
        Ok(self.scoped(t))
    }

    /// The tournament's id and options (JSON text); `None` when none was created.
    pub async fn meta(&self) -> Result<Option<(String, String)>, StoreError> {
        let row = sqlx::query("SELECT tid, config FROM tournament WHERE id = $1")
            .bind(self.t)
            .fetch_optional(&self.pool)
            .await
            .map_err(|e| self.err(e))?;
        row.map(|r| Ok((r.try_get(0).map_err(|e| self.err(e))?, r.try_get(1).map_err(|e| self.err(e))?))).transpose()
    }

    /// The bots, by index.
    pub async fn bots(&self) -> Result<Vec<BotRow>, StoreError> {
        let rows = sqlx::query("SELECT idx, name, spec, sha256 FROM bots WHERE t = $1 ORDER BY idx")
            .bind(self.t)
            .fetch_all(&self.pool)
            .await
            .map_err(|e| self.err(e))?;
        rows.iter().map(|r| rows::bot(r).map_err(|e| self.err(e))).collect()
    }

    /// Records finished games in one transaction: per game, its per-seat results and its
    /// files (`files`, matched by index; absent without logs) and state `done`. A game that
    /// already has results (recorded by a worker whose lease had expired) is left exactly as
    /// it is: nothing counts twice. Returns the games recorded now.
    pub async fn record(&self, records: &[GameRecord], files: &[GameFiles]) -> Result<Vec<u64>, StoreError> {
        let mut tx = self.pool.begin().await.map_err(|e| self.err(e))?;
        let mut recorded = Vec::with_capacity(records.len());
        for r in records {
            let mut fresh = false;
            for seat in 0..4 {
                let stats = serde_json::to_string(&r.stats[seat])
                    .map_err(|e| StoreError::Corrupt { path: self.path.clone(), cause: e.to_string() })?;
                let done = sqlx::query(
                    "INSERT INTO results (t, game_idx, seat, bot, score, rank, stats) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING",
                )
                .bind(self.t)
                .bind(r.index as i64)
                .bind(seat as i64)
                .bind(r.seats[seat] as i64)
                .bind(r.scores[seat] as i64)
                .bind(r.ranks[seat] as i64)
                .bind(stats)
                .execute(&mut *tx)
                .await
                .map_err(|e| self.err(e))?;
                fresh |= done.rows_affected() > 0;
            }
            if !fresh {
                continue; // recorded before: its files and state stay
            }
            if let Some(f) = files.iter().find(|f| f.index == r.index) {
                blobs::insert_files(&mut tx, self.t, f).await.map_err(|e| self.err(e))?;
            }
            sqlx::query("UPDATE games SET state = 'done', error = NULL, lease_until = NULL WHERE t = $1 AND idx = $2")
                .bind(self.t)
                .bind(r.index as i64)
                .execute(&mut *tx)
                .await
                .map_err(|e| self.err(e))?;
            recorded.push(r.index);
        }
        if !recorded.is_empty() {
            self.fold_in(&mut tx, &recorded, false).await?;
        }
        tx.commit().await.map_err(|e| self.err(e))?;
        Ok(recorded)
    }

    /// Marks `worker`'s attempt at a game failed with its one-line `reason`. The first
    /// failure puts it back to `pending` (retried once); the second leaves it `failed`.
    /// Returns true when the game will be retried (false too when the game is no longer
    /// `worker`'s: its lease expired and another worker took it).
    pub async fn fail(&self, worker: &str, index: u64, reason: &str) -> Result<bool, StoreError> {
        self.fail_after(worker, index, reason, MAX_ATTEMPTS).await
    }

    /// Marks `worker`'s attempt at a game failed for good with its one-line `reason`, with
    /// no retry: the referee's own bug (a built-in bot's chombo), which playing again would
    /// hide. The game is listed by [`Store::failed`] and counts in no standings.
    pub async fn fail_for_good(&self, worker: &str, index: u64, reason: &str) -> Result<(), StoreError> {
        self.fail_after(worker, index, reason, 1).await.map(drop)
    }

    /// [`Store::fail`] with the attempts after which the game is given up.
    async fn fail_after(&self, worker: &str, index: u64, reason: &str, attempts: i64) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await.map_err(|e| self.err(e))?;
        let row = sqlx::query(
            "UPDATE games SET attempts = attempts + 1, error = $1, claimed_by = NULL, lease_until = NULL, \
             state = CASE WHEN attempts + 1 >= $2 THEN 'failed' ELSE 'pending' END \
             WHERE t = $3 AND idx = $4 AND state = 'running' AND claimed_by = $5 RETURNING state",
        )
        .bind(reason)
        .bind(attempts)
        .bind(self.t)
        .bind(index as i64)
        .bind(worker)
        .fetch_optional(&mut *tx)
        .await
        .map_err(|e| self.err(e))?;
        let Some(row) = row else { return Ok(false) };
        let state: String = row.try_get(0).map_err(|e| self.err(e))?;
        if state == "failed" {
            // given up: the fold's cursor may have waited for it
            self.fold_in(&mut tx, &[], false).await?;
        }
        tx.commit().await.map_err(|e| self.err(e))?;
        Ok(state == "pending")
    }

    /// Every recorded game, in schedule order.
    pub async fn records(&self) -> Result<Vec<GameRecord>, StoreError> {
        use futures_util::TryStreamExt;
        let mut stream = sqlx::query(
            "SELECT g.idx, g.set_idx, r.seat, r.bot, r.score, r.rank, r.stats \
             FROM results r JOIN games g ON g.t = r.t AND g.idx = r.game_idx \
             WHERE r.t = $1 ORDER BY g.idx, r.seat",
        )
        .bind(self.t)
        .fetch(&self.pool);
        // streamed row by row: 100,000 games are 400,000 rows
        let mut out = Vec::new();
        while let Some(row) = stream.try_next().await.map_err(|e| self.err(e))? {
            rows::push_record(&mut out, &row)
                .map_err(|cause| StoreError::Corrupt { path: self.path.clone(), cause })?;
        }
        rows::check_complete(&out).map_err(|cause| StoreError::Corrupt { path: self.path.clone(), cause })?;
        Ok(out)
    }

    /// Games per state.
    pub async fn counts(&self) -> Result<Counts, StoreError> {
        let rows = sqlx::query("SELECT state, COUNT(*) FROM games WHERE t = $1 GROUP BY state")
            .bind(self.t)
            .fetch_all(&self.pool)
            .await
            .map_err(|e| self.err(e))?;
        rows::counts(&rows).map_err(|e| self.err(e))
    }

    /// Games that failed for good, with their reasons, in schedule order.
    pub async fn failed(&self) -> Result<Vec<FailedGame>, StoreError> {
        let rows = sqlx::query(
            "SELECT idx, attempts, COALESCE(error, '') FROM games WHERE t = $1 AND state = 'failed' ORDER BY idx",
        )
        .bind(self.t)
        .fetch_all(&self.pool)
        .await
        .map_err(|e| self.err(e))?;
        rows.iter().map(|r| rows::failed(r).map_err(|e| self.err(e))).collect()
    }

    /// Closes the pool (checkpoints SQLite's WAL).
    pub async fn close(&self) {
        self.pool.close().await;
    }

    fn err(&self, e: sqlx::Error) -> StoreError {
        db_error(&self.path, e)
    }
}

/// Whether tournament options (JSON text) describe a league: `"sets": 0`.
fn is_open_ended(config: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(config).ok().and_then(|v| v.get("sets")?.as_u64()) == Some(0)
}

/// Games per `INSERT` statement (9 parameters each: well under both engines' limits).
const INSERT_CHUNK: usize = 256;

/// Inserts scheduled games (state `pending`) of tournament `t`, [`INSERT_CHUNK`] rows per
/// statement (one round trip per chunk rather than per game).
/// Writes bot `b` of tournament `t`.
async fn insert_bot(conn: &mut sqlx::AnyConnection, t: i64, b: &BotRow) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO bots (t, idx, name, spec, sha256) VALUES ($1, $2, $3, $4, $5)")
        .bind(t)
        .bind(b.idx as i64)
        .bind(&b.name)
        .bind(&b.spec)
        .bind(&b.sha256)
        .execute(conn)
        .await?;
    Ok(())
}

async fn insert_games(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    t: i64,
    games: &[ScheduledGame],
) -> Result<(), sqlx::Error> {
    for chunk in games.chunks(INSERT_CHUNK) {
        let rows: Vec<String> = (0..chunk.len())
            .map(|i| format!("(${})", (1..=9).map(|c| (i * 9 + c).to_string()).collect::<Vec<_>>().join(", $")))
            .collect();
        let sql = format!(
            "INSERT INTO games (t, idx, set_idx, seed_nonce, seed_key, seat0, seat1, seat2, seat3) VALUES {}",
            rows.join(", ")
        );
        let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
        for g in chunk {
            query = query
                .bind(t)
                .bind(g.index as i64)
                .bind(g.set as i64)
                .bind(g.seed[0] as i64)
                .bind(g.seed[1] as i64)
                .bind(g.seats[0] as i64)
                .bind(g.seats[1] as i64)
                .bind(g.seats[2] as i64)
                .bind(g.seats[3] as i64);
        }
        query.execute(&mut **tx).await?;
    }
    Ok(())
}

fn db_error(path: &str, e: sqlx::Error) -> StoreError {
    let cause = e.to_string().replace('\n', " ");
    if cause.contains("database is locked") || cause.contains("database table is locked") {
        StoreError::Locked { path: path.to_string() }
    } else if retry::is_transient(&e) {
        StoreError::Unavailable { db: path.to_string(), cause }
    } else {
        StoreError::Db { path: path.to_string(), cause }
    }
}

#[cfg(test)]
mod league_tests;
#[cfg(test)]
mod tests;
