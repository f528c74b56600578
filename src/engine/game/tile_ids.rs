//! Physical tiles: every tile of a kyoku's wall keeps one id from the moment the wall is
//! laid, through hands, draws, discards, calls, kans, kita and indicators (issue 53).
//!
//! The ids are RiichiEnv's (riichi.dev's engine, `riichienv-core` `parser.rs`): a tile id
//! is `kind * 4 + copy` with `kind` 0..34 (1m = 0 ... 9s = 26, E S W N P F C = 27..34) and
//! `copy` 0..4; the red five of each suit is copy 0 (ids 16, 52, 88: `tid_to_mjai`). A
//! three-player set keeps the ids of its 108 tiles (2m-8m, ids 4..32, are not in it:
//! RiichiEnv `is_sanma_excluded_tile`).
//!
//! A seeded wall's ids come from the very shuffle that lays the wall (see [`super::wall`]):
//! the set's ids in set order are shuffled with the same generator, and the set's tile at
//! position `i` of the set order is the tile of id `i`'s place, so the same seed gives the
//! same ids and the tiles of [`Wall::seeded_for`] are unchanged. A wall given as
//! tiles (scenario tests, `--from` a log) has no shuffle: [`WallIds::of_wall`] numbers each
//! tile's copies in the wall's layout order (the red five keeps its id).
//!
//! [`TileIds`] follows one kyoku's events (masked or not: it only reads what every seat
//! sees, plus the wall) and says where each id is. mjai has no ids, so where an event does
//! not say which copy of a tile moved, the rule is fixed here and the same for every seat:
//! a discard with `tsumogiri` is the drawn tile; any other discard, call or kan takes the
//! lowest id of that exact tile (a red five apart) that is not the tile just drawn, then the
//! tile just drawn. A called tile stays in its discarder's river (RiichiEnv's
//! `GameState` keeps it there too).

use super::wall::Wall;
pub use super::wall::{set_ids, tile_of, TileId};
use crate::event::{Event, Seat};
use crate::rules::wall_size::{LIVE_TILES, LIVE_TILES_3P, RINSHAN_3P, TILES_3P};
use crate::rules::Players;
use crate::tile::{Tile, KINDS};

/// The ids of one kyoku's wall, laid out as its [`Wall`]: the same parts, the same order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WallIds {
    /// 13 per seat (three-player: seat 3's are unused zeros).
    pub haipai: [[TileId; 13]; 4],
    /// The live wall in draw order.
    pub live: Vec<TileId>,
    /// Replacement tiles in draw order.
    pub rinshan: Vec<TileId>,
    /// Dora indicators in the order they are shown.
    pub dora_markers: [TileId; 5],
    /// Ura indicators, one per dora indicator.
    pub ura_markers: [TileId; 5],
}

impl WallIds {
    /// The ids laid out in the order [`Wall::from_tiles`] (136) or [`Wall::from_tiles_3p`]
    /// (108) reads tiles. `None` when `ids` has another length.
    pub fn from_order(players: Players, ids: &[TileId]) -> Option<WallIds> {
        let mut haipai = [[0; 13]; 4];
        let seats = players.count();
        if ids.len() != if seats == 3 { TILES_3P } else { 136 } {
            return None;
        }
        for (s, hand) in haipai.iter_mut().take(seats).enumerate() {
            hand.copy_from_slice(&ids[s * 13..s * 13 + 13]);
        }
        let start = seats * 13;
        Some(match players {
            Players::Four => WallIds {
                haipai,
                live: ids[52..52 + LIVE_TILES].to_vec(),
                rinshan: ids[122..126].to_vec(),
                dora_markers: ids[126..131].try_into().ok()?,
                ura_markers: ids[131..136].try_into().ok()?,
            },
            Players::Three => {
                let live = ids[start..start + LIVE_TILES_3P].to_vec();
                let at = start + LIVE_TILES_3P + RINSHAN_3P;
                let (d, u) = (&ids[at..at + 3], &ids[at + 3..at + 6]);
                WallIds {
                    haipai,
                    rinshan: ids[start + LIVE_TILES_3P..at].to_vec(),
                    dora_markers: [d[0], d[1], d[2], live[54], live[52]],
                    ura_markers: [u[0], u[1], u[2], live[53], live[51]],
                    live,
                }
            }
        })
    }

    /// The ids of the seeded wall of [`Wall::seeded_for`] with the same arguments.
    pub fn seeded_for(players: Players, seed: [u64; 2], kyoku: u8, honba: u8) -> WallIds {
        let order = super::wall::seeded_order(players, seed, kyoku, honba);
        WallIds::from_order(players, &order).expect("a shuffled set fills a wall")
    }

