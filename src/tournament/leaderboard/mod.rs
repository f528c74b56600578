//! What a league's public pages and read API show (issue 21): the leaderboard and one bot's
//! page, as plain data. The store fills them from its per-bot aggregates (not by reading
//! every result row), the grading server sends them as JSON (`GET /api/leaderboard`,
//! `GET /api/bots/{name}`) and the site's templates render them, so the three agree by
//! construction.
//!
//! Units: ranks 1..=4, pt as in [`super::standings`] (uma by rank), ratings Weng-Lin
//! (μ 25, σ 25/3 at the start), game ids are the league's game indices.

use serde::{Deserialize, Serialize};
#[cfg(feature = "openapi")]
use utoipa::ToSchema;

pub mod aggregate;
pub mod game_list;
pub mod shape;
pub mod utc;

/// Games a bot plays before its figures stop being marked provisional.
pub const PROVISIONAL_GAMES: u64 = 40;

/// Where a bot of a league stands in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum BotStatus {
    /// Uploaded; its validation game has not ended yet.
    Validating,
    /// Passed validation (or a house bot): scheduled in the league.
    Active,
    /// Failed validation (see the bot's `reason`): never scheduled.
    Rejected,
    /// Retired by its author, an admin, or a newer version: no longer scheduled; its games
    /// still count.
    Retired,
    /// Taken out of the league for its chombos (see the version's `reason`, e.g.
    /// `suspended: 6 chombos in its last 10 league games`): no longer scheduled and off the
    /// ranking; its games still count. Back only as a new version (an upload).
    Suspended,
}

impl BotStatus {
    /// True for the statuses only the version's author and admins may see (a grading
    /// server's pages and API hide such versions, and their authors, from everyone else):
    /// `rejected` and `suspended`.
    pub fn is_private(self) -> bool {
        matches!(self, BotStatus::Rejected | BotStatus::Suspended)
    }
}

/// A bot's Weng-Lin rating.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct Rating {
    /// Estimated skill μ.
    pub mu: f64,
    /// Uncertainty σ of μ.
    pub sigma: f64,
}

/// `GET /api/leaderboard`: every bot of the league, best first (active bots by μ − 3σ, then
/// the others).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct Leaderboard {
    /// Seats at every table of the league: 4, or 3 in a three-player (sanma) league. A
    /// league is one mode; an upload may declare its mode (`mode=3p` or `4p`), refused
    /// when it is not the league's.
    pub players: u8,
    /// One entry per bot version.
    pub bots: Vec<LeaderboardEntry>,
}

/// How a version plays (column `kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum BotKind {
    /// An uploaded zip with `bot.py`, played in the league's runtime (a container).
    Zip,
    /// Played by its author's `mjai-sim connect` over a WebSocket (issue 29): no zip; in the
    /// league its spec is `remote:NAME` and it is seated only while connected.
    Remote,
    /// A bot of riichi.dev's WebSocket dialect (issue 37), connecting with its bot token to
    /// `/ws/validate` and `/ws/ranked`: no zip; in the league its spec is `riichilab:NAME`
    /// and it is seated only while connected.
    #[serde(rename = "riichilab")]
    RiichiDev,
}

impl BotKind {
    /// The column's text: `zip`, `remote` or `riichilab`.
    pub fn as_str(self) -> &'static str {
        match self {
            BotKind::Zip => "zip",
            BotKind::Remote => "remote",
            BotKind::RiichiDev => "riichilab",
        }
    }

    /// True for a bot played over a connection (`remote`, `riichilab`): seated only while
    /// connected.
    pub fn is_connected(self) -> bool {
        matches!(self, BotKind::Remote | BotKind::RiichiDev)
    }
}

/// One bot version's line of the leaderboard. Figures over no games are `null`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct LeaderboardEntry {
    /// Bot name (unique in the league across authors; versions share it).
    pub name: String,
    /// Author's name (`None`: a house bot of the operator).
    pub author: Option<String>,
    /// Version, 1 for the first upload of a name.
    pub version: u32,
    /// Where the bot stands.
    pub status: BotStatus,
    /// Games played (seats).
    pub games: u64,
    /// Mean rank (1..=4).
    pub avg_rank: Option<f64>,
    /// 95 % interval `[low, high]` of `avg_rank` (`null` under 2 games).
    pub avg_rank_ci: Option<[f64; 2]>,
    /// Mean pt (uma by rank).
    pub avg_pt: Option<f64>,
    /// 95 % interval of `avg_pt` (`null` under 2 games).
    pub avg_pt_ci: Option<[f64; 2]>,
    /// Current rating.
    pub rating: Rating,
    /// Highest μ − 3σ reached after the provisional games (`null` before).
    pub peak: Option<f64>,
    /// Fewer than [`PROVISIONAL_GAMES`] games: figures still move a lot.
    pub provisional: bool,
    /// Id of the bot's latest counted game.
    pub last_game: Option<u64>,
    /// When that game ended (its result recorded), UTC, RFC 3339 with milliseconds
    /// (`2026-11-27T17:05:03.123Z`); `null` without a last game or for a game stored
    /// before times were kept.
    pub last_game_at: Option<String>,
    /// Chombos per game in its league games (a seat's chombos summed over its games,
    /// divided by its games; `null` before its first game).
    pub chombos_per_game: Option<f64>,
    /// How it plays: `zip` (uploaded, played by the server) or `remote` (from its author's
    /// machine, issue 29).
    pub kind: BotKind,
    /// Whether it can be seated now: a remote bot while its bridge is connected; a zip
    /// bot always.
    pub online: bool,
}

