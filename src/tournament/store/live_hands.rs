//! A running league game's finished hands, for those who watch it one hand behind
//! ([`Store::live`]): whoever plays the game (the server or a worker on another host)
//! publishes each hand at its `end_kyoku`; the server reads them for the game's page and
//! its event stream. Nothing of a hand still in play is ever stored, so nothing of it can
//! be shown (the same masking as the finished viewer: a finished hand shows every tile).
//!
//! Rows live while the game runs: a replay of the game (its lease expired, it was handed
//! back) starts over at hand 0, which drops what an earlier attempt left; recording,
//! failing or releasing the game drops them ([`Live::forget`]).

use sqlx::Row;

use super::{Store, StoreError};

/// Where a league game stands, for its watchers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameState {
    /// Waiting to be played (or handed back to the queue).
    Pending,
    /// Being played.
    Running,
    /// Finished and recorded: its whole log is stored.
    Done,
    /// Failed (it may be tried again: then it is pending).
    Failed,
}

/// The live hands of running games ([`Store::live`]).
#[derive(Clone, Copy)]
pub struct Live<'a> {
    pub(super) store: &'a Store,
}

impl Live<'_> {
    /// Stores hand `hand` (0-based: the game's first hand is 0) of game `index`, played by
    /// `worker`: `events` is the JSON array of the hand's mjai events, the first hand's
    /// starting with `start_game`, each ending with its `end_kyoku`. Hand 0 first drops
    /// whatever an earlier attempt at the game left. Does nothing unless `worker` holds
    /// the game (a worker whose lease expired cannot overwrite the one playing it now).
    /// Errors: the database's.
    pub async fn put_hand(self, worker: &str, index: u64, hand: u32, events: &str) -> Result<(), StoreError> {
        let held = "EXISTS (SELECT 1 FROM games WHERE t = $1 AND idx = $2 AND state = 'running' AND claimed_by = $3)";
        let mut tx = self.store.pool.begin().await.map_err(|e| self.store.err(e))?;
        if hand == 0 {
            sqlx::query(sqlx::AssertSqlSafe(format!(
                "DELETE FROM live_hands WHERE t = $1 AND game_idx = $2 AND {held}"
            )))
            .bind(self.store.t)
            .bind(index as i64)
            .bind(worker)
            .execute(&mut *tx)
            .await
            .map_err(|e| self.store.err(e))?;
        }
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "INSERT INTO live_hands (t, game_idx, hand, events) SELECT $1, $2, $4, $5 WHERE {held} \
             ON CONFLICT (t, game_idx, hand) DO UPDATE SET events = excluded.events"
        )))
        .bind(self.store.t)
        .bind(index as i64)
        .bind(worker)
        .bind(i64::from(hand))
        .bind(events)
        .execute(&mut *tx)
        .await
        .map_err(|e| self.store.err(e))?;
        tx.commit().await.map_err(|e| self.store.err(e))
    }

    /// The stored hands of game `index` from hand `from` on, in order, as `(hand, events)`
    /// (at most `limit`). Errors: the database's.
    pub async fn hands(self, index: u64, from: u32, limit: u32) -> Result<Vec<(u32, String)>, StoreError> {
        let rows = sqlx::query(
            "SELECT hand, events FROM live_hands WHERE t = $1 AND game_idx = $2 AND hand >= $3 ORDER BY hand LIMIT $4",
        )
        .bind(self.store.t)
        .bind(index as i64)
        .bind(i64::from(from))
        .bind(i64::from(limit))
        .fetch_all(&self.store.pool)
        .await
        .map_err(|e| self.store.err(e))?;
        rows.iter()
            .map(|r| {
                let hand: i64 = r.try_get(0)?;
                Ok((hand.clamp(0, u32::MAX as i64) as u32, r.try_get(1)?))
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(|e| self.store.err(e))
    }

    /// Drops the live hands of games `indices` (recorded, failed or handed back). Errors:
    /// the database's.
    pub async fn forget(self, indices: &[u64]) -> Result<(), StoreError> {
        if indices.is_empty() {
            return Ok(());
        }
        let list = indices.iter().map(|i| i.to_string()).collect::<Vec<_>>().join(", ");
        sqlx::query(sqlx::AssertSqlSafe(format!("DELETE FROM live_hands WHERE t = $1 AND game_idx IN ({list})")))
            .bind(self.store.t)
            .execute(&self.store.pool)
            .await
            .map_err(|e| self.store.err(e))?;
        Ok(())
    }

    /// Where game `index` stands; `None`: no such game. Errors: the database's.
    pub async fn state(self, index: u64) -> Result<Option<GameState>, StoreError> {
        let row = sqlx::query("SELECT state FROM games WHERE t = $1 AND idx = $2")
            .bind(self.store.t)
            .bind(index as i64)
            .fetch_optional(&self.store.pool)
            .await
            .map_err(|e| self.store.err(e))?;
        let Some(row) = row else { return Ok(None) };
        let state: String = row.try_get(0).map_err(|e| self.store.err(e))?;
        Ok(Some(match state.as_str() {
            "running" => GameState::Running,
            "done" => GameState::Done,
            "failed" => GameState::Failed,
            _ => GameState::Pending,
        }))
    }
}
