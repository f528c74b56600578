//! One kyoku (hand) as a state machine: deal, draws, discards, calls, and its end.
//!
//! The kyoku writes events into the caller's log and stops at each decision point
//! ([`Phase`]); `legal` lists the answers, `turn` and `claims` apply them. When the kyoku
//! ends, [`Kyoku::outcome`] tells the hanchan how to go on.

mod claims;
mod kita;
mod settle;
mod state;
mod turn;

use crate::event::{DrawReason, Event, Seat};
use crate::hand::{evaluate_with, Extra, HandScore, Riichi, WinContext};
use crate::tile::Tile;

use super::player::Player;
use super::setup::StartState;
use super::wall::Wall;
use crate::rules::{Players, Rules, MAX_SEATS};

pub use settle::chombo_deltas;
pub use state::{Kyoku, Outcome, Phase};
pub use turn::kuikae;

impl Kyoku {
    /// Deals `wall` at `state` (round, hand, sticks, scores), logs `start_kyoku` and the
    /// dealer's first tsumo.
    pub fn start(state: &StartState, wall: Wall, rules: Rules, log: &mut Vec<Event>) -> Kyoku {
        let StartState { bakaze, kyoku, honba, kyotaku, scores } = state.clone();
        let seats = rules.players.count();
        let oya = (kyoku.max(1) - 1) % seats as u8;
        let players = std::array::from_fn(|s| if s < seats { Player::new(&wall.haipai[s]) } else { Player::absent() });
        let mut k = Kyoku {
            bakaze,
            honba,
            kyotaku,
            oya,
            scores,
            wall,
            live_drawn: 0,
            rinshan_drawn: 0,
            dora_shown: 1,
            players,
            phase: Phase::Over,
            uninterrupted: true,
            kan_makers: Vec::new(),
            dora_at_discard: false,
            dora_at_tsumo: false,
            rinshan_turn: false,
            kita_turn: false,
            outcome: None,
            rules,
        };
        log.push(Event::StartKyoku {
            bakaze,
            dora_marker: k.wall.dora_markers[0],
            kyoku,
            honba,
            kyotaku,
            oya,
            scores,
            tehais: Box::new(k.wall.haipai),
        });
        k.draw(oya, false, log);
        k
    }

    /// Tiles still drawable from the live wall (each kan or kita takes one from its end).
    pub fn live_left(&self) -> usize {
        self.wall.live.len().saturating_sub(self.live_drawn + self.rinshan_drawn)
    }

    /// Seats at the table (4, or 3 for sanma).
    pub fn seats(&self) -> u8 {
        self.rules.players.count() as u8
    }

    /// The seat after `seat` in turn order (shimocha).
    pub fn next_seat(&self, seat: Seat) -> Seat {
        (seat + 1) % self.seats()
    }

    /// Seat wind kind (27 = East for the dealer; three-player: E, S, W).
    pub fn jikaze(&self, seat: Seat) -> u8 {
        27 + (seat + self.seats() - self.oya) % self.seats()
    }

    /// Kans made by all seats.
    pub fn kans(&self) -> usize {
        self.kan_makers.len()
    }

    /// `seat` draws (from the dead wall when `rinshan`) and logs the tsumo, after the dora
    /// of an earlier kan when a kakan followed it.
    fn draw(&mut self, seat: Seat, rinshan: bool, log: &mut Vec<Event>) {
        let tile = if rinshan {
            self.rinshan_drawn += 1;
            self.wall.rinshan[self.rinshan_drawn - 1]
        } else {
            self.live_drawn += 1;
            self.wall.live[self.live_drawn - 1]
        };
        if std::mem::take(&mut self.dora_at_tsumo) {
            self.reveal_dora(log);
        }
        let p = &mut self.players[seat as usize];
        p.take(tile);
        p.drawn = Some(tile);
        p.kuikae = 0;
        self.rinshan_turn = rinshan;
        self.kita_turn = false;
        log.push(Event::Tsumo { actor: seat, pai: tile });
        self.phase = Phase::Turn { seat, after_call: false };
    }

