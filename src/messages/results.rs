//! The `result` message of each command: what it produced, as data (`"command"` names which).

use serde::Serialize;

use mjai_sim_arena::summary::Summary;
use mjai_sim_export::tenhou6::Tenhou6;
use mjai_sim_tournament::standings::Standings;
use mjai_sim_tournament::store::FailedGame;

/// A command's outcome, tagged `"command"` (kebab-case: `play`, `verify`, ...).
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "command", rename_all = "kebab-case")]
pub enum CommandResult {
    /// One game (the default command): the figures of the `summary.json` it wrote.
    Play(GameResult),
    /// `verify`: the log was reproduced (a disagreement is an `error`, `verify_mismatch`).
    Verify(VerifyResult),
    /// `export --format tenhou6`.
    Export {
        /// The tenhou.net/6 game (`title`, `name`, `rule`, `log`, `sc`, `notes`).
        game: Box<Tenhou6>,
        /// The file written with `-o`; `null` otherwise.
        output: Option<String>,
    },
    /// `view`: the page written.
    View {
        /// Path of the HTML page.
        path: String,
    },
    /// `dataset`: the Parquet file written.
    Dataset {
        /// Path of the Parquet file.
        output: String,
        /// Rows written.
        rows: u64,
        /// Logs read.
        logs: u64,
        /// Logs skipped (damaged), each with why.
        skipped: Vec<Skipped>,
    },
    /// `tournament`: the standings at the end (also in `DIR/standings.json`).
    Tournament {
        /// The tournament folder (`standings.json`, `games/<index>/`).
        dir: String,
        /// `standings.json`'s content.
        standings: Box<Standings>,
        /// Games that failed for good.
        failed: Vec<FailedGame>,
    },
    /// `standings`: the standings of a finished or running tournament.
    Standings {
        /// `standings.json`'s content.
        standings: Box<Standings>,
    },
}

/// One game's outcome: `summary.json`'s figures and where the game's files are.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameResult {
    /// The output folder (`mjai_log.json`, `errors.json`, `summary.json`, `player_logs.*`).
    pub logs_dir: String,
    /// `completed`, `restart_limit`, `interrupted` or `failed`.
    pub ending: String,
    /// Whether the game reached `end_game`.
    pub completed: bool,
    /// Final scores in points, by seat (three entries at a three-player table, as `rank`
    /// and `chombos`).
    pub scores: Vec<i32>,
    /// Ranks 1..=4 (1..=3 at three players), by seat.
    pub rank: Vec<u8>,
    /// Chombos, by seat.
    pub chombos: Vec<u32>,
    /// Restarts of the bots.
    pub restarts: u32,
    /// Hands played.
    pub kyoku_count: usize,
    /// Wall seed `[nonce, key]`.
    pub seed: Option<[u64; 2]>,
}

impl GameResult {
    /// The result of the game whose summary is `summary`, written in `logs_dir`.
    pub fn new(logs_dir: String, summary: &Summary) -> GameResult {
        GameResult {
            logs_dir,
            ending: summary.ending.clone(),
            completed: summary.completed,
            scores: summary.scores.clone(),
            rank: summary.rank.clone(),
            chombos: summary.chombos.clone(),
            restarts: summary.restarts,
            kyoku_count: summary.kyoku_count,
            seed: summary.seed,
        }
    }
}

/// What `verify` found for a log it accepts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VerifyResult {
    /// The log, as given.
    pub log: String,
    /// The rule preset it was replayed under (`tenhou`, `mjai-app`).
    pub rules: String,
    /// Kyoku reproduced (or verified, for a partial game).
    pub kyokus: usize,
    /// Events compared; `null` for a partial game.
    pub events: Option<usize>,
    /// Final scores in points, one per seat (three for sanma); `null` for a partial game.
    pub final_scores: Option<Vec<i32>>,
    /// The log stops after an `end_kyoku` (an excerpt).
    pub partial: bool,
    /// Converter conventions noted (logs converted by mjai-reviewer).
    pub notes: Vec<String>,
    /// The verdict line a person sees, without the log's path.
    pub message: String,
}

/// A log `dataset` skipped.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Skipped {
    /// The log's path.
    pub log: String,
    /// Why, one line.
    pub reason: String,
}
