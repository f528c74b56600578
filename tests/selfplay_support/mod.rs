//! Shared by the self-play tests: an independent checker of an unmasked mjai log, fed one
//! event at a time, that knows the table (all hands) and the Tenhou progression rules.
#![allow(dead_code)]

use mjai_sim::engine::event::{DrawReason, Event, Seat};
use mjai_sim::engine::hand;
use mjai_sim::engine::tile::{to_counts, Tile, KINDS};

/// Points in play: 4 × 25000.
pub const TOTAL_POINTS: i32 = 100_000;

/// How the previous kyoku ended, for the progression checks of the next `start_kyoku`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    /// Hora; `dealer_won` when the oya is among the winners.
    Hora { dealer_won: bool },
    /// Exhaustive draw; `dealer_tenpai` from the dealer's real hand.
    Exhaustive { dealer_tenpai: bool },
    /// Abortive draw (kyuushu kyuuhai, four winds, four riichi, four kans, triple ron).
    Abortive,
    /// Chombo (`reason: "error"`): the deal moves on with honba 0 (project rule).
    Chombo,
}

/// Checks every event of one game. Errors are one line naming the event index and cause.
#[derive(Debug, Default)]
pub struct Checker {
    events: usize,
    scores: [i32; 4],
    kyotaku: u8,
    honba: u8,
    oya: Seat,
    bakaze: u8,
    kyoku: u8,
    hands: [Vec<Tile>; 4],
    last_draw: [Option<Tile>; 4],
    melds: [usize; 4],
    meld_tiles: usize,
    river_tiles: usize,
    draws: u8,
    seen: Vec<Tile>,
    outcome: Option<Outcome>,
    horas_this_kyoku: u8,
    in_kyoku: bool,
    ended: bool,
    /// Hands (start_kyoku) seen so far.
    pub kyokus: usize,
    /// Hora events seen so far.
    pub horas: usize,
}

impl Checker {
    /// A checker for a game starting at East 1 with 25000 each.
    pub fn new() -> Checker {
        Checker { scores: [25000; 4], ..Checker::default() }
    }

    /// Feeds the next event of the log.
    pub fn feed(&mut self, e: &Event) -> Result<(), String> {
        self.events += 1;
        let at = self.events;
        self.step(e).map_err(|m| format!("event #{at} {}: {m}", e.to_json()))?;
        let sum: i32 = self.scores.iter().sum::<i32>() + 1000 * i32::from(self.kyotaku);
        if sum != TOTAL_POINTS {
            return Err(format!(
                "event #{at} {}: scores {:?} + {} sticks = {sum}, not 100000",
                e.to_json(),
                self.scores,
                self.kyotaku
            ));
        }
        if self.in_kyoku {
            let hands: usize = self.hands.iter().map(Vec::len).sum();
            let live = 70 - usize::from(self.draws);
            let total = hands + self.river_tiles + self.meld_tiles + live + 14;
            if total != 136 {
                return Err(format!(
                    "event #{at} {}: tiles accounted {total} != 136 (hands {hands}, rivers {}, melds {}, live wall {live}, dead wall 14)",
                    e.to_json(),
                    self.river_tiles,
                    self.meld_tiles
                ));
            }
        }
        Ok(())
    }

    /// True once `end_game` was seen.
    pub fn ended(&self) -> bool {
        self.ended
    }

    fn take(&mut self, seat: Seat, t: Tile) -> Result<(), String> {
        let h = &mut self.hands[seat as usize];
        let p = h.iter().position(|&x| x == t).ok_or_else(|| format!("seat {seat} does not hold {t} (hand {h:?})"))?;
        h.remove(p);
        Ok(())
    }

    fn reveal(&mut self, tiles: &[Tile]) -> Result<(), String> {
        self.seen.extend_from_slice(tiles);
        let c = to_counts(&self.seen);
        if let Some(k) = (0..KINDS).find(|&k| c[k] > 4) {
            return Err(format!(
                "more than four tiles of kind {} in play",
                Tile::from_kind(k as u8).unwrap_or_default()
            ));
        }
        for red in [Tile::RED_5M, Tile::RED_5P, Tile::RED_5S] {
            let reds = self.seen.iter().filter(|&&t| t == red).count();
            let plain = self.seen.iter().filter(|&&t| t == red.deaka()).count();
            if reds > 1 || plain > 3 {
                return Err(format!("{reds} × {red} and {plain} × {} in play (Tenhou: one red per five)", red.deaka()));
            }
        }
        Ok(())
    }

    fn concealed_size_ok(&self, seat: Seat, extra: usize) -> Result<(), String> {
        let want = 13 - 3 * self.melds[seat as usize] + extra;
        let have = self.hands[seat as usize].len();
        if have != want {
            return Err(format!("seat {seat} holds {have} tiles, expected {want}"));
        }
        Ok(())
    }