    /// Ids for a wall given as tiles: each tile's copies numbered in the wall's layout order
    /// ([`Wall::tiles`]), the red five keeping its own id.
    pub fn of_wall(wall: &Wall) -> WallIds {
        let mut next = [0u8; KINDS];
        let ids: Vec<TileId> = wall
            .tiles()
            .into_iter()
            .map(|t| {
                let kind = t.kind();
                if t.is_red() {
                    return kind * 4;
                }
                let n = &mut next[usize::from(kind)];
                // A suit's five: copy 0 is the red one.
                if *n == 0 && t.akaize().is_some() {
                    *n = 1;
                }
                let id = kind * 4 + (*n).min(3);
                *n += 1;
                id
            })
            .collect();
        WallIds::from_order(wall.players, &ids).expect("a wall's tiles fill a wall")
    }

    /// Whether every id here stands for the tile at the same place of `wall`.
    pub fn fits(&self, wall: &Wall) -> bool {
        let seats = wall.players.count();
        let pairs = self.haipai[..seats]
            .iter()
            .flatten()
            .zip(wall.haipai[..seats].iter().flatten())
            .chain(self.live.iter().zip(&wall.live))
            .chain(self.rinshan.iter().zip(&wall.rinshan))
            .chain(self.dora_markers.iter().zip(&wall.dora_markers))
            .chain(self.ura_markers.iter().zip(&wall.ura_markers));
        self.live.len() == wall.live.len()
            && self.rinshan.len() == wall.rinshan.len()
            && pairs.into_iter().all(|(&id, &t)| tile_of(id) == Some(t))
    }

    /// The ids of `wall`: those of the seeded wall for `(seed, kyoku, honba)` when they fit
    /// it, else [`WallIds::of_wall`].
    pub fn for_wall(wall: &Wall, seed: [u64; 2], kyoku: u8, honba: u8) -> WallIds {
        let seeded = WallIds::seeded_for(wall.players, seed, kyoku, honba);
        if seeded.fits(wall) {
            seeded
        } else {
            WallIds::of_wall(wall)
        }
    }
}

/// What kind of meld a [`MeldIds`] is (RiichiEnv's `MeldType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MeldKind {
    /// A chi.
    Chi,
    /// A pon.
    Pon,
    /// An open kan of a discard.
    Daiminkan,
    /// A closed kan.
    Ankan,
    /// A pon made a kan with the fourth tile.
    Kakan,
}

/// One meld's physical tiles.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MeldIds {
    /// Chi, pon, kans.
    pub kind: MeldKind,
    /// Every tile of the meld, ascending (as RiichiEnv sorts them).
    pub tiles: Vec<TileId>,
    /// The seat the called tile came from; `None` for an ankan (RiichiEnv: `from_who` -1).
    /// A kakan keeps its pon's.
    pub from_who: Option<Seat>,
    /// The called tile; `None` for an ankan. A kakan keeps its pon's.
    pub called_tile: Option<TileId>,
}

/// Where every id of one kyoku is, from its `start_kyoku` on (see the module doc).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TileIds {
    wall: WallIds,
    hands: [Vec<TileId>; 4],
    drawn: [Option<TileId>; 4],
    discards: [Vec<TileId>; 4],
    melds: [Vec<MeldIds>; 4],
    kita: [Vec<TileId>; 4],
    dora: Vec<TileId>,
    live_drawn: usize,
    rinshan_drawn: usize,
    rinshan_due: bool,
    last_discard: Option<(Seat, TileId)>,
    /// A `reach` waits for its discard.
    reach_declared: [bool; 4],
    riichi_sutehai: [Option<TileId>; 4],
    last_tedashi: [Option<TileId>; 4],
    /// The first event that did not fit the ids (a tile not where the wall says).
    desync: Option<String>,
}

impl TileIds {
    /// The deal of a kyoku on `wall`: starting hands and the first dora indicator.
    pub fn deal(wall: WallIds) -> TileIds {
        let hands = std::array::from_fn(|s| {
            let mut hand = wall.haipai[s].to_vec();
            hand.sort_unstable();
            hand
        });
        TileIds {
            dora: vec![wall.dora_markers[0]],
            hands,
            wall,
            drawn: [None; 4],
            discards: Default::default(),
            melds: Default::default(),
            kita: Default::default(),
            live_drawn: 0,
            rinshan_drawn: 0,
            rinshan_due: false,
            last_discard: None,
            reach_declared: [false; 4],
            riichi_sutehai: [None; 4],
            last_tedashi: [None; 4],
            desync: None,
        }
    }

