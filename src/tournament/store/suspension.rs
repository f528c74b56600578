//! Suspension of a grading server's versions that chombo too often (issue 39): after
//! games are recorded ([`super::Games::record`]), each uploaded version (one with an
//! author: house bots are the operator's and never suspended) that made a chombo in them
//! and is still active is checked against the league's threshold ([`Policy`], stored with
//! the league by [`Suspensions::set_policy`], so that workers recording games apply the
//! server's). A version whose chombos in its last `window` league games reach `after` is
//! suspended in one transaction holding the league's lock: status `suspended` with a
//! one-line reason (`suspended: 6 chombos in its last 10 league games`), and out of the
//! league as a retirement takes it (never scheduled again, pending games cancelled; games
//! in play finish and count). Only a new upload brings the name back, as a new version
//! with figures of its own. Each suspension is an audit line (`event="suspend"`).

use std::collections::BTreeSet;

use sqlx::Row;

use super::{Store, StoreError};
use crate::leaderboard::{BotStatus, VersionRow};
use crate::record::GameRecord;
use mjai_sim_engine::game::MAX_SEATS;

/// A league's suspension threshold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Policy {
    /// Chombos that suspend a version (0: never).
    pub after: u32,
    /// Over its last this many league games (0: never).
    pub window: u32,
}

impl Policy {
    /// The grading server's default: 5 chombos in the last 10 league games (a bot that
    /// crashes in half its games; a sound bot makes none, and one timeout a game now and
    /// then stays far below).
    pub const DEFAULT: Policy = Policy { after: 5, window: 10 };

    /// Whether the policy ever suspends.
    pub fn is_on(self) -> bool {
        self.after > 0 && self.window > 0
    }
}

/// A version suspended now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suspended {
    /// The bot's name.
    pub name: String,
    /// The version.
    pub version: u32,
    /// Its author.
    pub author: Option<String>,
    /// The reason stored with it.
    pub reason: String,
}

/// The reason a suspended version carries: `suspended: 6 chombos in its last 10 league
/// games` (`games`: the games counted, fewer than the window while it has played fewer).
pub fn reason(chombos: u64, games: u64) -> String {
    let plural = |n: u64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    format!(
        "suspended: {} in its last {}",
        plural(chombos, "chombo", "chombos"),
        plural(games, "league game", "league games")
    )
}

/// Suspensions in the league a [`Store`] is scoped to ([`Store::suspensions`]; see the
/// module docs).
#[derive(Clone, Copy)]
pub struct Suspensions<'a> {
    pub(super) store: &'a Store,
}

