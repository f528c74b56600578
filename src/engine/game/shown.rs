//! The tiles of one hand's wall that an mjai log shows: the haipai in `start_kyoku`, the
//! live and rinshan draws (a `tsumo` right after a kan is a rinshan draw), the dora
//! indicators (`start_kyoku` and `dora`) and the ura indicators of a riichi winner's `hora`.
//! At a three-player table a `tsumo` right after a `kita` is a replacement draw too.

use crate::event::Event;
use crate::tile::Tile;

use super::disagreement::Disagreement;
use super::wall::Wall;
use crate::log::KyokuStart;
use crate::rules::Players;

/// What a log shows of one hand's wall, each part in the order it is used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShownTiles {
    /// Starting 13 tiles per seat (seat 3's all `?` at a three-player table).
    pub haipai: [[Tile; 13]; 4],
    /// The table size, read from the `start_kyoku` ([`KyokuStart::of`]).
    pub players: Players,
    /// Live draws, in draw order.
    pub live: Vec<Tile>,
    /// Rinshan draws, in draw order.
    pub rinshan: Vec<Tile>,
    /// Dora indicators, in the order they were shown.
    pub dora: Vec<Tile>,
    /// Ura indicators (the longest list a `hora` shows).
    pub ura: Vec<Tile>,
}

impl ShownTiles {
    /// Reads the hand whose `start_kyoku` is `log[start]`; returns its tiles and the index
    /// after its `end_kyoku` (or the log's length when it was cut short).
    ///
    /// Errors (at the event concerned) when `log[start]` is not a `start_kyoku`, or another
    /// `start_kyoku` comes before `end_kyoku`.
    pub fn read(log: &[Event], start: usize) -> Result<(ShownTiles, usize), Disagreement> {
        let at = |index, reason: &str| Disagreement { index, reason: reason.into() };
        let Some(event @ Event::StartKyoku { dora_marker, tehais, .. }) = log.get(start) else {
            return Err(at(start, "not a start_kyoku"));
        };
        let mut shown = ShownTiles {
            haipai: **tehais,
            players: KyokuStart::of(event).map_or(Players::Four, |k| k.players),
            live: Vec::new(),
            rinshan: Vec::new(),
            dora: vec![*dora_marker],
            ura: Vec::new(),
        };
        let mut after_kan = false;
        let mut i = start + 1;
        while i < log.len() && !matches!(log[i], Event::EndKyoku) {
            match &log[i] {
                Event::Tsumo { pai, .. } if after_kan => {
                    shown.rinshan.push(*pai);
                    after_kan = false;
                }
                Event::Tsumo { pai, .. } => shown.live.push(*pai),
                Event::Ankan { .. } | Event::Daiminkan { .. } | Event::Kakan { .. } | Event::Kita { .. } => {
                    after_kan = true
                }
                Event::Dora { dora_marker } => shown.dora.push(*dora_marker),
                Event::Hora { ura_markers: Some(u), .. } if u.len() > shown.ura.len() => shown.ura = u.clone(),
                Event::StartKyoku { .. } => return Err(at(i, "start_kyoku before the previous end_kyoku")),
                _ => {}
            }
            i += 1;
        }
        Ok((shown, (i + 1).min(log.len())))
    }

    /// A wall holding these tiles where the log shows them; every tile it never shows is
    /// filled with the tiles left over, in set order (see [`Wall::arranged`], and
    /// [`Wall::arranged_3p`] at a three-player table).
    ///
    /// Errors when the log shows more tiles of a kind than a set holds, or too many draws.
    pub fn to_wall(&self) -> Result<Wall, String> {
        if self.players == Players::Three {
            let [a, b, c, _] = &self.haipai;
            return Wall::arranged_3p(
                [a.to_vec(), b.to_vec(), c.to_vec()],
                self.live.clone(),
                self.rinshan.clone(),
                self.dora.clone(),
                self.ura.clone(),
            );
        }
        Wall::arranged(
            self.haipai.map(|h| h.to_vec()),
            self.live.clone(),
            self.rinshan.clone(),
            self.dora.clone(),
            self.ura.clone(),
        )
    }

    /// True when `wall` deals every tile shown here, where it is shown.
    pub fn agree_with(&self, wall: &Wall) -> bool {
        let prefix = |shown: &[Tile], part: &[Tile]| shown.len() <= part.len() && shown == &part[..shown.len()];
        self.haipai == wall.haipai
            && prefix(&self.live, &wall.live)
            && prefix(&self.rinshan, &wall.rinshan)
            && prefix(&self.dora, &wall.dora_markers)
            && prefix(&self.ura, &wall.ura_markers)
    }
}
