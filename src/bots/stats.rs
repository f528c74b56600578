//! Per-seat statistics over finished self-play games.

use mjai_sim_engine::game::{ranks_for, MAX_SEATS};
use mjai_sim_engine::log::read;

use super::selfplay::Finished;

/// Running totals over games, per seat. Points in points.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tally {
    /// Games counted.
    pub games: u64,
    /// Hands (kyoku) counted, chombo hands included.
    pub kyokus: u64,
    /// Sum of final scores per seat.
    pub score_sum: [i64; MAX_SEATS],
    /// Placements per seat: `ranks[seat][r]` counts finishes in place `r + 1` (ties go to
    /// the earlier seat, as mjai.app ranks).
    pub ranks: [[u64; MAX_SEATS]; MAX_SEATS],
    /// Wins (hora) per seat.
    pub horas: [u64; MAX_SEATS],
    /// Ron wins paid by this seat (deal-ins).
    pub deal_ins: [u64; MAX_SEATS],
    /// Chombos per seat.
    pub chombos: [u64; MAX_SEATS],
}

impl Tally {
    /// Adds one finished game (its hands read by [`mjai_sim_engine::log::read`]; a `hora`
    /// naming no seat `0..4` counts for nobody).
    pub fn add(&mut self, game: &Finished) {
        self.games += 1;
        let log = read(&game.log);
        self.kyokus += log.kyokus.len() as u64;
        for hora in log.kyokus.iter().flat_map(|k| k.horas()) {
            if let Some(n) = self.horas.get_mut(usize::from(hora.actor)) {
                *n += 1;
            }
            if !hora.is_tsumo() {
                if let Some(n) = self.deal_ins.get_mut(usize::from(hora.target)) {
                    *n += 1;
                }
            }
        }
        for (seat, place) in ranks_for(game.scores, game.players).iter().enumerate().take(game.players.count()) {
            self.ranks[seat][*place as usize - 1] += 1;
            self.score_sum[seat] += i64::from(game.scores[seat]);
        }
        for (seat, _) in &game.chombos {
            self.chombos[*seat as usize] += 1;
        }
    }

    /// Mean final score of `seat`, in points (0 before any game).
    pub fn mean_score(&self, seat: usize) -> f64 {
        self.score_sum[seat] as f64 / self.games.max(1) as f64
    }

    /// Mean placement of `seat` (1.0 = always first).
    pub fn mean_rank(&self, seat: usize) -> f64 {
        let total: u64 = (0..MAX_SEATS).map(|r| self.ranks[seat][r] * (r as u64 + 1)).sum();
        total as f64 / self.games.max(1) as f64
    }

    /// Share of hands `seat` won, `0.0..=1.0`.
    pub fn hora_rate(&self, seat: usize) -> f64 {
        self.horas[seat] as f64 / self.kyokus.max(1) as f64
    }

    /// Share of hands in which `seat` dealt in, `0.0..=1.0`.
    pub fn deal_in_rate(&self, seat: usize) -> f64 {
        self.deal_ins[seat] as f64 / self.kyokus.max(1) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mjai_sim_engine::event::Event;

    #[test]
    fn tally_counts_wins_deal_ins_and_places() {
        let log = vec![
            Event::StartKyoku {
                bakaze: "E".parse().unwrap(),
                dora_marker: "1m".parse().unwrap(),
                kyoku: 1,
                honba: 0,
                kyotaku: 0,
                oya: 0,
                scores: [25000; 4],
                tehais: Box::new([[mjai_sim_engine::tile::Tile::UNKNOWN; 13]; 4]),
            },
            Event::Hora { actor: 2, target: 1, pai: None, deltas: Some([0, -8000, 8000, 0]), ura_markers: None },
        ];
        let game = Finished {
            log,
            scores: [25000, 17000, 33000, 25000],
            players: mjai_sim_engine::game::Players::Four,
            chombos: vec![(3, "x".into())],
        };
        let mut t = Tally::default();
        t.add(&game);
        assert_eq!((t.kyokus, t.horas, t.deal_ins, t.chombos), (1, [0, 0, 1, 0], [0, 1, 0, 0], [0, 0, 0, 1]));
        assert_eq!(t.ranks[2][0], 1);
        assert_eq!(t.mean_rank(3), 3.0);
        assert_eq!(t.mean_score(1), 17000.0);
    }
}
