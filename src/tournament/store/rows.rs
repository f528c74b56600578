//! Row shapes of the store and their conversions from database rows.

use sqlx::any::AnyRow;
use sqlx::Row;

use crate::tournament::record::{GameRecord, SeatStats};
use crate::tournament::schedule::ScheduledGame;

/// One bot of a tournament.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotRow {
    /// Index in the tournament's bot list (what `GameRecord::seats` holds).
    pub idx: usize,
    /// Display name (`--name` or the file stem).
    pub name: String,
    /// The BOT argument (`builtin:NAME`, a path).
    pub spec: String,
    /// Hex sha256 of the submission's files (of `builtin:NAME` for built-ins).
    pub sha256: String,
}

/// Games per state.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Waiting to be played (including games to retry).
    pub pending: u64,
    /// Claimed and not finished.
    pub running: u64,
    /// Finished and recorded.
    pub done: u64,
    /// Failed twice; reported, not counted.
    pub failed: u64,
    /// A retired bot's games that were never claimed (leagues): not played, not counted.
    pub cancelled: u64,
}

impl Counts {
    /// Every scheduled game that is played or to be played (cancelled games excluded).
    pub fn total(&self) -> u64 {
        self.pending + self.running + self.done + self.failed
    }
}

/// A game that failed for good.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct FailedGame {
    /// Schedule index.
    pub index: u64,
    /// Failed attempts.
    pub attempts: u64,
    /// The last attempt's one-line reason.
    pub error: String,
}

impl FailedGame {
    /// Whether the game failed for the referee's own bug (a built-in bot's chombo:
    /// [`crate::arena::builtin_fault::BuiltinFault`]), not for a bot or the host.
    pub fn is_internal(&self) -> bool {
        self.error.starts_with(crate::arena::builtin_fault::INTERNAL_ERROR)
    }
}

pub(super) fn bot(r: &AnyRow) -> Result<BotRow, sqlx::Error> {
    Ok(BotRow {
        idx: r.try_get::<i64, _>(0)? as usize,
        name: r.try_get(1)?,
        spec: r.try_get(2)?,
        sha256: r.try_get(3)?,
    })
}

pub(super) fn game(r: &AnyRow) -> Result<ScheduledGame, sqlx::Error> {
    let int = |i: usize| r.try_get::<i64, _>(i);
    Ok(ScheduledGame {
        index: int(0)? as u64,
        set: int(1)? as u64,
        seed: [int(2)? as u64, int(3)? as u64],
        seats: [int(4)? as usize, int(5)? as usize, int(6)? as usize, int(7)? as usize],
    })
}

pub(super) fn failed(r: &AnyRow) -> Result<FailedGame, sqlx::Error> {
    Ok(FailedGame {
        index: r.try_get::<i64, _>(0)? as u64,
        attempts: r.try_get::<i64, _>(1)? as u64,
        error: r.try_get(2)?,
    })
}

pub(super) fn counts(rows: &[AnyRow]) -> Result<Counts, sqlx::Error> {
    let mut c = Counts::default();
    for r in rows {
        let state: String = r.try_get(0)?;
        let n = r.try_get::<i64, _>(1)? as u64;
        match state.as_str() {
            "pending" => c.pending = n,
            "running" => c.running = n,
            "done" => c.done = n,
            "cancelled" => c.cancelled = n,
            _ => c.failed += n,
        }
    }
    Ok(c)
}

/// Adds one per-seat row (rows come ordered by game, seat) to the records.
pub(super) fn push_record(out: &mut Vec<GameRecord>, r: &AnyRow) -> Result<(), String> {
    let get = |i: usize| r.try_get::<i64, _>(i).map_err(|e| e.to_string());
    let (index, set, seat) = (get(0)? as u64, get(1)? as u64, get(2)? as usize);
    let stats_text: String = r.try_get(6).map_err(|e| e.to_string())?;
    let stats: SeatStats = serde_json::from_str(&stats_text).map_err(|e| format!("game {index}: stats: {e}"))?;
    if out.last().map(|g| g.index) != Some(index) {
        out.push(GameRecord {
            index,
            set,
            seats: [usize::MAX; 4],
            scores: [0; 4],
            ranks: [0; 4],
            stats: Default::default(),
        });
    }
    let (Some(g), true) = (out.last_mut(), seat < 4) else {
        return Err(format!("game {index}: seat {seat}"));
    };
    g.seats[seat] = get(3)? as usize;
    g.scores[seat] = get(4)? as i32;
    g.ranks[seat] = get(5)? as u8;
    g.stats[seat] = stats;
    Ok(())
}

/// Every game must have its 4 seats.
pub(super) fn check_complete(out: &[GameRecord]) -> Result<(), String> {
    match out.iter().find(|g| g.seats.contains(&usize::MAX)) {
        Some(g) => Err(format!("game {} has fewer than 4 seats recorded", g.index)),
        None => Ok(()),
    }
}
