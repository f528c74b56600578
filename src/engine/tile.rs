//! Tiles in mjai notation (`1m`..`9s`, `5mr`, `E S W N P F C`, `?`) and in the compact
//! notation used by hand calculators (`123m406p789s11z`, where `0` is a red five and
//! `1z`..`7z` are E S W N P F C).
//!
//! A [`Tile`] is one byte. Its *kind* (`0..34`) ignores redness: `0..9` are 1m..9m,
//! `9..18` 1p..9p, `18..27` 1s..9s, `27..34` E S W N P F C. Red fives are separate tile
//! values (`34`, `35`, `36`) whose kind is the plain five's. `37` is the unknown tile `?`
//! that masked events show for other seats' tiles.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Number of tile kinds (34: three suits of nine plus seven honors).
pub const KINDS: usize = 34;

/// One tile: a kind (`0..34`), a red five (`34..37`) or unknown (`37`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Tile(u8);

/// Error for a tile string that is not valid; names the offending text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TileError {
    /// A single tile in mjai notation that is not one of the 38 names.
    #[error("'{0}' is not an mjai tile (expected 1m..9m, 1p..9p, 1s..9s, 5mr/5pr/5sr, E S W N P F C or ?)")]
    BadMjai(String),
    /// A compact-notation string with a bad part.
    #[error("bad tile string '{text}': {reason}")]
    BadCompact {
        /// The whole input.
        text: String,
        /// What is wrong and where.
        reason: String,
    },
}

const MJAI_NAMES: [&str; 38] = [
    "1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", //
    "1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p", //
    "1s", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", //
    "E", "S", "W", "N", "P", "F", "C", //
    "5mr", "5pr", "5sr", "?",
];

impl Tile {
    /// The unknown tile `?`.
    pub const UNKNOWN: Tile = Tile(37);
    /// Red 5m (`5mr`).
    pub const RED_5M: Tile = Tile(34);
    /// Red 5p (`5pr`).
    pub const RED_5P: Tile = Tile(35);
    /// Red 5s (`5sr`).
    pub const RED_5S: Tile = Tile(36);

    /// Tile from a kind `0..34` (never red). Returns `None` for `kind >= 34`.
    pub const fn from_kind(kind: u8) -> Option<Tile> {
        if kind < KINDS as u8 {
            Some(Tile(kind))
        } else {
            None
        }
    }

    /// Tile from its raw id `0..38` (kinds, then 5mr 5pr 5sr, then `?`).
    pub const fn from_id(id: u8) -> Option<Tile> {
        if id < 38 {
            Some(Tile(id))
        } else {
            None
        }
    }

    /// Raw id `0..38`.
    pub const fn id(self) -> u8 {
        self.0
    }

    /// Kind `0..34` with redness removed. The unknown tile has no kind: returns 34 for it,
    /// so check [`Tile::is_unknown`] first where `?` can occur.
    pub const fn kind(self) -> u8 {
        match self.0 {
            34 => 4,
            35 => 13,
            36 => 22,
            k => k,
        }
    }

    /// True for 5mr, 5pr, 5sr.
    pub const fn is_red(self) -> bool {
        matches!(self.0, 34..=36)
    }

    /// True for `?`.
    pub const fn is_unknown(self) -> bool {
        self.0 == 37
    }

    /// The same tile without red (5mr becomes 5m); other tiles unchanged.
    pub const fn deaka(self) -> Tile {
        if self.is_red() {
            Tile(self.kind())
        } else {
            self
        }
    }

    /// The red version of a five (5m becomes 5mr); `None` for tiles that are not fives.
    pub const fn akaize(self) -> Option<Tile> {
        match self.kind() {
            4 => Some(Tile(34)),
            13 => Some(Tile(35)),
            22 => Some(Tile(36)),
            _ => None,
        }
    }

    /// Suit index: 0 = m, 1 = p, 2 = s, 3 = honors.
    pub const fn suit(self) -> u8 {
        self.kind() / 9
    }

    /// Number 1..9 for suited tiles; 1..7 for honors (E S W N P F C).
    pub const fn number(self) -> u8 {
        self.kind() % 9 + 1
    }

    /// True for the seven honors (winds and dragons).
    pub const fn is_honor(self) -> bool {
        self.kind() >= 27 && self.kind() < 34
    }

    /// True for 1 and 9 of a suit.
    pub const fn is_terminal(self) -> bool {
        let k = self.kind();
        k < 27 && (k.is_multiple_of(9) || k % 9 == 8)
    }

    /// True for terminals and honors (yaochuuhai).
    pub const fn is_yaochuu(self) -> bool {
        self.is_terminal() || self.is_honor()
    }

    /// The dora that this tile indicates, as a kind (Tenhou: 9 → 1 within a suit,
    /// N → E for winds, C → P for dragons).
    pub const fn dora_from_indicator(self) -> u8 {
        let k = self.kind();
        if k < 27 {
            k / 9 * 9 + (k % 9 + 1) % 9
        } else if k < 31 {
            27 + (k - 27 + 1) % 4
        } else {
            31 + (k - 31 + 1) % 3
        }
    }

    /// The mjai name (`"5mr"`, `"E"`, `"?"`).
    pub fn as_mjai(self) -> &'static str {
        MJAI_NAMES[self.0 as usize]
    }
}

impl fmt::Display for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_mjai())
    }
}

impl fmt::Debug for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_mjai())
    }
}

impl FromStr for Tile {
    type Err = TileError;

