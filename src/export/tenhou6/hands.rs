//! What the log says about each seat during one kyoku: concealed tiles, calls, riichi and
//! ippatsu, discards; enough to score a `hora` with the engine's evaluator
//! ([`crate::engine::hand::evaluate`]) and to tell which draw ended the kyoku.
//!
//! Flags follow the engine (and Tenhou): ippatsu ends with the seat's next discard or any
//! call (ankan included); double riichi is a riichi on the seat's first discard with no call
//! before; the last tile is the 70th draw of the kyoku (rinshan draws count; a rinshan draw
//! is never haitei); tenhou/chiihou need a tsumo before the seat's first discard with no call.

use crate::engine::event::{Event, Seat};
use crate::engine::hand::{evaluate, HandScore, Meld, MeldKind, NoWin, Riichi, WinContext};
use crate::engine::tile::{to_counts, Tile};

/// Draws in a Tenhou kyoku: 136 tiles - 52 dealt - 14 in the dead wall.
pub const DRAWS: usize = 70;

/// One seat's state.
#[derive(Debug, Clone, Default)]
pub struct Seat4 {
    /// Concealed tiles (the drawn tile included).
    pub hand: Vec<Tile>,
    /// Calls in the order made.
    pub melds: Vec<Meld>,
    /// Riichi once accepted.
    pub riichi: Riichi,
    /// `reach` declared, its discard not yet passed.
    pub declared: bool,
    /// Ippatsu alive.
    pub ippatsu: bool,
    /// Discards made.
    pub discards: usize,
    /// The last tile drawn.
    pub drawn: Option<Tile>,
    /// Pao: the seat that fed the third dragon set or the fourth wind set, and the yakuman.
    pub pao: Option<(Seat, &'static str)>,
}

/// The kyoku as the log has shown it so far.
#[derive(Debug, Clone)]
pub struct Table {
    /// Seat states.
    pub seats: [Seat4; 4],
    /// Dealer seat.
    pub oya: Seat,
    /// Round wind kind (27..=30).
    pub bakaze: u8,
    /// Dora indicators shown.
    pub dora: Vec<Tile>,
    /// Draws made (live and rinshan).
    pub draws: usize,
    /// No call or kan yet.
    pub uninterrupted: bool,
    /// The last draw came from the dead wall.
    pub rinshan: bool,
    /// Kans made, by seat.
    pub kan_makers: Vec<Seat>,
    /// The last event that is not a hora (what a ron or chankan wins on).
    pub last: Option<Event>,
}

/// Removes `t` (the same tile, else one of the same kind); false when the hand has neither.
fn take(hand: &mut Vec<Tile>, t: Tile) -> bool {
    let i = hand.iter().position(|&h| h == t).or_else(|| hand.iter().position(|&h| h.kind() == t.kind()));
    i.map(|i| hand.remove(i)).is_some()
}

impl Table {
    /// The table after `start_kyoku`.
    pub fn new(bakaze: Tile, oya: Seat, dora_marker: Tile, tehais: &[[Tile; 13]; 4]) -> Table {
        let seats = std::array::from_fn(|s| Seat4 { hand: tehais[s].to_vec(), ..Seat4::default() });
        Table {
            seats,
            oya,
            bakaze: bakaze.kind(),
            dora: vec![dora_marker],
            draws: 0,
            uninterrupted: true,
            rinshan: false,
            kan_makers: Vec::new(),
            last: None,
        }
    }

    fn interrupt(&mut self) {
        self.uninterrupted = false;
        for s in &mut self.seats {
            s.ippatsu = false;
        }
    }

    /// Records the pao of a call that completes the third dragon or fourth wind set.
    fn check_pao(&mut self, actor: Seat, target: Seat) {
        let s = &mut self.seats[actor as usize];
        let sets = |range: std::ops::RangeInclusive<u8>| {
            s.melds.iter().filter(|m| m.kind != MeldKind::Chi && range.contains(&m.tiles[0].kind())).count()
        };
        if sets(31..=33) == 3 && s.pao.is_none() {
            s.pao = Some((target, "daisangen"));
        } else if sets(27..=30) == 4 && s.pao.is_none() {
            s.pao = Some((target, "daisuushii"));
        }
    }

