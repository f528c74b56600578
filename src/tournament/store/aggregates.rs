//! The store's per-bot aggregates ([`crate::leaderboard::aggregate`]): folded in schedule
//! order inside the transactions that record results, fail a game for good or retire a bot.
//!
//! The fold's cursor (`agg_cursor.next_idx`) is the first game not folded yet. A fold
//! advances it over the contiguous run of finished games after it: a game with results is
//! folded, one failed for good or cancelled is passed over, and the first game still
//! pending or running stops it (a game recorded after a gap waits until the gap is filled,
//! played or given up: `fail` at [`super::MAX_ATTEMPTS`] folds too). The cursor row is read
//! `FOR UPDATE` in PostgreSQL, so concurrent recorders fold one after another, each after
//! its own results are written: the last to commit sees every earlier one's games. SQLite
//! serialises writers anyway.
//!
//! A game recorded behind the cursor (a worker whose lease expired recorded a game given
//! up meanwhile) would break the order: the aggregates are then folded again from the
//! first game, in that transaction. Databases made before the aggregates existed have no
//! cursor row: the first fold (or [`Aggregates::catch_up`]) folds every recorded game.

use mjai_sim_engine::game::Players;
use std::collections::{BTreeMap, BTreeSet};

use sqlx::any::AnyRow;
use sqlx::{Any, Row, Transaction};

use super::{rows, Dialect, Store, StoreError};
use crate::leaderboard::aggregate::{BotAggregate, Fold, FoldOptions, History, PairAggregate, SetState};
use crate::record::GameRecord;
use crate::standings::{StandingsOptions, MORTAL_UMA};
use mjai_sim_stats::ratings::WengLin;

/// Games read and folded at once (bounds a backfill's memory).
const CHUNK: i64 = 20_000;

/// Columns of `agg_bots` in the order [`bot_aggregate`] reads them.
pub(super) const BOT_COLUMNS: &str = "bot, games, rank1, rank2, rank3, rank4, rank_sum, pt_sum, mu, sigma, peak, \
     last_game, last_seq, rank_lo, rank_hi, pt_lo, pt_hi, sets, history, chombos";

/// Every aggregate of a tournament, as stored ([`Aggregates::all`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AllAggregates {
    /// By bot index (bots with no folded game have none).
    pub bots: BTreeMap<usize, BotAggregate>,
    /// Head-to-head by `(a, b)`, `a < b`.
    pub pairs: BTreeMap<(usize, usize), PairAggregate>,
    /// The first game not folded yet.
    pub next: u64,
    /// Games folded.
    pub folded: u64,
}

/// The per-bot aggregates of the tournament a [`Store`] is scoped to ([`Store::aggregates`];
/// see the module docs).
#[derive(Clone, Copy)]
pub struct Aggregates<'a> {
    pub(super) store: &'a Store,
}

