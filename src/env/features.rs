//! The feature encoder: what one seat knows ([`PlayerState`], read from the masked events
//! it received) as planes over the 34 tile kinds, written into a flat `f32` buffer of
//! [`Encoder::len`] values (`channels × 34`, row-major: plane `c`'s kind `k` at
//! `c * 34 + k`). Every value is in `0..=1`.
//!
//! Seats are relative: `r = 0` is the deciding seat, then its shimocha (next to act),
//! toimen, kamicha; a three-player table has three (`n = 3`), a four-player one four.
//!
//! | planes | count | value |
//! |---|---|---|
//! | own hand | 4 | plane `i` (0..4) is 1 where the hand holds more than `i` of the kind (drawn tile included) |
//! | own red fives | 1 | 1 at 5m/5p/5s where the hand holds that red five |
//! | drawn tile | 1 | 1 at the tile just drawn (own turn), else 0 |
//! | per relative seat `r` (`n` times, 11 each): | | |
//! | … calls | 1 | tiles of the kind in its calls / 4 |
//! | … river | 1 | tiles of the kind it discarded (called ones included) / 4 |
//! | … last discards | 6 | plane `j` is 1 at its `j`-th latest discard (`j = 0`: the last) |
//! | … riichi tile | 1 | 1 at the tile it declared riichi with |
//! | … in riichi | 1 | all 1 when its riichi was accepted |
//! | … score | 1 | all its score / 100000 (clamped to 0..1) |
//! | dora indicators | 1 | indicators shown of the kind / 4 |
//! | dora | 1 | dora of the kind / 4 (three-player: 1m indicates 9m) |
//! | round wind | 1 | 1 at the bakaze kind (E, S, W) |
//! | seat wind | 1 | 1 at the deciding seat's wind kind |
//! | honba | 1 | all min(honba, 10) / 10 |
//! | kyotaku | 1 | all min(kyotaku, 10) / 10 |
//! | tiles left | 1 | all live tiles left / live tiles of the kyoku (70, 55 three-player) |
//! | hand number | 1 | all kyoku / 4 (1..4 within the round) |
//! | three-player only: kita per relative seat | 3 | all its kita count / 4 |
//!
//! Four players: 6 + 44 + 8 = 58 planes (1972 values); three players: 6 + 33 + 8 + 3 =
//! 50 planes (1700 values).

use mjai_sim_bots::PlayerState;
use mjai_sim_engine::game::Players;
use mjai_sim_engine::hand::Riichi;
use mjai_sim_engine::tile::{Tile, KINDS};

/// Discards per seat shown in order (the last ones).
pub const LAST_DISCARDS: usize = 6;

/// Planes per relative seat.
const PER_SEAT: usize = 5 + LAST_DISCARDS;

/// Encodes a seat's view for a table of a fixed size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Encoder {
    players: Players,
}

impl Encoder {
    /// The encoder for a table of `players`.
    pub const fn new(players: Players) -> Encoder {
        Encoder { players }
    }

    /// Planes: 58 at four seats, 50 at three.
    pub const fn channels(&self) -> usize {
        let n = self.players.count();
        let kita = match self.players {
            Players::Four => 0,
            Players::Three => 3,
        };
        6 + PER_SEAT * n + 8 + kita
    }

    /// Values per decision: `channels() * 34`.
    pub const fn len(&self) -> usize {
        self.channels() * KINDS
    }

    /// Never empty (an encoder has planes); for clippy's `len_without_is_empty`.
    pub const fn is_empty(&self) -> bool {
        false
    }