    /// Applies one event. Returns a one-line problem when the log contradicts itself (a tile
    /// the hand does not hold); the state stays usable.
    pub fn apply(&mut self, e: &Event) -> Result<(), String> {
        let mut missing = None;
        match e {
            Event::Tsumo { actor, pai } => {
                let s = &mut self.seats[*actor as usize];
                s.hand.push(*pai);
                s.drawn = Some(*pai);
                self.draws += 1;
                // `last` skips `dora`: a kan, then its dora, then the replacement draw.
                self.rinshan =
                    matches!(self.last, Some(Event::Ankan { .. } | Event::Daiminkan { .. } | Event::Kakan { .. }));
            }
            Event::Dahai { actor, pai, .. } => {
                let s = &mut self.seats[*actor as usize];
                if !take(&mut s.hand, *pai) {
                    missing = Some(*pai);
                }
                if !s.declared {
                    s.ippatsu = false;
                }
                s.discards += 1;
            }
            Event::Reach { actor } => self.seats[*actor as usize].declared = true,
            Event::ReachAccepted { actor } => {
                let double = self.uninterrupted && self.seats[*actor as usize].discards == 1;
                let s = &mut self.seats[*actor as usize];
                s.declared = false;
                s.riichi = if double { Riichi::Double } else { Riichi::Riichi };
                s.ippatsu = true;
            }
            Event::Chi { actor, target, pai, consumed } | Event::Pon { actor, target, pai, consumed } => {
                let kind = if matches!(e, Event::Chi { .. }) { MeldKind::Chi } else { MeldKind::Pon };
                let s = &mut self.seats[*actor as usize];
                missing = consumed.iter().copied().find(|&t| !take(&mut s.hand, t));
                s.melds.push(Meld { kind, tiles: vec![consumed[0], consumed[1], *pai] });
                self.interrupt();
                self.check_pao(*actor, *target);
            }
            Event::Daiminkan { actor, target, pai, consumed } => {
                let s = &mut self.seats[*actor as usize];
                missing = consumed.iter().copied().find(|&t| !take(&mut s.hand, t));
                s.melds
                    .push(Meld { kind: MeldKind::Daiminkan, tiles: vec![consumed[0], consumed[1], consumed[2], *pai] });
                self.kan_makers.push(*actor);
                self.interrupt();
                self.check_pao(*actor, *target);
            }
            Event::Kakan { actor, pai, .. } => {
                let s = &mut self.seats[*actor as usize];
                if !take(&mut s.hand, *pai) {
                    missing = Some(*pai);
                }
                if let Some(m) = s.melds.iter_mut().find(|m| m.kind == MeldKind::Pon && m.tiles[0].kind() == pai.kind())
                {
                    m.kind = MeldKind::Kakan;
                    m.tiles.push(*pai);
                }
                self.kan_makers.push(*actor);
                self.interrupt();
            }
            Event::Ankan { actor, consumed } => {
                let s = &mut self.seats[*actor as usize];
                missing = consumed.iter().copied().find(|&t| !take(&mut s.hand, t));
                s.melds.push(Meld { kind: MeldKind::Ankan, tiles: consumed.to_vec() });
                self.kan_makers.push(*actor);
                self.interrupt();
            }
            Event::Dora { dora_marker } => self.dora.push(*dora_marker),
            _ => {}
        }
        if !matches!(e, Event::Hora { .. } | Event::Dora { .. }) {
            self.last = Some(e.clone());
        }
        match (e.actor(), missing) {
            (Some(a), Some(t)) => Err(format!("seat {a} does not hold {t} for {}", e.to_json())),
            _ => Ok(()),
        }
    }

    /// Seat wind kind of `seat` (27 = East for the dealer).
    pub fn jikaze(&self, seat: Seat) -> u8 {
        27 + (seat + 4 - self.oya) % 4
    }

    /// Tenpai (the engine's waits: karaten is not tenpai) of each seat, for exhaustive draws.
    pub fn tenpai(&self) -> [bool; 4] {
        std::array::from_fn(|s| {
            let seat = &self.seats[s];
            crate::engine::hand::waits(&to_counts(&seat.hand), seat.melds.len() as u8) != 0
        })
    }

    /// Tenpai as the mjai-app preset pays it at an exhaustive draw: karaten counts
    /// ([`crate::engine::game::Rules::karaten_is_tenpai`]).
    pub fn tenpai_with_karaten(&self) -> [bool; 4] {
        let rules = crate::engine::game::Rules::mjai_app();
        std::array::from_fn(|s| {
            let seat = &self.seats[s];
            rules.tenpai_at_draw(&to_counts(&seat.hand), seat.melds.len() as u8)
        })
    }

    /// Scores `actor`'s win on `target` (itself for tsumo) with the ura indicators the log
    /// lists (counted only for a riichi winner).
    pub fn score(&self, actor: Seat, target: Seat, ura: &[Tile]) -> Result<HandScore, NoWin> {
        let s = &self.seats[actor as usize];
        let tsumo = actor == target;
        let (win_tile, chankan) = match (&self.last, tsumo) {
            (_, true) => (s.drawn.ok_or_else(|| NoWin::Invalid("a tsumo win without a draw".into()))?, false),
            (Some(Event::Dahai { pai, .. }), false) => (*pai, false),
            (Some(Event::Kakan { pai, .. }), false) => (*pai, true),
            (Some(Event::Ankan { consumed, .. }), false) => (consumed[0], true),
            _ => return Err(NoWin::Invalid("a ron that follows no discard or kan".into())),
        };
        let mut tehai = s.hand.clone();
        if tsumo && !take(&mut tehai, win_tile) {
            return Err(NoWin::Invalid(format!("the winning tile {win_tile} is not in the hand")));
        }
        let rinshan = tsumo && self.rinshan;
        let riichi = s.riichi;
        let ctx = WinContext {
            tehai,
            win_tile,
            melds: s.melds.clone(),
            tsumo,
            riichi,
            ippatsu: s.ippatsu && riichi != Riichi::None,
            last_tile: self.draws == DRAWS && !chankan && !rinshan,
            rinshan,
            chankan,
            first_draw: tsumo && self.uninterrupted && s.discards == 0,
            bakaze: self.bakaze,
            jikaze: self.jikaze(actor),
            dora_markers: self.dora.clone(),
            ura_markers: if riichi == Riichi::None { Vec::new() } else { ura.to_vec() },
        };
        evaluate(&ctx)
    }
}
