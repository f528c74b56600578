//! The league's games as `GET /api/games` lists them ([`GameListing::list`]): running and
//! finished, newest first (by id), a page at a time, filtered by bot, version, author, end
//! time and status. Every query is bounded by the page's size: finished games of a bot are
//! read per league bot along `results_bot` (as a bot's page reads them), finished games
//! without a bot filter along `games_state` or, with a date filter, `games_finished`; the
//! few running games along `games_state`.

use mjai_sim_engine::game::MAX_SEATS;
use std::collections::BTreeMap;

use sqlx::any::AnyRow;
use sqlx::Row;

use super::{Store, StoreError, VersionRow};
use crate::leaderboard::game_list::{cursor_text, GameList, GameQuery, GameSeat, GameStatus, GameSummary, GameVoid};
use crate::leaderboard::shape::seat_names;
use crate::leaderboard::utc::rfc3339;

/// The columns every listing query reads of a game, in this order.
const GAME_COLUMNS: &str = "g.idx, g.state, g.started_ms, g.finished_ms, g.seat0, g.seat1, g.seat2, g.seat3, g.engine";

/// The listing of a league's games ([`Store::game_list`]).
#[derive(Clone, Copy)]
pub struct GameListing<'a> {
    pub(super) store: &'a Store,
}

/// A game row as read, before its seats are named.
struct Found {
    id: u64,
    status: GameStatus,
    started_ms: Option<i64>,
    finished_ms: Option<i64>,
    seats: Vec<usize>,
    /// `games.engine` as stored (JSON).
    engine: Option<String>,
}