    /// Parses one tile in mjai notation.
    fn from_str(s: &str) -> Result<Tile, TileError> {
        MJAI_NAMES.iter().position(|&n| n == s).map(|i| Tile(i as u8)).ok_or_else(|| TileError::BadMjai(s.to_string()))
    }
}

impl Serialize for Tile {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_mjai())
    }
}

impl<'de> Deserialize<'de> for Tile {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Tile, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// Parses compact notation: digit runs each followed by a suit letter `m`, `p`, `s`, `z`.
/// `0` is a red five in m/p/s; `z` takes 1..7 (E S W N P F C). Whitespace is ignored.
/// Example: `"123m406p789s11z"`.
///
/// Errors: a digit run without suit, a letter that is not a suit, `0`/`8`/`9` with `z`.
pub fn parse_compact(text: &str) -> Result<Vec<Tile>, TileError> {
    let bad = |reason: String| TileError::BadCompact { text: text.to_string(), reason };
    let mut out = Vec::new();
    let mut pending: Vec<(usize, u8)> = Vec::new();
    for (pos, c) in text.char_indices() {
        if c.is_whitespace() {
            continue;
        }
        if let Some(d) = c.to_digit(10) {
            pending.push((pos, d as u8));
            continue;
        }
        let suit = match c {
            'm' => 0u8,
            'p' => 1,
            's' => 2,
            'z' => 3,
            _ => return Err(bad(format!("'{c}' at byte {pos} is not a digit or a suit letter (m p s z)"))),
        };
        if pending.is_empty() {
            return Err(bad(format!("suit '{c}' at byte {pos} has no digits before it")));
        }
        for (dpos, d) in pending.drain(..) {
            let tile = match (suit, d) {
                (3, 1..=7) => Tile(27 + d - 1),
                (3, _) => return Err(bad(format!("'{d}z' at byte {dpos}: honors are 1z..7z"))),
                (_, 0) => Tile(34 + suit),
                (_, _) => Tile(suit * 9 + d - 1),
            };
            out.push(tile);
        }
    }
    if let Some((pos, _)) = pending.first() {
        return Err(bad(format!("digits from byte {pos} have no suit letter after them")));
    }
    Ok(out)
}

/// Formats tiles in compact notation, sorted by kind with red fives as `0`, suits in the
/// order m p s z. Unknown tiles are skipped.
pub fn format_compact(tiles: &[Tile]) -> String {
    let mut sorted: Vec<Tile> = tiles.iter().copied().filter(|t| !t.is_unknown()).collect();
    sorted.sort_by_key(|t| (t.kind(), !t.is_red()));
    let mut out = String::new();
    for suit in 0..4u8 {
        let mut any = false;
        for t in sorted.iter().filter(|t| t.suit() == suit) {
            let d = if t.is_red() { 0 } else { t.number() };
            out.push(char::from(b'0' + d));
            any = true;
        }
        if any {
            out.push(['m', 'p', 's', 'z'][suit as usize]);
        }
    }
    out
}

/// Counts tiles by kind (red fives count as their plain five). Unknown tiles are ignored.
pub fn to_counts(tiles: &[Tile]) -> [u8; KINDS] {
    let mut c = [0u8; KINDS];
    for t in tiles.iter().filter(|t| !t.is_unknown()) {
        c[t.kind() as usize] += 1;
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mjai_names_round_trip() {
        for id in 0..38u8 {
            let t = Tile::from_id(id).unwrap();
            assert_eq!(t.as_mjai().parse::<Tile>().unwrap(), t);
        }
        assert!("0m".parse::<Tile>().is_err());
        assert!("5m ".parse::<Tile>().is_err());
    }

    #[test]
    fn kinds_and_reds() {
        let r: Tile = "5pr".parse().unwrap();
        assert!(r.is_red());
        assert_eq!(r.kind(), 13);
        assert_eq!(r.deaka().as_mjai(), "5p");
        assert_eq!(Tile::from_kind(22).unwrap().akaize(), Some(Tile::RED_5S));
        assert!("C".parse::<Tile>().unwrap().is_honor());
        assert!("9s".parse::<Tile>().unwrap().is_terminal());
        assert!(!"8s".parse::<Tile>().unwrap().is_yaochuu());
    }

    #[test]
    fn dora_wraps_per_group() {
        let d = |s: &str| Tile::from_kind(s.parse::<Tile>().unwrap().dora_from_indicator()).unwrap().as_mjai();
        assert_eq!(d("9m"), "1m");
        assert_eq!(d("5pr"), "6p");
        assert_eq!(d("N"), "E");
        assert_eq!(d("W"), "N");
        assert_eq!(d("C"), "P");
        assert_eq!(d("P"), "F");
    }

    #[test]
    fn compact_round_trip_and_errors() {
        let tiles = parse_compact("123m406p789s11z").unwrap();
        assert_eq!(tiles.len(), 11);
        assert_eq!(tiles[4], Tile::RED_5P);
        assert_eq!(tiles[9].as_mjai(), "E");
        assert_eq!(format_compact(&tiles), "123m406p789s11z");
        let e = parse_compact("123x").unwrap_err().to_string();
        assert!(e.contains("'x'"), "{e}");
        assert!(parse_compact("12").unwrap_err().to_string().contains("no suit"));
        assert!(parse_compact("8z").unwrap_err().to_string().contains("1z..7z"));
        assert!(parse_compact("m").unwrap_err().to_string().contains("no digits"));
    }
}
