//! Labelled tables from mjai logs, for training and studying bots (`mjai-sim dataset`,
//! docs/dataset.md lists every column):
//!
//! - [`Kind::Decisions`]: one row per request in which a seat had more than one legal
//!   answer ([`decisions()`]): what it could see, its legal answers and its answer, and
//!   labels it could not see.
//! - [`Kind::Riichi`]: one row per riichi declaration ([`riichi()`]): the table as everyone
//!   sees it once the riichi tile is down, and the declarer's waits.
//!
//! Rows are pure functions of a log, read with the engine's log reader
//! ([`mjai_sim_engine::log`]; decisions also replay it through the engine for the legal
//! answers). [`files`] finds and reads logs and `writer` writes one Parquet file: the only
//! I/O here. The Arrow batches and the Parquet writer are the `parquet` feature (default on).

#[cfg(feature = "parquet")]
mod batch;
#[cfg(feature = "parquet")]
mod columns;
mod damage;
mod decisions;
pub mod files;
mod labels;
mod riichi;
mod view;
#[cfg(feature = "parquet")]
pub mod writer;

pub use damage::Damaged;
pub use decisions::{decisions, DecisionRow};
pub use labels::{unseen_by, waits_of, Hidden};
pub use riichi::{riichi, RiichiRow};
pub use view::{sorted, View};

#[cfg(feature = "parquet")]
use arrow_array::RecordBatch;

#[cfg(feature = "parquet")]
use mjai_sim_engine::event::Event;
#[cfg(feature = "parquet")]
use mjai_sim_engine::game::Rules;

/// Which table to build.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// One row per request with a choice.
    Decisions,
    /// One row per riichi declaration.
    Riichi,
}

/// (Feature `parquet`.) The rows of `log` (named `game` in the `game` column) as one Arrow batch of `kind`'s
/// schema (zero rows when it has none). `rules` matter to [`Kind::Decisions`] only (the
/// preset the log was played under). Errors: where the log is damaged or cut.
#[cfg(feature = "parquet")]
pub fn batch(kind: Kind, game: &str, log: &[Event], rules: Rules) -> Result<RecordBatch, Damaged> {
    let arrow = |e: arrow_schema::ArrowError| Damaged { index: 0, message: format!("cannot build the table: {e}") };
    match kind {
        Kind::Decisions => batch::decisions(game, &decisions(log, rules)?).map_err(arrow),
        Kind::Riichi => batch::riichi(game, &riichi(log)?).map_err(arrow),
    }
}

/// (Feature `parquet`.) A batch of `kind`'s schema with no rows (the schema of an empty table).
#[cfg(feature = "parquet")]
pub fn empty(kind: Kind) -> RecordBatch {
    let built = match kind {
        Kind::Decisions => batch::decisions("", &[]),
        Kind::Riichi => batch::riichi("", &[]),
    };
    built.expect("a table with no rows always builds")
}
