//! [`PlayerState`]: what one seat knows, rebuilt from the (masked) mjai events it receives.
//!
//! Pure bookkeeping for deciding (hand, calls, rivers, dora, riichi, scores, visible
//! tiles): no rule here. What is legal comes from the engine (see [`super::Agent`]).

use crate::engine::event::{Event, Seat};
use crate::engine::hand::{Meld, MeldKind};
use crate::engine::tile::{to_counts, Tile, KINDS};

/// Live-wall draws per kyoku (136 − 52 dealt − 14 dead wall), as mjai's `tiles_left` counts.
pub const WALL_DRAWS: u8 = 70;

/// Everything a seat knows about the current game, from its own point of view.
///
/// Feed it every event the seat receives with [`PlayerState::update`] (masked events are
/// fine: other seats' tiles are `?`). Points are in points, sticks in sticks.
#[derive(Debug, Clone)]
pub struct PlayerState {
    /// This seat (from `start_game.id`; 0 until then).
    pub seat: Seat,
    /// Round wind tile (E, S, W).
    pub bakaze: Tile,
    /// Hand number 1..=4.
    pub kyoku: u8,
    /// Honba sticks.
    pub honba: u8,
    /// Riichi sticks on the table.
    pub kyotaku: u8,
    /// Dealer seat.
    pub oya: Seat,
    /// Scores in points, seat order.
    pub scores: [i32; 4],
    /// Own concealed tiles, the drawn tile included while it is the seat's turn.
    pub tehai: Vec<Tile>,
    /// Calls of every seat, in order made.
    pub melds: [Vec<Meld>; 4],
    /// Discards of every seat, called ones included, in order.
    pub rivers: [Vec<Tile>; 4],
    /// Dora indicators shown.
    pub dora_markers: Vec<Tile>,
    /// Riichi accepted, per seat.
    pub riichi: [bool; 4],
    /// Draws left in the live wall (70 at the start of a kyoku).
    pub tiles_left: u8,
    /// Tiles of each kind this seat can see: own hand, every river, every call, dora markers.
    pub visible: [u8; KINDS],
}

impl Default for PlayerState {
    fn default() -> Self {
        PlayerState {
            seat: 0,
            bakaze: Tile::from_kind(27).unwrap_or_default(),
            kyoku: 1,
            honba: 0,
            kyotaku: 0,
            oya: 0,
            scores: [25000; 4],
            tehai: Vec::new(),
            melds: Default::default(),
            rivers: Default::default(),
            dora_markers: Vec::new(),
            riichi: [false; 4],
            tiles_left: WALL_DRAWS,
            visible: [0; KINDS],
        }
    }
}

impl PlayerState {
    /// A fresh state; the seat is set by `start_game`.
    pub fn new() -> PlayerState {
        PlayerState::default()
    }

    /// Applies one event as this seat sees it.
    pub fn update(&mut self, event: &Event) {
        match event {
            Event::StartGame { id, .. } => {
                *self = PlayerState { seat: id.unwrap_or(0), ..PlayerState::default() };
            }
            Event::StartKyoku { bakaze, dora_marker, kyoku, honba, kyotaku, oya, scores, tehais } => {
                let seat = self.seat;
                *self = PlayerState {
                    seat,
                    bakaze: *bakaze,
                    kyoku: *kyoku,
                    honba: *honba,
                    kyotaku: *kyotaku,
                    oya: *oya,
                    scores: *scores,
                    tehai: tehais[seat as usize].to_vec(),
                    dora_markers: vec![*dora_marker],
                    tiles_left: WALL_DRAWS,
                    ..PlayerState::default()
                };
                self.see(&[*dora_marker]);
                let own = self.tehai.clone();
                self.see(&own);
            }
            Event::Tsumo { actor, pai } => {
                self.tiles_left = self.tiles_left.saturating_sub(1);
                if *actor == self.seat {
                    self.tehai.push(*pai);
                    self.see(&[*pai]);
                }
            }
            Event::Dahai { actor, pai, .. } => self.on_dahai(*actor, *pai),
            Event::Chi { actor, target, pai, consumed } => {
                self.on_call(*actor, *target, *pai, consumed, MeldKind::Chi);
            }
            Event::Pon { actor, target, pai, consumed } => {
                self.on_call(*actor, *target, *pai, consumed, MeldKind::Pon);
            }
            Event::Daiminkan { actor, target, pai, consumed } => {
                self.on_call(*actor, *target, *pai, consumed, MeldKind::Daiminkan);
            }
            Event::Kakan { actor, pai, consumed } => self.on_kakan(*actor, *pai, consumed),
            Event::Ankan { actor, consumed } => self.on_ankan(*actor, consumed),
            Event::Dora { dora_marker } => {
                self.dora_markers.push(*dora_marker);
                self.see(&[*dora_marker]);
            }
            Event::ReachAccepted { actor } => {
                let a = *actor as usize;
                self.riichi[a] = true;
                self.scores[a] -= 1000;
                self.kyotaku += 1;
            }
            Event::Hora { deltas, .. } | Event::Ryukyoku { deltas, .. } => {
                if let Some(d) = deltas {
                    for (s, d) in self.scores.iter_mut().zip(d) {
                        *s += d;
                    }
                }
            }
            Event::Reach { .. } | Event::EndKyoku | Event::EndGame | Event::None => {}
        }
    }

