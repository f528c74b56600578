//! One seat's part of the table: its concealed tiles, calls, river, riichi and ippatsu, and
//! what it did during the kyoku, in log order.

use crate::event::Seat;
use crate::hand::{Meld, Riichi};
use crate::rules::Rules;
use crate::tile::{to_counts, Tile};

/// One tile of a river (kawa).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Discard {
    /// The tile discarded.
    pub pai: Tile,
    /// True when it was the tile just drawn.
    pub tsumogiri: bool,
    /// True for the riichi declaration tile (the discard right after `reach`).
    pub riichi: bool,
    /// True when another seat called it (chi, pon or daiminkan); it stays listed here.
    pub called: bool,
}

/// One thing a seat did, as the log shows it (the fields are the event's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// A draw; `rinshan` when it is the replacement draw after a kan.
    Tsumo {
        /// The tile drawn (`?` in another seat's masked view).
        pai: Tile,
        /// Drawn from the dead wall after a kan.
        rinshan: bool,
    },
    /// A discard.
    Dahai {
        /// The tile discarded.
        pai: Tile,
        /// True when it was the tile just drawn.
        tsumogiri: bool,
        /// True for the riichi declaration tile.
        riichi: bool,
    },
    /// Chi of the kamicha's discard `pai`.
    Chi {
        /// Seat whose discard was called.
        target: Seat,
        /// The called discard.
        pai: Tile,
        /// The two tiles from the hand.
        consumed: [Tile; 2],
    },
    /// Pon of `target`'s discard `pai`.
    Pon {
        /// Seat whose discard was called.
        target: Seat,
        /// The called discard.
        pai: Tile,
        /// The two tiles from the hand.
        consumed: [Tile; 2],
    },
    /// Open kan on `target`'s discard `pai`.
    Daiminkan {
        /// Seat whose discard was called.
        target: Seat,
        /// The called discard.
        pai: Tile,
        /// The three tiles from the hand.
        consumed: [Tile; 3],
    },
    /// `pai` added to the pon of `consumed`.
    Kakan {
        /// The tile added.
        pai: Tile,
        /// The pon's three tiles.
        consumed: [Tile; 3],
    },
    /// Closed kan of four tiles from the hand.
    Ankan {
        /// The four tiles.
        consumed: [Tile; 4],
    },
    /// A North set aside (three-player `kita`, nukidora); the replacement `tsumo` follows.
    Kita {
        /// The tile set aside (`N`).
        pai: Tile,
    },
}

impl Action {
    /// True for the calls that open a hand: chi, pon, daiminkan (an ankan keeps it closed;
    /// a kakan follows a pon).
    pub fn opens_hand(&self) -> bool {
        matches!(self, Action::Chi { .. } | Action::Pon { .. } | Action::Daiminkan { .. })
    }
}

/// What the log has shown of one seat in the current kyoku.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SeatState {
    /// Concealed tiles, the drawn tile included (`?` for tiles a masked view hides).
    pub tehai: Vec<Tile>,
    /// Calls in the order made; a kakan turns its pon into a [`crate::hand::MeldKind::Kakan`].
    pub melds: Vec<Meld>,
    /// Discards in order, called ones included.
    pub river: Vec<Discard>,
    /// Everything the seat did, in log order.
    pub actions: Vec<Action>,
    /// Riichi once accepted (`reach_accepted`): double riichi on an uninterrupted first
    /// discard.
    pub riichi: Riichi,
    /// `reach` was declared in this kyoku (also when its discard was then ronned).
    pub reach: bool,
    /// `reach` declared, its discard not yet passed.
    pub reach_pending: bool,
    /// Ippatsu alive: from `reach_accepted` to the seat's next discard or any call (ankan
    /// included), as the engine and Tenhou count it.
    pub ippatsu: bool,
    /// The last tile drawn.
    pub drawn: Option<Tile>,
    /// Pao: the seat that fed the third dragon set or the fourth wind set, and the yakuman
    /// (`"daisangen"`, `"daisuushii"`).
    pub pao: Option<(Seat, &'static str)>,
    /// Norths set aside by `kita` (three-player): each one han of nukidora.
    pub kita: u8,
}

impl SeatState {
    /// A seat dealt `tehai`.
    pub fn dealt(tehai: &[Tile; 13]) -> SeatState {
        SeatState { tehai: tehai.to_vec(), ..SeatState::default() }
    }

    /// Whether the seat is paid as tenpai at an exhaustive draw under `rules`
    /// ([`Rules::tenpai_at_draw`]: karaten counts only under the mjai-app preset).
    pub fn tenpai_at_draw(&self, rules: &Rules) -> bool {
        rules.tenpai_at_draw(&to_counts(&self.tehai), self.melds.len() as u8)
    }

    /// True when the seat has made no open call (an ankan keeps the hand closed).
    pub fn is_menzen(&self) -> bool {
        self.melds.iter().all(|m| !m.is_open())
    }

    /// Removes `t` from the concealed tiles: the same tile, else one of its kind, else a
    /// hidden `?` (another seat's hand in a masked view). False when none is there.
    pub(super) fn take(&mut self, t: Tile) -> bool {
        let h = &self.tehai;
        let i = h
            .iter()
            .position(|&x| x == t)
            .or_else(|| h.iter().position(|&x| !t.is_unknown() && x.kind() == t.kind()))
            .or_else(|| h.iter().position(|x| x.is_unknown()));
        i.map(|i| self.tehai.remove(i)).is_some()
    }
}
