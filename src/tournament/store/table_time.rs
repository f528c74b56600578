//! Each bot's share of a league's table time (issue 54): one slow bot (legal, but 0.25 s a
//! discard) must not hold the league's tables. A bot holds a table while it thinks: its
//! table time is its decision time summed (`results.think_ms`) over its games that
//! finished in the last [`WINDOW_MS`]; its fair share is the league's in that window over
//! the active bots. A bot over [`BUDGET`] × its share, and holding tables for at least
//! [`MIN_HOLD_MS`] of the hour, sits out the next top-ups ([`super::League::top_up`])
//! until the others' games bring it back under; never so many that fewer bots than seats
//! are left, and not before [`MIN_GAMES`] games in the window tell anything. Built-in bots
//! (`builtin:NAME`, the referee's own, which decide in microseconds) never sit out: their
//! shares differ by orders of magnitude while none of them holds a table.

use std::collections::BTreeMap;

use sqlx::{Any, Row};

pub use crate::leaderboard::TimeShare;

/// The window table time is counted over: the last hour, in ms.
pub const WINDOW_MS: i64 = 3_600_000;

/// A bot may use this many times its fair share of the seat time before it sits out.
pub const BUDGET: f64 = 2.0;

/// Games finished in the window before any bot sits out.
pub const MIN_GAMES: u64 = 8;

/// Decision time in the window below which a bot holds no table worth freeing: 5 minutes.
pub const MIN_HOLD_MS: i64 = 5 * 60 * 1000;

/// The decision time of the games that finished in the window.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TableTime {
    /// Each bot's decision time, ms (by league index).
    pub by_bot: BTreeMap<usize, i64>,
    /// Games counted.
    pub games: u64,
}

impl TableTime {
    /// Every bot's time summed, ms.
    pub fn total(&self) -> i64 {
        self.by_bot.values().sum()
    }

    /// The active bots (`active[b]`) that sit out: those `may_sit_out` (not built-ins) over
    /// [`BUDGET`] × the fair share and over [`MIN_HOLD_MS`], worst first, at most as many
    /// as leave `seats` active bots; none before [`MIN_GAMES`].
    pub fn over_budget(&self, active: &[bool], may_sit_out: &[bool], seats: usize) -> Vec<usize> {
        let n_active = active.iter().filter(|&&a| a).count();
        if self.games < MIN_GAMES || n_active <= seats {
            return Vec::new();
        }
        let fair = self.total() as f64 / n_active as f64;
        let mut over: Vec<(i64, usize)> = (self.by_bot.iter())
            .filter(|(&b, _)| active.get(b).copied().unwrap_or(false) && may_sit_out.get(b).copied().unwrap_or(false))
            .filter(|(_, &ms)| ms as f64 > BUDGET * fair && ms >= MIN_HOLD_MS)
            .map(|(&b, &ms)| (ms, b))
            .collect();
        over.sort_by(|a, b| b.cmp(a));
        over.into_iter().take(n_active - seats).map(|(_, b)| b).collect()
    }
}

impl TableTime {
    /// Bot `bot`'s [`TimeShare`] among `active` bots at tables of `seats` ([`TableTime::over_budget`]'s
    /// `may_sit_out`); `None` when it played no game in the window.
    pub fn share_of(&self, bot: usize, active: &[bool], may_sit_out: &[bool], seats: usize) -> Option<TimeShare> {
        let ms = *self.by_bot.get(&bot)?;
        let n_active = active.iter().filter(|&&a| a).count().max(1);
        let total = self.total().max(1) as f64;
        Some(TimeShare {
            decision_s: ms as f64 / 1000.0,
            share: ms as f64 / total,
            fair_share: 1.0 / n_active as f64,
            sits_out: self.over_budget(active, may_sit_out, seats).contains(&bot),
        })
    }
}

/// The decision time of tournament `t`'s games (`seats` a table) that finished at or
/// after `since_ms`, read through `executor` (a transaction, or the pool).
pub(super) async fn since<'e, E: sqlx::Executor<'e, Database = Any>>(
    executor: E,
    t: i64,
    since_ms: i64,
    seats: usize,
) -> Result<TableTime, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT r.bot, CAST(SUM(r.think_ms) AS BIGINT), COUNT(*) FROM results r \
         JOIN games g ON g.t = r.t AND g.idx = r.game_idx \
         WHERE r.t = $1 AND g.finished_ms >= $2 AND r.think_ms IS NOT NULL GROUP BY r.bot",
    )
    .bind(t)
    .bind(since_ms)
    .fetch_all(executor)
    .await?;
    let mut time = TableTime::default();
    let mut results = 0u64;
    for r in &rows {
        let bot: i64 = r.try_get(0)?;
        let ms: Option<i64> = r.try_get(1)?;
        let n: i64 = r.try_get(2)?;
        time.by_bot.insert(bot.max(0) as usize, ms.unwrap_or(0).max(0));
        results += n.max(0) as u64;
    }
    // each game has one result per seat
    time.games = results / seats.max(1) as u64;
    Ok(time)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn time(by_bot: &[(usize, i64)], games: u64) -> TableTime {
        TableTime { by_bot: by_bot.iter().map(|&(b, s)| (b, s * 1000)).collect(), games }
    }

    #[test]
    fn a_bot_over_twice_its_share_sits_out_and_one_just_under_plays() {
        let (active, any) = ([true; 5], [true; 5]);
        // five bots, 1000 s of decision time: a fair share is 200 s; 400 s is the budget
        let slow = time(&[(0, 401), (1, 150), (2, 150), (3, 150), (4, 149)], 20);
        assert_eq!(slow.over_budget(&active, &any, 4), vec![0]);
        let under = time(&[(0, 400), (1, 150), (2, 150), (3, 150), (4, 150)], 20);
        assert!(under.over_budget(&active, &any, 4).is_empty(), "exactly the budget plays");
        // too few games to tell; too few bots to spare one
        assert!(time(&[(0, 900), (1, 100)], MIN_GAMES - 1).over_budget(&active, &any, 4).is_empty());
        assert!(slow.over_budget(&[true, true, true, true, false], &any, 4).is_empty());
        // a retired (inactive) bot is not counted out twice
        assert!(slow.over_budget(&[false, true, true, true, true], &any, 3).is_empty());
        // a built-in never sits out
        assert!(slow.over_budget(&active, &[false, true, true, true, true], 4).is_empty());
    }

    #[test]
    fn a_bot_holding_less_than_five_minutes_of_the_hour_plays_whatever_its_share() {
        let (active, any) = ([true; 5], [true; 5]);
        let just = time(&[(0, 300), (1, 10), (2, 10), (3, 10), (4, 10)], 20);
        assert_eq!(just.over_budget(&active, &any, 4), vec![0], "5 minutes: it holds the tables");
        let brief = time(&[(0, 299), (1, 10), (2, 10), (3, 10), (4, 10)], 20);
        assert!(brief.over_budget(&active, &any, 4).is_empty(), "just under 5 minutes");
    }

    #[test]
    fn no_more_sit_out_than_leave_a_table() {
        let (active, any) = ([true; 6], [true; 6]);
        let two = time(&[(0, 600), (1, 500), (2, 50), (3, 50), (4, 50), (5, 50)], 30);
        assert_eq!(two.over_budget(&active, &any, 4), vec![0, 1], "worst first");
        assert_eq!(two.over_budget(&active, &any, 5), vec![0], "one table of five keeps five");
    }
}