    /// Writes `state`'s features into `out` (exactly [`Encoder::len`] values; every value is
    /// overwritten).
    ///
    /// # Panics
    /// When `out.len() != self.len()` (a caller's bug).
    pub fn encode(&self, state: &PlayerState, out: &mut [f32]) {
        assert_eq!(out.len(), self.len(), "feature buffer of the wrong size");
        out.fill(0.0);
        let mut planes = Planes { out, next: 0 };
        let table = &state.table;
        let n = self.players.count();
        let me = usize::from(state.seat) % n;
        let own = &table.seats[me];

        let counts = mjai_sim_engine::tile::to_counts(&own.tehai);
        for i in 0..4u8 {
            let p = planes.take();
            for (k, &c) in counts.iter().enumerate() {
                if c > i {
                    p[k] = 1.0;
                }
            }
        }
        let p = planes.take();
        for t in own.tehai.iter().filter(|t| t.is_red()) {
            p[usize::from(t.kind())] = 1.0;
        }
        let p = planes.take();
        if let Some(t) = own.drawn.filter(|t| !t.is_unknown()) {
            p[usize::from(t.kind())] = 1.0;
        }

        for r in 0..n {
            let seat = &table.seats[(me + r) % n];
            let p = planes.take();
            for t in seat.melds.iter().flat_map(|m| m.tiles.iter()) {
                add_quarter(p, *t);
            }
            let p = planes.take();
            for d in &seat.river {
                add_quarter(p, d.pai);
            }
            for j in 0..LAST_DISCARDS {
                let p = planes.take();
                if let Some(d) = seat.river.iter().rev().nth(j) {
                    set_one(p, d.pai);
                }
            }
            let p = planes.take();
            if let Some(d) = seat.river.iter().find(|d| d.riichi) {
                set_one(p, d.pai);
            }
            planes.fill(if seat.riichi != Riichi::None { 1.0 } else { 0.0 });
            planes.fill((table.scores[(me + r) % n] as f32 / 100_000.0).clamp(0.0, 1.0));
        }

        let p = planes.take();
        for t in &table.dora_markers {
            add_quarter(p, *t);
        }
        let p = planes.take();
        for t in table.dora_markers.iter().filter(|t| !t.is_unknown()) {
            let dora = match (self.players, t.kind()) {
                (Players::Three, 0) => 8,
                _ => t.dora_from_indicator(),
            };
            p[usize::from(dora)] += 0.25;
        }
        let p = planes.take();
        set_one(p, table.start.bakaze);
        let p = planes.take();
        p[usize::from(table.jikaze(state.seat)) % KINDS] = 1.0;
        planes.fill(f32::from(table.start.honba.min(10)) / 10.0);
        planes.fill(f32::from(table.kyotaku.min(10)) / 10.0);
        planes.fill(table.tiles_left() as f32 / table.live_tiles().max(1) as f32);
        planes.fill(f32::from(table.start.kyoku) / 4.0);
        if self.players == Players::Three {
            for r in 0..n {
                planes.fill(f32::from(table.seats[(me + r) % n].kita.min(4)) / 4.0);
            }
        }
        debug_assert_eq!(planes.next, self.channels());
    }
}

/// The buffer handed out one plane at a time.
struct Planes<'a> {
    out: &'a mut [f32],
    next: usize,
}

impl Planes<'_> {
    fn take(&mut self) -> &mut [f32] {
        let start = self.next * KINDS;
        self.next += 1;
        &mut self.out[start..start + KINDS]
    }

    fn fill(&mut self, value: f32) {
        self.take().fill(value);
    }
}

fn add_quarter(plane: &mut [f32], t: Tile) {
    if !t.is_unknown() {
        plane[usize::from(t.kind())] += 0.25;
    }
}

