//! Annulled games (issue 54): an operator voids recorded games by id, by bot version, by
//! the time they finished or by the engine version that played them (`mjai-sim serve void`).
//! A voided game stays in the store and in every list, marked with the reason and the time;
//! it leaves every standing and rating: the aggregates are folded again from the first game
//! without it, in the transaction that voids it, so the ratings equal those of a league
//! that never played it (the fold passes over it as over a game failed for good).

use std::collections::BTreeMap;

use sqlx::Row;

use super::{Store, StoreError};

/// Which recorded games to void.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VoidSelector {
    /// These games, by id (their schedule indices).
    Games(Vec<u64>),
    /// Every game a bot's version sat in, by its league index (`bots.idx`,
    /// [`crate::leaderboard::VersionRow::bot_idx`]).
    Bot(usize),
    /// Every game that finished at or after `from_ms` and before `to_ms` (ms since the Unix
    /// epoch, UTC).
    Finished {
        /// First instant included.
        from_ms: i64,
        /// First instant excluded.
        to_ms: i64,
    },
    /// Every game played by this mjai-sim version ([`mjai_sim_arena::engine_stamp::EngineStamp::version`]).
    Engine(String),
}

/// A voided game's mark: why and when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VoidMark {
    /// The operator's reason.
    pub reason: String,
    /// When it was voided, ms since the Unix epoch (UTC).
    pub at_ms: i64,
}

/// The voided games of the tournament a [`Store`] is scoped to ([`Store::voids`]).
#[derive(Clone, Copy)]
pub struct Voids<'a> {
    pub(super) store: &'a Store,
}

impl Voids<'_> {
    /// Voids the recorded games `selector` names with `reason` (games not recorded, or
    /// voided already, are left as they are) and folds the standings and ratings again
    /// without them, in one transaction. Returns the ids voided now, in order. Errors: the
    /// database failed (nothing is voided then).
    pub async fn void(self, selector: &VoidSelector, reason: &str) -> Result<Vec<u64>, StoreError> {
        let e = |e| self.store.err(e);
        let (filter, bind): (String, Bind) = match selector {
            VoidSelector::Games(ids) if ids.is_empty() => return Ok(Vec::new()),
            // numbers written here, not a caller's text
            VoidSelector::Games(ids) => {
                let list = ids.iter().map(|&i| i.min(i64::MAX as u64).to_string()).collect::<Vec<_>>().join(", ");
                (format!("g.idx IN ({list})"), Bind::None)
            }
            VoidSelector::Bot(idx) => (
                "EXISTS (SELECT 1 FROM results r WHERE r.t = g.t AND r.game_idx = g.idx AND r.bot = $2)".into(),
                Bind::Int(*idx as i64),
            ),
            VoidSelector::Finished { from_ms, to_ms } => {
                ("g.finished_ms >= $2 AND g.finished_ms < $3".into(), Bind::Range(*from_ms, *to_ms))
            }
            VoidSelector::Engine(version) => ("g.engine_version = $2".into(), Bind::Text(version.clone())),
        };
        let sql = format!(
            "SELECT g.idx FROM games g WHERE g.t = $1 AND g.state = 'done' AND {filter} \
             AND NOT EXISTS (SELECT 1 FROM voided_games v WHERE v.t = g.t AND v.game_idx = g.idx) ORDER BY g.idx"
        );
        let mut tx = self.store.pool.begin().await.map_err(e)?;
        let query = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(self.store.t);
        let query = match bind {
            Bind::None => query,
            Bind::Int(i) => query.bind(i),
            Bind::Text(t) => query.bind(t),
            Bind::Range(a, b) => query.bind(a).bind(b),
        };
        let rows = query.fetch_all(&mut *tx).await.map_err(e)?;
        let ids: Vec<u64> =
            rows.iter().map(|r| r.try_get::<i64, _>(0).map(|i| i as u64)).collect::<Result<_, _>>().map_err(e)?;
        let sql = format!(
            "INSERT INTO voided_games (t, game_idx, reason, voided_ms) VALUES ($1, $2, $3, {}) ON CONFLICT DO NOTHING",
            self.store.dialect.now_ms()
        );
        for &id in &ids {
            sqlx::query(sqlx::AssertSqlSafe(sql.clone()))
                .bind(self.store.t)
                .bind(id as i64)
                .bind(reason)
                .execute(&mut *tx)
                .await
                .map_err(e)?;
        }
        if !ids.is_empty() {
            self.store.aggregates().fold_in(&mut tx, &[], true).await?;
        }
        tx.commit().await.map_err(e)?;
        Ok(ids)
    }

    /// The mark of game `id`; `None` when it is not voided.
    pub async fn of(self, id: u64) -> Result<Option<VoidMark>, StoreError> {
        Ok(self.among(&[id]).await?.remove(&id))
    }

    /// The marks of the voided games among `ids`, by id.
    pub async fn among(self, ids: &[u64]) -> Result<BTreeMap<u64, VoidMark>, StoreError> {
        if ids.is_empty() {
            return Ok(BTreeMap::new());
        }
        let list = ids.iter().map(u64::to_string).collect::<Vec<_>>().join(", ");
        let sql = format!("SELECT game_idx, reason, voided_ms FROM voided_games WHERE t = $1 AND game_idx IN ({list})");
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(self.store.t)
            .fetch_all(&self.store.pool)
            .await
            .map_err(|e| self.store.err(e))?;
        rows.iter()
            .map(|r| {
                let id: i64 = r.try_get(0)?;
                Ok((id as u64, VoidMark { reason: r.try_get(1)?, at_ms: r.try_get(2)? }))
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(|e| self.store.err(e))
    }

    /// How many games are voided (the leaderboard cache's key includes it).
    pub async fn count(self) -> Result<u64, StoreError> {
        let n: i64 = sqlx::query("SELECT COUNT(*) FROM voided_games WHERE t = $1")
            .bind(self.store.t)
            .fetch_one(&self.store.pool)
            .await
            .and_then(|r| r.try_get(0))
            .map_err(|e| self.store.err(e))?;
        Ok(n.max(0) as u64)
    }
}

/// The value(s) a selector binds after the tournament id.
enum Bind {
    None,
    Int(i64),
    Text(String),
    Range(i64, i64),
}
