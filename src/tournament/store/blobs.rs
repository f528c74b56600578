//! Bytes in the store: submissions (zip bytes keyed by their sha256, so that a worker on
//! another host needs no shared disk) and a finished game's files (with the errors they
//! hold, listed for a bot's author).

use std::io::{Read, Write};

use sha2::{Digest, Sha256};
use sqlx::{Any, Row, Transaction};

use super::{Store, StoreError};

/// A finished game's files as stored with its result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameFiles {
    /// Schedule index of the game.
    pub index: u64,
    /// `mjai_log.json`, gzip-compressed.
    pub log_gz: Vec<u8>,
    /// `summary.json`.
    pub summary: String,
    /// `errors.json`.
    pub errors: String,
    /// `trace.jsonl` ([`mjai_sim_arena::trace`]), gzip-compressed; `None` when the game
    /// was played without one. Kept in `game_traces`, apart, for retention.
    pub trace_gz: Option<Vec<u8>>,
}

/// `bytes` gzip-compressed (the default level), as stored logs are. Errors: writing into
/// memory failed (it does not).
pub fn gzip(bytes: &[u8]) -> std::io::Result<Vec<u8>> {
    gzip_at(bytes, flate2::Compression::default())
}

/// `bytes` gzip-compressed at the fastest level (a trace: some ten times a log's size,
/// compressed at every game's end, read back rarely).
fn gzip_fast(bytes: &[u8]) -> std::io::Result<Vec<u8>> {
    gzip_at(bytes, flate2::Compression::fast())
}

/// `bytes` gzip-compressed at `level`.
fn gzip_at(bytes: &[u8], level: flate2::Compression) -> std::io::Result<Vec<u8>> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), level);
    gz.write_all(bytes)?;
    gz.finish()
}

impl GameFiles {
    /// The files of a game folder (`mjai_log.json`, `summary.json`, `errors.json`, and
    /// `trace.jsonl` when there is one; a missing summary or errors file is stored as
    /// empty). Errors: the log (or an existing trace) cannot be read.
    pub fn read(index: u64, dir: &std::path::Path) -> std::io::Result<GameFiles> {
        let log_gz = gzip(&std::fs::read(dir.join("mjai_log.json"))?)?;
        let text = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap_or_default();
        let trace_gz = match std::fs::read(dir.join(mjai_sim_arena::trace::TRACE_FILE)) {
            Ok(bytes) => Some(gzip_fast(&bytes)?),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(e),
        };
        Ok(GameFiles { index, log_gz, summary: text("summary.json"), errors: text("errors.json"), trace_gz })
    }

    /// `mjai_log.json` as it was written. Errors: the stored bytes are not gzip.
    pub fn log(&self) -> std::io::Result<Vec<u8>> {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(self.log_gz.as_slice()).read_to_end(&mut out)?;
        Ok(out)
    }
}

pub(super) async fn insert_files(tx: &mut Transaction<'_, Any>, t: i64, f: &GameFiles) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO game_files (t, game_idx, log_gz, summary, errors) VALUES ($1, $2, $3, $4, $5) \
         ON CONFLICT DO NOTHING",
    )
    .bind(t)
    .bind(f.index as i64)
    .bind(f.log_gz.clone())
    .bind(&f.summary)
    .bind(&f.errors)
    .execute(&mut **tx)
    .await?;
    if let Some(trace) = &f.trace_gz {
        sqlx::query("INSERT INTO game_traces (t, game_idx, trace_gz) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING")
            .bind(t)
            .bind(f.index as i64)
            .bind(trace.clone())
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}

/// Hex sha256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// Hex sha256 of the file at `path`, read piece by piece (memory does not grow with its
/// size). Errors: the file cannot be read.
pub fn sha256_file(path: &std::path::Path) -> std::io::Result<String> {
    let mut hasher = Sha256::new();
    std::io::copy(&mut std::fs::File::open(path)?, &mut hasher)?;
    Ok(hex::encode(hasher.finalize()))
}