    fn reveal_dora(&mut self, log: &mut Vec<Event>) {
        self.dora_shown += 1;
        log.push(Event::Dora { dora_marker: self.wall.dora_markers[self.dora_shown - 1] });
    }

    /// Scores a win by `seat` on `win_tile` (held in the hand for tsumo, claimed for ron).
    /// `None` when the hand is not complete or has no yaku.
    pub fn score_win(&self, seat: Seat, win_tile: Tile, tsumo: bool, chankan: bool) -> Option<HandScore> {
        let p = &self.players[seat as usize];
        // Cheap checks first (no allocation): the tile is held for tsumo, the hand complete.
        let held = if tsumo { Some(p.tehai.iter().position(|&t| t == win_tile)?) } else { None };
        let mut counts = p.counts();
        if !tsumo {
            counts[win_tile.kind() as usize] += 1;
        }
        if crate::hand::shanten(&counts, p.calls.len() as u8) != -1 {
            return None;
        }
        let mut tehai = p.tehai.clone();
        if let Some(i) = held {
            tehai.remove(i);
        }
        let ctx = WinContext {
            tehai,
            win_tile,
            melds: p.melds(),
            tsumo,
            riichi: p.riichi,
            ippatsu: p.ippatsu && p.riichi != Riichi::None,
            last_tile: self.live_left() == 0 && !chankan && !(tsumo && self.rinshan_turn),
            rinshan: tsumo && self.rinshan_turn && (!self.kita_turn || self.rules.kita_is_rinshan),
            chankan,
            first_draw: tsumo && self.uninterrupted && p.kawa.is_empty(),
            bakaze: self.bakaze.kind(),
            jikaze: self.jikaze(seat),
            dora_markers: self.wall.dora_markers[..self.dora_shown].to_vec(),
            ura_markers: self.wall.ura_markers[..self.dora_shown].to_vec(),
        };
        let extra = Extra { sanma: self.rules.players == Players::Three, kita: p.kita };
        let score = evaluate_with(&ctx, &extra).ok()?;
        Some(if self.rules.tenhou_chiihou_alone { first_draw_alone(score) } else { score })
    }

    /// Ends the kyoku with a draw of `deltas`, logging `ryukyoku` with its `reason`.
    pub fn end_ryukyoku(
        &mut self,
        outcome: Outcome,
        deltas: [i32; MAX_SEATS],
        actor: Option<Seat>,
        reason: DrawReason,
        log: &mut Vec<Event>,
    ) {
        for (s, d) in self.scores.iter_mut().zip(deltas) {
            *s += d;
        }
        log.push(Event::Ryukyoku { actor, deltas: Some(deltas), reason: Some(reason.as_str().to_string()) });
        self.finish(outcome, log);
    }

    fn finish(&mut self, outcome: Outcome, log: &mut Vec<Event>) {
        log.push(Event::EndKyoku);
        self.phase = Phase::Over;
        self.outcome = Some(outcome);
    }

    /// Chombo by `offenders`: each pays a mangan (dealer: 4000 to each other seat;
    /// otherwise 4000 to the dealer and 2000 to each other seat). Riichi sticks already
    /// deposited stay on the table.
    pub fn chombo(&mut self, offenders: &[Seat], log: &mut Vec<Event>) {
        let deltas = settle::chombo_deltas(offenders, self.oya, self.rules.players);
        self.end_ryukyoku(Outcome::Chombo, deltas, offenders.first().copied(), DrawReason::Chombo, log);
    }
}

/// Tenhou or chiihou scored as one yakuman and nothing else (mjai.app); other hands as they
/// are. Yakuman payments are linear in the multiplier, so each share is divided by it.
fn first_draw_alone(mut score: HandScore) -> HandScore {
    let Some(&first) = score.yaku.iter().find(|(name, _)| matches!(*name, "tenhou" | "chiihou")) else {
        return score;
    };
    let n = score.yakuman.max(1) as i32;
    score.payment.ron /= n;
    score.payment.tsumo_oya /= n;
    score.payment.tsumo_ko /= n;
    score.yaku = vec![first];
    score.han = first.1;
    score.yakuman = 1;
    score
}
