//! `GET /api/games` and the page `/games`: a league's games, newest first, running and
//! finished, each with its seats and its start and end time, a page at a time
//! ([`GameList`]); what to list is a [`GameQuery`]. Every league game is public (its page
//! `/games/{id}` is), so a list shows nothing a visitor could not see already; no stderr.

use mjai_sim_arena::engine_stamp::EngineStamp;
use serde::{Deserialize, Serialize};
#[cfg(feature = "openapi")]
use utoipa::ToSchema;

/// Games one answer lists when the caller gives no `limit`.
pub const DEFAULT_LIMIT: u32 = 50;

/// The most games one answer lists.
pub const MAX_LIMIT: u32 = 200;

/// Where a listed game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum GameStatus {
    /// Claimed by a player (this server or a worker) and not recorded yet: no scores or
    /// ranks, no end time.
    Running,
    /// Recorded: scores, ranks and (for games recorded since times are kept) an end time.
    Finished,
}

impl GameStatus {
    /// `running` or `finished`.
    pub fn as_str(self) -> &'static str {
        match self {
            GameStatus::Running => "running",
            GameStatus::Finished => "finished",
        }
    }
}

/// One seat of a listed game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct GameSeat {
    /// The bot's name as its author wrote it (versions share it).
    pub bot: String,
    /// Its version (its page: `/bots/{bot}/v/{version}`; 1 for a house bot).
    pub version: u32,
    /// Its author; `null` for a house bot (`house`) and for a suspended version, whose
    /// games stay public but whose author only its author and admins are told.
    pub author: Option<String>,
    /// True for a house bot of the operator.
    pub house: bool,
    /// Final score in points (`null` while the game runs).
    pub score: Option<i64>,
    /// Final rank 1..=4 (`null` while the game runs).
    pub rank: Option<u8>,
}

/// One listed game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct GameSummary {
    /// Game id (`/games/{id}`, `/api/games/{id}`).
    pub id: u64,
    /// Running or finished.
    pub status: GameStatus,
    /// When it was claimed to be played, UTC, RFC 3339 with milliseconds
    /// (`2026-11-27T17:05:03.123Z`); `null` for a game stored before times were kept.
    pub started_at: Option<String>,
    /// When its results were recorded (same form); `null` while it runs or for a game
    /// stored before times were kept.
    pub finished_at: Option<String>,
    /// The seats, seat 0 (the first dealer) first: four, or three in a three-player league.
    pub seats: Vec<GameSeat>,
    /// The engine that played it, `{"version", "commit", "rules", "clock", "runtime"}`
    /// (as its log's `start_game.meta.engine`); `null` while it runs and for a game
    /// recorded before engines were.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub engine: Option<EngineStamp>,
    /// Set when the operator voided it (`mjai-sim serve void`): it stays listed and counts
    /// in no standing or rating; `null` otherwise.
    pub void: Option<GameVoid>,
}

/// Why and when a game was voided.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct GameVoid {
    /// The operator's reason, shown to everyone.
    pub reason: String,
    /// When, UTC, RFC 3339 with milliseconds.
    pub at: String,
}

/// `GET /api/games`: one page of games, newest first (by id, descending: the league plays
/// its games in id order).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct GameList {
    /// At most the `limit` asked for.
    pub games: Vec<GameSummary>,
    /// Give it as `cursor` for the next page (the same filters); `null` on the last page.
    pub next_cursor: Option<String>,
}

/// What to list: every field narrows the list (`None`: no filter).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GameQuery {
    /// Only games with a seat of this bot name (any version, or `version`'s).
    pub bot: Option<String>,
    /// With `bot`: only that version's games.
    pub version: Option<u32>,
    /// Only games with a seat of one of this author's bots.
    pub author: Option<String>,
    /// Only games that ended at or after this time (ms since the Unix epoch); running
    /// games and games without an end time are left out by either bound.
    pub from_ms: Option<i64>,
    /// Only games that ended at or before this time (ms since the Unix epoch).
    pub to_ms: Option<i64>,
    /// Only running or only finished games.
    pub status: Option<GameStatus>,
    /// Only games with an id below this one (the cursor of the previous page).
    pub before: Option<u64>,
    /// At most this many games (1..=[`MAX_LIMIT`]).
    pub limit: u32,
}

/// The text of a cursor: the last listed id, as `g` and its decimal digits (opaque to
/// callers: they only give it back).
pub fn cursor_text(last_id: u64) -> String {
    format!("g{last_id}")
}

/// The id a [`cursor_text`] holds; `None` for any other text.
pub fn cursor_id(text: &str) -> Option<u64> {
    let digits = text.strip_prefix('g')?;
    let canonical = !digits.is_empty() && digits.len() <= 19 && digits.bytes().all(|b| b.is_ascii_digit());
    canonical.then(|| digits.parse::<u64>().ok()).flatten().filter(|&n| i64::try_from(n).is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cursor_holds_the_last_id_and_nothing_else_parses() {
        for id in [0, 7, i64::MAX as u64] {
            assert_eq!(cursor_id(&cursor_text(id)), Some(id));
        }
        for bad in ["", "g", "7", "g-1", "g+1", "gx", "g9223372036854775808", "G7", " g7", "g7 "] {
            assert_eq!(cursor_id(bad), None, "{bad}");
        }
    }
}