    /// Own concealed tiles counted by kind.
    pub fn tehai_counts(&self) -> [u8; KINDS] {
        to_counts(&self.tehai)
    }

    /// Number of calls this seat has made (each takes three tiles from the concealed part).
    pub fn meld_count(&self) -> u8 {
        self.melds[self.seat as usize].len() as u8
    }

    /// True when the seat has made no open call (ankan keeps the hand closed).
    pub fn is_menzen(&self) -> bool {
        self.melds[self.seat as usize].iter().all(|m| !m.is_open())
    }

    /// Seat wind kind of this seat (27 = East for the dealer).
    pub fn jikaze(&self) -> u8 {
        27 + (self.seat + 4 - self.oya) % 4
    }

    fn see(&mut self, tiles: &[Tile]) {
        for t in tiles.iter().filter(|t| !t.is_unknown()) {
            self.visible[t.kind() as usize] += 1;
        }
    }

    /// Removes one tile equal to `t` from the own hand (exact match first, then same kind
    /// as a fallback for inconsistent input).
    fn take(&mut self, t: Tile) {
        let pos =
            self.tehai.iter().position(|&x| x == t).or_else(|| self.tehai.iter().position(|x| x.kind() == t.kind()));
        if let Some(p) = pos {
            self.tehai.remove(p);
        }
    }

    fn on_dahai(&mut self, actor: Seat, pai: Tile) {
        self.rivers[actor as usize].push(pai);
        if actor == self.seat {
            self.take(pai);
        } else {
            self.see(&[pai]);
        }
    }

    fn on_call(&mut self, actor: Seat, _target: Seat, pai: Tile, consumed: &[Tile], kind: MeldKind) {
        let mut tiles = consumed.to_vec();
        tiles.push(pai);
        if actor == self.seat {
            for &t in consumed {
                self.take(t);
            }
        } else {
            self.see(consumed);
        }
        self.melds[actor as usize].push(Meld { kind, tiles });
    }

    fn on_kakan(&mut self, actor: Seat, pai: Tile, consumed: &[Tile; 3]) {
        if actor == self.seat {
            self.take(pai);
        } else {
            self.see(&[pai]);
        }
        let melds = &mut self.melds[actor as usize];
        let pos = melds.iter().position(|m| m.kind == MeldKind::Pon && m.tiles[0].kind() == consumed[0].kind());
        let mut tiles = consumed.to_vec();
        tiles.push(pai);
        match pos {
            Some(p) => melds[p] = Meld { kind: MeldKind::Kakan, tiles },
            None => melds.push(Meld { kind: MeldKind::Kakan, tiles }),
        }
    }

    fn on_ankan(&mut self, actor: Seat, consumed: &[Tile; 4]) {
        if actor == self.seat {
            for &t in consumed {
                self.take(t);
            }
        } else {
            self.see(consumed);
        }
        self.melds[actor as usize].push(Meld { kind: MeldKind::Ankan, tiles: consumed.to_vec() });
    }
}
