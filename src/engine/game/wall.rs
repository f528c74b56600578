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
//!
//! Three-player walls (sanma, [`Players::Three`]) hold 108 tiles: 2m-8m are removed, red
//! fives are 5p and 5s only (RiichiEnv `state_3p/wall.rs`, `is_sanma_excluded_tile`). By use:
//! 39 starting tiles (13 per seat), a live wall of 55 draws, 8 replacement tiles (4 kans and
//! 4 kita; RiichiEnv: "3P doubles the rinshan area because kita also draws from it"), and
//! the dora and ura indicators. As in RiichiEnv's layout (`load_wall`: "Dora stacks 4-5
//! extend into the live wall area"), the 4th and 5th indicator pairs are the last four
//! live tiles: indicator 4 is `live[54]` (ura `live[53]`), indicator 5 `live[52]` (ura
//! `live[51]`). Each replacement draw shortens the live wall by one, so a shown indicator
//! is never drawn: indicator 4 needs three kans (then at most 52 live draws), indicator 5
//! four (at most 51). A seeded three-player wall is the 108-tile set shuffled by the same
//! SHA3-256/ChaCha12 scheme, laid out in [`Wall::from_tiles_3p`] order.

use rand08::seq::SliceRandom;
use rand08::SeedableRng;
use rand_chacha03::ChaCha12Rng;
use sha3::{Digest, Sha3_256};

pub use crate::rules::wall_size::{LIVE_TILES, LIVE_TILES_3P, RINSHAN_3P, TILES_3P};
use crate::rules::Players;
use crate::tile::{Tile, KINDS};

/// One kyoku's tiles, laid out by use rather than physical position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wall {
    /// Starting 13 tiles per seat (seat order, not dealer order); in three-player, seat 3's
    /// are `?` (capacity, see [`Players`]).
    pub haipai: [[Tile; 13]; 4],
    /// Live wall in draw order (70 tiles, 55 in three-player; each kan or kita leaves one
    /// more undrawn at the end).
    pub live: Vec<Tile>,
    /// Replacement tiles for kans (and kita), in draw order: 4, or 8 in three-player.
    pub rinshan: Vec<Tile>,
    /// Dora indicators: the first is shown at `start_kyoku`, one more per kan.
    pub dora_markers: [Tile; 5],
    /// Ura indicators, matching `dora_markers` one for one.
    pub ura_markers: [Tile; 5],
    /// The table the wall is for (136 or 108 tiles).
    pub players: Players,
}

/// The kyoku counted from East 1 = 0 (South 1 = 4, West 1 = 8), as mjai.app's
/// `Board.kyoku`: `bakaze` is the round wind tile (E, S, W, N), `kyoku` the hand number 1..=4.
pub fn kyoku_count(bakaze: Tile, kyoku: u8) -> u8 {
    (bakaze.kind().saturating_sub(27)) * 4 + kyoku.saturating_sub(1)
}

/// The tiles of an arranged wall in [`Wall::from_tiles`] order: `haipai` (13 per seat),
/// then the parts (live draws, rinshan, dora and ura indicators), each filled up to its
/// size in `sizes` with what is `left` of the set, in set order. `names`: the set and the
/// error for a part too long, as the errors say them.
fn arrange(
    haipai: &[Vec<Tile>],
    mut parts: [Vec<Tile>; 4],
    sizes: [usize; 4],
    mut left: Vec<Tile>,
    names: (&str, &str),
) -> Result<Vec<Tile>, String> {
    if haipai.iter().any(|h| h.len() != 13) {
        return Err("each starting hand needs 13 tiles".into());
    }
    if parts.iter().zip(sizes).any(|(part, size)| part.len() > size) {
        return Err(names.1.into());
    }
    for t in haipai.iter().flatten().chain(parts.iter().flatten()) {
        match left.iter().position(|x| x == t) {
            Some(i) => {
                left.remove(i);
            }
            None => return Err(format!("more {t} than {} holds", names.0)),
        }
    }
    let mut fill = left.into_iter();
    for (part, size) in parts.iter_mut().zip(sizes) {
        while part.len() < size {
            part.push(fill.next().ok_or("the set ran out while filling the wall")?);
        }
    }
    let mut tiles: Vec<Tile> = haipai.concat();
    tiles.extend(parts.into_iter().flatten());
    Ok(tiles)
}

/// The 136 tiles of a set: four of each kind, one of the four fives of each suit red.
pub fn full_set() -> Vec<Tile> {
    full_set_for(Players::Four)
}

/// Whether kind `kind` is in a three-player set: 2m-8m are not (RiichiEnv
/// `is_sanma_excluded_tile`; Tenhou sanma: 二萬から八萬を抜く).
pub const fn in_sanma_set(kind: u8) -> bool {
    !(kind >= 1 && kind <= 7)
}

