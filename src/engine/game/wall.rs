//! The wall of one kyoku: the 52 starting tiles, the live wall in draw order and the
//! 14-tile dead wall (4 rinshan tiles, 5 dora and 5 ura indicators).
//!
//! A seeded wall is a pure function of `GameConfig.seed` and the kyoku's index in the game:
//! ChaCha12 seeded with `seed[0]`, `seed[1]` and the index (little-endian, zero-padded to
//! 32 bytes), then a Fisher-Yates shuffle using rejection sampling on `next_u64`, so every
//! machine and every `rand` version gives the same walls.

use rand::RngCore;
use rand::SeedableRng;
use rand_chacha::ChaCha12Rng;

use crate::engine::tile::{Tile, KINDS};

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
    /// The wall of the kyoku with 0-based position `index` in a game seeded with `seed`.
    pub fn seeded(seed: [u64; 2], index: u32) -> Wall {
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&seed[0].to_le_bytes());
        key[8..16].copy_from_slice(&seed[1].to_le_bytes());
        key[16..20].copy_from_slice(&index.to_le_bytes());
        let mut rng = ChaCha12Rng::from_seed(key);
        let mut tiles = full_set();
        for i in (1..tiles.len()).rev() {
            let j = uniform_below(&mut rng, i as u64 + 1) as usize;
            tiles.swap(i, j);
        }
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
            let want = if t.is_red() { 1 } else if t.akaize().is_some() { 3 } else { 4 };
            if count[t.id() as usize] != want {
                return Err(format!("the wall has {} of {t}, expected {want}", count[t.id() as usize]));
            }
        }
        Ok(())
    }
}

/// Unbiased integer in `0..n` (n > 0) by rejection sampling.
fn uniform_below(rng: &mut ChaCha12Rng, n: u64) -> u64 {
    let zone = u64::MAX - u64::MAX % n;
    loop {
        let x = rng.next_u64();
        if x < zone {
            return x % n;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_walls_are_full_sets_and_differ_per_kyoku() {
        let a = Wall::seeded([1, 2], 0);
        let b = Wall::seeded([1, 2], 1);
        a.check().unwrap();
        b.check().unwrap();
        assert_ne!(a, b);
        assert_eq!(a, Wall::seeded([1, 2], 0));
        assert_ne!(a, Wall::seeded([1, 3], 0));
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
