//! What one seat could see at a moment of a kyoku, read off the log reader's
//! [`Table`]: the public table (round, scores, sticks, dora indicators, every river and
//! call, riichi) and the seat's own concealed tiles. Nothing here looks at another seat's
//! concealed tiles (see [`super::labels`] for those).

use mjai_sim_engine::event::{Event, Seat};
use mjai_sim_engine::log::{Action, Discard, Table};
use mjai_sim_engine::tile::Tile;

/// One seat's view of the table; seat-indexed arrays are in seat order (index = seat) and
/// keep [`mjai_sim_engine::game::MAX_SEATS`] entries: the first [`View::seats`] are the
/// table's (seat 3 of a three-player table stays empty).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct View {
    /// Seats at the table: 4, or 3 for a three-player log ([`mjai_sim_engine::log::KyokuStart::players`]).
    pub seats: usize,
    /// Round wind: `E`, `S`, `W` (or `N`).
    pub bakaze: Tile,
    /// Dealer seat.
    pub oya: Seat,
    /// Honba sticks of the kyoku.
    pub honba: u8,
    /// Riichi sticks on the table now (accepted riichi of this kyoku included).
    pub kyotaku: u8,
    /// Tiles left in the live wall (mjai's `tiles_left`, 70 after the deal).
    pub tiles_left: u8,
    /// Scores in points now (1000 paid per accepted riichi).
    pub scores: [i32; 4],
    /// Dora indicators shown so far, in order.
    pub dora_markers: Vec<Tile>,
    /// Each seat's river in order, called tiles included, with their flags.
    pub discards: [Vec<Discard>; 4],
    /// Each seat's calls in order, as the mjai events that made them (`chi`, `pon`,
    /// `daiminkan`, `kakan`, `ankan`, and the three-player `kita`; compact JSON).
    pub melds: [Vec<String>; 4],
    /// Each seat has declared riichi (`reach`) in this kyoku.
    pub reach: [bool; 4],
    /// The seat's own concealed tiles (the drawn tile included), in mjai order.
    pub tehai: Vec<Tile>,
}

impl View {
    /// `seat`'s view of `table`.
    pub fn of(table: &Table, seat: Seat) -> View {
        let s = usize::from(seat);
        View {
            seats: table.start.players.count(),
            bakaze: table.start.bakaze,
            oya: table.start.oya,
            honba: table.start.honba,
            kyotaku: table.kyotaku,
            tiles_left: u8::try_from(table.tiles_left()).unwrap_or(u8::MAX),
            scores: table.scores,
            dora_markers: table.dora_markers.clone(),
            discards: table.seats.each_ref().map(|p| p.river.clone()),
            melds: std::array::from_fn(|p| calls(table, p as Seat)),
            reach: table.seats.each_ref().map(|p| p.reach),
            tehai: sorted(&table.seats[s].tehai),
        }
    }
}

/// `seat`'s calls as mjai events (compact JSON), in the order made.
fn calls(table: &Table, seat: Seat) -> Vec<String> {
    let actor = seat;
    table.seats[usize::from(seat)]
        .actions
        .iter()
        .filter_map(|a| match *a {
            Action::Chi { target, pai, consumed } => Some(Event::Chi { actor, target, pai, consumed }),
            Action::Pon { target, pai, consumed } => Some(Event::Pon { actor, target, pai, consumed }),
            Action::Daiminkan { target, pai, consumed } => Some(Event::Daiminkan { actor, target, pai, consumed }),
            Action::Kakan { pai, consumed } => Some(Event::Kakan { actor, pai, consumed }),
            Action::Ankan { consumed } => Some(Event::Ankan { actor, consumed }),
            Action::Kita { pai } => Some(Event::Kita { actor, pai }),
            Action::Tsumo { .. } | Action::Dahai { .. } => None,
        })
        .map(|e| e.to_json())
        .collect()
}

/// `tiles` in mjai order: by kind (`1m`..`9m`, `1p`.., `1s`.., `E S W N P F C`), a red five
/// right after the plain fives of its suit.
pub fn sorted(tiles: &[Tile]) -> Vec<Tile> {
    let mut v = tiles.to_vec();
    v.sort_by_key(|t| (t.kind(), t.is_red()));
    v
}
