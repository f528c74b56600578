//! Claims under a lease: a claimed game is `running` with `claimed_by` (a worker's
//! incarnation id) and `lease_until` (database clock, ms since the Unix epoch). The worker
//! renews its leases while it plays ([`Leases::heartbeat`]); a game whose lease expired
//! (worker killed, host gone) is claimable again and is played from its start. In
//! PostgreSQL claims lock the rows they take (`FOR UPDATE SKIP LOCKED`), so workers never
//! wait for each other nor take the same game. The workers holding games now are counted
//! for a server's `/metrics`.

use sqlx::Row;

use super::{rows, Store, StoreError};
use crate::schedule::ScheduledGame;

/// `WHERE` condition of a claimable game (pending, or running with an expired lease).
fn claimable(now: &str) -> String {
    format!("(state = 'pending' OR (state = 'running' AND lease_until < {now}))")
}

/// Claims of games under a lease ([`Store::leases`]; see the module docs).
#[derive(Clone, Copy)]
pub struct Leases<'a> {
    pub(super) store: &'a Store,
}

impl Leases<'_> {
    /// Claims up to `n` claimable games of this tournament for `worker`, lowest index
    /// first, marking them `running` with a lease of `lease_ms` milliseconds and their start
    /// time (`started_ms`, the database clock; a game claimed again starts again). An empty list
    /// means nothing is claimable now. The candidates are selected once, in a materialized
    /// CTE: as a plain `IN (SELECT ... LIMIT n FOR UPDATE SKIP LOCKED)` PostgreSQL may run
    /// the sub-select more than once and claim far more than `n` games.
    pub async fn claim(self, worker: &str, n: usize, lease_ms: i64) -> Result<Vec<ScheduledGame>, StoreError> {
        self.claim_among(worker, n, lease_ms, usize::MAX).await
    }

    /// [`Leases::claim`] of games whose four seats are bots `0..bots` only: a process that
    /// loaded `bots` bots leaves the games of bots added to a league since to processes
    /// that loaded them (an empty list while such games wait: load the bots again).
    pub async fn claim_among(
        self,
        worker: &str,
        n: usize,
        lease_ms: i64,
        bots: usize,
    ) -> Result<Vec<ScheduledGame>, StoreError> {
        let now = self.store.dialect.now_ms();
        let sql = format!(
            "WITH c AS MATERIALIZED (SELECT idx FROM games WHERE t = $3 AND {cond} \
             AND seat0 < $5 AND seat1 < $5 AND seat2 < $5 AND seat3 < $5 ORDER BY idx LIMIT $4{lock}) \
             UPDATE games SET state = 'running', claimed_by = $1, claimed_at = {text}, started_ms = {now}, lease_until = {now} + $2 \
             WHERE t = $3 AND idx IN (SELECT idx FROM c) \
             RETURNING idx, set_idx, seed_nonce, seed_key, seat0, seat1, seat2, seat3",
            text = self.store.dialect.now_text(),
            cond = claimable(now),
            lock = self.store.dialect.skip_locked(),
        );
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(worker)
            .bind(lease_ms)
            .bind(self.store.t)
            .bind(n as i64)
            .bind(bots.min(i64::MAX as usize) as i64)
            .fetch_all(&self.store.pool)
            .await
            .map_err(|e| self.store.err(e))?;
        let mut games: Vec<ScheduledGame> =
            rows.iter().map(|r| rows::game(r).map_err(|e| self.store.err(e))).collect::<Result<_, _>>()?;
        games.sort_by_key(|g| g.index);
        Ok(games)
    }

    /// Renews for `lease_ms` milliseconds the lease of every game `worker` is playing, in
    /// any tournament. Returns how many games it holds.
    pub async fn heartbeat(self, worker: &str, lease_ms: i64) -> Result<u64, StoreError> {
        let sql = format!(
            "UPDATE games SET lease_until = {} + $1 WHERE state = 'running' AND claimed_by = $2",
            self.store.dialect.now_ms()
        );
        let done = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(lease_ms)
            .bind(worker)
            .execute(&self.store.pool)
            .await
            .map_err(|e| self.store.err(e))?;
        Ok(done.rows_affected())
    }

    /// Gives a game `worker` holds back to the queue (its play was interrupted).
    pub async fn release(self, worker: &str, index: u64) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE games SET state = 'pending', claimed_by = NULL, lease_until = NULL \
             WHERE t = $1 AND idx = $2 AND state = 'running' AND claimed_by = $3",
        )
        .bind(self.store.t)
        .bind(index as i64)
        .bind(worker)
        .execute(&self.store.pool)
        .await
        .map_err(|e| self.store.err(e))?;
        Ok(())
    }

    /// Resume: every game of this tournament left `running` (by a process that died) goes
    /// back to `pending` at once. Returns how many.
    pub async fn requeue_running(self) -> Result<u64, StoreError> {
        let done = sqlx::query(
            "UPDATE games SET state = 'pending', claimed_by = NULL, lease_until = NULL \
             WHERE t = $1 AND state = 'running'",
        )
        .bind(self.store.t)
        .execute(&self.store.pool)
        .await
        .map_err(|e| self.store.err(e))?;
        Ok(done.rows_affected())
    }

    /// A worker's start: games of any tournament still held by a previous life of the
    /// worker named `name` (claimed as `name#...`) go back to `pending`. Returns how many.
    pub async fn requeue_worker(self, name: &str) -> Result<u64, StoreError> {
        let done = sqlx::query(
            "UPDATE games SET state = 'pending', claimed_by = NULL, lease_until = NULL \
             WHERE state = 'running' AND claimed_by LIKE $1",
        )
        .bind(format!("{}#%", name.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_")))
        .execute(&self.store.pool)
        .await
        .map_err(|e| self.store.err(e))?;
        Ok(done.rows_affected())
    }

    /// Tournaments (`tournament.id`) that have claimable games, and leagues with at least
    /// as many active bots as their tables have seats (`tournament.seats`: 4, or 3 in a
    /// three-player league; claiming tops them up), oldest first.
    pub async fn claimable_tournaments(self) -> Result<Vec<i64>, StoreError> {
        let sql = format!(
            "SELECT DISTINCT t FROM games WHERE {} UNION \
             SELECT b.t FROM bots b JOIN tournament x ON x.id = b.t \
             WHERE x.open_ended = 1 AND b.retired = 0 GROUP BY b.t HAVING COUNT(*) >= MAX(x.seats) ORDER BY 1",
            claimable(self.store.dialect.now_ms())
        );
        let rows =
            sqlx::query(sqlx::AssertSqlSafe(sql)).fetch_all(&self.store.pool).await.map_err(|e| self.store.err(e))?;
        rows.iter().map(|r| r.try_get::<i64, _>(0).map_err(|e| self.store.err(e))).collect()
    }

    /// Distinct workers holding a running game (for `/metrics`).
    pub async fn workers_seen(self) -> Result<u64, StoreError> {
        sqlx::query("SELECT COUNT(DISTINCT claimed_by) FROM games WHERE t = $1 AND state = 'running'")
            .bind(self.store.t)
            .fetch_one(&self.store.pool)
            .await
            .and_then(|r| r.try_get::<i64, _>(0))
            .map(|n| n as u64)
            .map_err(|e| self.store.err(e))
    }
}
