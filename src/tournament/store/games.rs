//! The games of a tournament: results recorded with the game's files, failures, the
//! records, counts and failures read back, and a game's seats.

use sqlx::Row;

use super::{blobs, rows, Counts, FailedGame, GameFiles, Store, StoreError, MAX_ATTEMPTS};
use crate::record::GameRecord;
use mjai_sim_arena::engine_stamp::EngineStamp;

/// The games of the tournament a [`Store`] is scoped to: results recorded with their files,
/// failures, counts and seats ([`Store::games`]).
#[derive(Clone, Copy)]
pub struct Games<'a> {
    pub(super) store: &'a Store,
}

impl Games<'_> {
    /// Records finished games in one transaction: per game, its per-seat results and its
    /// files (`files`, matched by index; absent without logs), state `done` and its end time
    /// (`finished_ms`, the database clock at the recording). A game that
    /// already has results (recorded by a worker whose lease had expired) is left exactly as
    /// it is: nothing counts twice. Then, in a transaction of its own, a grading server's
    /// versions with chombos in these games are checked for suspension
    /// ([`super::Suspensions::check`]). Returns the games recorded now.
    pub async fn record(self, records: &[GameRecord], files: &[GameFiles]) -> Result<Vec<u64>, StoreError> {
        self.record_with(records, files, None).await
    }

    /// [`Games::record`], each game stamped with the `engine` that played it (stored as
    /// `games.engine` and `games.engine_version`: what [`super::Voids`] voids by engine
    /// version and the API shows).
    pub async fn record_with(
        self,
        records: &[GameRecord],
        files: &[GameFiles],
        engine: Option<&EngineStamp>,
    ) -> Result<Vec<u64>, StoreError> {
        let stamp = engine
            .map(serde_json::to_string)
            .transpose()
            .map_err(|e| StoreError::Corrupt { path: self.store.path.clone(), cause: e.to_string() })?;
        let version = engine.map(|e| e.version.clone());
        let mut tx = self.store.pool.begin().await.map_err(|e| self.store.err(e))?;
        let mut recorded = Vec::with_capacity(records.len());
        for r in records {
            let mut fresh = false;
            for seat in 0..r.seats.len() {
                let stats = serde_json::to_string(&r.stats[seat])
                    .map_err(|e| StoreError::Corrupt { path: self.store.path.clone(), cause: e.to_string() })?;
                let done = sqlx::query(
                    "INSERT INTO results (t, game_idx, seat, bot, score, rank, stats, think_ms) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING",
                )
                .bind(self.store.t)
                .bind(r.index as i64)
                .bind(seat as i64)
                .bind(r.seats[seat] as i64)
                .bind(r.scores[seat] as i64)
                .bind(r.ranks[seat] as i64)
                .bind(stats)
                .bind(r.stats[seat].times.total_ms().round() as i64)
                .execute(&mut *tx)
                .await
                .map_err(|e| self.store.err(e))?;
                fresh |= done.rows_affected() > 0;
            }
            if !fresh {
                continue; // recorded before: its files and state stay
            }
            if let Some(f) = files.iter().find(|f| f.index == r.index) {
                blobs::insert_files(&mut tx, self.store.t, f).await.map_err(|e| self.store.err(e))?;
            }
            let sql = format!(
                "UPDATE games SET state = 'done', error = NULL, lease_until = NULL, finished_ms = {}, \
                 engine = $3, engine_version = $4 WHERE t = $1 AND idx = $2",
                self.store.dialect.now_ms()
            );
            sqlx::query(sqlx::AssertSqlSafe(sql))
                .bind(self.store.t)
                .bind(r.index as i64)
                .bind(stamp.clone())
                .bind(version.clone())
                .execute(&mut *tx)
                .await
                .map_err(|e| self.store.err(e))?;
            recorded.push(r.index);
        }
        if !recorded.is_empty() {
            self.store.aggregates().fold_in(&mut tx, &recorded, false).await?;
        }
        tx.commit().await.map_err(|e| self.store.err(e))?;
        // after the commit, in a transaction of its own that takes the league's lock (taken
        // inside this one it would wait on the fold's cursor the other way round); every
        // record given is checked, so a call repeated after a failure here checks again
        self.store.suspensions().check(records).await?;
        Ok(recorded)
    }

    /// Marks `worker`'s attempt at a game failed with its one-line `reason`. The first
    /// failure puts it back to `pending` (retried once); the second leaves it `failed`.
    /// Returns true when the game will be retried (false too when the game is no longer
    /// `worker`'s: its lease expired and another worker took it).
    pub async fn fail(self, worker: &str, index: u64, reason: &str) -> Result<bool, StoreError> {
        self.fail_after(worker, index, reason, MAX_ATTEMPTS).await
    }

    /// Marks `worker`'s attempt at a game failed for good with its one-line `reason`, with
    /// no retry: the referee's own bug (a built-in bot's chombo), which playing again would
    /// hide. The game is listed by [`Games::failed`] and counts in no standings.
    pub async fn fail_for_good(self, worker: &str, index: u64, reason: &str) -> Result<(), StoreError> {
        self.fail_after(worker, index, reason, 1).await.map(drop)
    }

    /// [`Games::fail`] with the attempts after which the game is given up.
    async fn fail_after(self, worker: &str, index: u64, reason: &str, attempts: i64) -> Result<bool, StoreError> {
        let mut tx = self.store.pool.begin().await.map_err(|e| self.store.err(e))?;
        let row = sqlx::query(
            "UPDATE games SET attempts = attempts + 1, error = $1, claimed_by = NULL, lease_until = NULL, \
             state = CASE WHEN attempts + 1 >= $2 THEN 'failed' ELSE 'pending' END \
             WHERE t = $3 AND idx = $4 AND state = 'running' AND claimed_by = $5 RETURNING state",
        )
        .bind(reason)
        .bind(attempts)
        .bind(self.store.t)
        .bind(index as i64)
        .bind(worker)
        .fetch_optional(&mut *tx)
        .await
        .map_err(|e| self.store.err(e))?;
        let Some(row) = row else { return Ok(false) };
        let state: String = row.try_get(0).map_err(|e| self.store.err(e))?;
        if state == "failed" {
            // given up: the fold's cursor may have waited for it
            self.store.aggregates().fold_in(&mut tx, &[], false).await?;
        }
        tx.commit().await.map_err(|e| self.store.err(e))?;
        Ok(state == "pending")
    }

    /// Every recorded game that counts (not voided, [`super::Voids`]), in schedule order.
    pub async fn records(self) -> Result<Vec<GameRecord>, StoreError> {
        use futures_util::TryStreamExt;
        let mut stream = sqlx::query(
            "SELECT g.idx, g.set_idx, r.seat, r.bot, r.score, r.rank, r.stats \
             FROM results r JOIN games g ON g.t = r.t AND g.idx = r.game_idx \
             WHERE r.t = $1 \
             AND NOT EXISTS (SELECT 1 FROM voided_games v WHERE v.t = g.t AND v.game_idx = g.idx) \
             ORDER BY g.idx, r.seat",
        )
        .bind(self.store.t)
        .fetch(&self.store.pool);
        // streamed row by row: 100,000 games are 400,000 rows
        let mut out = Vec::new();
        while let Some(row) = stream.try_next().await.map_err(|e| self.store.err(e))? {
            rows::push_record(&mut out, &row)
                .map_err(|cause| StoreError::Corrupt { path: self.store.path.clone(), cause })?;
        }
        rows::check_complete(&out).map_err(|cause| StoreError::Corrupt { path: self.store.path.clone(), cause })?;
        Ok(out)
    }

    /// Games per state.
    pub async fn counts(self) -> Result<Counts, StoreError> {
        let rows = sqlx::query("SELECT state, COUNT(*) FROM games WHERE t = $1 GROUP BY state")
            .bind(self.store.t)
            .fetch_all(&self.store.pool)
            .await
            .map_err(|e| self.store.err(e))?;
        rows::counts(&rows).map_err(|e| self.store.err(e))
    }

    /// Games that failed for good, with their reasons, in schedule order.
    pub async fn failed(self) -> Result<Vec<FailedGame>, StoreError> {
        let rows = sqlx::query(
            "SELECT idx, attempts, COALESCE(error, '') FROM games WHERE t = $1 AND state = 'failed' ORDER BY idx",
        )
        .bind(self.store.t)
        .fetch_all(&self.store.pool)
        .await
        .map_err(|e| self.store.err(e))?;
        rows.iter().map(|r| rows::failed(r).map_err(|e| self.store.err(e))).collect()
    }

    /// The bots (indices) by seat of game `index` (one per seat of its table); `None`: no
    /// such game.
    pub async fn seats(self, index: u64) -> Result<Option<Vec<usize>>, StoreError> {
        let row = sqlx::query("SELECT seat0, seat1, seat2, seat3 FROM games WHERE t = $1 AND idx = $2")
            .bind(self.store.t)
            .bind(index as i64)
            .fetch_optional(&self.store.pool)
            .await
            .map_err(|e| self.store.err(e))?;
        let Some(r) = row else { return Ok(None) };
        let mut columns = [0i64; 4];
        for (i, s) in columns.iter_mut().enumerate() {
            *s = r.try_get::<i64, _>(i).map_err(|e| self.store.err(e))?;
        }
        Ok(Some(rows::seats_of(columns)))
    }

    /// Who sat in game `index`, by seat: each seat's bot name and version (a version's
    /// name as its author wrote it, never its league name `NAME#V`; a league bot no version
    /// claims: its league name, version 1) and its author (`None` for a house bot), in two
    /// queries whatever the league's size; `None`: no
    /// such game.
    pub async fn seat_bots(self, index: u64) -> Result<Option<Vec<SeatBot>>, StoreError> {
        let Some(seats) = self.seats(index).await? else { return Ok(None) };
        let list = seats.iter().map(|b| b.to_string()).collect::<Vec<_>>().join(", ");
        let sql = format!(
            "SELECT b.idx, COALESCE(v.name, b.name), v.author, COALESCE(v.version, 1) FROM bots b \
             LEFT JOIN bot_versions v ON v.t = b.t AND v.bot_idx = b.idx \
             WHERE b.t = $1 AND b.idx IN ({list})"
        );
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(self.store.t).fetch_all(&self.store.pool).await;
        let mut found: Vec<(usize, SeatBot)> = Vec::new();
        for r in &rows.map_err(|e| self.store.err(e))? {
            let idx: i64 = r.try_get(0).map_err(|e| self.store.err(e))?;
            let name: String = r.try_get(1).map_err(|e| self.store.err(e))?;
            let author: Option<String> = r.try_get(2).map_err(|e| self.store.err(e))?;
            let version = r.try_get::<i64, _>(3).map_err(|e| self.store.err(e))?.clamp(1, u32::MAX as i64) as u32;
            found.push((idx as usize, SeatBot { idx: idx as usize, name, version, author }));
        }
        Ok(Some(
            seats
                .into_iter()
                .map(|bot| {
                    let known = found.iter().find(|(idx, _)| *idx == bot).map(|(_, s)| s.clone());
                    known.unwrap_or(SeatBot { idx: bot, name: format!("bot {bot}"), version: 1, author: None })
                })
                .collect(),
        ))
    }
}

/// A seat's bot in a league game ([`Games::seat_bots`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatBot {
    /// Its index in the league's bots.
    pub idx: usize,
    /// Its name as its author wrote it (shared by its versions).
    pub name: String,
    /// Its version (1 for a house bot).
    pub version: u32,
    /// Its author (`None`: a house bot).
    pub author: Option<String>,
}
