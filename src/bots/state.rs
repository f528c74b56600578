//! [`PlayerState`]: what one seat knows, read from the (masked) mjai events it receives by
//! the engine's log reader ([`mjai_sim_engine::log::Table`]).
//!
//! Pure bookkeeping for deciding (hand, calls, rivers, dora, riichi, scores, visible
//! tiles): no rule here. What is legal comes from the engine (see [`super::Agent`]).

use mjai_sim_engine::event::{Event, Seat};
use mjai_sim_engine::hand::Meld;
use mjai_sim_engine::log::Table;
use mjai_sim_engine::tile::{to_counts, Tile, KINDS};

/// Everything a seat knows about the current game, from its own point of view.
///
/// Feed it every event the seat receives with [`PlayerState::update`] (masked events are
/// fine: other seats' tiles are `?`). Points are in points, sticks in sticks.
#[derive(Debug, Clone, Default)]
pub struct PlayerState {
    /// This seat (from `start_game.id`; 0 until then).
    pub seat: Seat,
    /// The kyoku as this seat has seen it: start (round, hand, honba, dealer), every seat's
    /// tiles as far as they are shown, calls, rivers, riichi, dora indicators, scores and
    /// sticks now, draws made.
    pub table: Table,
}

impl PlayerState {
    /// A fresh state; the seat is set by `start_game`.
    pub fn new() -> PlayerState {
        PlayerState::default()
    }

    /// Applies one event as this seat sees it. An event that contradicts what the seat has
    /// seen (a tile it does not hold) is followed as far as it can be.
    pub fn update(&mut self, event: &Event) {
        if let Event::StartGame { id, .. } = event {
            *self = PlayerState { seat: id.unwrap_or(0), ..PlayerState::default() };
        }
        let _ = self.table.apply(event);
    }

    /// Round wind tile (E, S, W).
    pub fn bakaze(&self) -> Tile {
        self.table.start.bakaze
    }

    /// Own concealed tiles, the drawn tile included while it is the seat's turn.
    pub fn tehai(&self) -> &[Tile] {
        &self.own().tehai
    }

    /// Own concealed tiles counted by kind.
    pub fn tehai_counts(&self) -> [u8; KINDS] {
        to_counts(self.tehai())
    }

    /// The calls of `seat`, in the order made.
    pub fn melds(&self, seat: Seat) -> &[Meld] {
        self.table.seats.get(usize::from(seat)).map_or(&[], |s| &s.melds)
    }

    /// The discards of `seat`, called ones included, in order.
    pub fn river(&self, seat: Seat) -> Vec<Tile> {
        self.table.seats.get(usize::from(seat)).map_or(Vec::new(), |s| s.river.iter().map(|d| d.pai).collect())
    }

    /// Number of calls this seat has made (each takes three tiles from the concealed part).
    pub fn meld_count(&self) -> u8 {
        self.own().melds.len() as u8
    }

    /// True when the seat has made no open call (ankan keeps the hand closed).
    pub fn is_menzen(&self) -> bool {
        self.own().is_menzen()
    }

    /// Seat wind kind of this seat (27 = East for the dealer).
    pub fn jikaze(&self) -> u8 {
        self.table.jikaze(self.seat)
    }

    /// Riichi accepted, per seat.
    pub fn riichi(&self) -> [bool; 4] {
        self.table.seats.each_ref().map(|s| s.riichi != mjai_sim_engine::hand::Riichi::None)
    }

    /// Tiles of each kind this seat can see: its own hand, every river (a called discard
    /// counted once, in its call), every call, the dora indicators.
    pub fn visible(&self) -> [u8; KINDS] {
        let t = &self.table;
        let rivers = t.seats.iter().flat_map(|s| s.river.iter().filter(|d| !d.called).map(|d| d.pai));
        let melds = t.seats.iter().flat_map(|s| s.melds.iter().flat_map(|m| m.tiles.iter().copied()));
        let all: Vec<Tile> =
            self.tehai().iter().copied().chain(rivers).chain(melds).chain(t.dora_markers.iter().copied()).collect();
        to_counts(&all)
    }

    fn own(&self) -> &mjai_sim_engine::log::SeatState {
        &self.table.seats[usize::from(self.seat % 4)]
    }
}
