//! Per-seat statistics over finished self-play games.

use crate::engine::event::Event;

use super::selfplay::Finished;

/// Running totals over games, per seat. Points in points.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tally {
    /// Games counted.
    pub games: u64,
    /// Hands (kyoku) counted, chombo hands included.
    pub kyokus: u64,
    /// Sum of final scores per seat.
    pub score_sum: [i64; 4],
    /// Placements per seat: `ranks[seat][r]` counts finishes in place `r + 1` (ties go to
    /// the earlier seat, as mjai.app ranks).
    pub ranks: [[u64; 4]; 4],
    /// Wins (hora) per seat.
    pub horas: [u64; 4],
    /// Ron wins paid by this seat (deal-ins).
    pub deal_ins: [u64; 4],
    /// Chombos per seat.
    pub chombos: [u64; 4],
}

impl Tally {
    /// Adds one finished game.
    pub fn add(&mut self, game: &Finished) {
        self.games += 1;
        for e in &game.log {
            match e {
                Event::StartKyoku { .. } => self.kyokus += 1,
                Event::Hora { actor, target, .. } => {
                    self.horas[*actor as usize] += 1;
                    if actor != target {
                        self.deal_ins[*target as usize] += 1;
                    }
                }
                _ => {}
            }
        }
        for (seat, place) in placements(game.scores).iter().enumerate() {
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
        let total: u64 = (0..4).map(|r| self.ranks[seat][r] * (r as u64 + 1)).sum();
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

/// Places 1..=4 from final scores; equal scores rank the earlier seat higher.
pub fn placements(scores: [i32; 4]) -> [u8; 4] {
    let mut order = [0usize, 1, 2, 3];
    order.sort_by_key(|&s| (std::cmp::Reverse(scores[s]), s));
    let mut out = [0u8; 4];
    for (place, seat) in order.iter().enumerate() {
        out[*seat] = place as u8 + 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_go_to_the_earlier_seat() {
        assert_eq!(placements([25000, 30000, 25000, 20000]), [2, 1, 3, 4]);
        assert_eq!(placements([25000; 4]), [1, 2, 3, 4]);
    }

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
                tehais: Box::new([[crate::engine::tile::Tile::UNKNOWN; 13]; 4]),
            },
            Event::Hora { actor: 2, target: 1, pai: None, deltas: Some([0, -8000, 8000, 0]), ura_markers: None },
        ];
        let game = Finished { log, scores: [25000, 17000, 33000, 25000], chombos: vec![(3, "x".into())] };
        let mut t = Tally::default();
        t.add(&game);
        assert_eq!((t.kyokus, t.horas, t.deal_ins, t.chombos), (1, [0, 0, 1, 0], [0, 1, 0, 0], [0, 0, 0, 1]));
        assert_eq!(t.ranks[2][0], 1);
        assert_eq!(t.mean_rank(3), 3.0);
        assert_eq!(t.mean_score(1), 17000.0);
    }
}
