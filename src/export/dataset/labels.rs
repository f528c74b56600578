//! What a seat could not see: every seat's concealed tiles, tenpai and waits, read off the
//! full log's [`Table`] with the engine's [`shanten`] and [`waits`].

use mjai_sim_engine::hand::{shanten, waits};
use mjai_sim_engine::log::{SeatState, Table};
use mjai_sim_engine::tile::{to_counts, Tile, KINDS};

use super::view::sorted;

/// Every seat's hidden state at a moment, seat order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hidden {
    /// Concealed tiles, in mjai order.
    pub tehais: [Vec<Tile>; 4],
    /// Tenpai: a `3k+1` hand with at least one wait (below); a `3k+2` hand (the seat on
    /// its turn) that some discard leaves tenpai, or already complete (shanten ≤ 0).
    pub tenpai: [bool; 4],
    /// Waits of a `3k+1` hand ([`waits_of`]); empty for a `3k+2` hand.
    pub waits: [Vec<Tile>; 4],
    /// Shanten of each concealed part ([`shanten`]: -1 complete, 0 tenpai).
    pub shanten: [i8; 4],
}

impl Hidden {
    /// The hidden state of every seat of `table` (the full log's, not a masked view).
    pub fn of(table: &Table) -> Hidden {
        let seats = &table.seats;
        let waits = seats.each_ref().map(waits_of);
        let shanten = seats.each_ref().map(|s| shanten(&to_counts(&s.tehai), s.melds.len() as u8));
        Hidden {
            tehais: seats.each_ref().map(|s| sorted(&s.tehai)),
            tenpai: std::array::from_fn(|i| match seats[i].tehai.len() % 3 {
                1 => !waits[i].is_empty(),
                _ => shanten[i] <= 0,
            }),
            waits,
            shanten,
        }
    }
}

/// The tile kinds that complete `seat`'s `3k+1` concealed part (shape only: standard form,
/// chiitoitsu, kokushi; no yaku needed), leaving out a kind the seat holds all four of
/// (concealed and called together: karaten, not a wait under Tenhou's rules). Plain tiles
/// (`5m`, never `5mr`) in mjai order; empty when the hand is not tenpai or not `3k+1`.
pub fn waits_of(seat: &SeatState) -> Vec<Tile> {
    if seat.tehai.len() % 3 != 1 || seat.tehai.iter().any(|t| t.is_unknown()) {
        return Vec::new();
    }
    let counts = to_counts(&seat.tehai);
    let mask = waits(&counts, seat.melds.len() as u8);
    let mut held = counts;
    for t in seat.melds.iter().flat_map(|m| &m.tiles) {
        held[usize::from(t.kind())] += 1;
    }
    (0..KINDS as u8).filter(|&k| mask >> k & 1 == 1 && held[usize::from(k)] < 4).filter_map(Tile::from_kind).collect()
}

/// Per kind, how many tiles `seat` cannot see in `table`: 4 minus its own concealed tiles,
/// every call's tiles, every river tile not called (a called one is counted in its call)
/// and the dora indicators; never below 0.
pub fn unseen_by(table: &Table, seat: usize) -> [u8; KINDS] {
    let mut seen = to_counts(&table.seats[seat].tehai);
    let mut add = |t: &Tile| {
        if !t.is_unknown() {
            seen[usize::from(t.kind())] += 1;
        }
    };
    for s in &table.seats {
        s.melds.iter().flat_map(|m| &m.tiles).for_each(&mut add);
        s.river.iter().filter(|d| !d.called).for_each(|d| add(&d.pai));
    }
    table.dora_markers.iter().for_each(&mut add);
    seen.map(|n| 4u8.saturating_sub(n))
}