impl GameListing<'_> {
    /// One page of the games `q` asks for, newest first, and the cursor of the next page
    /// (`None` on the last). A bot or author filter that names no league bot lists nothing.
    /// Errors: the database's.
    pub async fn list(self, q: &GameQuery) -> Result<GameList, StoreError> {
        let limit = q.limit.max(1) as usize;
        let versions = self.store.versions().all().await?;
        let league: Vec<String> = self.store.bots().await?.into_iter().map(|b| b.name).collect();
        let bots = match chosen_bots(&league, &versions, q) {
            Some(b) if b.is_empty() => return Ok(GameList { games: Vec::new(), next_cursor: None }),
            other => other,
        };
        let dated = q.from_ms.is_some() || q.to_ms.is_some();
        let mut found = Vec::new();
        if q.status != Some(GameStatus::Finished) && !dated {
            found.extend(self.running(q, bots.as_deref(), limit + 1).await?);
        }
        if q.status != Some(GameStatus::Running) {
            match &bots {
                Some(bots) => {
                    for &bot in bots {
                        found.extend(self.finished_of(q, bot, limit + 1).await?);
                    }
                }
                None => found.extend(self.finished(q, limit + 1).await?),
            }
        }
        found.sort_by_key(|g| std::cmp::Reverse(g.id));
        found.dedup_by_key(|g| g.id);
        let more = found.len() > limit;
        found.truncate(limit);
        let next_cursor = if more { found.last().map(|g| cursor_text(g.id)) } else { None };
        let games = self.named(found, &league, &versions).await?;
        Ok(GameList { games, next_cursor })
    }

    /// Game `id` as the list shows it, running or finished; `None` when there is no such
    /// game or it was not started yet (pending, failed, cancelled). Errors: the database's.
    pub async fn one(self, id: u64) -> Result<Option<GameSummary>, StoreError> {
        let Ok(idx) = i64::try_from(id) else { return Ok(None) };
        let sql = format!(
            "SELECT {GAME_COLUMNS} FROM games g WHERE g.t = $1 AND g.idx = $2 AND g.state IN ('running', 'done')"
        );
        let row = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(self.store.t)
            .bind(idx)
            .fetch_optional(&self.store.pool)
            .await
            .map_err(|e| self.store.err(e))?;
        let Some(row) = row else { return Ok(None) };
        let game = found(&row).map_err(|e| self.store.err(e))?;
        let versions = self.store.versions().all().await?;
        let league: Vec<String> = self.store.bots().await?.into_iter().map(|b| b.name).collect();
        Ok(self.named(vec![game], &league, &versions).await?.pop())
    }

    /// Running games (`bots`: with a seat of one of them), newest first, at most `n`.
    async fn running(self, q: &GameQuery, bots: Option<&[usize]>, n: usize) -> Result<Vec<Found>, StoreError> {
        let seat_filter = match bots {
            Some(bots) => {
                let list = bots.iter().map(|b| b.to_string()).collect::<Vec<_>>().join(", ");
                format!(
                    " AND (g.seat0 IN ({list}) OR g.seat1 IN ({list}) OR g.seat2 IN ({list}) OR g.seat3 IN ({list}))"
                )
            }
            None => String::new(),
        };
        let sql = format!(
            "SELECT {GAME_COLUMNS} FROM games g WHERE g.state = 'running' AND g.t = $1 AND g.idx < $2{seat_filter} \
             ORDER BY g.idx DESC LIMIT $3"
        );
        self.fetch(sql, q, n).await
    }

    /// Finished games, newest first, at most `n`.
    async fn finished(self, q: &GameQuery, n: usize) -> Result<Vec<Found>, StoreError> {
        let sql = format!(
            "SELECT {GAME_COLUMNS} FROM games g WHERE g.state = 'done' AND g.t = $1 AND g.idx < $2{} \
             ORDER BY g.idx DESC LIMIT $3",
            dates(q).0
        );
        self.fetch(sql, q, n).await
    }

    /// Finished games with a seat of league bot `bot`, newest first, at most `n` (a bot
    /// has at most [`MAX_SEATS`] seats in a game: that many × `n` result rows hold `n` games).
    async fn finished_of(self, q: &GameQuery, bot: usize, n: usize) -> Result<Vec<Found>, StoreError> {
        let sql = format!(
            "SELECT {GAME_COLUMNS} FROM results r JOIN games g ON g.t = r.t AND g.idx = r.game_idx \
             WHERE r.t = $1 AND r.bot = {bot} AND r.game_idx < $2 AND g.state = 'done'{} \
             ORDER BY r.game_idx DESC LIMIT $3",
            dates(q).0
        );
        let mut games = self.fetch(sql, q, n.saturating_mul(MAX_SEATS)).await?;
        games.dedup_by_key(|g| g.id);
        games.truncate(n);
        Ok(games)
    }

    /// Runs a listing query bound as `$1` the league, `$2` the cursor, `$3` the limit `n`,
    /// then the date bounds ([`dates`]).
    async fn fetch(self, sql: String, q: &GameQuery, n: usize) -> Result<Vec<Found>, StoreError> {
        let before = q.before.map_or(i64::MAX, |b| b.min(i64::MAX as u64) as i64);
        let mut query =
            sqlx::query(sqlx::AssertSqlSafe(sql)).bind(self.store.t).bind(before).bind(n.min(i64::MAX as usize) as i64);
        for ms in dates(q).1 {
            query = query.bind(ms);
        }
        let rows = query.fetch_all(&self.store.pool).await.map_err(|e| self.store.err(e))?;
        rows.iter().map(|r| found(r).map_err(|e| self.store.err(e))).collect()
    }

    /// The games with their seats named and, for finished ones, their scores and ranks.
    async fn named(
        self,
        games: Vec<Found>,
        league: &[String],
        versions: &[VersionRow],
    ) -> Result<Vec<GameSummary>, StoreError> {
        let names = seat_names(league, versions);
        let authors = shown_authors(versions);
        let voids = self.store.voids().among(&games.iter().map(|g| g.id).collect::<Vec<_>>()).await?;
        let finished: Vec<String> =
            games.iter().filter(|g| g.status == GameStatus::Finished).map(|g| g.id.to_string()).collect();
        let mut results: BTreeMap<(u64, usize), (i64, u8)> = BTreeMap::new();
        if !finished.is_empty() {
            let sql = format!(
                "SELECT game_idx, seat, score, rank FROM results WHERE t = $1 AND game_idx IN ({})",
                finished.join(", ")
            );
            let rows = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(self.store.t).fetch_all(&self.store.pool).await;
            for r in &rows.map_err(|e| self.store.err(e))? {
                let int = |c: usize| r.try_get::<i64, _>(c).map_err(|e| self.store.err(e));
                let key = (int(0)? as u64, int(1)?.clamp(0, MAX_SEATS as i64 - 1) as usize);
                results.insert(key, (int(2)?, int(3)?.clamp(0, MAX_SEATS as i64) as u8));
            }
        }
        Ok(games
            .into_iter()
            .map(|g| {
                let seats = (g.seats.iter().enumerate())
                    .map(|(seat, &bot)| {
                        let (name, version) = names.get(bot).cloned().unwrap_or_else(|| (format!("bot {bot}"), 1));
                        let result = results.get(&(g.id, seat));
                        GameSeat {
                            bot: name,
                            version,
                            author: authors.get(&bot).copied().flatten().map(str::to_string),
                            house: !authors.contains_key(&bot),
                            score: result.map(|r| r.0),
                            rank: result.map(|r| r.1),
                        }
                    })
                    .collect();
                GameSummary {
                    id: g.id,
                    status: g.status,
                    started_at: g.started_ms.map(rfc3339),
                    finished_at: g.finished_ms.filter(|_| g.status == GameStatus::Finished).map(rfc3339),
                    seats,
                    // a stamp that does not parse (written by a later version) is left out
                    engine: g.engine.as_deref().and_then(|e| serde_json::from_str(e).ok()),
                    void: voids.get(&g.id).map(|v| GameVoid { reason: v.reason.clone(), at: rfc3339(v.at_ms) }),
                }
            })
            .collect())
    }
}

