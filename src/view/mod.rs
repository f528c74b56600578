//! Looking at games: the self-contained HTML viewer of one game (`game.html`) and the
//! tournament report (`report.html`). Pure functions from text to text: the callers (the
//! CLI, the main job, tournaments) read and write the files.
//!
//! - [`game`]: what the viewer shows, derived from a log (hand results scored by the engine,
//!   chombos with their errors, unknown events, the first verification failure).
//! - [`page`]: the HTML page around it (assets from `assets/`, inlined; no network).
//! - [`report`]: `report.html` from `standings.json` (inline SVG: [`report_svg`]; the
//!   head-to-head matrix: [`report_matrix`]).

pub mod game;
pub mod page;
pub mod report;
pub mod report_matrix;
pub mod report_svg;

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
