//! The wall of one kyoku: the 52 starting tiles, the live wall in draw order and the
//! 14-tile dead wall (4 rinshan tiles, 5 dora and 5 ura indicators).
//!
//! A seeded wall is the one mjai.app's engine deals (`Board::init_from_seed` in smly/mjai.app
//! `src/arena/board.rs`, the same function as in Mortal's libriichi): for the game seed
//! `(nonce, key)` of `start_game.seed`, the kyoku counted from East 1 = 0 and the honba,
//! `SHA3-256(nonce LE ‖ key LE ‖ [kyoku, honba])` seeds ChaCha12, which shuffles the 136 tiles
//! in set order (1m first, the red five first among its kind) with rand 0.8's Fisher-Yates
//! `shuffle`. Of the shuffled sequence, tiles 0..52 are the haipai (13 per seat, seat 0 first),
//! 52..56 the rinshan tiles, 56..61 the dora indicators, 61..66 the ura indicators and 66..136
//! the live wall; rinshan tiles, dora indicators and live tiles are taken from the back, ura
//! indicators from the front. Duplicate games that reach the same hand get the same wall, and
//! a seed gives the same walls as in mjai.app. The exact crates matter: rand 0.9 shuffles
//! differently (see `tests/logs/walls_mortal.rs`), so rand 0.8 and rand_chacha 0.3 are used here.

use rand08::seq::SliceRandom;
use rand08::SeedableRng;
use rand_chacha03::ChaCha12Rng;
use sha3::{Digest, Sha3_256};

use crate::tile::{Tile, KINDS};

/// Tiles drawn from the live wall in a kyoku without kans (136 - 52 - 14).
pub const LIVE_TILES: usize = 70;

/// One kyoku's tiles, laid out by use rather than physical position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wall {
    /// Starting 13 tiles per seat (seat order, not dealer order).
    pub haipai: [[Tile; 13]; 4],
    /// Live wall in draw order (70 tiles; each kan leaves one more undrawn at the end).
    pub live: Vec<Tile>,
    /// Replacement tiles for kans, in draw order.
    pub rinshan: [Tile; 4],
    /// Dora indicators: the first is shown at `start_kyoku`, one more per kan.
    pub dora_markers: [Tile; 5],
    /// Ura indicators, matching `dora_markers` one for one.
    pub ura_markers: [Tile; 5],
}

/// The kyoku counted from East 1 = 0 (South 1 = 4, West 1 = 8), as mjai.app's
/// `Board.kyoku`: `bakaze` is the round wind tile (E, S, W, N), `kyoku` the hand number 1..=4.
pub fn kyoku_count(bakaze: Tile, kyoku: u8) -> u8 {
    (bakaze.kind().saturating_sub(27)) * 4 + kyoku.saturating_sub(1)
}

/// The 136 tiles of a set: four of each kind, one of the four fives of each suit red.
pub fn full_set() -> Vec<Tile> {
    let mut tiles = Vec::with_capacity(136);
    for kind in 0..KINDS as u8 {
        let t = Tile::from_kind(kind).expect("kind < 34");
        for copy in 0..4 {
            match t.akaize() {
                Some(red) if copy == 0 => tiles.push(red),
                _ => tiles.push(t),
            }
        }
    }
    tiles
}

impl Wall {
    /// The wall mjai.app's engine deals for game seed `[nonce, key]` (as in `start_game.seed`),
    /// the kyoku counted from East 1 = 0 (see [`kyoku_count`]) and `honba` (see the module
    /// doc for the scheme).
    pub fn seeded(seed: [u64; 2], kyoku: u8, honba: u8) -> Wall {
        let [nonce, key] = seed;
        let digest = Sha3_256::new()
            .chain_update(nonce.to_le_bytes())
            .chain_update(key.to_le_bytes())
            .chain_update([kyoku, honba])
            .finalize();
        let mut rng = ChaCha12Rng::from_seed(digest.into());
        let mut seq = full_set();
        seq.shuffle(&mut rng);
        let mut tiles: Vec<Tile> = seq[..52].to_vec();
        tiles.extend(seq[66..].iter().rev());
        tiles.extend(seq[52..56].iter().rev());
        tiles.extend(seq[56..61].iter().rev());
        tiles.extend(&seq[61..66]);
        Wall::from_tiles(&tiles).expect("a shuffled full set is a valid wall")
    }

