//! The riichi table: one row per riichi declaration, with the table as everyone sees it
//! once the riichi tile is down, and the label: the declarer's waits. Read with the log
//! reader's [`Table`] alone (no replay), so any whole or kyoku-complete mjai log works.

use mjai_sim_engine::event::{Event, Seat};
use mjai_sim_engine::log::{read, Discard, Table};
use mjai_sim_engine::tile::Tile;

use super::damage::{self, Damaged};
use super::labels::{unseen_by, waits_of};
use super::view::{sorted, View};

/// One riichi declaration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RiichiRow {
    /// The kyoku's label, `E1-0`.
    pub kyoku: String,
    /// The declarer.
    pub seat: Seat,
    /// Index of the `reach` event.
    pub event: usize,
    /// The table once the riichi tile is discarded (before `reach_accepted` or any call
    /// on it), as every seat sees it; [`View::tehai`] is the declarer's (hidden from the
    /// others: a label).
    pub view: View,
    /// The declarer's discards in order, the riichi tile last.
    pub declarer: Vec<Discard>,
    /// The riichi tile.
    pub riichi_tile: Tile,
    /// The riichi tile's position in the declarer's river, from 1 (its turn).
    pub turn: u8,
    /// Kinds that complete the declarer's hand ([`waits_of`]), plain tiles in mjai order.
    pub waits: Vec<Tile>,
    /// For each wait, how many of it the declarer could not see ([`unseen_by`]).
    pub waits_unseen: Vec<u8>,
}

/// The riichi rows of `log`, in log order. Errors with the event where the log is damaged
/// or cut, or where a `reach` is not followed by its declarer's `dahai`.
pub fn riichi(log: &[Event]) -> Result<Vec<RiichiRow>, Damaged> {
    damage::check(log, &read(log))?;
    let mut table = Table::default();
    let mut rows = Vec::new();
    let mut reach: Option<(usize, Seat)> = None;
    for (i, e) in log.iter().enumerate() {
        let _ = table.apply(e);
        if let Event::Reach { actor } = e {
            reach = Some((i, *actor));
            continue;
        }
        let Some((at, seat)) = reach.take() else { continue };
        if !matches!(e, Event::Dahai { actor, .. } if *actor == seat) {
            return Err(Damaged { index: i, message: format!("reach of seat {seat} is not followed by its dahai") });
        }
        let s = usize::from(seat);
        let declarer = table.seats[s].river.clone();
        let waits = waits_of(&table.seats[s]);
        let unseen = unseen_by(&table, s);
        rows.push(RiichiRow {
            kyoku: table.start.label(),
            seat,
            event: at,
            view: View::of(&table, seat),
            riichi_tile: declarer.last().map_or(Tile::UNKNOWN, |d| d.pai),
            turn: u8::try_from(declarer.len()).unwrap_or(u8::MAX),
            declarer,
            waits_unseen: waits.iter().map(|w| unseen[usize::from(w.kind())]).collect(),
            waits: sorted(&waits),
        });
    }
    Ok(rows)
}
