//! The results store of a tournament: `DIR/tournament.sqlite` through sqlx.
//!
//! One small interface ([`Store`]) shared by the tournament runner and future workers
//! (issue 13 points the same operations at PostgreSQL): create a tournament with its bots
//! and scheduled games, claim games, record results (one transaction per batch), mark a
//! game failed, list records and metadata. Schema: `migrations/` (plain SQL valid in SQLite
//! and PostgreSQL; see README "Tournaments").
//!
//! Guarantees: results are keyed by (game, seat), so a game recorded twice counts once; a
//! game claimed but never finished (crash, `kill -9`) goes back to `pending` on resume and
//! is played again from its start. SQLite runs in WAL mode with a busy timeout, so readers
//! (`mjai-sim standings DIR`) never block the runner.

mod rows;

use std::path::Path;
use std::time::Duration;

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous};
use sqlx::Row;

use super::record::GameRecord;
use super::schedule::ScheduledGame;
pub use rows::{BotRow, Counts, FailedGame};

/// The database file of a tournament folder.
pub const DB_FILE: &str = "tournament.sqlite";

/// How long a write waits for another connection's lock before failing.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// A game fails for good at this many failed attempts (it is retried once).
pub const MAX_ATTEMPTS: i64 = 2;

/// Why the store refused or failed; every message is one line naming the file and the fix.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database is locked by another process beyond the busy timeout.
    #[error(
        "{path}: the database is locked (another mjai-sim is using this tournament?); stop it or choose another --dir"
    )]
    Locked { path: String },
    /// Any other database failure (disk full, permissions, corrupt file).
    #[error("{path}: database error: {cause} (check free space and permissions)")]
    Db { path: String, cause: String },
    /// A stored row does not have the expected shape.
    #[error("{path}: unexpected content: {cause} (was this file made by another version of mjai-sim?)")]
    Corrupt { path: String, cause: String },
}

/// An open results store.
#[derive(Clone)]
pub struct Store {
    pool: SqlitePool,
    path: String,
}

