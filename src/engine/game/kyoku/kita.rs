//! Kita (抜きドラ, three-player only): right after its own draw, while the live wall is
//! not empty, a seat may set a North aside. Others may ron that North (RiichiEnv
//! `state_3p/sanma.rs` `handle_kita`: "Check other players for chankan-style ron on kita";
//! no chankan yaku). Unrobbed, it ends every ippatsu and the first go-around (RiichiEnv:
//! "No ron - break ippatsu for all players"; `is_first_turn = false`), and the seat draws a
//! replacement tile from the dead wall, with no new dora indicator (RiichiEnv: "NO new dora
//! indicator for kita"). The live wall loses one tile, as for a kan. Each North set aside
//! is one han of nukidora (see [`crate::hand::evaluate_with`]).

use crate::event::{Event, Seat};
use crate::tile::Tile;

use super::state::{Kyoku, Phase};

impl Kyoku {
    /// `seat` sets `pai` (a North) aside: logs `kita`, shows a daiminkan's or kakan's dora
    /// still waiting (a kita is a discard for dora timing: RiichiEnv reveals it "before
    /// checking for ron on kita"), then waits for rons.
    pub(super) fn kita(&mut self, seat: Seat, pai: Tile, log: &mut Vec<Event>) {
        let p = &mut self.players[seat as usize];
        p.remove(pai);
        p.drawn = None;
        p.kita += 1;
        p.refresh_waits();
        log.push(Event::Kita { actor: seat, pai });
        if std::mem::take(&mut self.dora_at_discard) {
            self.reveal_dora(log);
        }
        self.phase = Phase::Kita { seat, tile: pai };
    }

    /// Nobody robbed the kita: ippatsu and the first go-around end, and the replacement draw.
    pub(super) fn after_kita(&mut self, seat: Seat, log: &mut Vec<Event>) {
        self.interrupt();
        self.draw(seat, true, log);
        self.kita_turn = true;
    }
}
