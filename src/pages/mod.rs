//! Looking at tournaments and leagues: the tournament report (`report.html`) and the grading
//! server's pages, above the tournament layer whose standings and leaderboard they show
//! (the game viewer is below the arena: [`mjai_sim_viewer`]). Pure functions from data to
//! text: the callers (the CLI, the server) read and write the files and answer the
//! requests. Every page comes from the compiled, auto-escaping askama templates in
//! `src/pages/templates` (and `base.html` of `src/viewer/templates`; `src/pages/askama.toml`).
//!
//! - [`report`]: `report.html` from `standings.json` (inline SVG: [`report_svg`]; the
//!   head-to-head matrix: [`report_matrix`]).
//! - [`site`]: the grading server's pages (leaderboard, bot, game, `/me`, forms), its
//!   assets and its Content-Security-Policy.
//! - [`standings_text`]: `standings.md`, the terminal table, and writing the standings
//!   files of a tournament folder.
//! - [`figures`]: number formats the pages share (the `<head>` and CSP hashes:
//!   [`mjai_sim_viewer::layout`]).

#![warn(missing_docs)]

pub mod figures;
pub mod report;
pub mod report_matrix;
pub mod report_svg;
pub mod site;
pub mod standings_text;

/// Style of the grading server's pages and of `report.html`.
pub const SITE_CSS: &str = include_str!("assets/site.css");

/// Script of a running game's page (`/games/{id}` while it is played): follows the game's
/// live stream and reloads the page at each new hand.
pub const LIVE_JS: &str = include_str!("assets/live.js");

/// The grading server's icon (`/favicon.ico`): a 32×32 tile, made by
/// `scripts/make-favicon.py`.
pub const FAVICON: &[u8] = include_bytes!("assets/favicon.ico");

/// Why a file cannot be shown. The message is one line naming the cause and the fix.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReportError {
    /// `standings.json` cannot be read as standings.
    #[error("not a standings.json: {0} (expected the standings.json `mjai-sim tournament` writes; schema in docs/output-files.md)")]
    NotStandings(String),
}