impl Store {
    /// Opens (creating if missing) the store at `path` and brings its schema up to date.
    /// Errors: the file cannot be created or opened, is locked, or is not a database.
    pub async fn open(path: &Path) -> Result<Store, StoreError> {
        let name = path.display().to_string();
        let options = SqliteConnectOptions::new()
            .filename(path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .busy_timeout(BUSY_TIMEOUT)
            .foreign_keys(true);
        let pool =
            SqlitePoolOptions::new().max_connections(4).connect_with(options).await.map_err(|e| db_error(&name, e))?;
        sqlx::migrate!("./migrations")
            .run(&pool)
            .await
            .map_err(|e| StoreError::Db { path: name.clone(), cause: e.to_string() })?;
        Ok(Store { pool, path: name })
    }

    /// Writes a new tournament in one transaction: its id, options (JSON text), bots and
    /// every scheduled game (state `pending`).
    pub async fn create(
        &self,
        tid: &str,
        config: &str,
        bots: &[BotRow],
        games: &[ScheduledGame],
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await.map_err(|e| self.err(e))?;
        sqlx::query("INSERT INTO tournament (id, tid, config, created_at) VALUES (1, ?, ?, datetime('now'))")
            .bind(tid)
            .bind(config)
            .execute(&mut *tx)
            .await
            .map_err(|e| self.err(e))?;
        for b in bots {
            sqlx::query("INSERT INTO bots (idx, name, spec, sha256) VALUES (?, ?, ?, ?)")
                .bind(b.idx as i64)
                .bind(&b.name)
                .bind(&b.spec)
                .bind(&b.sha256)
                .execute(&mut *tx)
                .await
                .map_err(|e| self.err(e))?;
        }
        for g in games {
            sqlx::query(
                "INSERT INTO games (idx, set_idx, seed_nonce, seed_key, seat0, seat1, seat2, seat3) \
                 VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            )
            .bind(g.index as i64)
            .bind(g.set as i64)
            .bind(g.seed[0] as i64)
            .bind(g.seed[1] as i64)
            .bind(g.seats[0] as i64)
            .bind(g.seats[1] as i64)
            .bind(g.seats[2] as i64)
            .bind(g.seats[3] as i64)
            .execute(&mut *tx)
            .await
            .map_err(|e| self.err(e))?;
        }
        tx.commit().await.map_err(|e| self.err(e))
    }

    /// The tournament's id and options (JSON text); `None` when none was created.
    pub async fn meta(&self) -> Result<Option<(String, String)>, StoreError> {
        let row = sqlx::query("SELECT tid, config FROM tournament WHERE id = 1")
            .fetch_optional(&self.pool)
            .await
            .map_err(|e| self.err(e))?;
        row.map(|r| Ok((r.try_get(0).map_err(|e| self.err(e))?, r.try_get(1).map_err(|e| self.err(e))?))).transpose()
    }

    /// The bots, by index.
    pub async fn bots(&self) -> Result<Vec<BotRow>, StoreError> {
        let rows = sqlx::query("SELECT idx, name, spec, sha256 FROM bots ORDER BY idx")
            .fetch_all(&self.pool)
            .await
            .map_err(|e| self.err(e))?;
        rows.iter().map(|r| rows::bot(r).map_err(|e| self.err(e))).collect()
    }

    /// Resume: games left `running` by a process that died go back to `pending` (they are
    /// played again from their start). Returns how many.
    pub async fn requeue_running(&self) -> Result<u64, StoreError> {
        let done = sqlx::query("UPDATE games SET state = 'pending', claimed_by = NULL WHERE state = 'running'")
            .execute(&self.pool)
            .await
            .map_err(|e| self.err(e))?;
        Ok(done.rows_affected())
    }

    /// Puts a claimed game back to `pending` (its play was interrupted).
    pub async fn release(&self, index: u64) -> Result<(), StoreError> {
        sqlx::query("UPDATE games SET state = 'pending', claimed_by = NULL WHERE idx = ? AND state = 'running'")
            .bind(index as i64)
            .execute(&self.pool)
            .await
            .map_err(|e| self.err(e))?;
        Ok(())
    }

    /// Claims up to `n` pending games for `worker`, lowest index first, marking them
    /// `running`. An empty list means nothing is pending.
    pub async fn claim(&self, worker: &str, n: usize) -> Result<Vec<ScheduledGame>, StoreError> {
        let rows = sqlx::query(
            "UPDATE games SET state = 'running', claimed_by = ?, claimed_at = datetime('now') \
             WHERE idx IN (SELECT idx FROM games WHERE state = 'pending' ORDER BY idx LIMIT ?) \
             RETURNING idx, set_idx, seed_nonce, seed_key, seat0, seat1, seat2, seat3",
        )
        .bind(worker)
        .bind(n as i64)
        .fetch_all(&self.pool)
        .await
        .map_err(|e| self.err(e))?;
        let mut games: Vec<ScheduledGame> =
            rows.iter().map(|r| rows::game(r).map_err(|e| self.err(e))).collect::<Result<_, _>>()?;
        games.sort_by_key(|g| g.index);
        Ok(games)
    }

    /// Records finished games in one transaction: their per-seat results (a game already
    /// recorded is left as it is) and state `done`.
    pub async fn record(&self, records: &[GameRecord]) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await.map_err(|e| self.err(e))?;
        for r in records {
            for seat in 0..4 {
                let stats = serde_json::to_string(&r.stats[seat])
                    .map_err(|e| StoreError::Corrupt { path: self.path.clone(), cause: e.to_string() })?;
                sqlx::query(
                    "INSERT INTO results (game_idx, seat, bot, score, rank, stats) VALUES (?, ?, ?, ?, ?, ?) \
                     ON CONFLICT (game_idx, seat) DO NOTHING",
                )
                .bind(r.index as i64)
                .bind(seat as i64)
                .bind(r.seats[seat] as i64)
                .bind(r.scores[seat] as i64)
                .bind(r.ranks[seat] as i64)
                .bind(stats)
                .execute(&mut *tx)
                .await
                .map_err(|e| self.err(e))?;
            }
            sqlx::query("UPDATE games SET state = 'done', error = NULL WHERE idx = ?")
                .bind(r.index as i64)
                .execute(&mut *tx)
                .await
                .map_err(|e| self.err(e))?;
        }
        tx.commit().await.map_err(|e| self.err(e))
    }

    /// Marks a game's attempt failed with its one-line `reason`. The first failure puts it
    /// back to `pending` (retried once); the second leaves it `failed`. Returns true when
    /// the game will be retried.
    pub async fn fail(&self, index: u64, reason: &str) -> Result<bool, StoreError> {
        let row = sqlx::query(
            "UPDATE games SET attempts = attempts + 1, error = ?, claimed_by = NULL, \
             state = CASE WHEN attempts + 1 >= ? THEN 'failed' ELSE 'pending' END \
             WHERE idx = ? RETURNING state",
        )
        .bind(reason)
        .bind(MAX_ATTEMPTS)
        .bind(index as i64)
        .fetch_one(&self.pool)
        .await
        .map_err(|e| self.err(e))?;
        let state: String = row.try_get(0).map_err(|e| self.err(e))?;
        Ok(state == "pending")
    }

    /// Every recorded game, in schedule order.
    pub async fn records(&self) -> Result<Vec<GameRecord>, StoreError> {
        use futures_util::TryStreamExt;
        let mut stream = sqlx::query(
            "SELECT g.idx, g.set_idx, r.seat, r.bot, r.score, r.rank, r.stats \
             FROM results r JOIN games g ON g.idx = r.game_idx ORDER BY g.idx, r.seat",
        )
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
        let rows = sqlx::query("SELECT state, COUNT(*) FROM games GROUP BY state")
            .fetch_all(&self.pool)
            .await
            .map_err(|e| self.err(e))?;
        rows::counts(&rows).map_err(|e| self.err(e))
    }

    /// Games that failed for good, with their reasons, in schedule order.
    pub async fn failed(&self) -> Result<Vec<FailedGame>, StoreError> {
        let rows =
            sqlx::query("SELECT idx, attempts, COALESCE(error, '') FROM games WHERE state = 'failed' ORDER BY idx")
                .fetch_all(&self.pool)
                .await
                .map_err(|e| self.err(e))?;
        rows.iter().map(|r| rows::failed(r).map_err(|e| self.err(e))).collect()
    }

    /// Closes the pool (checkpoints the WAL).
    pub async fn close(&self) {
        self.pool.close().await;
    }

    fn err(&self, e: sqlx::Error) -> StoreError {
        db_error(&self.path, e)
    }
}

fn db_error(path: &str, e: sqlx::Error) -> StoreError {
    let cause = e.to_string().replace('\n', " ");
    if cause.contains("database is locked") || cause.contains("database table is locked") {
        StoreError::Locked { path: path.to_string() }
    } else {
        StoreError::Db { path: path.to_string(), cause }
    }
}

#[cfg(test)]
mod tests;
