//! The sizes of a kyoku's wall, in tiles, per table: the live wall's draws, the
//! three-player replacement tiles and the three-player set. A four-player wall is 136 tiles:
//! 52 starting tiles, [`LIVE_TILES`] live draws and a 14-tile dead wall (4 rinshan tiles,
//! 5 dora and 5 ura indicators); a three-player wall is [`TILES_3P`]: 39 starting tiles,
//! [`LIVE_TILES_3P`] live draws, [`RINSHAN_3P`] replacement tiles and 3 + 3 indicators
//! (RiichiEnv `state_3p/wall.rs`). `game::wall` lays the tiles out; `log` counts the
//! tiles left with these numbers.

/// Tiles drawn from the live wall in a kyoku without kans (136 - 52 - 14).
pub const LIVE_TILES: usize = 70;

/// Three-player: tiles drawn from the live wall without kans or kita (108 - 39 - 14;
/// RiichiEnv `drawable_count`, "matches MjSoul left_tile_count (= total - 14 - dealt)").
pub const LIVE_TILES_3P: usize = 55;

/// Three-player: replacement tiles for kans and kita (RiichiEnv: 8 rinshan slots).
pub const RINSHAN_3P: usize = 8;

/// Three-player: tiles in a set (39 + 55 + 8 + 3 + 3), in the order of `game::wall`'s
/// `Wall::from_tiles_3p`.
pub const TILES_3P: usize = 108;
