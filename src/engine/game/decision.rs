//! What the game asks and what it refuses: a [`Decision`] (one seat and every legal answer,
//! canonical mjai events) and [`Illegal`] (why an answer is refused, one line for
//! `errors.json`).

use crate::event::{Event, Seat};

/// One seat that must answer now, with every answer that is legal (`none` included when the
/// seat may pass).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    /// The seat to ask.
    pub seat: Seat,
    /// Legal answers in canonical form.
    pub legal: Vec<Event>,
}

/// Why a bot's answer is refused. The message is one line, for `errors.json`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Illegal(pub String);
