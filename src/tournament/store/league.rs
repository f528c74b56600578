//! Leagues: open-ended tournaments (options with `"sets": 0`) whose schedule grows while
//! workers play and whose bots are added and retired meanwhile.
//!
//! - [`League::top_up`], run before each claim batch of a league: when fewer than
//!   `min_pending` games are pending, the duplicate scheduler ([`Scheduler`]) is rebuilt
//!   from one row per scheduled set (its first game) plus the count of cancelled games per
//!   set, and sets over the active bots are appended until `2 × min_pending` games are
//!   pending. Set `i` plays wall seed `[nonce + i, key]` as in a fixed tournament.
//!   With rating-aware matching (`--matching rating`) each set's table is drawn near the
//!   μ of the bot that played least, μ read from the stored aggregates at the top-up
//!   ([`Scheduler::next_set_rated`]): the same stored sets and aggregates give the same
//!   sets. A grading server's house bots (versions without an author) hold at least one
//!   seat of every new table ([`Scheduler::set_house`]).
//!   Remote bots (`remote:NAME`, a grading server's bots played over a WebSocket) are seated
//!   only while [`Store::with_online`]'s predicate says they are connected (without one,
//!   always), and two bots of one author never share a table ([`Scheduler::set_authors`]).
//!   A bot over twice its share of the last hour's table time sits the top-up out
//!   ([`super::table_time`]): one slow bot cannot hold the league's tables.
//! - [`League::cancel_pending_of`]: a remote bot went offline; its pending games are
//!   cancelled (nothing waits for it), as a retirement does, but it stays in the league.
//! - [`League::add_bot`]: a new bot (index after the last) with its submission bytes.
//! - [`League::retire`]: the bot is never scheduled again and its pending games become
//!   `cancelled`; games already claimed finish and count (one interrupted later, given back,
//!   failed once or whose lease expired, is played again like any claimed game).
//!
//! Each runs in one transaction whose first statement locks the tournament's row
//! ([`super::Dialect::lock_tournament`]), so concurrent workers' top-ups, additions and
//! retirements run one after another, each seeing the sets and bots of those before it.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use sqlx::{Any, Row, Transaction};

use super::blobs::insert_submission;
use super::table_time;
use super::{insert_bot, insert_games, rows, BotRow, Store, StoreError};
use crate::config::{Matching, TournamentConfig};
use crate::leaderboard::PROVISIONAL_GAMES;
use crate::schedule::Scheduler;

/// Which remote bots a top-up may seat ([`Store::with_online`]): the predicate answers for
/// a remote bot's name (`NAME` of its spec `remote:NAME`) whether it is connected now.
#[derive(Clone)]
pub struct Online(pub Arc<dyn Fn(&str) -> bool + Send + Sync>);

/// What [`League::top_up`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TopUp {
    /// Enough games were pending (or the tournament has a fixed schedule): nothing added.
    Enough {
        /// Games pending.
        pending: u64,
    },
    /// Sets were appended.
    Added {
        /// Sets appended (4 games each).
        sets: u64,
        /// Games pending now.
        pending: u64,
    },
    /// The league's pace ([`League::set_pace`]) allows no set yet: nothing added.
    Paced {
        /// Games pending.
        pending: u64,
    },
    /// Fewer bots are active than the table has seats: nothing can be scheduled and the
    /// league idles until bots are added.
    Idle {
        /// Bots not retired.
        active: usize,
        /// Seats at the league's table (4, or 3 in a three-player league).
        seats: usize,
    },
}

impl TopUp {
    /// The line said once when a league idles: `None` unless this is [`TopUp::Idle`].
    pub fn idle_note(&self) -> Option<String> {
        match self {
            TopUp::Idle { active, seats } => Some(format!(
                "the league has {active} active bot(s), fewer than {seats}: nothing is scheduled until bots are \
                 added (mjai-sim league add)"
            )),
            _ => None,
        }
    }
}

