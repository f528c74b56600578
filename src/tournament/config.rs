//! A tournament's options as stored in its database (JSON in `tournament.config`), so that
//! `mjai-sim tournament --resume DIR` plays the same schedule with the same settings.

use serde::{Deserialize, Serialize};

use super::schedule::Format;

/// Everything that decides a tournament's games and results.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TournamentConfig {
    /// Duplicate sets, or one-vs-three.
    pub format: Format,
    /// Bot arguments (`builtin:NAME`, paths) in bot-list order; names are in the `bots` table.
    pub bots: Vec<String>,
    /// Sets scheduled.
    pub sets: u64,
    /// Wall seed base `[nonce, key]`; set `i` plays `[nonce + i, key]`.
    pub seed: [u64; 2],
    /// Uma by rank, in pt (Mortal's 90, 45, 0, -135).
    pub uma: [f64; 4],
    /// Seconds for one decision.
    pub timeout: f64,
    /// Seconds for a line beginning with start_game or start_kyoku.
    pub start_timeout: f64,
    /// Restarts after which a game is abandoned (and failed).
    pub max_restarts: u32,
    /// Seconds a whole game may take (`--game-timeout`); 0 in tournaments made before the
    /// option existed, which play under the default (3600 s).
    #[serde(default)]
    pub game_timeout: f64,
    /// `docker` or `process`.
    pub runtime: String,
    /// `stdio` or `http`.
    pub transport: String,
    /// Bot image (`None`: the built image).
    pub image: Option<String>,
    /// Largest accepted submission, MiB.
    pub max_submission_mb: u64,
    /// Bots kept between games.
    pub keep_bots: bool,
    /// Each game's folder written.
    pub logs: bool,
    /// No `game.html` in the game folders (`--no-html`).
    #[serde(default)]
    pub no_html: bool,
    /// Rule preset by name (`tenhou`, `mjai-app`); empty in tournaments made before presets
    /// existed, which played under Tenhou rules.
    #[serde(default)]
    pub rules: String,
    /// Limits of each bot container (`--memory`, `--cpus`, `--pids`, `--gpus`).
    #[serde(default)]
    pub resources: crate::runtime::docker::resources::Resources,
}
