//! Row shapes of the store and their conversions from database rows.

use sqlx::any::AnyRow;
use sqlx::Row;

use crate::record::{GameRecord, SeatStats};
use crate::schedule::ScheduledGame;
use mjai_sim_engine::game::{Players, MAX_SEATS};

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
    /// [`mjai_sim_arena::builtin_fault::BuiltinFault`]), not for a bot or the host.
    pub fn is_internal(&self) -> bool {
        self.error.starts_with(mjai_sim_arena::builtin_fault::INTERNAL_ERROR)
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

/// What `games.seat3` holds at a three-player table: no bot (the columns `seat0..seat3`
/// are `NOT NULL` since the first schema; a bot index is never negative, so every query that
/// looks for a bot in `seat3` passes this one by, and a lease's `seat3 < bots` admits it).
pub(super) const EMPTY_SEAT: i64 = -1;

/// The `seat0..seat3` values of a game's seats (three seats: `seat3` is [`EMPTY_SEAT`]).
pub(super) fn seat_columns(seats: &[usize]) -> [i64; 4] {
    std::array::from_fn(|s| seats.get(s).map_or(EMPTY_SEAT, |&b| b as i64))
}

/// A game's seats from its `seat0..seat3` values: the bots up to the first [`EMPTY_SEAT`].
pub(super) fn seats_of(columns: [i64; 4]) -> Vec<usize> {
    columns.iter().take_while(|&&b| b != EMPTY_SEAT).map(|&b| b as usize).collect()
}

pub(super) fn game(r: &AnyRow) -> Result<ScheduledGame, sqlx::Error> {
    let int = |i: usize| r.try_get::<i64, _>(i);
    Ok(ScheduledGame {
        index: int(0)? as u64,
        set: int(1)? as u64,
        seed: [int(2)? as u64, int(3)? as u64],
        seats: seats_of([int(4)?, int(5)?, int(6)?, int(7)?]),
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

/// Adds one per-seat row (rows come ordered by game, seat) to the records: a game's seats
/// must come as 0, 1, 2... with none missing.
pub(super) fn push_record(out: &mut Vec<GameRecord>, r: &AnyRow) -> Result<(), String> {
    let get = |i: usize| r.try_get::<i64, _>(i).map_err(|e| e.to_string());
    let (index, set, seat) = (get(0)? as u64, get(1)? as u64, get(2)?);
    let stats_text: String = r.try_get(6).map_err(|e| e.to_string())?;
    let stats: SeatStats = serde_json::from_str(&stats_text).map_err(|e| format!("game {index}: stats: {e}"))?;
    if out.last().map(|g| g.index) != Some(index) {
        out.push(GameRecord {
            index,
            set,
            seats: Vec::new(),
            scores: Vec::new(),
            ranks: Vec::new(),
            stats: Vec::new(),
        });
    }
    let Some(g) = out.last_mut().filter(|g| g.seats.len() as i64 == seat && seat < MAX_SEATS as i64) else {
        return Err(format!("game {index}: seat {seat} out of order"));
    };
    g.seats.push(get(3)? as usize);
    g.scores.push(get(4)? as i32);
    g.ranks.push(get(5)? as u8);
    g.stats.push(stats);
    Ok(())
}

/// Every game must have one row per seat of its table: 4, or 3 at a three-player table,
/// the same number in every game (a tournament is of one table size).
pub(super) fn check_complete(out: &[GameRecord]) -> Result<(), String> {
    let size = out.first().map_or(MAX_SEATS, |g| g.seats.len());
    match out.iter().find(|g| g.seats.len() != size || Players::of_count(size).is_none()) {
        Some(g) => Err(format!("game {} has {} seats recorded, not {size}", g.index, g.seats.len())),
        None => Ok(()),
    }
}
