//! A league's seasons (issue 54): opened with a freeze time, after which the league takes
//! no upload; then a final, a tournament of its own beside the league (its id kept here),
//! whose standings are frozen on the season's row once its last game is recorded, as JSON,
//! and never computed again (a later void in the league, or in the final, leaves them).
//!
//! Times are ms since the Unix epoch (UTC), given by the caller (`now_ms`), so that a
//! season's status is decided by one clock: the process asking.
//!
//! Which season decides whether uploads are taken ([`Seasons::upload_freeze`]): the one
//! opened last. From its freeze on the league takes no upload, until a later season is
//! opened. A season may be opened only when no other season of the league is still open
//! (its freeze not reached), so that the latest is always the one in force.

use sqlx::any::AnyRow;
use sqlx::Row;

use super::{Store, StoreError};

/// Where a season stands ([`SeasonRow::status`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum SeasonStatus {
    /// Before its freeze time: the league takes uploads.
    Open,
    /// From its freeze time on: the league takes no upload; no final asked for yet.
    Frozen,
    /// Its final was asked for: being played, or played (its standings frozen then).
    Final,
}

/// A season's final as asked for ([`Seasons::begin_final`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FinalRow {
    /// The final's tournament (`tournament.id`), beside the league in the same database.
    pub t: i64,
    /// The league leaderboard's top N it took; `None`: every active bot.
    pub top: Option<u32>,
    /// Duplicate sets each bot plays (at least).
    pub sets: u32,
    /// When it was asked for, ms since the Unix epoch.
    pub asked_ms: i64,
}

/// One season of a league, as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeasonRow {
    /// Its name (unique in its league).
    pub name: String,
    /// When it was opened, ms since the Unix epoch.
    pub opened_ms: i64,
    /// When uploads stop (stopped), ms since the Unix epoch.
    pub freeze_ms: i64,
    /// Its final, once asked for.
    pub final_round: Option<FinalRow>,
    /// The final's standings (JSON of [`crate::standings::Standings`]), once frozen.
    pub final_standings: Option<String>,
    /// When they were frozen, ms since the Unix epoch.
    pub frozen_ms: Option<i64>,
}

impl SeasonRow {
    /// Its status at `now_ms`: final once its final was asked for, else frozen from its
    /// freeze time on, else open.
    pub fn status(&self, now_ms: i64) -> SeasonStatus {
        match (&self.final_round, now_ms >= self.freeze_ms) {
            (Some(_), _) => SeasonStatus::Final,
            (None, true) => SeasonStatus::Frozen,
            (None, false) => SeasonStatus::Open,
        }
    }
}

/// What [`Seasons::open`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Opened {
    /// The season is opened.
    Opened,
    /// The league has a season of that name already.
    NameTaken,
    /// Another season of the league is still open (its freeze not reached).
    AnotherOpen {
        /// Its name.
        name: String,
        /// Its freeze time, ms since the Unix epoch.
        freeze_ms: i64,
    },
}

/// The seasons of the league a [`Store`] is scoped to ([`Store::seasons`]).
#[derive(Clone, Copy)]
pub struct Seasons<'a> {
    pub(super) store: &'a Store,
}

const COLUMNS: &str =
    "name, opened_ms, freeze_ms, final_t, final_top, final_sets, final_ms, final_standings, frozen_ms";

