//! Running totals of one bot over its games, and its standings row.

use super::BotStanding;
use crate::ratings::Ratings;
use crate::record::GameRecord;
use crate::timing::TimeTotals;

/// Sums over every seat a bot played.
#[derive(Debug, Clone, Default)]
pub struct BotTally {
    /// Seats played (games; a bot in two seats of a game counts two).
    pub games: u64,
    /// Duplicate sets played in (filled by the caller).
    pub sets: u64,
    rank_sum: u64,
    pt_sum: f64,
    rank_counts: Vec<u64>,
    score_sum: i64,
    kyokus: u64,
    horas: u64,
    tsumos: u64,
    hora_points: i64,
    deal_ins: u64,
    deal_in_points: i64,
    reaches: u64,
    calls: u64,
    draws: u64,
    tenpai_draws: u64,
    chombos: u64,
    times: TimeTotals,
}

impl BotTally {
    /// An empty tally at a table of `seats` seats (4 or 3: the ranks counted).
    pub fn new(seats: usize) -> BotTally {
        BotTally { rank_counts: vec![0; seats], ..BotTally::default() }
    }
}

/// `num / den`, `None` when `den` is 0.
fn ratio(num: f64, den: u64) -> Option<f64> {
    (den > 0).then(|| num / den as f64)
}

impl BotTally {
    /// Adds seat `s` of `r` (rank checked by the caller to be 1..=seats of the tally's
    /// table), worth `pt`.
    pub fn add_seat(&mut self, r: &GameRecord, s: usize, pt: f64) {
        let rank = usize::from(r.ranks[s]);
        let st = &r.stats[s];
        self.games += 1;
        self.rank_sum += rank as u64;
        self.pt_sum += pt;
        self.rank_counts[rank - 1] += 1;
        self.score_sum += i64::from(r.scores[s]);
        self.kyokus += u64::from(st.kyokus);
        self.horas += u64::from(st.horas);
        self.tsumos += u64::from(st.tsumos);
        self.hora_points += i64::from(st.hora_points);
        self.deal_ins += u64::from(st.deal_ins);
        self.deal_in_points += i64::from(st.deal_in_points);
        self.reaches += u64::from(st.reaches);
        self.calls += u64::from(st.calls);
        self.draws += u64::from(st.draws);
        self.tenpai_draws += u64::from(st.tenpai_draws);
        self.chombos += u64::from(st.chombos);
        self.times.add(&st.times);
    }

    /// The standings row of bot `b` named `name`.
    pub fn standing(
        &self,
        name: &str,
        rank_ci: Option<[f64; 2]>,
        pt_ci: Option<[f64; 2]>,
        ratings: &Ratings,
        b: usize,
    ) -> BotStanding {
        let g = self.games;
        BotStanding {
            name: name.to_string(),
            retired: false,
            games: g,
            sets: self.sets,
            avg_rank: ratio(self.rank_sum as f64, g),
            avg_rank_ci: rank_ci,
            avg_pt: ratio(self.pt_sum, g),
            avg_pt_ci: pt_ci,
            rank_dist: self.rank_counts.iter().map(|&c| ratio(c as f64, g).unwrap_or(0.0)).collect(),
            rank_counts: self.rank_counts.clone(),
            mean_score: ratio(self.score_sum as f64, g),
            weng_lin: ratings.weng_lin(b),
            elo: ratings.elo(b),
            kyokus: self.kyokus,
            win_rate: ratio(self.horas as f64, self.kyokus),
            deal_in_rate: ratio(self.deal_ins as f64, self.kyokus),
            riichi_rate: ratio(self.reaches as f64, self.kyokus),
            call_rate: ratio(self.calls as f64, self.kyokus),
            tsumo_rate: ratio(self.tsumos as f64, self.horas),
            tenpai_at_draw_rate: ratio(self.tenpai_draws as f64, self.draws),
            avg_win_points: ratio(self.hora_points as f64, self.horas),
            avg_deal_in_points: ratio(self.deal_in_points as f64, self.deal_ins),
            chombos: self.chombos,
            decisions: self.times.count(),
            decision_median_ms: self.times.percentile_ms(50),
            decision_p99_ms: self.times.percentile_ms(99),
        }
    }
}