impl Aggregates<'_> {
    /// Folds in what can be folded now, in its own transaction (see the module docs); the
    /// backfill of a database made before the aggregates. Returns the games folded.
    pub async fn catch_up(self) -> Result<u64, StoreError> {
        let mut tx = self.store.pool.begin().await.map_err(|e| self.store.err(e))?;
        let n = self.fold_in(&mut tx, &[], false).await?;
        tx.commit().await.map_err(|e| self.store.err(e))?;
        Ok(n)
    }

    /// Drops the aggregates and folds every recorded game again (`mjai-sim standings
    /// --rebuild`). Returns the games folded.
    pub async fn rebuild(self) -> Result<u64, StoreError> {
        let mut tx = self.store.pool.begin().await.map_err(|e| self.store.err(e))?;
        let n = self.fold_in(&mut tx, &[], true).await?;
        tx.commit().await.map_err(|e| self.store.err(e))?;
        Ok(n)
    }

    /// The fold inside a transaction that may just have recorded the games `recorded`
    /// (`reset`: start again from the first game).
    pub(super) async fn fold_in(
        self,
        tx: &mut Transaction<'_, Any>,
        recorded: &[u64],
        reset: bool,
    ) -> Result<u64, StoreError> {
        let e = |e| self.store.err(e);
        // a write first: SQLite takes the file's write lock here, not at a later upgrade
        sqlx::query("INSERT INTO agg_cursor (t, next_idx, folded) VALUES ($1, 0, 0) ON CONFLICT DO NOTHING")
            .bind(self.store.t)
            .execute(&mut **tx)
            .await
            .map_err(e)?;
        let sql = format!("SELECT next_idx, folded FROM agg_cursor WHERE t = $1{}", self.store.dialect.for_update());
        let row = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(self.store.t).fetch_one(&mut **tx).await.map_err(e)?;
        let (mut next, mut folded): (i64, i64) = (row.try_get(0).map_err(e)?, row.try_get(1).map_err(e)?);
        if reset || recorded.iter().any(|&g| (g as i64) < next) {
            for table in ["agg_bots", "agg_pairs"] {
                let sql = format!("DELETE FROM {table} WHERE t = $1");
                sqlx::query(sqlx::AssertSqlSafe(sql)).bind(self.store.t).execute(&mut **tx).await.map_err(e)?;
            }
            (next, folded) = (0, 0);
        }
        let stop: Option<i64> =
            sqlx::query("SELECT MIN(idx) FROM games WHERE t = $1 AND idx >= $2 AND state IN ('pending', 'running')")
                .bind(self.store.t)
                .bind(next)
                .fetch_one(&mut **tx)
                .await
                .and_then(|r| r.try_get(0))
                .map_err(e)?;
        let stop = match stop {
            Some(s) => s,
            None => sqlx::query("SELECT COALESCE(MAX(idx) + 1, 0) FROM games WHERE t = $1")
                .bind(self.store.t)
                .fetch_one(&mut **tx)
                .await
                .and_then(|r| r.try_get::<i64, _>(0))
                .map_err(e)?,
        };
        let start_folded = folded;
        if stop > next {
            let options = self.fold_options(tx).await?;
            let valid = self.bot_indices(tx).await?;
            while next < stop {
                let end = (next + CHUNK).min(stop);
                let (records, ended) = self.records_between(tx, next, end).await?;
                folded = self.fold_records(tx, &records, &ended, &valid, folded as u64, options.clone()).await? as i64;
                next = end;
            }
        }
        sqlx::query("UPDATE agg_cursor SET next_idx = $2, folded = $3 WHERE t = $1")
            .bind(self.store.t)
            .bind(next)
            .bind(folded)
            .execute(&mut **tx)
            .await
            .map_err(e)?;
        Ok((folded - start_folded).max(0) as u64)
    }

    /// Uma and bootstrap seed from the stored options (the server's figures use the same:
    /// seed = the wall seed's nonce); Mortal's uma and seed 0 when they do not parse.
    async fn fold_options(self, tx: &mut Transaction<'_, Any>) -> Result<FoldOptions, StoreError> {
        let text: Option<String> = sqlx::query("SELECT config FROM tournament WHERE id = $1")
            .bind(self.store.t)
            .fetch_optional(&mut **tx)
            .await
            .map_err(|e| self.store.err(e))?
            .map(|r| r.try_get(0))
            .transpose()
            .map_err(|e| self.store.err(e))?;
        let value: serde_json::Value = text.and_then(|t| serde_json::from_str(&t).ok()).unwrap_or_default();
        // one number per seat: 4, or 3 in a three-player league (checked when it was made)
        let uma = value.get("uma").and_then(|u| serde_json::from_value::<Vec<f64>>(u.clone()).ok());
        let uma = uma.filter(|u| Players::of_count(u.len()).is_some()).unwrap_or_else(|| MORTAL_UMA.to_vec());
        let seed = value.get("seed").and_then(|s| s.get(0)).and_then(|s| s.as_u64()).unwrap_or(0);
        let s = StandingsOptions::new(uma, seed);
        Ok(FoldOptions { uma: s.uma, seed: s.bootstrap_seed, resamples: s.resamples, level: s.level })
    }

    async fn bot_indices(self, tx: &mut Transaction<'_, Any>) -> Result<BTreeSet<usize>, StoreError> {
        let rows = sqlx::query("SELECT idx FROM bots WHERE t = $1")
            .bind(self.store.t)
            .fetch_all(&mut **tx)
            .await
            .map_err(|e| self.store.err(e))?;
        rows.iter().map(|r| r.try_get::<i64, _>(0).map(|i| i as usize).map_err(|e| self.store.err(e))).collect()
    }

    /// Recorded games with `from <= idx < to` that are not voided, in schedule order, with
    /// their statistics (the fold sums each seat's chombos).
    async fn records_between(
        self,
        tx: &mut Transaction<'_, Any>,
        from: i64,
        to: i64,
    ) -> Result<(Vec<GameRecord>, BTreeMap<u64, i64>), StoreError> {
        let rows = sqlx::query(
            "SELECT g.idx, g.set_idx, r.seat, r.bot, r.score, r.rank, r.stats, g.finished_ms \
             FROM results r JOIN games g ON g.t = r.t AND g.idx = r.game_idx \
             WHERE r.t = $1 AND r.game_idx >= $2 AND r.game_idx < $3 \
             AND NOT EXISTS (SELECT 1 FROM voided_games v WHERE v.t = g.t AND v.game_idx = g.idx) \
             ORDER BY r.game_idx, r.seat",
        )
        .bind(self.store.t)
        .bind(from)
        .bind(to)
        .fetch_all(&mut **tx)
        .await
        .map_err(|e| self.store.err(e))?;
        let corrupt = |cause| StoreError::Corrupt { path: self.store.path.clone(), cause };
        let mut out = Vec::new();
        let mut ended = BTreeMap::new();
        for r in &rows {
            rows::push_record(&mut out, r).map_err(corrupt)?;
            if let Some(ms) = r.try_get::<Option<i64>, _>(7).map_err(|e| self.store.err(e))? {
                ended.insert(out.last().map_or(0, |g: &GameRecord| g.index), ms);
            }
        }
        rows::check_complete(&out).map_err(corrupt)?;
        Ok((out, ended))
    }

    /// Folds `records` into the stored aggregates of the bots they name; returns the
    /// league's folded count after them.
    async fn fold_records(
        self,
        tx: &mut Transaction<'_, Any>,
        records: &[GameRecord],
        ended: &BTreeMap<u64, i64>,
        valid: &BTreeSet<usize>,
        folded: u64,
        options: FoldOptions,
    ) -> Result<u64, StoreError> {
        let e = |e| self.store.err(e);
        let involved: BTreeSet<usize> =
            records.iter().flat_map(|r| r.seats.iter().copied()).filter(|b| valid.contains(b)).collect();
        if involved.is_empty() {
            return Ok(folded);
        }
        let list = involved.iter().map(|b| b.to_string()).collect::<Vec<_>>().join(", ");
        let sql = format!("SELECT {BOT_COLUMNS} FROM agg_bots WHERE t = $1 AND bot IN ({list})");
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(self.store.t).fetch_all(&mut **tx).await.map_err(e)?;
        let mut bots: BTreeMap<usize, BotAggregate> = involved.iter().map(|&b| (b, BotAggregate::default())).collect();
        for r in &rows {
            let (b, a) = self.bot_aggregate(r)?;
            bots.insert(b, a);
        }
        let sql = format!(
            "SELECT a, b, games, a_above, diff FROM agg_pairs WHERE t = $1 AND a IN ({list}) AND b IN ({list})"
        );
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(self.store.t).fetch_all(&mut **tx).await.map_err(e)?;
        let mut pairs = BTreeMap::new();
        for r in &rows {
            let (k, p) = pair_aggregate(r).map_err(e)?;
            pairs.insert(k, p);
        }
        let before = pairs.clone();
        let mut fold = Fold::new(bots, pairs, folded, options);
        for r in records {
            fold.add(r, ended.get(&r.index).copied());
        }
        let (bots, pairs, folded) = fold.finish();
        for (b, a) in &bots {
            self.write_bot(tx, *b, a).await?;
        }
        for (&(a, b), p) in pairs.iter().filter(|(k, p)| before.get(*k) != Some(*p)) {
            sqlx::query(
                "INSERT INTO agg_pairs (t, a, b, games, a_above, diff) VALUES ($1, $2, $3, $4, $5, $6) \
                 ON CONFLICT (t, a, b) DO UPDATE SET games = excluded.games, a_above = excluded.a_above, \
                 diff = excluded.diff",
            )
            .bind(self.store.t)
            .bind(a as i64)
            .bind(b as i64)
            .bind(p.games as i64)
            .bind(p.a_above as i64)
            .bind(p.diff)
            .execute(&mut **tx)
            .await
            .map_err(e)?;
        }
        Ok(folded)
    }

    async fn write_bot(self, tx: &mut Transaction<'_, Any>, b: usize, a: &BotAggregate) -> Result<(), StoreError> {
        let e = |e| self.store.err(e);
        let json = |v: serde_json::Result<String>| {
            v.map_err(|err| StoreError::Corrupt { path: self.store.path.clone(), cause: err.to_string() })
        };
        let sets = json(serde_json::to_string(&a.sets))?;
        let history = json(serde_json::to_string(&a.history))?;
        sqlx::query("DELETE FROM agg_bots WHERE t = $1 AND bot = $2")
            .bind(self.store.t)
            .bind(b as i64)
            .execute(&mut **tx)
            .await
            .map_err(e)?;
        // NULLs travel as NaN and -1: sqlx's Any driver binds a NULL with a type of its own,
        // which PostgreSQL then keeps for the cached statement (a later float is refused).
        // SQLite stores a bound NaN as NULL by itself.
        let float = |i: usize| match self.store.dialect {
            Dialect::Postgres => format!("NULLIF(CAST(${i} AS DOUBLE PRECISION), CAST('NaN' AS DOUBLE PRECISION))"),
            Dialect::Sqlite => format!("${i}"),
        };
        let placeholders = (1..=21)
            .map(|i| match i {
                12 | 14..=17 => float(i),
                13 => "NULLIF(CAST($13 AS BIGINT), -1)".to_string(),
                _ => format!("${i}"),
            })
            .collect::<Vec<_>>()
            .join(", ");
        let sql = format!("INSERT INTO agg_bots (t, {BOT_COLUMNS}) VALUES ({placeholders})");
        let [rank, pt] = a.ci;
        sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(self.store.t)
            .bind(b as i64)
            .bind(a.games as i64)
            .bind(a.rank_counts[0] as i64)
            .bind(a.rank_counts[1] as i64)
            .bind(a.rank_counts[2] as i64)
            .bind(a.rank_counts[3] as i64)
            .bind(a.rank_sum as i64)
            .bind(a.pt_sum)
            .bind(a.rating.mu)
            .bind(a.rating.sigma)
            .bind(a.peak.unwrap_or(f64::NAN))
            .bind(a.last_game.map_or(-1, |g| g as i64))
            .bind(a.last_seq as i64)
            .bind(rank.map_or(f64::NAN, |c| c[0]))
            .bind(rank.map_or(f64::NAN, |c| c[1]))
            .bind(pt.map_or(f64::NAN, |c| c[0]))
            .bind(pt.map_or(f64::NAN, |c| c[1]))
            .bind(sets)
            .bind(history)
            .bind(a.chombos as i64)
            .execute(&mut **tx)
            .await
            .map_err(e)?;
        Ok(())
    }

    /// One `agg_bots` row ([`BOT_COLUMNS`]).
    pub(super) fn bot_aggregate(self, r: &AnyRow) -> Result<(usize, BotAggregate), StoreError> {
        let e = |e| self.store.err(e);
        let int = |c: usize| r.try_get::<i64, _>(c).map_err(e);
        let float = |c: usize| r.try_get::<f64, _>(c).map_err(e);
        let opt = |c: usize| r.try_get::<Option<f64>, _>(c).map_err(e);
        let pair = |lo: Option<f64>, hi: Option<f64>| lo.zip(hi).map(|(l, h)| [l, h]);
        let corrupt =
            |err: serde_json::Error| StoreError::Corrupt { path: self.store.path.clone(), cause: err.to_string() };
        let sets: SetState = serde_json::from_str(&r.try_get::<String, _>(17).map_err(e)?).map_err(corrupt)?;
        let history: History = serde_json::from_str(&r.try_get::<String, _>(18).map_err(e)?).map_err(corrupt)?;
        let a = BotAggregate {
            games: int(1)? as u64,
            rank_counts: [int(2)? as u64, int(3)? as u64, int(4)? as u64, int(5)? as u64],
            rank_sum: int(6)? as u64,
            pt_sum: float(7)?,
            rating: WengLin { mu: float(8)?, sigma: float(9)? },
            peak: opt(10)?,
            last_game: r.try_get::<Option<i64>, _>(11).map_err(e)?.map(|g| g as u64),
            last_seq: int(12)? as u64,
            sets,
            history,
            ci: [pair(opt(13)?, opt(14)?), pair(opt(15)?, opt(16)?)],
            chombos: int(19)?.max(0) as u64,
        };
        Ok((int(0)? as usize, a))
    }

    /// Every stored aggregate of this tournament and the fold's cursor.
    pub async fn all(self) -> Result<AllAggregates, StoreError> {
        let e = |e| self.store.err(e);
        let sql = format!("SELECT {BOT_COLUMNS} FROM agg_bots WHERE t = $1 ORDER BY bot");
        let rows =
            sqlx::query(sqlx::AssertSqlSafe(sql)).bind(self.store.t).fetch_all(&self.store.pool).await.map_err(e)?;
        let mut out = AllAggregates::default();
        for r in &rows {
            let (b, a) = self.bot_aggregate(r)?;
            out.bots.insert(b, a);
        }
        let rows = sqlx::query("SELECT a, b, games, a_above, diff FROM agg_pairs WHERE t = $1")
            .bind(self.store.t)
            .fetch_all(&self.store.pool)
            .await
            .map_err(e)?;
        for r in &rows {
            let (k, p) = pair_aggregate(r).map_err(e)?;
            out.pairs.insert(k, p);
        }
        (out.next, out.folded) = self.cursor().await?;
        Ok(out)
    }

    /// The fold's cursor: `(first game not folded, games folded)`; `(0, 0)` before any fold.
    pub async fn cursor(self) -> Result<(u64, u64), StoreError> {
        let row = sqlx::query("SELECT next_idx, folded FROM agg_cursor WHERE t = $1")
            .bind(self.store.t)
            .fetch_optional(&self.store.pool)
            .await
            .map_err(|e| self.store.err(e))?;
        let Some(r) = row else { return Ok((0, 0)) };
        let (n, f) = (r.try_get::<i64, _>(0), r.try_get::<i64, _>(1));
        Ok((n.map_err(|e| self.store.err(e))? as u64, f.map_err(|e| self.store.err(e))? as u64))
    }
}

/// One `agg_pairs` row (`a, b, games, a_above, diff`).
pub(super) fn pair_aggregate(r: &AnyRow) -> Result<((usize, usize), PairAggregate), sqlx::Error> {
    let int = |c: usize| r.try_get::<i64, _>(c);
    let p = PairAggregate { games: int(2)? as u64, a_above: int(3)? as u64, diff: r.try_get(4)? };
    Ok(((int(0)? as usize, int(1)? as usize), p))
}