impl Seasons<'_> {
    /// Opens season `name` at `now_ms`, freezing at `freeze_ms` (in the past: frozen at
    /// once). Refused (nothing written) when the name is taken or another season is still
    /// open. Errors: the database failed.
    pub async fn open(self, name: &str, freeze_ms: i64, now_ms: i64) -> Result<Opened, StoreError> {
        let e = |e| self.store.err(e);
        let mut tx = self.store.begin_locked().await?;
        let sql = format!("SELECT {COLUMNS} FROM seasons WHERE t = $1");
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(self.store.t).fetch_all(&mut *tx).await.map_err(e)?;
        let seasons: Vec<SeasonRow> = rows.iter().map(season).collect::<Result<_, _>>().map_err(e)?;
        if seasons.iter().any(|s| s.name == name) {
            return Ok(Opened::NameTaken);
        }
        if let Some(s) = seasons.iter().find(|s| s.status(now_ms) == SeasonStatus::Open) {
            return Ok(Opened::AnotherOpen { name: s.name.clone(), freeze_ms: s.freeze_ms });
        }
        sqlx::query("INSERT INTO seasons (t, name, opened_ms, freeze_ms) VALUES ($1, $2, $3, $4)")
            .bind(self.store.t)
            .bind(name)
            .bind(now_ms)
            .bind(freeze_ms)
            .execute(&mut *tx)
            .await
            .map_err(e)?;
        tx.commit().await.map_err(e)?;
        Ok(Opened::Opened)
    }

    /// Season `name`; `None` when the league has none so named.
    pub async fn get(self, name: &str) -> Result<Option<SeasonRow>, StoreError> {
        let sql = format!("SELECT {COLUMNS} FROM seasons WHERE t = $1 AND name = $2");
        let row = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(self.store.t)
            .bind(name)
            .fetch_optional(&self.store.pool)
            .await
            .map_err(|e| self.store.err(e))?;
        row.as_ref().map(season).transpose().map_err(|e| self.store.err(e))
    }

    /// Every season of the league, the latest opened first.
    pub async fn list(self) -> Result<Vec<SeasonRow>, StoreError> {
        self.rows_where("ORDER BY opened_ms DESC, name DESC").await
    }

    /// Freezes season `name` at `now_ms` (a freeze time already passed stays). Returns the
    /// season as it is now; `None` when there is no such season. Errors: the database failed.
    pub async fn freeze(self, name: &str, now_ms: i64) -> Result<Option<SeasonRow>, StoreError> {
        sqlx::query("UPDATE seasons SET freeze_ms = $3 WHERE t = $1 AND name = $2 AND freeze_ms > $3")
            .bind(self.store.t)
            .bind(name)
            .bind(now_ms)
            .execute(&self.store.pool)
            .await
            .map_err(|e| self.store.err(e))?;
        self.get(name).await
    }

    /// The season whose freeze stops uploads at `now_ms`: the latest opened, when its
    /// freeze time has come (module docs). `None`: uploads are taken.
    pub async fn upload_freeze(self, now_ms: i64) -> Result<Option<SeasonRow>, StoreError> {
        let latest = self.list().await?.into_iter().next();
        Ok(latest.filter(|s| now_ms >= s.freeze_ms))
    }

    /// Records that season `name`'s final is the tournament `final_round.t`, if the season
    /// has no final yet. Returns whether it was recorded (false: a final was asked for
    /// before, or no such season). Errors: the database failed.
    pub async fn begin_final(self, name: &str, final_round: &FinalRow) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE seasons SET final_t = $3, final_top = $4, final_sets = $5, final_ms = $6 \
             WHERE t = $1 AND name = $2 AND final_t IS NULL",
        )
        .bind(self.store.t)
        .bind(name)
        .bind(final_round.t)
        .bind(final_round.top.map(i64::from))
        .bind(i64::from(final_round.sets))
        .bind(final_round.asked_ms)
        .execute(&self.store.pool)
        .await
        .map_err(|e| self.store.err(e))?;
        Ok(done.rows_affected() == 1)
    }

    /// Freezes season `name`'s final standings (`standings`: JSON) at `now_ms`, once: a
    /// season whose standings are frozen keeps them. Returns whether they were written now.
    /// Errors: the database failed.
    pub async fn freeze_standings(self, name: &str, standings: &str, now_ms: i64) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE seasons SET final_standings = $3, frozen_ms = $4 \
             WHERE t = $1 AND name = $2 AND final_t IS NOT NULL AND final_standings IS NULL",
        )
        .bind(self.store.t)
        .bind(name)
        .bind(standings)
        .bind(now_ms)
        .execute(&self.store.pool)
        .await
        .map_err(|e| self.store.err(e))?;
        Ok(done.rows_affected() == 1)
    }

    /// The seasons whose final was asked for and whose standings are not frozen yet: the
    /// finals to play, or to wait for.
    pub async fn finals_pending(self) -> Result<Vec<SeasonRow>, StoreError> {
        self.rows_where("AND final_t IS NOT NULL AND final_standings IS NULL ORDER BY final_ms, name").await
    }

    /// The league's seasons that `tail` (what follows `WHERE t = $1`: more conditions and
    /// the order, no parameter) selects.
    async fn rows_where(self, tail: &str) -> Result<Vec<SeasonRow>, StoreError> {
        let sql = format!("SELECT {COLUMNS} FROM seasons WHERE t = $1 {tail}");
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(self.store.t)
            .fetch_all(&self.store.pool)
            .await
            .map_err(|e| self.store.err(e))?;
        rows.iter().map(season).collect::<Result<_, _>>().map_err(|e| self.store.err(e))
    }
}

/// A row of [`COLUMNS`].
fn season(r: &AnyRow) -> Result<SeasonRow, sqlx::Error> {
    let final_t: Option<i64> = r.try_get(3)?;
    let top: Option<i64> = r.try_get(4)?;
    let sets: Option<i64> = r.try_get(5)?;
    let asked: Option<i64> = r.try_get(6)?;
    let count = |n: i64| u32::try_from(n.max(0)).unwrap_or(u32::MAX);
    Ok(SeasonRow {
        name: r.try_get(0)?,
        opened_ms: r.try_get(1)?,
        freeze_ms: r.try_get(2)?,
        final_round: final_t.map(|t| FinalRow {
            t,
            top: top.map(count),
            sets: sets.map_or(0, count),
            asked_ms: asked.unwrap_or(0),
        }),
        final_standings: r.try_get(7)?,
        frozen_ms: r.try_get(8)?,
    })
}
