//! The game viewer: the self-contained HTML page of one game (`game.html`, and the grading
//! server's `/games/{id}`), a pure function of the game's mjai log (with its `errors.json`
//! and stderr tails when given). It sits beside the exports, below the arena (which writes
//! `game.html` after each game) and imports only the engine (`tests/layering/imports.rs`). The
//! tournament report and the server's pages are above, in [`crate::pages`].
//!
//! - [`game`]: what the viewer shows, derived from a log (hand results scored by the engine,
//!   chombos with their errors, unknown events, the first verification failure).
//! - [`page`]: the viewer page around it (assets from `assets/`: inline in `game.html`,
//!   linked on the server).
//! - [`tiles`]: the tile set, an inline SVG sprite drawn by code (no font beyond Latin).
//! - [`layout`]: what every page shares (the `<head>` of `templates/base.html`, rendering,
//!   CSP hashes), the viewer's and [`crate::pages`]'s.

#![warn(missing_docs)]

pub mod game;
pub mod layout;
pub mod page;
pub mod tiles;

pub use game::{GameData, GameInput};
pub use page::render_game;

/// Why a log cannot be shown. The message is one line naming the cause and the fix.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ViewError {
    /// The text is not an mjai log (first line is not a `start_game` event).
    #[error("not an mjai log: {0} (expected one JSON event per line, starting with start_game, as mjai_log.json)")]
    NotALog(String),
}
