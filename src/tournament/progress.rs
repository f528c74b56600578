//! The tournament's progress bar on stderr (indicatif): games done / total, games/s, ETA,
//! and the leader (lowest average rank) with a 95% interval; for a league (open-ended, no
//! total) games done, games/s and the leader.
//!
//! The leader's interval here is a quick normal approximation over games
//! (mean ± 1.96·sd/√n), updated as games finish; the standings files use the seeded
//! bootstrap over duplicate sets.

use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::record::GameRecord;

/// Running rank tallies of each bot.
#[derive(Debug, Clone, Default)]
struct Tally {
    n: u64,
    sum: f64,
    sum_sq: f64,
}

/// The progress bar and the leader's tallies.
pub struct Progress {
    bar: ProgressBar,
    names: Vec<String>,
    tallies: Vec<Tally>,
    last_message: Option<Instant>,
    recorded_here: u64,
}

impl Progress {
    /// A bar for `total` games of which `records` are already done (resume). Hidden when
    /// `visible` is false (e.g. stderr is not a terminal, or `--json`).
    pub fn new(names: Vec<String>, total: u64, records: &[GameRecord], visible: bool) -> Progress {
        Progress::with_total(names, Some(total), records, visible)
    }

    /// A counter for a league (no total, no ETA), `records` already done.
    pub fn open_ended(names: Vec<String>, records: &[GameRecord], visible: bool) -> Progress {
        Progress::with_total(names, None, records, visible)
    }

    fn with_total(names: Vec<String>, total: Option<u64>, records: &[GameRecord], visible: bool) -> Progress {
        let target = if visible { ProgressDrawTarget::stderr_with_hz(4) } else { ProgressDrawTarget::hidden() };
        let bar = ProgressBar::with_draw_target(total, target);
        let template = match total {
            Some(_) => "{bar:30} {pos}/{len} games  {per_sec:.1}  ETA {eta}  {msg}",
            None => "{pos} games  {per_sec:.1}  {msg}",
        };
        let style = ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar());
        bar.set_style(style);
        let mut p =
            Progress { tallies: vec![Tally::default(); names.len()], names, bar, last_message: None, recorded_here: 0 };
        p.bar.set_position(records.len() as u64);
        p.bar.reset_eta();
        p.count(records);
        p.update_message(true);
        p
    }

    /// Games just recorded.
    pub fn recorded(&mut self, records: &[GameRecord]) {
        self.recorded_here += records.len() as u64;
        self.count(records);
        self.bar.inc(records.len() as u64);
        self.update_message(false);
    }

    /// A failed game: one line above the bar.
    pub fn failure(&self, index: u64, reason: &str, retry: bool) {
        let then = if retry { "retrying once" } else { "failed for good" };
        self.bar.suspend(|| eprintln!("mjai-sim: game {index} failed ({reason}); {then}"));
    }

    /// The bot names after bots were added to a league (their tallies start empty).
    pub fn set_names(&mut self, names: Vec<String>) {
        self.tallies.resize(names.len().max(self.tallies.len()), Tally::default());
        self.names = names;
        self.names.resize(self.tallies.len(), String::new());
    }

    /// Games recorded through [`Progress::recorded`] (by this run, not before it).
    pub fn recorded_here(&self) -> u64 {
        self.recorded_here
    }

    /// One line above the bar (`mjai-sim: LINE`).
    pub fn note(&self, line: &str) {
        self.bar.suspend(|| eprintln!("mjai-sim: {line}"));
    }

    /// Removes the bar (before the final table).
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }

    /// The bot with the lowest average rank so far: name, average rank, half-width of its
    /// 95% interval.
    pub fn leader(&self) -> Option<(String, f64, f64)> {
        let (b, t) = self
            .tallies
            .iter()
            .enumerate()
            .filter(|(_, t)| t.n > 0)
            .min_by(|a, b| (a.1.sum / a.1.n as f64).total_cmp(&(b.1.sum / b.1.n as f64)))?;
        let n = t.n as f64;
        let mean = t.sum / n;
        let var = if t.n > 1 { ((t.sum_sq - n * mean * mean) / (n - 1.0)).max(0.0) } else { 0.0 };
        Some((self.names[b].clone(), mean, 1.96 * (var / n).sqrt()))
    }

    fn count(&mut self, records: &[GameRecord]) {
        for r in records {
            for s in 0..4 {
                if let Some(t) = self.tallies.get_mut(r.seats[s]) {
                    let rank = f64::from(r.ranks[s]);
                    t.n += 1;
                    t.sum += rank;
                    t.sum_sq += rank * rank;
                }
            }
        }
    }

    fn update_message(&mut self, force: bool) {
        let due = self.last_message.is_none_or(|t| t.elapsed() >= Duration::from_millis(250));
        if !(force || due) {
            return;
        }
        self.last_message = Some(Instant::now());
        if let Some((name, mean, half)) = self.leader() {
            self.bar.set_message(format!("leader {name}: avg rank {mean:.3} ± {half:.3}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(index: u64, seats: [usize; 4], ranks: [u8; 4]) -> GameRecord {
        GameRecord { index, set: 0, seats, scores: [0; 4], ranks, stats: Default::default() }
    }

    #[test]
    fn the_leader_has_the_lowest_average_rank_and_an_interval() {
        let names: Vec<String> = ["a", "b", "c", "d"].map(String::from).to_vec();
        let mut p = Progress::new(names, 10, &[game(0, [0, 1, 2, 3], [2, 1, 3, 4])], false);
        assert_eq!(p.leader(), Some(("b".into(), 1.0, 0.0)));
        p.recorded(&[game(1, [1, 2, 3, 0], [3, 1, 2, 4]), game(2, [2, 3, 0, 1], [1, 2, 3, 4])]);
        // b: 1, 3, 4 → 2.67; c: 3, 1, 1 → 1.67
        let (name, mean, half) = p.leader().unwrap();
        assert_eq!(name, "c");
        assert!((mean - 5.0 / 3.0).abs() < 1e-9);
        // sd of (3, 1, 1) = 1.1547; 1.96 · sd / √3 = 1.3067
        assert!((half - 1.3067).abs() < 1e-3, "{half}");
        assert_eq!(p.recorded_here(), 2);
        let open = Progress::open_ended(vec!["a".into()], &[], false);
        assert_eq!((open.bar.length(), open.recorded_here()), (None, 0));
    }
}