    /// The hand of `seat` as RiichiEnv's `GameState` holds it: ascending, with the tile
    /// just drawn last.
    pub fn hand(&self, seat: Seat) -> Vec<TileId> {
        let s = usize::from(seat) % 4;
        let mut hand = self.hands[s].clone();
        if let Some(d) = self.drawn[s] {
            if let Some(i) = hand.iter().position(|&x| x == d) {
                let d = hand.remove(i);
                hand.push(d);
            }
        }
        hand
    }

    /// The tile `seat` just drew and still holds, if any.
    pub fn drawn(&self, seat: Seat) -> Option<TileId> {
        self.drawn[usize::from(seat) % 4]
    }

    /// `seat`'s river in order, called tiles included.
    pub fn discards(&self, seat: Seat) -> &[TileId] {
        &self.discards[usize::from(seat) % 4]
    }

    /// `seat`'s melds in the order made.
    pub fn melds(&self, seat: Seat) -> &[MeldIds] {
        &self.melds[usize::from(seat) % 4]
    }

    /// The Norths `seat` set aside (three-player).
    pub fn kita(&self, seat: Seat) -> &[TileId] {
        &self.kita[usize::from(seat) % 4]
    }

    /// The dora indicators shown, in order.
    pub fn dora_indicators(&self) -> &[TileId] {
        &self.dora
    }

    /// The ura indicators under the shown dora indicators.
    pub fn ura_indicators(&self) -> &[TileId] {
        &self.wall.ura_markers[..self.dora.len().min(5)]
    }

    /// The last discard (or kakan or kita tile) and its seat.
    pub fn last_discard(&self) -> Option<(Seat, TileId)> {
        self.last_discard
    }

    /// The tile `seat` declared riichi with (the discard after its `reach`), as RiichiEnv's
    /// `riichi_sutehais`.
    pub fn riichi_sutehai(&self, seat: Seat) -> Option<TileId> {
        self.riichi_sutehai[usize::from(seat) % 4]
    }

    /// `seat`'s last discard from the hand (not tsumogiri), as RiichiEnv's `last_tedashis`.
    pub fn last_tedashi(&self, seat: Seat) -> Option<TileId> {
        self.last_tedashi[usize::from(seat) % 4]
    }

    /// The first event that did not fit (a drawn tile other than the wall's, a tile not in
    /// the hand): the ids are not to be trusted after it. `None` while all fit.
    pub fn desync(&self) -> Option<&str> {
        self.desync.as_deref()
    }

    /// An id of `tile` in `seat`'s hand, taken out: the lowest that is not the tile just
    /// drawn, else the drawn one (see the module doc). `None` when the hand has none.
    pub fn take(&mut self, seat: Seat, tile: Tile) -> Option<TileId> {
        let s = usize::from(seat) % 4;
        let drawn = self.drawn[s];
        let hand = &mut self.hands[s];
        let fits = |id: &TileId| tile_of(*id) == Some(tile);
        let at = hand.iter().position(|id| fits(id) && Some(*id) != drawn).or_else(|| hand.iter().position(fits))?;
        let id = hand.remove(at);
        if Some(id) == drawn {
            self.drawn[s] = None;
        }
        Some(id)
    }

    fn note(&mut self, what: impl FnOnce() -> String) {
        if self.desync.is_none() {
            self.desync = Some(what());
        }
    }

    fn take_or_note(&mut self, seat: Seat, tile: Tile) -> TileId {
        match self.take(seat, tile) {
            Some(id) => id,
            None => {
                self.note(|| format!("seat {seat} has no {tile} to give"));
                tile_id_guess(tile)
            }
        }
    }

    fn draw(&mut self, seat: Seat, shown: Tile) {
        let id = if std::mem::take(&mut self.rinshan_due) {
            self.rinshan_drawn += 1;
            self.wall.rinshan.get(self.rinshan_drawn - 1).copied()
        } else {
            self.live_drawn += 1;
            self.wall.live.get(self.live_drawn - 1).copied()
        };
        let Some(id) = id else {
            self.note(|| format!("seat {seat} drew past the wall"));
            return;
        };
        if !shown.is_unknown() && tile_of(id) != Some(shown) {
            self.note(|| format!("seat {seat} drew {shown}, the wall has id {id}"));
        }
        let s = usize::from(seat) % 4;
        for d in &mut self.drawn {
            *d = None;
        }
        self.hands[s].push(id);
        self.hands[s].sort_unstable();
        self.drawn[s] = Some(id);
    }

