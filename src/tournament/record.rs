//! One finished game as the standings see it: [`GameRecord`] and [`SeatStats`] live in the
//! pure crate `mjai-sim-stats` ([`mjai_sim_stats::record`], the counting rules there), so
//! the Python extension computes the same standings; re-exported here, with
//! [`FromGame`], the record of a game from its match report.

use mjai_sim_arena::match_loop::MatchReport;
use mjai_sim_engine::event::Event;
use mjai_sim_engine::game::Rules;
use mjai_sim_stats::timing::TimeHistogram;

pub use mjai_sim_stats::record::{GameRecord, SeatStats};

/// The record of a game from its match report (a trait: [`GameRecord`] is another crate's).
pub trait FromGame {
    /// The record of a game played under `rules` from its full log and the match report:
    /// scores, chombos and decision times from the report, ranks from the scores (ties to
    /// the earlier seat), the rest from the log ([`SeatStats::from_log_with`]).
    fn from_game(index: u64, set: u64, seats: Vec<usize>, log: &[Event], report: &MatchReport, rules: &Rules) -> Self;
}

impl FromGame for GameRecord {
    fn from_game(
        index: u64,
        set: u64,
        seats: Vec<usize>,
        log: &[Event],
        report: &MatchReport,
        rules: &Rules,
    ) -> GameRecord {
        let mut record = GameRecord::from_scores(index, set, seats, log, report.scores, rules);
        for (s, st) in record.stats.iter_mut().enumerate() {
            st.chombos = report.chombos[s];
            st.times = TimeHistogram::of(&report.decision_times[s]);
        }
        record
    }
}