/// What [`League::add_bot`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AddBot {
    /// The bot is in, with this index in the bot list.
    Added {
        /// Its index (what `GameRecord::seats` holds).
        idx: usize,
    },
    /// A bot of this tournament already has the name: nothing was written.
    NameTaken,
}

/// What [`League::retire`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Retire {
    /// The bot is retired now.
    Retired {
        /// Its index.
        idx: usize,
        /// Its pending games, now `cancelled`.
        cancelled: u64,
        /// Bots still active (fewer than the table's seats: the league idles).
        active: usize,
    },
    /// The bot was retired before: nothing changed.
    Already {
        /// Its index.
        idx: usize,
    },
    /// No bot of this tournament has the name.
    Unknown,
}

/// The tournament a [`Store`] is scoped to, as a league ([`Store::league`]; see the module
/// docs).
#[derive(Clone, Copy)]
pub struct League<'a> {
    pub(super) store: &'a Store,
}

impl League<'_> {
    /// Tops a league's schedule up: when fewer than `min_pending` games are pending, appends
    /// duplicate sets over the active bots until `2 × min_pending` are (see the module
    /// docs). A tournament with a fixed schedule is left as it is. Errors: the database
    /// failed; the stored options or sets are damaged.
    pub async fn top_up(self, min_pending: u64) -> Result<TopUp, StoreError> {
        let mut tx = self.store.begin_locked().await?;
        let text: String = sqlx::query("SELECT config FROM tournament WHERE id = $1")
            .bind(self.store.t)
            .fetch_one(&mut *tx)
            .await
            .and_then(|r| r.try_get(0))
            .map_err(|e| self.store.err(e))?;
        let config: TournamentConfig = serde_json::from_str(&text).map_err(|e| StoreError::Corrupt {
            path: self.store.path.clone(),
            cause: format!("tournament options: {e}"),
        })?;
        let count = |state: &'static str| {
            sqlx::query("SELECT COUNT(*) FROM games WHERE t = $1 AND state = $2").bind(self.store.t).bind(state)
        };
        let pending = count("pending").fetch_one(&mut *tx).await.and_then(|r| r.try_get::<i64, _>(0));
        let pending = pending.map_err(|e| self.store.err(e))? as u64;
        if config.sets != 0 || pending >= min_pending {
            tx.commit().await.map_err(|e| self.store.err(e))?;
            return Ok(TopUp::Enough { pending });
        }
        let bots = sqlx::query("SELECT idx, retired, spec FROM bots WHERE t = $1 ORDER BY idx")
            .bind(self.store.t)
            .fetch_all(&mut *tx)
            .await
            .map_err(|e| self.store.err(e))?;
        let (mut active, mut may_sit_out) = (Vec::new(), Vec::new());
        for r in &bots {
            let (idx, retired) = (r.try_get::<i64, _>(0), r.try_get::<i64, _>(1));
            let (idx, retired) =
                (idx.map_err(|e| self.store.err(e))? as usize, retired.map_err(|e| self.store.err(e))?);
            let spec: String = r.try_get(2).map_err(|e| self.store.err(e))?;
            active.resize(active.len().max(idx + 1), false);
            may_sit_out.resize(active.len(), false);
            active[idx] = retired == 0 && self.seatable(&spec);
            may_sit_out[idx] = !spec.starts_with("builtin:");
        }
        let n_active = active.iter().filter(|&&a| a).count();
        let seats = config.players().count();
        if n_active < seats {
            tx.commit().await.map_err(|e| self.store.err(e))?;
            return Ok(TopUp::Idle { active: n_active, seats });
        }
        // a bot over its share of the last hour's table time sits this top-up out
        let now_ms = unix_ms();
        let time = table_time::since(&mut *tx, self.store.t, now_ms - table_time::WINDOW_MS, seats).await;
        for b in time.map_err(|e| self.store.err(e))?.over_budget(&active, &may_sit_out, seats) {
            active[b] = false;
        }
        let mut scheduler = self.rebuild(&mut tx, &config, active.len()).await?;
        scheduler.set_house(&self.house_flags(&mut tx, active.len()).await?);
        scheduler.set_authors(&self.author_ids(&mut tx, active.len()).await?);
        let ratings = match config.matching {
            Matching::Balanced => None,
            Matching::Rating => Some(self.rated(&mut tx, active.len()).await?),
        };
        let (pace, mut next_set_ms) = self.pace_in(&mut tx).await?;
        let mut games = Vec::new();
        while pending + (games.len() as u64) < min_pending.saturating_mul(2) {
            if let Some(per_hour) = pace {
                if now_ms < next_set_ms {
                    break;
                }
                next_set_ms = next_set_ms.max(now_ms) + seats as i64 * 3_600_000 / per_hour.max(1);
            }
            let set = match &ratings {
                None => scheduler.next_set(&active),
                Some(r) => scheduler.next_set_rated(&active, r),
            };
            match set {
                Some(set) => games.extend(set),
                None => break,
            }
        }
        insert_games(&mut tx, self.store.t, &games).await.map_err(|e| self.store.err(e))?;
        if pace.is_some() {
            sqlx::query("UPDATE tournament SET next_set_ms = $2 WHERE id = $1")
                .bind(self.store.t)
                .bind(next_set_ms)
                .execute(&mut *tx)
                .await
                .map_err(|e| self.store.err(e))?;
        }
        tx.commit().await.map_err(|e| self.store.err(e))?;
        if games.is_empty() && pace.is_some() {
            return Ok(TopUp::Paced { pending });
        }
        Ok(TopUp::Added { sets: (games.len() / seats) as u64, pending: pending + games.len() as u64 })
    }

    /// Paces the league: at most `per_hour` games scheduled an hour, one set of `n` games at
    /// a time every `n` × 3600 / `per_hour` seconds (`n`: the table's seats, 4 or 3; the
    /// first at once); `None` (or 0): unpaced, the
    /// schedule tops up as fast as games are played. Kept in the database, so every
    /// process playing the league (servers, workers) follows the last call's pace.
    pub async fn set_pace(self, per_hour: Option<u32>) -> Result<(), StoreError> {
        sqlx::query("UPDATE tournament SET pace_per_hour = $2 WHERE id = $1")
            .bind(self.store.t)
            .bind(per_hour.filter(|&p| p > 0).map(i64::from))
            .execute(&self.store.pool)
            .await
            .map_err(|e| self.store.err(e))?;
        Ok(())
    }

    /// The league's pace (games an hour, `None`: unpaced) and when its next set may be
    /// scheduled (Unix ms).
    async fn pace_in(self, tx: &mut sqlx::Transaction<'_, sqlx::Any>) -> Result<(Option<i64>, i64), StoreError> {
        let row = sqlx::query("SELECT pace_per_hour, next_set_ms FROM tournament WHERE id = $1")
            .bind(self.store.t)
            .fetch_one(&mut **tx)
            .await
            .map_err(|e| self.store.err(e))?;
        let pace: Option<i64> = row.try_get(0).map_err(|e| self.store.err(e))?;
        Ok((pace.filter(|&p| p > 0), row.try_get(1).map_err(|e| self.store.err(e))?))
    }

    /// Which of `bots` bots are house bots: a grading server's bots with no author
    /// (`bot_versions`); none in a league without versions.
    async fn house_flags(
        self,
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        bots: usize,
    ) -> Result<Vec<bool>, StoreError> {
        let rows =
            sqlx::query("SELECT bot_idx FROM bot_versions WHERE t = $1 AND author IS NULL AND bot_idx IS NOT NULL")
                .bind(self.store.t)
                .fetch_all(&mut **tx)
                .await
                .map_err(|e| self.store.err(e))?;
        let mut out = vec![false; bots];
        for r in &rows {
            let b: i64 = r.try_get(0).map_err(|e| self.store.err(e))?;
            if let Some(slot) = usize::try_from(b).ok().and_then(|b| out.get_mut(b)) {
                *slot = true;
            }
        }
        Ok(out)
    }

    /// Whether the connected bot `name` (`remote:NAME`, `riichilab:NAME`) may be seated
    /// now: as [`Store::with_online`]'s predicate says; always without one.
    pub fn seatable_name(self, name: &str) -> bool {
        self.store.online.as_ref().is_none_or(|online| (online.0)(name))
    }

    /// Whether a bot of this `spec` may be seated now: a remote bot (`remote:NAME`,
    /// `riichilab:NAME`) only while connected
    /// (when a predicate was given), any other always.
    fn seatable(self, spec: &str) -> bool {
        let connected = spec.strip_prefix("remote:").or_else(|| spec.strip_prefix("riichilab:"));
        match (connected, &self.store.online) {
            (Some(name), Some(online)) => (online.0)(name),
            _ => true,
        }
    }

    /// Each of `bots` bots' author as a small id (`None`: no author, such as a house bot or
    /// a league without versions), for [`Scheduler::set_authors`].
    async fn author_ids(
        self,
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        bots: usize,
    ) -> Result<Vec<Option<u32>>, StoreError> {
        let rows = sqlx::query(
            "SELECT bot_idx, author FROM bot_versions WHERE t = $1 AND author IS NOT NULL AND bot_idx IS NOT NULL",
        )
        .bind(self.store.t)
        .fetch_all(&mut **tx)
        .await
        .map_err(|e| self.store.err(e))?;
        let mut ids: BTreeMap<String, u32> = BTreeMap::new();
        let mut out = vec![None; bots];
        for r in &rows {
            let b: i64 = r.try_get(0).map_err(|e| self.store.err(e))?;
            let author: String = r.try_get(1).map_err(|e| self.store.err(e))?;
            let next = ids.len() as u32;
            let id = *ids.entry(author).or_insert(next);
            if let Some(slot) = usize::try_from(b).ok().and_then(|b| out.get_mut(b)) {
                *slot = Some(id);
            }
        }
        Ok(out)
    }

    /// A remote bot went offline: its pending games become `cancelled` (they no longer
    /// count for the scheduler, nothing waits for the bot); it stays in the league and is
    /// scheduled again once connected. Returns how many games were cancelled. Errors: the
    /// database failed.
    pub async fn cancel_pending_of(self, idx: usize) -> Result<u64, StoreError> {
        let mut tx = self.store.begin_locked().await?;
        let cancelled = self.cancel_pending_in(&mut tx, idx).await?;
        tx.commit().await.map_err(|e| self.store.err(e))?;
        Ok(cancelled)
    }

    /// Cancels bot `idx`'s pending games inside `tx`, which holds the tournament's lock, and
    /// folds on (cancelled games no longer hold the fold's cursor back). Returns how many.
    async fn cancel_pending_in(self, tx: &mut Transaction<'_, Any>, idx: usize) -> Result<u64, StoreError> {
        let done = sqlx::query(
            "UPDATE games SET state = 'cancelled' WHERE t = $1 AND state = 'pending' \
             AND (seat0 = $2 OR seat1 = $2 OR seat2 = $2 OR seat3 = $2)",
        )
        .bind(self.store.t)
        .bind(idx as i64)
        .execute(&mut **tx)
        .await
        .map_err(|e| self.store.err(e))?;
        if done.rows_affected() > 0 {
            self.store.aggregates().fold_in(tx, &[], false).await?;
        }
        Ok(done.rows_affected())
    }

    /// μ of each of `bots` bots past its provisional games, from the stored aggregates
    /// (`None`: provisional or no game folded yet): what rating-aware matching reads.
    async fn rated(
        self,
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        bots: usize,
    ) -> Result<Vec<Option<f64>>, StoreError> {
        let rows = sqlx::query("SELECT bot, mu FROM agg_bots WHERE t = $1 AND games >= $2")
            .bind(self.store.t)
            .bind(PROVISIONAL_GAMES as i64)
            .fetch_all(&mut **tx)
            .await
            .map_err(|e| self.store.err(e))?;
        let mut out = vec![None; bots];
        for r in &rows {
            let (b, mu) = (r.try_get::<i64, _>(0), r.try_get::<f64, _>(1));
            let (b, mu) = (b.map_err(|e| self.store.err(e))?, mu.map_err(|e| self.store.err(e))?);
            if let Some(slot) = usize::try_from(b).ok().and_then(|b| out.get_mut(b)) {
                *slot = Some(mu);
            }
        }
        Ok(out)
    }

    /// The scheduler after every stored set: one row per set (its first game's seats are
    /// the set's table) and the cancelled games per set.
    async fn rebuild(
        self,
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        config: &TournamentConfig,
        bots: usize,
    ) -> Result<Scheduler, StoreError> {
        let cancelled = sqlx::query("SELECT set_idx, COUNT(*) FROM games WHERE t = $1 AND state = $2 GROUP BY set_idx")
            .bind(self.store.t)
            .bind("cancelled")
            .fetch_all(&mut **tx)
            .await
            .map_err(|e| self.store.err(e))?;
        let mut gone = BTreeMap::new();
        for r in &cancelled {
            let (set, n) = (r.try_get::<i64, _>(0), r.try_get::<i64, _>(1));
            gone.insert(set.map_err(|e| self.store.err(e))?, n.map_err(|e| self.store.err(e))? as u64);
        }
        // the table size is a literal, so that SQLite uses the partial index `games_sets`
        // (`idx = set_idx * 4`) for four-player leagues
        let n = config.players().count();
        let sql = format!(
            "SELECT set_idx, seat0, seat1, seat2, seat3 FROM games \
             WHERE t = $1 AND idx = set_idx * {n} ORDER BY set_idx"
        );
        let heads = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(self.store.t)
            .fetch_all(&mut **tx)
            .await
            .map_err(|e| self.store.err(e))?;
        let mut scheduler = Scheduler::for_table(config.bots.len(), config.players(), config.seed);
        scheduler.grow(bots);
        for (i, r) in heads.iter().enumerate() {
            let int = |c: usize| r.try_get::<i64, _>(c).map_err(|e| self.store.err(e));
            let set = int(0)?;
            let table = rows::seats_of([int(1)?, int(2)?, int(3)?, int(4)?]);
            if set != i as i64 || table.len() != n || table.iter().any(|&b| b >= bots) {
                let cause = format!("set {set} (expected {i}) seats {table:?}: the league's sets are not contiguous");
                return Err(StoreError::Corrupt { path: self.store.path.clone(), cause });
            }
            let counted = (n as u64).saturating_sub(gone.get(&set).copied().unwrap_or(0));
            scheduler.replay(&table, counted);
        }
        Ok(scheduler)
    }

    /// Adds a bot to this tournament under `name` (index after the last bot), storing the
    /// submission's zip `bytes` by their sha256 (`None` for a built-in) in the same
    /// transaction. `spec` is the BOT argument, `sha256` that of the submission. A name
    /// already taken writes nothing. Errors: the database failed.
    pub async fn add_bot(
        self,
        name: &str,
        spec: &str,
        sha256: &str,
        bytes: Option<&[u8]>,
    ) -> Result<AddBot, StoreError> {
        let mut tx = self.store.begin_locked().await?;
        let added = self.add_bot_in(&mut tx, name, spec, sha256, bytes).await?;
        if let AddBot::Added { .. } = added {
            tx.commit().await.map_err(|e| self.store.err(e))?;
        } // else the transaction rolls back: nothing written
        Ok(added)
    }

    /// [`League::add_bot`] inside `tx`, which holds the tournament's lock
    /// ([`super::Dialect::lock_tournament`]); the caller commits.
    pub(super) async fn add_bot_in(
        self,
        tx: &mut Transaction<'_, Any>,
        name: &str,
        spec: &str,
        sha256: &str,
        bytes: Option<&[u8]>,
    ) -> Result<AddBot, StoreError> {
        let taken = sqlx::query("SELECT COUNT(*) FROM bots WHERE t = $1 AND name = $2")
            .bind(self.store.t)
            .bind(name)
            .fetch_one(&mut **tx)
            .await
            .and_then(|r| r.try_get::<i64, _>(0))
            .map_err(|e| self.store.err(e))?;
        if taken > 0 {
            return Ok(AddBot::NameTaken);
        }
        let idx = sqlx::query("SELECT COALESCE(MAX(idx) + 1, 0) FROM bots WHERE t = $1")
            .bind(self.store.t)
            .fetch_one(&mut **tx)
            .await
            .and_then(|r| r.try_get::<i64, _>(0))
            .map_err(|e| self.store.err(e))?;
        if let Some(bytes) = bytes {
            insert_submission(tx, sha256, bytes).await.map_err(|e| self.store.err(e))?;
        }
        let row =
            BotRow { idx: idx as usize, name: name.to_string(), spec: spec.to_string(), sha256: sha256.to_string() };
        insert_bot(tx, self.store.t, &row).await.map_err(|e| self.store.err(e))?;
        Ok(AddBot::Added { idx: idx as usize })
    }

    /// Retires the bot named `name`: it is never scheduled again and its pending games
    /// become `cancelled` (games already claimed finish and count). Errors: the database
    /// failed.
    pub async fn retire(self, name: &str) -> Result<Retire, StoreError> {
        let mut tx = self.store.begin_locked().await?;
        let done = self.retire_in(&mut tx, name).await?;
        tx.commit().await.map_err(|e| self.store.err(e))?;
        Ok(done)
    }

    /// [`League::retire`] inside `tx`, which holds the tournament's lock; the caller commits.
    pub(super) async fn retire_in(self, tx: &mut Transaction<'_, Any>, name: &str) -> Result<Retire, StoreError> {
        let row = sqlx::query("SELECT idx, retired FROM bots WHERE t = $1 AND name = $2")
            .bind(self.store.t)
            .bind(name)
            .fetch_optional(&mut **tx)
            .await
            .map_err(|e| self.store.err(e))?;
        let Some(row) = row else { return Ok(Retire::Unknown) };
        let (idx, retired) = (row.try_get::<i64, _>(0), row.try_get::<i64, _>(1));
        let (idx, retired) = (idx.map_err(|e| self.store.err(e))?, retired.map_err(|e| self.store.err(e))?);
        if retired != 0 {
            return Ok(Retire::Already { idx: idx as usize });
        }
        sqlx::query("UPDATE bots SET retired = 1 WHERE t = $1 AND idx = $2")
            .bind(self.store.t)
            .bind(idx)
            .execute(&mut **tx)
            .await
            .map_err(|e| self.store.err(e))?;
        let cancelled = self.cancel_pending_in(tx, idx as usize).await?;
        let active = sqlx::query("SELECT COUNT(*) FROM bots WHERE t = $1 AND retired = 0")
            .bind(self.store.t)
            .fetch_one(&mut **tx)
            .await
            .and_then(|r| r.try_get::<i64, _>(0))
            .map_err(|e| self.store.err(e))?;
        Ok(Retire::Retired { idx: idx as usize, cancelled, active: active as usize })
    }

    /// Indices of the retired bots, in order.
    pub async fn retired(self) -> Result<Vec<usize>, StoreError> {
        let rows = sqlx::query("SELECT idx FROM bots WHERE t = $1 AND retired = 1 ORDER BY idx")
            .bind(self.store.t)
            .fetch_all(&self.store.pool)
            .await
            .map_err(|e| self.store.err(e))?;
        rows.iter().map(|r| r.try_get::<i64, _>(0).map(|i| i as usize).map_err(|e| self.store.err(e))).collect()
    }
}

/// Now in Unix milliseconds (0 before 1970: a broken clock paces nothing).
pub(super) fn unix_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis().min(i64::MAX as u128) as i64)
}