/// Bytes in the store: submissions by sha256 and games' files ([`Store::blobs`]).
#[derive(Clone, Copy)]
pub struct Blobs<'a> {
    pub(super) store: &'a Store,
}

impl Blobs<'_> {
    /// Stores submission bytes under their sha256 (kept once however many tournaments use
    /// them). Returns the hex sha256.
    pub async fn put_submission(self, bytes: &[u8]) -> Result<String, StoreError> {
        let sha = sha256_hex(bytes);
        let mut conn = self.store.pool.acquire().await.map_err(|e| self.store.err(e))?;
        insert_submission(&mut conn, &sha, bytes).await.map_err(|e| self.store.err(e))?;
        Ok(sha)
    }

    /// The submission bytes stored under `sha256` (joined from their pieces); `None` when
    /// there are none. Errors: the bytes do not hash to `sha256` (one line naming it).
    pub async fn submission(self, sha256: &str) -> Result<Option<Vec<u8>>, StoreError> {
        let row = sqlx::query("SELECT bytes FROM submissions WHERE sha256 = $1")
            .bind(sha256)
            .fetch_optional(&self.store.pool)
            .await
            .map_err(|e| self.store.err(e))?;
        let Some(row) = row else { return Ok(None) };
        let mut bytes: Vec<u8> = row.try_get(0).map_err(|e| self.store.err(e))?;
        if bytes.is_empty() {
            // stored in pieces (submission_chunks); a row written before them holds its bytes
            let chunks = sqlx::query("SELECT bytes FROM submission_chunks WHERE sha256 = $1 ORDER BY idx")
                .bind(sha256)
                .fetch_all(&self.store.pool)
                .await
                .map_err(|e| self.store.err(e))?;
            for chunk in chunks {
                bytes.extend_from_slice(&chunk.try_get::<Vec<u8>, _>(0).map_err(|e| self.store.err(e))?);
            }
        }
        let actual = sha256_hex(&bytes);
        if actual != sha256 {
            return Err(StoreError::Mismatch { db: self.store.path.clone(), sha256: sha256.to_string(), actual });
        }
        Ok(Some(bytes))
    }

    /// Writes the submission stored under `sha256` to the file `dest` (created or
    /// truncated), one stored piece of [`CHUNK_BYTES`] at a time, hashing as it goes:
    /// memory holds one piece, never the submission. Returns its size in bytes, `None` when
    /// the store has no such submission (`dest` untouched). A row written before pieces
    /// existed (its bytes in `submissions` itself) is read whole. Errors: the database
    /// failed; [`StoreError::LocalFile`] when `dest` cannot be written;
    /// [`StoreError::Mismatch`] when the bytes do not hash to `sha256` (`dest` removed).
    pub async fn write_submission(self, sha256: &str, dest: &std::path::Path) -> Result<Option<u64>, StoreError> {
        use tokio::io::AsyncWriteExt;
        let row = sqlx::query("SELECT CAST(LENGTH(bytes) AS BIGINT) FROM submissions WHERE sha256 = $1")
            .bind(sha256)
            .fetch_optional(&self.store.pool)
            .await
            .map_err(|e| self.store.err(e))?;
        let Some(row) = row else { return Ok(None) };
        let inline: i64 = row.try_get(0).map_err(|e| self.store.err(e))?;
        let local = |e: std::io::Error| StoreError::LocalFile {
            db: self.store.path.clone(),
            sha256: sha256.to_string(),
            file: dest.display().to_string(),
            cause: e.to_string(),
        };
        let mut out = tokio::fs::File::create(dest).await.map_err(local)?;
        let (mut hasher, mut len) = (Sha256::new(), 0u64);
        let mut idx = 0i64;
        loop {
            let sql = match (inline > 0, idx) {
                (true, 0) => "SELECT bytes FROM submissions WHERE sha256 = $1 AND $2 = 0",
                (true, _) => break,
                (false, _) => "SELECT bytes FROM submission_chunks WHERE sha256 = $1 AND idx = $2",
            };
            let piece = sqlx::query(sql)
                .bind(sha256)
                .bind(idx)
                .fetch_optional(&self.store.pool)
                .await
                .map_err(|e| self.store.err(e))?;
            let Some(piece) = piece else { break };
            let bytes: Vec<u8> = piece.try_get(0).map_err(|e| self.store.err(e))?;
            hasher.update(&bytes);
            len += bytes.len() as u64;
            out.write_all(&bytes).await.map_err(local)?;
            idx += 1;
        }
        out.flush().await.map_err(local)?;
        out.sync_all().await.map_err(local)?;
        let actual = hex::encode(hasher.finalize());
        if actual != sha256 {
            let _ = tokio::fs::remove_file(dest).await;
            return Err(StoreError::Mismatch { db: self.store.path.clone(), sha256: sha256.to_string(), actual });
        }
        Ok(Some(len))
    }

    /// Schedule indices of the games that have stored files, in order.
    pub async fn games_with_files(self) -> Result<Vec<u64>, StoreError> {
        let rows = sqlx::query("SELECT game_idx FROM game_files WHERE t = $1 ORDER BY game_idx")
            .bind(self.store.t)
            .fetch_all(&self.store.pool)
            .await
            .map_err(|e| self.store.err(e))?;
        rows.iter().map(|r| r.try_get::<i64, _>(0).map(|i| i as u64).map_err(|e| self.store.err(e))).collect()
    }

    /// The stored files of game `index`; `None` when it has none (not finished, or played
    /// without logs).
    pub async fn game_files(self, index: u64) -> Result<Option<GameFiles>, StoreError> {
        let row = sqlx::query("SELECT log_gz, summary, errors FROM game_files WHERE t = $1 AND game_idx = $2")
            .bind(self.store.t)
            .bind(index as i64)
            .fetch_optional(&self.store.pool)
            .await
            .map_err(|e| self.store.err(e))?;
        row.map(|r| {
            Ok(GameFiles {
                index,
                log_gz: r.try_get(0).map_err(|e| self.store.err(e))?,
                summary: r.try_get(1).map_err(|e| self.store.err(e))?,
                errors: r.try_get(2).map_err(|e| self.store.err(e))?,
                trace_gz: None, // apart: Blobs::trace
            })
        })
        .transpose()
    }

    /// The stored trace of game `index` (`trace.jsonl`, gzip); `None` when it has none
    /// (not finished, played without one, or past the retention).
    pub async fn trace(self, index: u64) -> Result<Option<Vec<u8>>, StoreError> {
        let row = sqlx::query("SELECT trace_gz FROM game_traces WHERE t = $1 AND game_idx = $2")
            .bind(self.store.t)
            .bind(index as i64)
            .fetch_optional(&self.store.pool)
            .await
            .map_err(|e| self.store.err(e))?;
        row.map(|r| r.try_get(0).map_err(|e| self.store.err(e))).transpose()
    }

    /// Deletes the traces of games that finished before `before_ms` (ms since the Unix
    /// epoch): the retention of `serve --trace-days`. Returns how many went.
    pub async fn forget_traces_before(self, before_ms: i64) -> Result<u64, StoreError> {
        let done = sqlx::query(
            "DELETE FROM game_traces WHERE t = $1 AND game_idx IN \
             (SELECT idx FROM games WHERE t = $1 AND finished_ms IS NOT NULL AND finished_ms < $2)",
        )
        .bind(self.store.t)
        .bind(before_ms)
        .execute(&self.store.pool)
        .await
        .map_err(|e| self.store.err(e))?;
        Ok(done.rows_affected())
    }

    /// The stored `errors.json` of finished games in which any of the league bots `bots`
    /// sat and something went wrong, latest first (at most `limit` games, in one query):
    /// `(game, seats, errors)` (one bot per seat of the table). No bots: nothing.
    pub async fn game_errors(self, bots: &[usize], limit: u32) -> Result<Vec<(u64, Vec<usize>, String)>, StoreError> {
        if bots.is_empty() {
            return Ok(Vec::new());
        }
        let list = bots.iter().map(|b| b.to_string()).collect::<Vec<_>>().join(", ");
        let sql = format!(
            "SELECT g.idx, g.seat0, g.seat1, g.seat2, g.seat3, f.errors FROM game_files f \
             JOIN games g ON g.t = f.t AND g.idx = f.game_idx \
             WHERE f.t = $1 AND f.errors <> '[]' AND f.errors <> '' \
             AND (g.seat0 IN ({list}) OR g.seat1 IN ({list}) OR g.seat2 IN ({list}) OR g.seat3 IN ({list})) \
             ORDER BY g.idx DESC LIMIT $2"
        );
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(self.store.t)
            .bind(limit as i64)
            .fetch_all(&self.store.pool)
            .await
            .map_err(|e| self.store.err(e))?;
        rows.iter()
            .map(|r| {
                let int = |c: usize| r.try_get::<i64, _>(c).map_err(|e| self.store.err(e));
                let seats = super::rows::seats_of([int(1)?, int(2)?, int(3)?, int(4)?]);
                Ok((int(0)? as u64, seats, r.try_get(5).map_err(|e| self.store.err(e))?))
            })
            .collect()
    }
}