    /// Follows one event of the kyoku. `start_kyoku` is not read (a kyoku starts with
    /// [`TileIds::deal`]); events of no tiles change nothing.
    pub fn apply(&mut self, event: &Event) {
        match *event {
            Event::Tsumo { actor, pai } => self.draw(actor, pai),
            Event::Dahai { actor, pai, tsumogiri } => {
                let s = usize::from(actor) % 4;
                let id = match self.drawn[s] {
                    Some(d) if tsumogiri && tile_of(d) == Some(pai) => {
                        self.drawn[s] = None;
                        self.hands[s].retain(|&x| x != d);
                        d
                    }
                    _ => self.take_or_note(actor, pai),
                };
                self.drawn[s] = None;
                self.discards[s].push(id);
                self.last_discard = Some((actor, id));
                if std::mem::take(&mut self.reach_declared[s]) {
                    self.riichi_sutehai[s] = Some(id);
                }
                if !tsumogiri {
                    self.last_tedashi[s] = Some(id);
                }
            }
            Event::Reach { actor } => self.reach_declared[usize::from(actor) % 4] = true,
            Event::Chi { actor, target, pai, consumed } => self.call(MeldKind::Chi, actor, target, pai, &consumed),
            Event::Pon { actor, target, pai, consumed } => self.call(MeldKind::Pon, actor, target, pai, &consumed),
            Event::Daiminkan { actor, target, pai, consumed } => {
                self.call(MeldKind::Daiminkan, actor, target, pai, &consumed);
                self.rinshan_due = true;
            }
            Event::Ankan { actor, consumed } => {
                let mut tiles: Vec<TileId> = consumed.iter().map(|&t| self.take_or_note(actor, t)).collect();
                tiles.sort_unstable();
                self.melds[usize::from(actor) % 4].push(MeldIds {
                    kind: MeldKind::Ankan,
                    tiles,
                    from_who: None,
                    called_tile: None,
                });
                self.drawn[usize::from(actor) % 4] = None;
                self.rinshan_due = true;
            }
            Event::Kakan { actor, pai, .. } => {
                let id = self.take_or_note(actor, pai);
                let s = usize::from(actor) % 4;
                match self.melds[s].iter_mut().find(|m| m.kind == MeldKind::Pon && m.tiles[0] / 4 == id / 4) {
                    Some(m) => {
                        m.kind = MeldKind::Kakan;
                        m.tiles.push(id);
                        m.tiles.sort_unstable();
                    }
                    None => self.note(|| format!("seat {actor} has no pon of {pai} to add to")),
                }
                self.drawn[s] = None;
                self.last_discard = Some((actor, id));
                self.rinshan_due = true;
            }
            Event::Kita { actor, pai } => {
                let id = self.take_or_note(actor, pai);
                self.kita[usize::from(actor) % 4].push(id);
                self.drawn[usize::from(actor) % 4] = None;
                self.last_discard = Some((actor, id));
                self.rinshan_due = true;
            }
            Event::Dora { dora_marker } => {
                let n = self.dora.len();
                match self.wall.dora_markers.get(n) {
                    Some(&id) => {
                        if tile_of(id) != Some(dora_marker) {
                            self.note(|| format!("dora indicator {} is {dora_marker}, the wall has id {id}", n + 1));
                        }
                        self.dora.push(id);
                    }
                    None => self.note(|| "a sixth dora indicator".into()),
                }
            }
            _ => {}
        }
    }

    fn call(&mut self, kind: MeldKind, actor: Seat, target: Seat, pai: Tile, consumed: &[Tile]) {
        let called = match self.last_discard {
            Some((seat, id)) if seat == target && tile_of(id) == Some(pai) => id,
            _ => {
                self.note(|| format!("seat {actor} called {pai} from seat {target}, not its last discard"));
                tile_id_guess(pai)
            }
        };
        let mut tiles: Vec<TileId> = consumed.iter().map(|&t| self.take_or_note(actor, t)).collect();
        tiles.push(called);
        tiles.sort_unstable();
        self.melds[usize::from(actor) % 4].push(MeldIds {
            kind,
            tiles,
            from_who: Some(target),
            called_tile: Some(called),
        });
        for d in &mut self.drawn {
            *d = None;
        }
    }
}

/// An id of `tile` when the ids were lost (only after a desync): copy 0, or 1 for a plain
/// five.
fn tile_id_guess(tile: Tile) -> TileId {
    let kind = tile.kind().min(KINDS as u8 - 1);
    kind * 4 + u8::from(!tile.is_red() && tile.akaize().is_some())
}

#[cfg(test)]
mod tests;