impl Suspensions<'_> {
    /// Sets the league's threshold (kept in the database: every process recording the
    /// league's games applies the last call's). Errors: the database failed.
    pub async fn set_policy(self, policy: Policy) -> Result<(), StoreError> {
        sqlx::query("UPDATE tournament SET suspend_after = $2, suspend_window = $3 WHERE id = $1")
            .bind(self.store.t)
            .bind(i64::from(policy.after))
            .bind(i64::from(policy.window))
            .execute(&self.store.pool)
            .await
            .map_err(|e| self.store.err(e))?;
        Ok(())
    }

    /// The league's threshold (off for a tournament that never set one).
    pub async fn policy(self) -> Result<Policy, StoreError> {
        let row = sqlx::query("SELECT suspend_after, suspend_window FROM tournament WHERE id = $1")
            .bind(self.store.t)
            .fetch_optional(&self.store.pool)
            .await
            .map_err(|e| self.store.err(e))?;
        let Some(row) = row else { return Ok(Policy { after: 0, window: 0 }) };
        let int = |c: usize| row.try_get::<i64, _>(c).map_err(|e| self.store.err(e));
        let clamp = |n: i64| n.clamp(0, i64::from(u32::MAX)) as u32;
        Ok(Policy { after: clamp(int(0)?), window: clamp(int(1)?) })
    }

    /// Checks the bots with a chombo in `records` (games just recorded) and suspends those
    /// over the threshold; returns the versions suspended now. Costs no query when no seat
    /// of `records` made a chombo. Errors: the database failed.
    pub async fn check(self, records: &[GameRecord]) -> Result<Vec<Suspended>, StoreError> {
        let bots: BTreeSet<usize> = records
            .iter()
            .flat_map(|r| r.stats.iter().zip(&r.seats).filter(|(st, _)| st.chombos > 0).map(|(_, &b)| b))
            .collect();
        if bots.is_empty() {
            return Ok(Vec::new());
        }
        let policy = self.policy().await?;
        if !policy.is_on() {
            return Ok(Vec::new());
        }
        let mut out = Vec::new();
        for bot in bots {
            let Some(row) = self.uploaded_active(bot).await? else { continue };
            let (chombos, games) = self.recent_chombos(bot, policy.window).await?;
            if chombos < u64::from(policy.after) {
                continue;
            }
            let why = reason(chombos, games);
            if self.store.versions().suspend(&row, &why).await? {
                tracing::info!(target: "mjai_sim::audit", event = "suspend", bot = %row.name, version = row.version,
                    author = row.author.as_deref().unwrap_or("-"), reason = %why, "bot suspended");
                out.push(Suspended { name: row.name, version: row.version, author: row.author, reason: why });
            }
        }
        Ok(out)
    }

    /// The active uploaded version that plays as league bot `bot`, if any.
    async fn uploaded_active(self, bot: usize) -> Result<Option<VersionRow>, StoreError> {
        let row = sqlx::query(
            "SELECT name FROM bot_versions WHERE t = $1 AND bot_idx = $2 AND author IS NOT NULL AND status = 'active'",
        )
        .bind(self.store.t)
        .bind(bot as i64)
        .fetch_optional(&self.store.pool)
        .await
        .map_err(|e| self.store.err(e))?;
        let Some(row) = row else { return Ok(None) };
        let name: String = row.try_get(0).map_err(|e| self.store.err(e))?;
        let versions = self.store.versions().of(&name).await?;
        Ok(versions.into_iter().find(|v| v.bot_idx == Some(bot) && v.status == BotStatus::Active))
    }

    /// League bot `bot`'s chombos in its last `window` games, and how many games those
    /// are (fewer while it has played fewer).
    async fn recent_chombos(self, bot: usize, window: u32) -> Result<(u64, u64), StoreError> {
        // a bot has at most MAX_SEATS seats in a game: MAX_SEATS × window rows hold its last
        // `window` games
        let rows = sqlx::query(
            "SELECT game_idx, stats FROM results WHERE t = $1 AND bot = $2 ORDER BY game_idx DESC LIMIT $3",
        )
        .bind(self.store.t)
        .bind(bot as i64)
        .bind(i64::from(window) * MAX_SEATS as i64)
        .fetch_all(&self.store.pool)
        .await
        .map_err(|e| self.store.err(e))?;
        let (mut games, mut chombos, mut last) = (0u64, 0u64, None);
        for r in &rows {
            let game: i64 = r.try_get(0).map_err(|e| self.store.err(e))?;
            if last != Some(game) {
                if games == u64::from(window) {
                    break;
                }
                games += 1;
                last = Some(game);
            }
            let stats: String = r.try_get(1).map_err(|e| self.store.err(e))?;
            // a seat's statistics as recorded (zero fields are left out of the JSON)
            let seat: serde_json::Value = serde_json::from_str(&stats).unwrap_or_default();
            chombos += seat["chombos"].as_u64().unwrap_or(0);
        }
        Ok((chombos, games))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reason_counts_chombos_and_games() {
        assert_eq!(reason(6, 10), "suspended: 6 chombos in its last 10 league games");
        assert_eq!(reason(1, 1), "suspended: 1 chombo in its last 1 league game");
    }
}
