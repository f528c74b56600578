//! One seat's state inside a kyoku: concealed tiles, calls, discards, riichi and furiten.

use crate::event::Seat;
use crate::hand::{self, Meld, MeldKind, Riichi};
use crate::tile::{to_counts, Tile, KINDS};

/// A call as the table saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Call {
    /// The set, as the hand evaluator takes it.
    pub meld: Meld,
    /// The seat whose discard was claimed (`None` for ankan).
    pub target: Option<Seat>,
}

/// One seat in the current kyoku.
#[derive(Debug, Clone)]
pub struct Player {
    /// Concealed tiles, the drawn tile included while it is this seat's turn. Read freely;
    /// change only through [`Player::take`] and [`Player::remove`], which keep the counts.
    pub tehai: Vec<Tile>,
    /// `tehai` counted by kind, kept in step with it (asked at every discard and claim).
    kind_counts: [u8; KINDS],
    /// The tile drawn this turn, while still held.
    pub drawn: Option<Tile>,
    /// Calls in the order made.
    pub calls: Vec<Call>,
    /// Every discard, in order, called ones included (furiten looks at all of them).
    pub kawa: Vec<Tile>,
    /// Riichi accepted (or double riichi).
    pub riichi: Riichi,
    /// `reach` declared; the next discard is the riichi tile.
    pub reach_declared: bool,
    /// Ippatsu still possible.
    pub ippatsu: bool,
    /// Passed a winning tile since the last own discard (Tenhou: temporary furiten).
    pub furiten_temp: bool,
    /// Passed a winning tile after riichi (permanent).
    pub furiten_riichi: bool,
    /// Every discard a terminal or honor and none claimed (nagashi mangan so far).
    pub nagashi: bool,
    /// Tile kinds this seat may not discard this turn (kuikae, Tenhou).
    /// Bit `k` set: kind `k` forbidden.
    pub kuikae: u64,
    /// The seat that fed the last set of daisangen or daisuushii (pao), with the yaku name.
    pub pao: Option<(Seat, &'static str)>,
    /// Norths set aside by `kita` (three-player), each one han of nukidora.
    pub kita: u8,
    /// Waits of the hand between turns (bit per kind), refreshed at every discard.
    wait_mask: u64,
    /// The concealed counts and call count `wait_mask` was computed from: a discard that
    /// leaves the same hand (every tsumogiri without a kan in between) reuses it.
    wait_key: Option<([u8; KINDS], u8)>,
}

impl Player {
    /// A seat with its 13 starting tiles.
    pub fn new(haipai: &[Tile; 13]) -> Player {
        Player::holding(haipai)
    }

    /// The empty seat of a three-player table (seat 3): no tiles, never asked.
    pub fn absent() -> Player {
        Player { nagashi: false, ..Player::holding(&[]) }
    }

    fn holding(haipai: &[Tile]) -> Player {
        let mut p = Player {
            tehai: haipai.to_vec(),
            kind_counts: to_counts(haipai),
            drawn: None,
            calls: Vec::new(),
            kawa: Vec::new(),
            riichi: Riichi::None,
            reach_declared: false,
            ippatsu: false,
            furiten_temp: false,
            furiten_riichi: false,
            nagashi: true,
            kuikae: 0,
            pao: None,
            kita: 0,
            wait_mask: 0,
            wait_key: None,
        };
        p.refresh_waits();
        p
    }

    /// Counts of the concealed tiles by kind.
    pub fn counts(&self) -> [u8; KINDS] {
        self.kind_counts
    }

    /// How many concealed tiles of `kind` are held.
    pub fn count(&self, kind: u8) -> u8 {
        self.kind_counts[kind as usize]
    }

    /// Adds a drawn tile to the concealed tiles.
    pub fn take(&mut self, tile: Tile) {
        self.tehai.push(tile);
        self.kind_counts[tile.kind() as usize] += 1;
    }

    /// True without open calls (ankan keeps the hand closed).
    pub fn is_closed(&self) -> bool {
        self.calls.iter().all(|c| !c.meld.is_open())
    }

    /// Kinds that complete the hand between turns (as of the last discard).
    pub fn waits(&self) -> u64 {
        self.wait_mask
    }

    /// Recomputes the waits; call when the hand has `3k+1` concealed tiles.
    pub fn refresh_waits(&mut self) {
        let key = (self.counts(), self.calls.len() as u8);
        if self.wait_key != Some(key) {
            self.wait_mask = hand::waits(&key.0, key.1);
            self.wait_key = Some(key);
        }
    }

    /// Furiten for ron: a wait among own discards, or a winning tile passed.
    pub fn is_furiten(&self) -> bool {
        let w = self.waits();
        self.furiten_temp || self.furiten_riichi || self.kawa.iter().any(|t| w >> t.kind() & 1 == 1)
    }

    /// Removes one tile with exactly this id; false when not held.
    pub fn remove(&mut self, tile: Tile) -> bool {
        match self.tehai.iter().position(|&t| t == tile) {
            Some(i) => {
                self.tehai.remove(i);
                self.kind_counts[tile.kind() as usize] -= 1;
                true
            }
            None => false,
        }
    }

    /// Melds for the hand evaluator.
    pub fn melds(&self) -> Vec<Meld> {
        self.calls.iter().map(|c| c.meld.clone()).collect()
    }

    /// Index of this seat's pon of `kind`, if any.
    pub fn pon_of(&self, kind: u8) -> Option<usize> {
        self.calls.iter().position(|c| c.meld.kind == MeldKind::Pon && c.meld.tiles[0].kind() == kind)
    }
}