    fn step(&mut self, e: &Event) -> Result<(), String> {
        if self.ended {
            return Err("event after end_game".into());
        }
        match e {
            Event::StartGame { .. } => {}
            // This checker follows four-player games; kita is three-player only.
            Event::Kita { .. } => return Err("kita in a four-player game".into()),
            Event::StartKyoku { bakaze, dora_marker, kyoku, honba, kyotaku, oya, scores, tehais } => {
                if *scores != self.scores {
                    return Err(format!("scores {scores:?} but the deltas so far give {:?}", self.scores));
                }
                if *kyotaku != self.kyotaku {
                    return Err(format!("kyotaku {kyotaku}, expected {}", self.kyotaku));
                }
                if let Some(s) = scores.iter().position(|&x| x < 0) {
                    return Err(format!("seat {s} is below 0 points: the game should have ended (Tenhou tobi)"));
                }
                if *oya != kyoku - 1 {
                    return Err(format!("oya {oya} in kyoku {kyoku}"));
                }
                self.check_progression(bakaze.kind(), *kyoku, *honba)?;
                *self = Checker {
                    events: self.events,
                    scores: self.scores,
                    kyotaku: self.kyotaku,
                    honba: *honba,
                    oya: *oya,
                    bakaze: bakaze.kind(),
                    kyoku: *kyoku,
                    hands: std::array::from_fn(|s| tehais[s].to_vec()),
                    in_kyoku: true,
                    kyokus: self.kyokus + 1,
                    horas: self.horas,
                    ..Checker::default()
                };
                let all: Vec<Tile> = tehais.iter().flatten().copied().chain([*dora_marker]).collect();
                self.reveal(&all)?;
            }
            Event::Tsumo { actor, pai } => {
                self.draws += 1;
                if self.draws > 70 {
                    return Err("more than 70 draws in one kyoku".into());
                }
                self.reveal(&[*pai])?;
                self.concealed_size_ok(*actor, 0)?;
                self.hands[*actor as usize].push(*pai);
                self.last_draw[*actor as usize] = Some(*pai);
            }
            Event::Dahai { actor, pai, tsumogiri } => {
                self.concealed_size_ok(*actor, 1)?;
                if *tsumogiri && self.last_draw[*actor as usize] != Some(*pai) {
                    return Err(format!(
                        "tsumogiri of {pai} but the seat's last draw was {:?}",
                        self.last_draw[*actor as usize]
                    ));
                }
                self.take(*actor, *pai)?;
                self.last_draw[*actor as usize] = None;
                self.river_tiles += 1;
            }
            Event::Chi { actor, target, pai, consumed } | Event::Pon { actor, target, pai, consumed } => {
                if matches!(e, Event::Chi { .. }) && (*target + 1) % 4 != *actor {
                    return Err("chi from a seat that is not the kamicha".into());
                }
                let mut kinds = [consumed[0].kind(), consumed[1].kind(), pai.kind()];
                kinds.sort_unstable();
                let run = kinds[2] < 27
                    && kinds[0] / 9 == kinds[2] / 9
                    && kinds[1] == kinds[0] + 1
                    && kinds[2] == kinds[0] + 2;
                let set = kinds[0] == kinds[2];
                if matches!(e, Event::Chi { .. }) && !run || matches!(e, Event::Pon { .. }) && !set {
                    return Err("call tiles do not form the set".into());
                }
                for c in consumed {
                    self.take(*actor, *c)?;
                }
                self.claim(*actor, 3);
            }
            Event::Daiminkan { actor, pai, consumed, .. } => {
                if consumed.iter().any(|c| c.kind() != pai.kind()) {
                    return Err("daiminkan tiles differ".into());
                }
                for c in consumed {
                    self.take(*actor, *c)?;
                }
                self.claim(*actor, 4);
            }
            Event::Kakan { actor, pai, .. } => {
                self.take(*actor, *pai)?;
                self.meld_tiles += 1;
            }
            Event::Ankan { actor, consumed } => {
                if consumed.iter().any(|c| c.kind() != consumed[0].kind()) {
                    return Err("ankan tiles differ".into());
                }
                for c in consumed {
                    self.take(*actor, *c)?;
                }
                self.melds[*actor as usize] += 1;
                self.meld_tiles += 4;
            }
            Event::Dora { dora_marker } => self.reveal(&[*dora_marker])?,
            Event::Reach { .. } => {}
            Event::ReachAccepted { actor } => {
                self.scores[*actor as usize] -= 1000;
                self.kyotaku += 1;
                if self.scores[*actor as usize] < 0 {
                    return Err("riichi with less than 1000 points".into());
                }
            }
            Event::Hora { actor, deltas, ura_markers, .. } => {
                let d = deltas.ok_or("hora without deltas in the log")?;
                let sum: i32 = d.iter().sum();
                let sticks = if self.horas_this_kyoku == 0 { 1000 * i32::from(self.kyotaku) } else { 0 };
                if sum != sticks {
                    return Err(format!("hora deltas sum to {sum}, expected the {sticks} points of riichi sticks"));
                }
                if d[*actor as usize] <= 0 {
                    return Err("winner does not gain".into());
                }
                // Each hora of a double ron repeats the same ura indicators.
                if let (Some(u), 0) = (ura_markers, self.horas_this_kyoku) {
                    self.reveal(u)?;
                }
                self.apply(d);
                self.kyotaku = 0;
                self.horas_this_kyoku += 1;
                self.horas += 1;
                let dealer_won = *actor == self.oya || matches!(self.outcome, Some(Outcome::Hora { dealer_won: true }));
                self.outcome = Some(Outcome::Hora { dealer_won });
            }
            Event::Ryukyoku { deltas, reason, .. } => {
                let d = deltas.ok_or("ryukyoku without deltas in the log")?;
                if d.iter().sum::<i32>() != 0 {
                    return Err("ryukyoku deltas do not sum to 0".into());
                }
                self.apply(d);
                // The logged reason (issue 20) must agree with the position; a log without
                // one is classified from the position alone.
                let reason = reason.as_deref().map(|r| DrawReason::parse(r).ok_or(format!("unknown draw reason {r}")));
                self.outcome = Some(match reason.transpose()? {
                    Some(DrawReason::Chombo) => Outcome::Chombo,
                    Some(DrawReason::Exhaustive) if self.draws != 70 => {
                        return Err(format!("an exhaustive draw after {} draws", self.draws));
                    }
                    Some(DrawReason::Exhaustive) => Outcome::Exhaustive { dealer_tenpai: self.tenpai(self.oya) },
                    Some(_) => Outcome::Abortive,
                    None if self.draws == 70 => Outcome::Exhaustive { dealer_tenpai: self.tenpai(self.oya) },
                    None => Outcome::Abortive,
                });
            }
            Event::EndKyoku => {
                if self.outcome.is_none() {
                    return Err("end_kyoku without hora or ryukyoku".into());
                }
                self.in_kyoku = false;
            }
            Event::EndGame => {
                if self.in_kyoku {
                    return Err("end_game inside a kyoku".into());
                }
                self.ended = true;
            }
            Event::None => return Err("none in the log".into()),
        }
        Ok(())
    }

