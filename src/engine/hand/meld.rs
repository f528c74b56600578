//! Calls (melds) as the hand evaluator sees them.

use crate::tile::Tile;

/// The kind of a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MeldKind {
    /// Sequence claimed from the kamicha.
    Chi,
    /// Triplet claimed from any seat.
    Pon,
    /// Open kan on a discard.
    Daiminkan,
    /// Pon upgraded with the fourth tile.
    Kakan,
    /// Closed kan (keeps the hand concealed).
    Ankan,
}

/// One call: its kind and all its tiles (3 for chi/pon, 4 for kans), the claimed tile
/// included, red fives as they are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Meld {
    /// Kind of call.
    pub kind: MeldKind,
    /// Tiles of the set.
    pub tiles: Vec<Tile>,
}

impl Meld {
    /// True for every call except ankan.
    pub fn is_open(&self) -> bool {
        self.kind != MeldKind::Ankan
    }

    /// True for the three kan kinds.
    pub fn is_kan(&self) -> bool {
        matches!(self.kind, MeldKind::Daiminkan | MeldKind::Kakan | MeldKind::Ankan)
    }
}