/// The league bots whose games `q` asks for: `None` without a bot or author filter; an
/// empty list when the filters name no league bot (nothing to list). `author` matches no
/// version it may not show (a suspended one: [`shown_authors`]). A league bot no
/// version claims (a tournament's, not a grading server's) goes by its league name as
/// version 1 of no author, as its seats are named.
fn chosen_bots(league: &[String], versions: &[VersionRow], q: &GameQuery) -> Option<Vec<usize>> {
    if q.bot.is_none() && q.author.is_none() {
        return None;
    }
    let named = seat_names(league, versions);
    let authors = shown_authors(versions);
    let bots = named
        .iter()
        .enumerate()
        .filter(|(_, (name, _))| q.bot.as_ref().is_none_or(|b| b == name))
        .filter(|(_, (_, version))| q.version.is_none_or(|n| n == *version))
        .filter(|(idx, _)| q.author.as_ref().is_none_or(|a| authors.get(idx) == Some(&Some(a.as_str()))))
        .map(|(idx, _)| idx)
        .collect();
    Some(bots)
}

/// Each uploaded league bot's author as the list shows it: `None` for a version only its
/// author and admins may see (suspended: [`crate::leaderboard::BotStatus::is_private`]),
/// whose games stay public but whose author a visitor is not told; a house bot is absent.
fn shown_authors(versions: &[VersionRow]) -> BTreeMap<usize, Option<&str>> {
    versions
        .iter()
        .filter_map(|v| {
            let author = v.author.as_deref()?;
            Some((v.bot_idx?, (!v.status.is_private()).then_some(author)))
        })
        .collect()
}

/// The date filter's SQL (bounds on the end time, as `$4` and after) and its bounds, in
/// the order of their placeholders; empty without one.
fn dates(q: &GameQuery) -> (String, Vec<i64>) {
    let mut sql = String::new();
    let mut binds = Vec::new();
    for (bound, op) in [(q.from_ms, ">="), (q.to_ms, "<=")] {
        if let Some(ms) = bound {
            binds.push(ms);
            sql += &format!(" AND g.finished_ms {op} ${}", 3 + binds.len());
        }
    }
    (sql, binds)
}

/// A row of [`GAME_COLUMNS`].
fn found(r: &AnyRow) -> Result<Found, sqlx::Error> {
    let state: String = r.try_get(1)?;
    let mut columns = [0i64; 4];
    for (i, s) in columns.iter_mut().enumerate() {
        *s = r.try_get::<i64, _>(4 + i)?;
    }
    let seats = super::rows::seats_of(columns).into_iter().collect();
    Ok(Found {
        id: r.try_get::<i64, _>(0)?.max(0) as u64,
        status: if state == "running" { GameStatus::Running } else { GameStatus::Finished },
        started_ms: r.try_get(2)?,
        finished_ms: r.try_get(3)?,
        seats,
        engine: r.try_get(8)?,
    })
}