    /// A wall from 136 tiles in this order: 13 per seat (seat 0 first), 70 live tiles in
    /// draw order, 4 rinshan tiles, 5 dora indicators, 5 ura indicators.
    ///
    /// Errors when the tiles are not exactly one full set (see [`Wall::check`]).
    pub fn from_tiles(tiles: &[Tile]) -> Result<Wall, String> {
        if tiles.len() != 136 {
            return Err(format!("a wall needs 136 tiles, got {}", tiles.len()));
        }
        let mut haipai = [[Tile::UNKNOWN; 13]; 4];
        for (s, hand) in haipai.iter_mut().enumerate() {
            hand.copy_from_slice(&tiles[s * 13..s * 13 + 13]);
        }
        let take = |from: usize, n: usize| tiles[from..from + n].to_vec();
        let wall = Wall {
            haipai,
            live: take(52, LIVE_TILES),
            rinshan: take(122, 4).try_into().expect("4 tiles"),
            dora_markers: take(126, 5).try_into().expect("5 tiles"),
            ura_markers: take(131, 5).try_into().expect("5 tiles"),
        };
        wall.check()?;
        Ok(wall)
    }

    /// A wall with some tiles fixed and the rest filled with the tiles left over from the
    /// set, in set order (1m first): `haipai` (13 per seat), the first `live` draws, the
    /// first `rinshan` tiles, dora and ura indicators from the first.
    ///
    /// Errors when a part is too long or a tile occurs more often than a set holds.
    pub fn arranged(
        haipai: [Vec<Tile>; 4],
        mut live: Vec<Tile>,
        mut rinshan: Vec<Tile>,
        mut dora: Vec<Tile>,
        mut ura: Vec<Tile>,
    ) -> Result<Wall, String> {
        if haipai.iter().any(|h| h.len() != 13) {
            return Err("each starting hand needs 13 tiles".into());
        }
        if live.len() > LIVE_TILES || rinshan.len() > 4 || dora.len() > 5 || ura.len() > 5 {
            return Err("more tiles than a wall part holds (70 live, 4 rinshan, 5 dora, 5 ura)".into());
        }
        let mut left = full_set();
        for t in haipai.iter().flatten().chain(&live).chain(&rinshan).chain(&dora).chain(&ura) {
            match left.iter().position(|x| x == t) {
                Some(i) => {
                    left.remove(i);
                }
                None => return Err(format!("more {t} than a set holds")),
            }
        }
        let mut fill = left.into_iter();
        for (v, n) in [(&mut live, LIVE_TILES), (&mut rinshan, 4), (&mut dora, 5), (&mut ura, 5)] {
            while v.len() < n {
                v.push(fill.next().expect("136 tiles in all"));
            }
        }
        let mut tiles: Vec<Tile> = haipai.concat();
        tiles.extend(live);
        tiles.extend(rinshan);
        tiles.extend(dora);
        tiles.extend(ura);
        Wall::from_tiles(&tiles)
    }

    /// All 136 tiles in the order [`Wall::from_tiles`] takes.
    pub fn tiles(&self) -> Vec<Tile> {
        let mut out: Vec<Tile> = self.haipai.iter().flatten().copied().collect();
        out.extend(&self.live);
        out.extend(self.rinshan);
        out.extend(self.dora_markers);
        out.extend(self.ura_markers);
        out
    }

    /// Checks that the wall holds exactly one full set (four of each kind, one red five per
    /// suit, 70 live tiles). The error names the first tile kind that is off.
    pub fn check(&self) -> Result<(), String> {
        if self.live.len() != LIVE_TILES {
            return Err(format!("the live wall needs {LIVE_TILES} tiles, got {}", self.live.len()));
        }
        let mut count = [0u8; 38];
        for t in self.tiles() {
            count[t.id() as usize] += 1;
        }
        for t in full_set().into_iter().collect::<std::collections::BTreeSet<_>>() {
            let want = if t.is_red() {
                1
            } else if t.akaize().is_some() {
                3
            } else {
                4
            };
            if count[t.id() as usize] != want {
                return Err(format!("the wall has {} of {t}, expected {want}", count[t.id() as usize]));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_walls_are_full_sets_and_differ_per_kyoku_and_honba() {
        let a = Wall::seeded([1, 2], 0, 0);
        a.check().unwrap();
        for other in [Wall::seeded([1, 2], 1, 0), Wall::seeded([1, 2], 0, 1), Wall::seeded([1, 3], 0, 0)] {
            other.check().unwrap();
            assert_ne!(a, other);
        }
        assert_eq!(a, Wall::seeded([1, 2], 0, 0));
    }

    #[test]
    fn from_tiles_rejects_a_wrong_set() {
        let mut tiles = full_set();
        tiles[0] = tiles[5];
        let e = Wall::from_tiles(&tiles).unwrap_err();
        assert!(e.contains("expected"), "{e}");
        assert!(Wall::from_tiles(&tiles[..100]).unwrap_err().contains("136"));
    }
}
