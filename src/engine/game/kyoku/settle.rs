//! Points at the end of a kyoku: wins (honba, kyotaku, double ron, pao), exhaustive draws
//! (tenpai payments, nagashi mangan).

use crate::event::{DrawReason, Event, Seat};
use crate::hand::{karaten, Riichi};
use crate::tile::Tile;

use super::state::{Kyoku, Outcome};
use crate::rules::{Players, MAX_SEATS};

/// Score changes of a chombo by `offenders` (seats; several may err at the same moment)
/// with `oya` dealing at a table of `players`: each offender pays a mangan, as dealer 4000
/// to each other seat, otherwise 4000 to the dealer and 2000 to each other seat (mjai.app's
/// penalty). Three-player: the same shares with one payee fewer, 8000 or 6000 in all
/// (RiichiEnv `state_3p/mod.rs` `_trigger_ryukyoku`, "Error: Illegal Action":
/// `4000 * (NP - 1)` and `4000 + 2000 * (NP - 2)`). Points.
pub fn chombo_deltas(offenders: &[Seat], oya: Seat, players: Players) -> [i32; MAX_SEATS] {
    let mut deltas = [0i32; MAX_SEATS];
    for &o in offenders {
        for s in players.seats().filter(|&s| s != o) {
            let pay = if o == oya || s == oya { 4000 } else { 2000 };
            deltas[s as usize] += pay;
            deltas[o as usize] -= pay;
        }
    }
    deltas
}

/// Noten payments at an exhaustive draw among the first `players.count()` seats of
/// `tenpai` (Tenhou: 3000 points split): one tenpai seat gets 3000 from the others (1000
/// each), two get 1500 each, three get 1000 each from the one noten seat; all or none
/// tenpai: nothing. Three-player: a 2000 pool (RiichiEnv `tenpai_pool`): one tenpai seat
/// gets 1000 from each of the two others, two get 1000 each from the noten seat. Points.
pub fn tenpai_payments(tenpai: [bool; MAX_SEATS], players: Players) -> [i32; MAX_SEATS] {
    let seats = players.count() as i32;
    let pool = players.noten_pool();
    let n = tenpai.iter().take(seats as usize).filter(|&&t| t).count() as i32;
    let mut out = [0; MAX_SEATS];
    if n == 0 || n == seats {
        return out;
    }
    for (s, d) in out.iter_mut().enumerate().take(seats as usize) {
        *d = if tenpai[s] { pool / n } else { -pool / (seats - n) };
    }
    out
}

impl Kyoku {
    /// Logs one `hora` per winner (in seat order after `target`; Tenhou: the first takes the
    /// honba and riichi sticks) and ends the kyoku. `target == winners[0]` for tsumo.
    ///
    /// Honba: 100 per stick from each payer of a tsumo; on ron 100 per stick for each other
    /// seat, all from the discarder: 300 at four seats, 200 at three (RiichiEnv `score.rs`
    /// `calculate_score`: `honba * 100 * (np - 1)`). Three-player tsumo is tsumo-son: each
    /// payer pays its four-player share, with one payer fewer (RiichiEnv
    /// `make_score_result`: `pay_oya + pay_ko * (np - 2)`).
    pub(super) fn settle_horas(
        &mut self,
        target: Seat,
        tile: Tile,
        winners: &[Seat],
        chankan: bool,
        log: &mut Vec<Event>,
    ) {
        let n = self.seats();
        for (i, &w) in winners.iter().enumerate() {
            let tsumo = w == target;
            let score = self.score_win(w, tile, tsumo, chankan).expect("a legal hora scores");
            let honba = if i == 0 { self.honba as i32 } else { 0 };
            let sticks = if i == 0 { self.kyotaku as i32 * 1000 } else { 0 };
            let pay = score.payment;
            let mut d = [0i32; MAX_SEATS];
            let pao = self.players[w as usize]
                .pao
                .filter(|(_, yaku)| score.yaku.iter().any(|(name, _)| name == yaku))
                .map(|(seat, _)| seat);
            if tsumo {
                let mut total = 0;
                for s in (0..n).filter(|&s| s != w) {
                    let share = if s == self.oya { pay.tsumo_oya } else { pay.tsumo_ko } + 100 * honba;
                    d[s as usize] -= share;
                    total += share;
                }
                if let Some(p) = pao {
                    // Tenhou: on tsumo the pao seat pays the whole hand.
                    d = [0; MAX_SEATS];
                    d[p as usize] = -total;
                }
                d[w as usize] += total + sticks;
            } else {
                let total = pay.ron + 100 * (n as i32 - 1) * honba;
                match pao {
                    // Tenhou: on ron the pao seat and the discarder split the hand; the
                    // pao seat pays the honba (「積み棒は包」).
                    Some(p) if p != target => {
                        d[p as usize] -= total - pay.ron / 2;
                        d[target as usize] -= pay.ron / 2;
                    }
                    _ => d[target as usize] -= total,
                }
                d[w as usize] += total + sticks;
            }
            for (s, x) in self.scores.iter_mut().zip(d) {
                *s += x;
            }
            if i == 0 {
                self.kyotaku = 0;
            }
            let ura = if self.players[w as usize].riichi != Riichi::None {
                self.wall.ura_markers[..self.dora_shown].to_vec()
            } else {
                Vec::new()
            };
            log.push(Event::Hora { actor: w, target, pai: None, deltas: Some(d), ura_markers: Some(ura) });
        }
        let dealer_won = winners.contains(&self.oya);
        self.finish(Outcome::Hora { dealer_won }, log);
    }

