//! A hand of a logged game as the start of a new game (`mjai-sim --from LOG@S2-1`): its
//! scores, honba, riichi sticks and wall, so the hand can be played again with other bots.

use std::fmt;
use std::str::FromStr;

use crate::event::Event;
use crate::tile::Tile;

use super::setup::StartState;
use super::shown::ShownTiles;
use super::wall::{kyoku_count, Wall};

/// A hand as labelled in progress lines and `errors.json`: `S2-1` is South 2 with 1 honba.
/// The honba may be left out (`S2`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HandLabel {
    /// Round wind tile: E, S or W.
    pub bakaze: Tile,
    /// Hand number 1..=4.
    pub kyoku: u8,
    /// Honba, when given.
    pub honba: Option<u8>,
}

impl FromStr for HandLabel {
    type Err = String;

    /// Parses `E1`, `S2-1`, `W4-12`. The error says what a label looks like.
    fn from_str(text: &str) -> Result<HandLabel, String> {
        let err = || {
            format!(
                "`{text}` is not a hand: give the round wind E, S or W, the hand 1-4 and optionally -HONBA, e.g. S2-1"
            )
        };
        let (hand, honba) = match text.split_once('-') {
            Some((hand, honba)) => (hand, Some(honba.parse::<u8>().map_err(|_| err())?)),
            None => (text, None),
        };
        let mut chars = hand.chars();
        let (Some(wind), Some(number), None) = (chars.next(), chars.next(), chars.next()) else {
            return Err(err());
        };
        if !matches!(wind, 'E' | 'S' | 'W') || !('1'..='4').contains(&number) {
            return Err(err());
        }
        let bakaze = wind.to_string().parse().map_err(|_| err())?;
        Ok(HandLabel { bakaze, kyoku: number as u8 - b'0', honba })
    }
}

impl fmt::Display for HandLabel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.bakaze, self.kyoku)?;
        match self.honba {
            Some(h) => write!(f, "-{h}"),
            None => Ok(()),
        }
    }
}

/// Where the wall of a re-played hand comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WallSource {
    /// The log's seed deals every tile the log shows: the seeded wall, whole.
    Seed,
    /// The log has no seed (or its seed deals other tiles, e.g. a log of another wall
    /// scheme): the tiles the log shows, the others filled from the rest of the set.
    Shown,
}

/// A logged hand to start from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoggedHand {
    /// The hand's label with its honba (`S2-1`).
    pub label: HandLabel,
    /// Round, hand, honba, riichi sticks and scores of its `start_kyoku`.
    pub start: StartState,
    /// The log's `start_game.seed`, if any.
    pub seed: Option<[u64; 2]>,
    /// The hand's wall.
    pub wall: Wall,
    /// Where `wall` comes from.
    pub source: WallSource,
    /// 0-based index of the hand's `start_kyoku` in the log.
    pub index: usize,
}

/// Finds the hand `label` in `log` (the first with that round and number when the label has
/// no honba) and returns where it started and its wall.
///
/// Errors (one line naming the fix) when the log has no such hand (the message lists the
/// hands it has) or the hand's tiles are not a possible wall.
pub fn logged_hand(log: &[Event], label: HandLabel) -> Result<LoggedHand, String> {
    let seed = match log.first() {
        Some(Event::StartGame { seed, .. }) => *seed,
        _ => None,
    };
    let mut hands = Vec::new();
    for (index, e) in log.iter().enumerate() {
        let Event::StartKyoku { bakaze, kyoku, honba, kyotaku, scores, .. } = e else { continue };
        let here = HandLabel { bakaze: *bakaze, kyoku: *kyoku, honba: Some(*honba) };
        if *bakaze != label.bakaze || *kyoku != label.kyoku || label.honba.is_some_and(|h| h != *honba) {
            hands.push(here.to_string());
            continue;
        }
        let (shown, _) = ShownTiles::read(log, index).map_err(|d| d.to_string())?;
        let seeded = seed.map(|s| Wall::seeded_for(shown.players, s, kyoku_count(*bakaze, *kyoku), *honba));
        let (wall, source) = match seeded {
            Some(w) if shown.agree_with(&w) => (w, WallSource::Seed),
            _ => {
                (shown.to_wall().map_err(|e| format!("hand {here}: cannot rebuild its wall: {e}"))?, WallSource::Shown)
            }
        };
        let start = StartState { bakaze: *bakaze, kyoku: *kyoku, honba: *honba, kyotaku: *kyotaku, scores: *scores };
        return Ok(LoggedHand { label: here, start, seed, wall, source, index });
    }
    let list = if hands.is_empty() { "none".to_string() } else { hands.join(" ") };
    Err(format!("the log has no hand {label} (its hands: {list})"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_parse_and_print() {
        let l: HandLabel = "S2-1".parse().unwrap();
        assert_eq!((l.bakaze.as_mjai(), l.kyoku, l.honba), ("S", 2, Some(1)));
        assert_eq!(l.to_string(), "S2-1");
        assert_eq!("E4".parse::<HandLabel>().unwrap().honba, None);
        assert_eq!("W1-12".parse::<HandLabel>().unwrap().honba, Some(12));
        for bad in ["", "S", "S5", "N1", "S2-", "S2-x", "S21", "s2"] {
            assert!(bad.parse::<HandLabel>().unwrap_err().contains("e.g. S2-1"), "{bad}");
        }
    }
}