/// One game as a bot's page lists it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct GameLine {
    /// Game id (`/games/{id}`).
    pub id: u64,
    /// The bots by seat, one per seat of the table (4, or 3 in a three-player league):
    /// each one's name as its author wrote it (versions share it).
    pub bots: Vec<String>,
    /// Their versions by seat (a bot's page: `/bots/{name}/v/{version}`).
    pub versions: Vec<u32>,
    /// Their ranks by seat (1..=4, or 1..=3).
    pub ranks: Vec<u8>,
    /// Their final scores by seat, in points.
    pub scores: Vec<i64>,
    /// When it ended (its result recorded), UTC, RFC 3339 with milliseconds; `null` for a
    /// game stored before times were kept.
    pub finished_at: Option<String>,
}

/// One chombo of a bot (`GET /api/bots/{name}/errors`: its author and admins only).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct ChomboLine {
    /// Game id.
    pub game: u64,
    /// The kyoku, e.g. `E1-0` (bakaze, kyoku, honba).
    pub kyoku: String,
    /// Why (late, illegal action, crashed, ...), one line.
    pub reason: String,
    /// The last lines the bot wrote on stderr before it (may be empty).
    pub stderr_tail: String,
}

/// One opponent on a bot's page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct HeadToHead {
    /// The opponent's name as its author wrote it.
    pub opponent: String,
    /// The opponent's version (its page: `/bots/{opponent}/v/{opponent_version}`).
    pub opponent_version: u32,
    /// Games the two shared.
    pub games: u64,
    /// Games in which this bot placed above the opponent.
    pub above: u64,
    /// Mean of (opponent's rank − this bot's rank) over those games.
    pub rank_diff: f64,
}

/// One version of a bot as its page's selector lists it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct VersionLine {
    /// The version (its page: `/bots/{name}/v/{version}`).
    pub version: u32,
    /// Where it stands.
    pub status: BotStatus,
}

/// `GET /api/bots/{name}/v/{version}` and the page `/bots/{name}/v/{version}`: one version
/// of a bot, its figures, opponents and games only (`GET /api/bots/{name}`: the latest
/// version; the page `/bots/{name}`: the active one if any, else the latest).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct BotPage {
    /// The shown version's leaderboard line.
    pub entry: LeaderboardEntry,
    /// Every version of the name, oldest first.
    pub versions: Vec<VersionLine>,
    /// Why it was rejected (status `rejected`) or suspended (status `suspended`), one line;
    /// shown only to its author and admins, as such versions are.
    pub reason: Option<String>,
    /// Games finished 1st, 2nd, 3rd(, 4th): one count per seat of the league's table (4,
    /// or 3 in a three-player league).
    pub rank_counts: Vec<u64>,
    /// `(games played, μ)` after each of at most 200 evenly spaced games.
    pub rating_history: Vec<(u64, f64)>,
    /// When each point of `rating_history` was reached (its game's end, UTC RFC 3339 with
    /// milliseconds), in the same order; `null` where unknown (games recorded before games
    /// had times). The bot page's chart is drawn over time when at least two are known.
    pub rating_history_at: Vec<Option<String>>,
    /// Opponents met by this version, most games first (another version of the same name
    /// is an opponent like any other).
    pub head_to_head: Vec<HeadToHead>,
    /// This version's games, latest first (at most 50).
    pub recent_games: Vec<GameLine>,
    /// Its share of the league's table time in the last hour (its decision time; over
    /// twice a fair share it sits the next top-ups out); `null` when it played no game in
    /// the hour.
    #[serde(default)]
    pub table_time: Option<TimeShare>,
}

/// A bot's share of the league's table time now, as its page shows it
/// (`store::table_time`: the last hour's decision time).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct TimeShare {
    /// Its decision time in the games that finished in the last hour, seconds.
    pub decision_s: f64,
    /// That over the league's decision time in the hour (0 to 1).
    pub share: f64,
    /// One active bot's fair share (1 over the active bots).
    pub fair_share: f64,
    /// Over twice its fair share (and 5 minutes): it sits the next top-ups out.
    pub sits_out: bool,
}

/// One version of a bot, as the store keeps it (`bot_versions`) and the leaderboard and
/// bot pages are shaped from ([`shape`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VersionRow {
    /// The bot's name (shared by its versions).
    pub name: String,
    /// 1 for the first upload of the name.
    pub version: u32,
    /// The author's name (`None`: a house bot).
    pub author: Option<String>,
    /// Hex sha256 of the zip (of `builtin:NAME` for a built-in house bot).
    pub sha256: String,
    /// Where it stands.
    pub status: BotStatus,
    /// Why it was rejected or suspended, one line.
    pub reason: Option<String>,
    /// Its index among the league's bots once admitted.
    pub bot_idx: Option<usize>,
    /// How it plays: an uploaded zip, or remotely from its author's machine.
    pub kind: BotKind,
}