/// The tiles of a set for `players`: 136 (one red five per suit), or 108 for three-player
/// (2m-8m removed, so the red fives are 5p and 5s only). In set order, 1m first, the red five
/// first among its kind.
pub fn full_set_for(players: Players) -> Vec<Tile> {
    let mut tiles = Vec::with_capacity(136);
    for kind in (0..KINDS as u8).filter(|&k| players == Players::Four || in_sanma_set(k)) {
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

/// A physical tile's id, 0..136: RiichiEnv's numbering, `kind * 4 + copy`, the red five
/// copy 0 (ids 16, 52, 88); see [`super::tile_ids`].
pub type TileId = u8;

/// The tile an id stands for: kind `id / 4`, red when the id is 16, 52 or 88. `None` for
/// ids of 136 and more.
pub fn tile_of(id: TileId) -> Option<Tile> {
    let kind = Tile::from_kind(id / 4)?;
    match kind.akaize() {
        Some(red) if id.is_multiple_of(4) => Some(red),
        _ => Some(kind),
    }
}

/// The ids of a set for `players` in the set order of [`super::wall::full_set_for`]: 136,
/// or the 108 of a three-player set.
pub fn set_ids(players: Players) -> Vec<TileId> {
    (0..KINDS as u8)
        .filter(|&k| players == Players::Four || in_sanma_set(k))
        .flat_map(|k| (0..4).map(move |copy| k * 4 + copy))
        .collect()
}

/// The physical ids of the seeded wall for `players`, `seed`, `kyoku` and `honba` (see the
/// module doc), in the order [`Wall::from_tiles`] (136) or [`Wall::from_tiles_3p`] (108)
/// reads tiles: the set's ids in set order ([`set_ids`], the order of [`full_set_for`], so
/// the id at a place stands for the tile the same shuffle of the tiles puts there), shuffled.
pub(crate) fn seeded_order(players: Players, seed: [u64; 2], kyoku: u8, honba: u8) -> Vec<TileId> {
    let [nonce, key] = seed;
    let digest = Sha3_256::new()
        .chain_update(nonce.to_le_bytes())
        .chain_update(key.to_le_bytes())
        .chain_update([kyoku, honba])
        .finalize();
    let mut rng = ChaCha12Rng::from_seed(digest.into());
    let mut seq = set_ids(players);
    seq.shuffle(&mut rng);
    if players == Players::Three {
        return seq;
    }
    let mut order: Vec<TileId> = seq[..52].to_vec();
    order.extend(seq[66..].iter().rev());
    order.extend(seq[52..56].iter().rev());
    order.extend(seq[56..61].iter().rev());
    order.extend(&seq[61..66]);
    order
}

impl Wall {
    /// The wall mjai.app's engine deals for game seed `[nonce, key]` (as in `start_game.seed`),
    /// the kyoku counted from East 1 = 0 (see [`kyoku_count`]) and `honba` (see the module
    /// doc for the scheme).
    pub fn seeded(seed: [u64; 2], kyoku: u8, honba: u8) -> Wall {
        Wall::seeded_for(Players::Four, seed, kyoku, honba)
    }

    /// Like [`Wall::seeded`] for `players`: a three-player wall shuffles the 108-tile set
    /// the same way and lays the shuffled sequence out in [`Wall::from_tiles_3p`] order.
    pub fn seeded_for(players: Players, seed: [u64; 2], kyoku: u8, honba: u8) -> Wall {
        let tiles: Vec<Tile> =
            seeded_order(players, seed, kyoku, honba).into_iter().map(|id| tile_of(id).expect("a set id")).collect();
        match players {
            Players::Three => Wall::from_tiles_3p(&tiles).expect("a shuffled three-player set is a valid wall"),
            Players::Four => Wall::from_tiles(&tiles).expect("a shuffled full set is a valid wall"),
        }
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
            rinshan: take(122, 4),
            dora_markers: take(126, 5).try_into().expect("5 tiles"),
            ura_markers: take(131, 5).try_into().expect("5 tiles"),
            players: Players::Four,
        };
        wall.check()?;
        Ok(wall)
    }

    /// A three-player wall from 108 tiles in this order: 13 per seat (seats 0, 1, 2), 55
    /// live tiles in draw order, 8 replacement tiles in draw order, dora indicators 1-3,
    /// ura indicators 1-3. Indicators 4 and 5 (and their ura) are the last live tiles (see
    /// the module doc).
    ///
    /// Errors when the tiles are not exactly one three-player set.
    pub fn from_tiles_3p(tiles: &[Tile]) -> Result<Wall, String> {
        if tiles.len() != TILES_3P {
            return Err(format!("a three-player wall needs {TILES_3P} tiles, got {}", tiles.len()));
        }
        let mut haipai = [[Tile::UNKNOWN; 13]; 4];
        for (s, hand) in haipai.iter_mut().take(3).enumerate() {
            hand.copy_from_slice(&tiles[s * 13..s * 13 + 13]);
        }
        let live = tiles[39..39 + LIVE_TILES_3P].to_vec();
        let at = 39 + LIVE_TILES_3P + RINSHAN_3P;
        let (d, u) = (&tiles[at..at + 3], &tiles[at + 3..at + 6]);
        let wall = Wall {
            haipai,
            rinshan: tiles[39 + LIVE_TILES_3P..at].to_vec(),
            dora_markers: [d[0], d[1], d[2], live[54], live[52]],
            ura_markers: [u[0], u[1], u[2], live[53], live[51]],
            live,
            players: Players::Three,
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
        live: Vec<Tile>,
        rinshan: Vec<Tile>,
        dora: Vec<Tile>,
        ura: Vec<Tile>,
    ) -> Result<Wall, String> {
        let tiles = arrange(
            &haipai,
            [live, rinshan, dora, ura],
            [LIVE_TILES, 4, 5, 5],
            full_set(),
            ("a set", "more tiles than a wall part holds (70 live, 4 rinshan, 5 dora, 5 ura)"),
        )?;
        Wall::from_tiles(&tiles)
    }

    /// A three-player wall with some tiles fixed, the rest filled with the tiles left over
    /// from the 108-tile set in set order: `haipai` (13 per seat, 3 seats), the first `live`
    /// draws, the first `rinshan` tiles, dora and ura indicators 1-3 from the first.
    ///
    /// Errors when a part is too long or a tile occurs more often than the set holds
    /// (2m-8m and `5mr` are not in it).
    pub fn arranged_3p(
        haipai: [Vec<Tile>; 3],
        live: Vec<Tile>,
        rinshan: Vec<Tile>,
        dora: Vec<Tile>,
        ura: Vec<Tile>,
    ) -> Result<Wall, String> {
        let tiles = arrange(
            &haipai,
            [live, rinshan, dora, ura],
            [LIVE_TILES_3P, RINSHAN_3P, 3, 3],
            full_set_for(Players::Three),
            (
                "a three-player set",
                "more tiles than a three-player wall part holds (55 live, 8 rinshan, 3 dora, 3 ura)",
            ),
        )?;
        Wall::from_tiles_3p(&tiles)
    }

    /// All tiles in the order [`Wall::from_tiles`] (136) or [`Wall::from_tiles_3p`] (108)
    /// takes.
    pub fn tiles(&self) -> Vec<Tile> {
        let seats = self.players.count();
        let mut out: Vec<Tile> = self.haipai[..seats].iter().flatten().copied().collect();
        out.extend(&self.live);
        out.extend(&self.rinshan);
        let own = if self.players == Players::Three { 3 } else { 5 };
        out.extend(&self.dora_markers[..own]);
        out.extend(&self.ura_markers[..own]);
        out
    }

    /// Checks that the wall holds exactly one full set (four of each kind, one red five per
    /// suit, 70 live tiles, 4 rinshan; three-player: the 108-tile set, 55 live, 8 rinshan,
    /// indicators 4-5 the last live tiles). The error names the first tile kind that is off.
    pub fn check(&self) -> Result<(), String> {
        let (live, rinshan) = match self.players {
            Players::Four => (LIVE_TILES, 4),
            Players::Three => (LIVE_TILES_3P, RINSHAN_3P),
        };
        if self.live.len() != live {
            return Err(format!("the live wall needs {live} tiles, got {}", self.live.len()));
        }
        if self.rinshan.len() != rinshan {
            return Err(format!("the wall needs {rinshan} rinshan tiles, got {}", self.rinshan.len()));
        }
        if self.players == Players::Three {
            let l = &self.live;
            if self.dora_markers[3..] != [l[54], l[52]] || self.ura_markers[3..] != [l[53], l[51]] {
                return Err("three-player indicators 4 and 5 must be the last live tiles".into());
            }
            if self.haipai[3] != [Tile::UNKNOWN; 13] {
                return Err("a three-player wall deals no seat 3".into());
            }
        }
        let mut count = [0u8; 38];
        for t in self.tiles() {
            count[t.id() as usize] += 1;
        }
        if count[Tile::UNKNOWN.id() as usize] > 0 {
            return Err("the wall has ? tiles".into());
        }
        let set: std::collections::BTreeSet<_> = full_set_for(self.players).into_iter().collect();
        if let Some(t) = (0..37u8).filter_map(Tile::from_id).find(|t| count[t.id() as usize] > 0 && !set.contains(t)) {
            return Err(format!("the wall has {} of {t}, expected 0", count[t.id() as usize]));
        }
        for t in set {
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