    fn claim(&mut self, actor: Seat, size: usize) {
        self.river_tiles -= 1;
        self.meld_tiles += size;
        self.melds[actor as usize] += 1;
    }

    fn apply(&mut self, d: [i32; 4]) {
        for (s, x) in self.scores.iter_mut().zip(d) {
            *s += x;
        }
    }

    /// Tenhou tenpai at an exhaustive draw (waits on a kind the hand holds all four of do
    /// not count), from the seat's real hand.
    fn tenpai(&self, seat: Seat) -> bool {
        hand::waits(&to_counts(&self.hands[seat as usize]), self.melds[seat as usize] as u8) != 0
    }

    /// honba / kyotaku / oya progression from the previous kyoku's outcome (Tenhou rules;
    /// the game's start is East 1, 0 honba).
    fn check_progression(&self, bakaze: u8, kyoku: u8, honba: u8) -> Result<(), String> {
        let pos = |b: u8, k: u8| (b - 27) * 4 + k - 1;
        let prev = pos(self.bakaze.max(27), self.kyoku.max(1));
        let now = pos(bakaze, kyoku);
        let (want_pos, want_honba) = match self.outcome {
            None => (0, 0),
            Some(Outcome::Hora { dealer_won: true }) => (prev, self.honba + 1),
            Some(Outcome::Hora { dealer_won: false }) => (prev + 1, 0),
            Some(Outcome::Exhaustive { dealer_tenpai: true }) | Some(Outcome::Abortive) => (prev, self.honba + 1),
            Some(Outcome::Exhaustive { dealer_tenpai: false }) => (prev + 1, self.honba + 1),
            Some(Outcome::Chombo) => (prev + 1, 0),
        };
        if (now, honba) != (want_pos, want_honba) {
            return Err(format!(
                "after {:?} at position {prev} honba {}: got position {now} honba {honba}, expected position {want_pos} honba {want_honba}",
                self.outcome, self.honba
            ));
        }
        Ok(())
    }
}
