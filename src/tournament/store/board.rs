//! The leaderboard, a bot's page and a bot's games read from the aggregates and indexed
//! queries ([`crate::leaderboard::shape`] shapes them): a handful of rows per request, not
//! every result.

use std::collections::BTreeMap;

use sqlx::Row;

use mjai_sim_engine::game::MAX_SEATS;

use super::table_time::{self, TimeShare};
use super::{Store, StoreError, VersionRow};
use crate::leaderboard::shape::{self as board, VersionPick};
use crate::leaderboard::utc::rfc3339;
use crate::leaderboard::{BotPage, GameLine, Leaderboard, LeaderboardEntry};

/// Games listed on a bot's page.
pub const RECENT_GAMES: u64 = 50;

/// The leaderboard, a bot's page and a bot's games of the league a [`Store`] is scoped to
/// ([`Store::board`]).
#[derive(Clone, Copy)]
pub struct Board<'a> {
    pub(super) store: &'a Store,
}

impl Board<'_> {
    /// `GET /api/leaderboard` from the aggregates (`tau`: the decay, see
    /// [`crate::leaderboard::shape`]; 0 for none).
    pub async fn leaderboard(self, tau: f64) -> Result<Leaderboard, StoreError> {
        let versions = self.store.versions().all().await?;
        let sql = format!("SELECT {} FROM agg_bots WHERE t = $1", super::aggregates::BOT_COLUMNS);
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(self.store.t).fetch_all(&self.store.pool).await;
        let mut bots = BTreeMap::new();
        for r in &rows.map_err(|e| self.store.err(e))? {
            let (b, a) = self.store.aggregates().bot_aggregate(r)?;
            bots.insert(b, a);
        }
        let (_, folded) = self.store.aggregates().cursor().await?;
        let seats = self.store.seats().await?;
        let mut board = board::leaderboard(seats as u8, &versions, &bots, folded, tau);
        self.last_game_times(board.bots.iter_mut()).await?;
        Ok(board)
    }

    /// Sets each entry's `last_game_at` from its last game's end time (`finished_ms`), in
    /// one query per 500 entries; `None` stays for a game stored before times were kept.
    async fn last_game_times(self, entries: impl Iterator<Item = &mut LeaderboardEntry>) -> Result<(), StoreError> {
        let entries: Vec<&mut LeaderboardEntry> = entries.filter(|e| e.last_game.is_some()).collect();
        let ended = self.end_times(entries.iter().filter_map(|e| e.last_game)).await?;
        for e in entries {
            e.last_game_at = e.last_game.and_then(|g| ended.get(&g)).map(|&ms| rfc3339(ms));
        }
        Ok(())
    }

    /// `GET /api/bots/{name}/v/{version}` and the like: the page of the version of `name`
    /// that `pick` names, its own figures, opponents and games only. `None`: no such bot or
    /// version.
    pub async fn bot_page(self, name: &str, pick: VersionPick, tau: f64) -> Result<Option<BotPage>, StoreError> {
        let seats = self.store.seats().await?;
        self.bot_page_shown(name, pick, tau, seats, &|_| true).await
    }

    /// [`Board::bot_page`] among the versions `shown` keeps only (a grading server's
    /// visitor is not shown another author's rejected or suspended versions): the others
    /// are neither picked nor listed in the page's selector, as if the name lacked them.
    /// `seats`: the tournament's table size ([`Store::seats`]; a server has it in its
    /// cached [`Leaderboard::players`]).
    pub async fn bot_page_shown(
        self,
        name: &str,
        pick: VersionPick,
        tau: f64,
        seats: usize,
        shown: &(dyn Fn(&VersionRow) -> bool + Sync),
    ) -> Result<Option<BotPage>, StoreError> {
        let mut versions = self.store.versions().of(name).await?;
        versions.retain(|v| shown(v));
        let Some(v) = board::pick(&versions, pick) else { return Ok(None) };
        let Some(idx) = v.bot_idx else {
            let entry = board::entry(v, None, 0, tau);
            return Ok(Some(board::bot_page(seats, entry, v, &versions, None, Vec::new(), Vec::new())));
        };
        let sql = format!("SELECT {} FROM agg_bots WHERE t = $1 AND bot = $2", super::aggregates::BOT_COLUMNS);
        let row = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(self.store.t)
            .bind(idx as i64)
            .fetch_optional(&self.store.pool)
            .await;
        let agg = row
            .map_err(|e| self.store.err(e))?
            .map(|r| self.store.aggregates().bot_aggregate(&r))
            .transpose()?
            .map(|(_, a)| a);
        let (_, folded) = self.store.aggregates().cursor().await?;
        let rows = sqlx::query("SELECT a, b, games, a_above, diff FROM agg_pairs WHERE t = $1 AND (a = $2 OR b = $2)")
            .bind(self.store.t)
            .bind(idx as i64)
            .fetch_all(&self.store.pool)
            .await
            .map_err(|e| self.store.err(e))?;
        let mut pairs = BTreeMap::new();
        for r in &rows {
            let (k, p) = super::aggregates::pair_aggregate(r).map_err(|e| self.store.err(e))?;
            pairs.insert(k, p);
        }
        let names = self.seat_names().await?;
        let h2h = board::head_to_head(idx, &pairs, &names);
        let recent = self.games_of_versions(std::slice::from_ref(v), Some(RECENT_GAMES), &names).await?;
        let mut entry = board::entry(v, agg.as_ref(), folded, tau);
        self.last_game_times(std::iter::once(&mut entry)).await?;
        let mut page = board::bot_page(seats, entry, v, &versions, agg.as_ref(), h2h, recent);
        page.table_time = self.table_time_share(idx, seats).await?;
        Ok(Some(page))
    }

    /// League bot `idx`'s share of the last hour's table time (as a top-up sees it, with
    /// every bot not retired active).
    async fn table_time_share(self, idx: usize, seats: usize) -> Result<Option<TimeShare>, StoreError> {
        let since = super::league::unix_ms() - table_time::WINDOW_MS;
        let time = table_time::since(&self.store.pool, self.store.t, since, seats).await;
        let time = time.map_err(|e| self.store.err(e))?;
        let rows = sqlx::query("SELECT idx, retired, spec FROM bots WHERE t = $1")
            .bind(self.store.t)
            .fetch_all(&self.store.pool)
            .await
            .map_err(|e| self.store.err(e))?;
        let (mut active, mut may_sit_out) = (Vec::new(), Vec::new());
        for r in &rows {
            let b: i64 = r.try_get(0).map_err(|e| self.store.err(e))?;
            let retired: i64 = r.try_get(1).map_err(|e| self.store.err(e))?;
            let spec: String = r.try_get(2).map_err(|e| self.store.err(e))?;
            let b = b.max(0) as usize;
            active.resize(active.len().max(b + 1), false);
            may_sit_out.resize(active.len(), false);
            active[b] = retired == 0;
            may_sit_out[b] = !spec.starts_with("builtin:");
        }
        Ok(time.share_of(idx, &active, &may_sit_out, seats))
    }

    /// `GET /api/bots/{name}/games` (`version` `None`: games of every version of `name`)
    /// and `GET /api/bots/{name}/v/{version}/games` (one version's), latest first, at most
    /// `limit` (`None`: all); `None`: no such bot or version.
    pub async fn games_of(
        self,
        name: &str,
        version: Option<u32>,
        limit: Option<u64>,
    ) -> Result<Option<Vec<GameLine>>, StoreError> {
        self.games_of_shown(name, version, limit, &|_| true).await
    }

    /// [`Board::games_of`] among the versions `shown` keeps only (as
    /// [`Board::bot_page_shown`]): `None` when it keeps none of the name's (or not that
    /// version).
    pub async fn games_of_shown(
        self,
        name: &str,
        version: Option<u32>,
        limit: Option<u64>,
        shown: &(dyn Fn(&VersionRow) -> bool + Sync),
    ) -> Result<Option<Vec<GameLine>>, StoreError> {
        let mut versions = self.store.versions().of(name).await?;
        versions.retain(|v| shown(v));
        if let Some(n) = version {
            versions.retain(|v| v.version == n);
        }
        if versions.is_empty() {
            return Ok(None);
        }
        let names = self.seat_names().await?;
        self.games_of_versions(&versions, limit, &names).await.map(Some)
    }

    /// Each league bot's name and version by index ([`board::seat_names`]).
    async fn seat_names(self) -> Result<Vec<(String, u32)>, StoreError> {
        let league: Vec<String> = self.store.bots().await?.into_iter().map(|b| b.name).collect();
        Ok(board::seat_names(&league, &self.store.versions().all().await?))
    }

    /// The latest games of these versions' league bots: per bot an index-ordered query
    /// (`results_bot`), merged, then the chosen games' seats.
    async fn games_of_versions(
        self,
        versions: &[VersionRow],
        limit: Option<u64>,
        names: &[(String, u32)],
    ) -> Result<Vec<GameLine>, StoreError> {
        let limit = limit.map_or(i64::MAX, |l| l.min(i64::MAX as u64) as i64);
        let mut ids = Vec::new();
        for idx in versions.iter().filter_map(|v| v.bot_idx) {
            // no DISTINCT: it would make SQLite read every row of the bot before the limit;
            // a bot has at most 4 seats in a game, so 4 × limit rows hold `limit` games
            let rows =
                sqlx::query("SELECT game_idx FROM results WHERE t = $1 AND bot = $2 ORDER BY game_idx DESC LIMIT $3")
                    .bind(self.store.t)
                    .bind(idx as i64)
                    .bind(limit.saturating_mul(4))
                    .fetch_all(&self.store.pool)
                    .await
                    .map_err(|e| self.store.err(e))?;
            for r in &rows {
                ids.push(r.try_get::<i64, _>(0).map_err(|e| self.store.err(e))?);
            }
        }
        ids.sort_unstable_by(|a, b| b.cmp(a));
        ids.dedup();
        ids.truncate(limit as usize);
        let mut out: Vec<GameLine> = Vec::with_capacity(ids.len());
        for chunk in ids.chunks(500) {
            let list = chunk.iter().map(|i| i.to_string()).collect::<Vec<_>>().join(", ");
            let sql = format!(
                "SELECT game_idx, seat, bot, score, rank FROM results WHERE t = $1 AND game_idx IN ({list}) \
                 ORDER BY game_idx DESC, seat"
            );
            let rows = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(self.store.t).fetch_all(&self.store.pool).await;
            for r in &rows.map_err(|e| self.store.err(e))? {
                let int = |c: usize| r.try_get::<i64, _>(c).map_err(|e| self.store.err(e));
                let (id, seat) = (int(0)? as u64, int(1)?.clamp(0, MAX_SEATS as i64 - 1) as usize);
                if out.last().map(|g| g.id) != Some(id) {
                    let empty = GameLine {
                        id,
                        bots: vec![],
                        versions: vec![],
                        ranks: vec![],
                        scores: vec![],
                        finished_at: None,
                    };
                    out.push(empty);
                }
                if let Some(g) = out.last_mut() {
                    // one row per seat, in seat order: a game has as many seats as rows
                    if g.bots.len() <= seat {
                        g.bots.resize(seat + 1, String::new());
                        g.versions.resize(seat + 1, 0);
                        g.ranks.resize(seat + 1, 0);
                        g.scores.resize(seat + 1, 0);
                    }
                    let bot = int(2)? as usize;
                    (g.bots[seat], g.versions[seat]) =
                        names.get(bot).cloned().unwrap_or_else(|| (format!("bot {bot}"), 1));
                    g.ranks[seat] = int(4)?.clamp(0, MAX_SEATS as i64) as u8;
                    g.scores[seat] = int(3)?;
                }
            }
        }
        let ended = self.end_times(out.iter().map(|g| g.id)).await?;
        for g in &mut out {
            g.finished_at = ended.get(&g.id).map(|&ms| rfc3339(ms));
        }
        Ok(out)
    }

    /// The end times (`finished_ms`) of games `ids`, in one query per 500; a game stored
    /// before times were kept is absent.
    async fn end_times(self, ids: impl Iterator<Item = u64>) -> Result<BTreeMap<u64, i64>, StoreError> {
        let ids: Vec<u64> = ids.collect();
        let mut ended = BTreeMap::new();
        for chunk in ids.chunks(500) {
            let list = chunk.iter().map(|g| g.to_string()).collect::<Vec<_>>().join(", ");
            let sql = format!("SELECT idx, finished_ms FROM games WHERE t = $1 AND idx IN ({list})");
            let rows = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(self.store.t).fetch_all(&self.store.pool).await;
            for r in &rows.map_err(|e| self.store.err(e))? {
                let idx: i64 = r.try_get(0).map_err(|e| self.store.err(e))?;
                if let Some(ms) = r.try_get::<Option<i64>, _>(1).map_err(|e| self.store.err(e))? {
                    ended.insert(idx as u64, ms);
                }
            }
        }
        Ok(ended)
    }
}
