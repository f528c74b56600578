//! Per-seat arrays on the wire: four entries at a four-player table, three at a
//! three-player one (RiichiEnv's sanma logs write `scores`, `tehais` and `deltas` with
//! three entries, `state_3p/mod.rs`). Events keep [`MAX_SEATS`](crate::rules::MAX_SEATS)
//! entries in memory (seat 3 empty at a three-player table: score 0, tiles `?`, name
//! empty); reading accepts three or four entries and pads the missing seat, writing for a
//! three-player table ([`super::Event::to_json_for`]) drops it.

use serde::de::Error;
use serde::{Deserialize, Deserializer};

use crate::tile::Tile;

/// Keys of the per-seat arrays in mjai events.
pub(super) const SEAT_KEYS: [&str; 4] = ["scores", "deltas", "tehais", "names"];

/// The keys of `start_game`, `start_kyoku`, `hora` and `ryukyoku` in their declared
/// (canonical) order, for writing them back after the cut.
pub(super) const KEY_ORDER: [&str; 18] = [
    "type",
    "names",
    "seed",
    "id",
    "bakaze",
    "dora_marker",
    "kyoku",
    "honba",
    "kyotaku",
    "oya",
    "scores",
    "tehais",
    "actor",
    "target",
    "pai",
    "deltas",
    "ura_markers",
    "reason",
];

/// Three or four entries, padded to four with `pad`.
fn padded<T: Clone, E: Error>(mut v: Vec<T>, pad: T, what: &str) -> Result<[T; 4], E> {
    if !(3..=4).contains(&v.len()) {
        return Err(E::custom(format!("{what} needs 3 or 4 entries (one per seat), got {}", v.len())));
    }
    v.resize(4, pad);
    Ok(v.try_into().unwrap_or_else(|_| unreachable!("resized to 4")))
}

/// `scores`: 3 or 4 points values.
pub(super) fn scores<'de, D: Deserializer<'de>>(d: D) -> Result<[i32; 4], D::Error> {
    padded(Vec::<i32>::deserialize(d)?, 0, "scores")
}

/// `deltas` (optional): 3 or 4 points values.
pub(super) fn deltas<'de, D: Deserializer<'de>>(d: D) -> Result<Option<[i32; 4]>, D::Error> {
    Option::<Vec<i32>>::deserialize(d)?.map(|v| padded(v, 0, "deltas")).transpose()
}

/// `tehais`: 3 or 4 hands of 13 tiles.
pub(super) fn tehais<'de, D: Deserializer<'de>>(d: D) -> Result<Box<[[Tile; 13]; 4]>, D::Error> {
    padded(Vec::<[Tile; 13]>::deserialize(d)?, [Tile::UNKNOWN; 13], "tehais").map(Box::new)
}

/// `names` (optional): 3 or 4 player names.
pub(super) fn names<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Box<[String; 4]>>, D::Error> {
    Option::<Vec<String>>::deserialize(d)?.map(|v| padded(v, String::new(), "names").map(Box::new)).transpose()
}
