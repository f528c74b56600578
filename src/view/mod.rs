//! Looking at games and leagues: the self-contained HTML viewer of one game (`game.html`),
//! the tournament report (`report.html`) and the grading server's pages. Pure functions
//! from data to text: the callers (the CLI, the main job, tournaments, the server) read and
//! write the files and answer the requests. Every page comes from the compiled,
//! auto-escaping askama templates in `src/view/templates` (`askama.toml`).
//!
//! - [`game`]: what the viewer shows, derived from a log (hand results scored by the engine,
//!   chombos with their errors, unknown events, the first verification failure).
//! - [`page`]: the viewer page around it (assets from `assets/`: inline in `game.html`,
//!   linked on the server).
//! - [`report`]: `report.html` from `standings.json` (inline SVG: [`report_svg`]; the
//!   head-to-head matrix: [`report_matrix`]).
//! - [`site`]: the grading server's pages (leaderboard, bot, game, `/me`, forms), its
//!   assets and its Content-Security-Policy.
//! - [`layout`], [`figures`]: what the pages share (the `<head>`, CSP hashes, number
//!   formats).

pub mod figures;
pub mod game;
pub mod layout;
pub mod page;
pub mod report;
pub mod report_matrix;
pub mod report_svg;
pub mod site;

pub use game::{GameData, GameInput};
pub use page::render_game;

/// Why a file cannot be shown. The message is one line naming the cause and the fix.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ViewError {
    /// The text is not an mjai log (first line is not a `start_game` event).
    #[error("not an mjai log: {0} (expected one JSON event per line, starting with start_game, as mjai_log.json)")]
    NotALog(String),
    /// `standings.json` cannot be read as standings.
    #[error("not a standings.json: {0} (expected the standings.json `mjai-sim tournament` writes; schema in docs/output-files.md)")]
    NotStandings(String),
}