/// Size of one stored piece of a submission (`submission_chunks`): 4 MiB.
pub const CHUNK_BYTES: usize = 4 << 20;

/// Stores submission `bytes` under `sha256` in pieces of [`CHUNK_BYTES`] (kept once: a
/// second insert changes nothing).
pub(super) async fn insert_submission(
    conn: &mut sqlx::AnyConnection,
    sha256: &str,
    bytes: &[u8],
) -> Result<(), sqlx::Error> {
    if !insert_marker(conn, sha256).await? {
        return Ok(());
    }
    for (idx, chunk) in bytes.chunks(CHUNK_BYTES).enumerate() {
        insert_chunk(conn, sha256, idx, chunk.to_vec()).await?;
    }
    Ok(())
}

/// Stores the submission in `file` under `sha256`, reading and writing one piece of
/// [`CHUNK_BYTES`] at a time (memory does not grow with the file). Kept once.
pub(super) async fn insert_submission_file(
    conn: &mut sqlx::AnyConnection,
    sha256: &str,
    file: &std::path::Path,
) -> Result<(), sqlx::Error> {
    use tokio::io::AsyncReadExt;
    if !insert_marker(conn, sha256).await? {
        return Ok(());
    }
    let mut reader = tokio::fs::File::open(file).await?;
    let mut idx = 0;
    loop {
        let mut chunk = Vec::with_capacity(CHUNK_BYTES);
        // bounded: a regular file on disk.
        let n = (&mut reader).take(CHUNK_BYTES as u64).read_to_end(&mut chunk).await?;
        if n == 0 {
            return Ok(());
        }
        insert_chunk(conn, sha256, idx, chunk).await?;
        idx += 1;
    }
}

/// The `submissions` row of a chunked submission (empty `bytes`); false when `sha256` is
/// stored already.
async fn insert_marker(conn: &mut sqlx::AnyConnection, sha256: &str) -> Result<bool, sqlx::Error> {
    let done = sqlx::query("INSERT INTO submissions (sha256, bytes) VALUES ($1, $2) ON CONFLICT DO NOTHING")
        .bind(sha256)
        .bind(Vec::<u8>::new())
        .execute(&mut *conn)
        .await?;
    Ok(done.rows_affected() == 1)
}

async fn insert_chunk(
    conn: &mut sqlx::AnyConnection,
    sha256: &str,
    idx: usize,
    bytes: Vec<u8>,
) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO submission_chunks (sha256, idx, bytes) VALUES ($1, $2, $3)")
        .bind(sha256)
        .bind(idx as i64)
        .bind(bytes)
        .execute(conn)
        .await?;
    Ok(())
}