fn set_one(plane: &mut [f32], t: Tile) {
    if !t.is_unknown() {
        plane[usize::from(t.kind())] = 1.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mjai_sim_engine::event::Event;

    fn t(s: &str) -> Tile {
        s.parse().unwrap()
    }

    #[test]
    fn sizes_are_as_documented() {
        assert_eq!(Encoder::new(Players::Four).channels(), 58);
        assert_eq!(Encoder::new(Players::Four).len(), 1972);
        assert_eq!(Encoder::new(Players::Three).channels(), 50);
        assert_eq!(Encoder::new(Players::Three).len(), 1700);
    }

    #[test]
    fn hand_draw_dora_and_winds_land_on_their_planes() {
        let mut tehais = [[Tile::UNKNOWN; 13]; 4];
        let hand = mjai_sim_engine::tile::parse_compact("112340m456p789s1z").unwrap();
        tehais[1].copy_from_slice(&hand);
        let mut s = PlayerState::new();
        s.update(&Event::StartGame { names: None, seed: None, id: Some(1) });
        s.update(&Event::StartKyoku {
            bakaze: t("E"),
            dora_marker: t("9s"),
            kyoku: 2,
            honba: 1,
            kyotaku: 0,
            oya: 1,
            scores: [25000; 4],
            tehais: Box::new(tehais),
        });
        s.update(&Event::Tsumo { actor: 1, pai: t("5p") });
        let enc = Encoder::new(Players::Four);
        let mut out = vec![9.0; enc.len()];
        enc.encode(&s, &mut out);
        let at = |plane: usize, kind: usize| out[plane * KINDS + kind];
        assert_eq!([at(0, 0), at(1, 0), at(2, 0), at(3, 0)], [1.0, 1.0, 0.0, 0.0], "two 1m");
        assert_eq!(at(1, 13), 1.0, "5p twice after the draw");
        assert_eq!(at(4, 4), 1.0, "red 5m held");
        assert_eq!(at(5, 13), 1.0, "drawn 5p");
        let base = 6 + PER_SEAT * 4;
        assert_eq!(at(base, 26), 0.25, "one 9s indicator");
        assert_eq!(at(base + 1, 18), 0.25, "so 1s is dora");
        assert_eq!(at(base + 2, 27), 1.0, "East round");
        assert_eq!(at(base + 3, 27), 1.0, "the dealer sits East");
        assert_eq!(at(base + 4, 0), 0.1, "one honba");
        assert_eq!(at(6 + 10, 0), 0.25, "own score 25000");
        assert!(out.iter().all(|v| (0.0..=1.0).contains(v)));
    }

    #[test]
    fn calls_rivers_and_riichi_land_on_the_right_relative_seat() {
        let mut tehais = [[Tile::UNKNOWN; 13]; 4];
        tehais[0].copy_from_slice(&mjai_sim_engine::tile::parse_compact("1199m123p456s777z").unwrap());
        let mut s = PlayerState::new();
        let events = [
            Event::StartGame { names: None, seed: None, id: Some(0) },
            Event::StartKyoku {
                bakaze: t("E"),
                dora_marker: t("1p"),
                kyoku: 1,
                honba: 0,
                kyotaku: 0,
                oya: 2,
                scores: [25000; 4],
                tehais: Box::new(tehais),
            },
            Event::Tsumo { actor: 2, pai: Tile::UNKNOWN },
            Event::Dahai { actor: 2, pai: t("9m"), tsumogiri: true },
            Event::Pon { actor: 0, target: 2, pai: t("9m"), consumed: [t("9m"), t("9m")] },
            Event::Dahai { actor: 0, pai: t("1m"), tsumogiri: false },
            Event::Tsumo { actor: 1, pai: Tile::UNKNOWN },
            Event::Dahai { actor: 1, pai: t("E"), tsumogiri: true },
            Event::Tsumo { actor: 2, pai: Tile::UNKNOWN },
            Event::Dahai { actor: 2, pai: t("S"), tsumogiri: true },
            Event::Tsumo { actor: 3, pai: Tile::UNKNOWN },
            Event::Reach { actor: 3 },
            Event::Dahai { actor: 3, pai: t("W"), tsumogiri: false },
            Event::ReachAccepted { actor: 3 },
        ];
        for e in &events {
            s.update(e);
        }
        let enc = Encoder::new(Players::Four);
        let mut out = vec![0.0; enc.len()];
        enc.encode(&s, &mut out);
        let at = |plane: usize, kind: usize| out[plane * KINDS + kind];
        let seat = |r: usize, plane: usize| 6 + PER_SEAT * r + plane;
        assert_eq!(at(seat(0, 0), 8), 0.75, "own pon of 9m: three tiles");
        assert_eq!(at(0, 8), 0.0, "no 9m left in the hand");
        assert_eq!(at(seat(0, 2), 0), 1.0, "own last discard 1m");
        assert_eq!(at(seat(2, 1), 8), 0.25, "toimen discarded 9m (called)");
        assert_eq!(at(seat(2, 2), 28), 1.0, "toimen's last discard S");
        assert_eq!(at(seat(2, 3), 8), 1.0, "and 9m before it");
        assert_eq!(at(seat(3, 8), 29), 1.0, "kamicha's riichi tile W");
        assert_eq!(at(seat(3, 9), 5), 1.0, "kamicha is in riichi");
        assert_eq!(at(seat(3, 10), 0), 0.24, "kamicha paid its stick");
        assert_eq!(at(seat(1, 9), 0), 0.0, "shimocha is not in riichi");
        let base = 6 + PER_SEAT * 4;
        assert_eq!(at(base + 3, 29), 1.0, "seat 0 sits West when seat 2 deals");
    }
}