    /// The live wall is empty and the last discard passed: nagashi mangan if any, else
    /// tenpai payments (Tenhou: nagashi replaces them; riichi sticks stay on the table).
    pub(super) fn exhaustive_draw(&mut self, log: &mut Vec<Event>) {
        let seats = self.rules.players;
        let tenpai: [bool; MAX_SEATS] = std::array::from_fn(|s| {
            let p = &self.players[s];
            s < seats.count() && (p.waits() != 0 || (self.rules.karaten_is_tenpai && karaten(&p.counts())))
        });
        let mut deltas = [0i32; MAX_SEATS];
        let nagashi: Vec<Seat> = seats.seats().filter(|&s| self.players[s as usize].nagashi).collect();
        if nagashi.is_empty() {
            deltas = tenpai_payments(tenpai, seats);
        }
        for &n in &nagashi {
            for s in seats.seats().filter(|&s| s != n) {
                let pay = if n == self.oya || s == self.oya { 4000 } else { 2000 };
                deltas[s as usize] -= pay;
                deltas[n as usize] += pay;
            }
        }
        let dealer_tenpai = tenpai[self.oya as usize];
        self.end_ryukyoku(Outcome::Exhaustive { dealer_tenpai }, deltas, None, DrawReason::Exhaustive, log);
    }
}

#[cfg(test)]
mod tests {
    use super::tenpai_payments as four;
    use super::Players;

    fn tenpai_payments(t: [bool; 4]) -> [i32; 4] {
        four(t, Players::Four)
    }

    #[test]
    fn noten_payments_split_3000() {
        assert_eq!(tenpai_payments([true, false, false, false]), [3000, -1000, -1000, -1000]);
        assert_eq!(tenpai_payments([true, false, true, false]), [1500, -1500, 1500, -1500]);
        assert_eq!(tenpai_payments([false, true, true, true]), [-3000, 1000, 1000, 1000]);
        assert_eq!(tenpai_payments([true; 4]), [0; 4]);
        assert_eq!(tenpai_payments([false; 4]), [0; 4]);
    }

    #[test]
    fn three_player_noten_payments_split_2000() {
        // RiichiEnv `tenpai_pool` 2000: 1000 from each of two, or 1000 each from one.
        let three = |t| four(t, Players::Three);
        assert_eq!(three([true, false, false, false]), [2000, -1000, -1000, 0]);
        assert_eq!(three([false, true, true, false]), [-2000, 1000, 1000, 0]);
        assert_eq!(three([true, true, true, false]), [0; 4]);
        assert_eq!(three([false; 4]), [0; 4]);
    }

    #[test]
    fn three_player_chombo_is_a_mangan_tsumo_son() {
        // Dealer (seat 0) errs: 4000 to each of two. Non-dealer: 4000 to the dealer, 2000 to
        // the other (RiichiEnv: 8000 / 6000).
        assert_eq!(super::chombo_deltas(&[0], 0, Players::Three), [-8000, 4000, 4000, 0]);
        assert_eq!(super::chombo_deltas(&[2], 0, Players::Three), [4000, 2000, -6000, 0]);
        assert_eq!(super::chombo_deltas(&[2], 0, Players::Four), [4000, 2000, -8000, 2000]);
    }
}
