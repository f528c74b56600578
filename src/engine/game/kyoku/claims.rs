//! Answers to a discard, a kakan or an ankan: ron (up to two; three abort, or are all
//! paid under [`Rules::pay_triple_ron`](crate::rules::Rules)), then
//! pon/daiminkan over chi, else play goes on.

use crate::event::{DrawReason, Event, Seat};
use crate::hand::Riichi;

use super::state::{Kyoku, Outcome, Phase};

impl Kyoku {
    /// Resolves the answers of every seat asked (`none` for passes) to the current discard,
    /// kakan or ankan. Seats not asked count as passing.
    pub fn apply_claims(&mut self, answers: &[(Seat, Event)], log: &mut Vec<Event>) {
        let (from, tile) = match self.phase {
            Phase::Discarded { seat, tile }
            | Phase::Kakan { seat, tile }
            | Phase::Ankan { seat, tile }
            | Phase::Kita { seat, tile } => (seat, tile),
            _ => unreachable!("claims follow a discard or a kan"),
        };
        let mut winners: Vec<Seat> =
            answers.iter().filter(|(_, a)| matches!(a, Event::Hora { .. })).map(|(s, _)| *s).collect();
        let n = self.seats();
        winners.sort_by_key(|&s| (s + n - from) % n);
        for s in (0..n).filter(|&s| s != from && !winners.contains(&s)) {
            let p = &mut self.players[s as usize];
            if p.waits() >> tile.kind() & 1 == 1 {
                if p.riichi != Riichi::None {
                    p.furiten_riichi = true;
                } else {
                    p.furiten_temp = true;
                }
            }
        }
        if winners.len() == 3 && !self.rules.pay_triple_ron {
            self.end_ryukyoku(Outcome::Abortive, [0; 4], None, DrawReason::TripleRon, log);
            return;
        }
        if !winners.is_empty() {
            // Robbing a kita is no chankan (RiichiEnv `sanma.rs`: "Kita does not award
            // chankan yaku").
            let chankan = matches!(self.phase, Phase::Kakan { .. } | Phase::Ankan { .. });
            if matches!(self.phase, Phase::Kakan { .. }) {
                self.robbed_kakan(log);
            }
            self.settle_horas(from, tile, &winners, chankan, log);
            return;
        }
        match self.phase {
            Phase::Kakan { seat, .. } => self.after_kakan(seat, log),
            Phase::Kita { seat, .. } => self.after_kita(seat, log),
            Phase::Ankan { seat, .. } => self.after_ankan(seat, log),
            _ => {
                // mjai.app aborts for four winds or four kans before a riichi declared with
                // this discard is accepted (no stick goes down).
                if let Some(reason) = self.abort_after_discard().filter(|_| self.rules.abort_before_reach_accepted) {
                    self.end_ryukyoku(Outcome::Abortive, [0; 4], None, reason, log);
                    return;
                }
                if !self.accept_reach(from, log) {
                    return;
                }
                if self.four_kans_abort() {
                    self.end_ryukyoku(Outcome::Abortive, [0; 4], None, DrawReason::FourKans, log);
                    return;
                }
                let call = answers
                    .iter()
                    .find(|(_, a)| matches!(a, Event::Pon { .. } | Event::Daiminkan { .. }))
                    .or_else(|| answers.iter().find(|(_, a)| matches!(a, Event::Chi { .. })));
                match call {
                    Some((_, a)) => self.call(from, a, log),
                    None => self.after_discard(from, log),
                }
            }
        }
    }
}
