//! What a tournament command shows on stderr while it plays, as the library's
//! [`Observer`]: the start line, the progress bar (indicatif: games done / total, games/s,
//! ETA, and the leader (lowest average rank) with a 95% interval; for a league (open-ended,
//! no total) games done, games/s and the leader), and one line per failed game, notice and
//! database outage.
//!
//! The leader's interval here is a quick normal approximation over games
//! (mean ± 1.96·sd/√n), updated as games finish; the standings files use the seeded
//! bootstrap over duplicate sets.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::tournament::observer::{Notice, Observer, RunStart};
use crate::tournament::record::GameRecord;
use crate::tournament::store::retry::OutageObserver;
use crate::tournament::store::StoreError;

/// Running rank tallies of each bot.
#[derive(Debug, Clone, Default)]
struct Tally {
    n: u64,
    sum: f64,
    sum_sq: f64,
}

/// The bar's state and the leader's tallies.
struct Bar {
    bar: ProgressBar,
    names: Vec<String>,
    tallies: Vec<Tally>,
    last_message: Option<Instant>,
}

/// The command line's observer of a tournament run. Thread-safe; shared as an `Arc`.
pub struct Progress {
    /// Draw the bar (stderr is a terminal and no `--json`).
    visible: bool,
    /// Print the start line (`mjai-sim: tournament in DIR (...)`) and keep a bar; a
    /// database's coordinator and workers print their own lines and keep none.
    announce: bool,
    state: Mutex<Option<Bar>>,
}

impl Progress {
    /// The observer of a tournament folder's run: the start line, then a bar (hidden
    /// unless `visible`).
    pub fn folder(visible: bool) -> Progress {
        Progress { visible, announce: true, state: Mutex::new(None) }
    }

    /// The observer of a coordinator or worker: lines only.
    pub fn lines() -> Progress {
        Progress { visible: false, announce: false, state: Mutex::new(None) }
    }

    /// Runs `f` with the bar suspended (a line printed above it).
    fn above(&self, f: impl FnOnce()) {
        match self.state.lock().ok().and_then(|s| s.as_ref().map(|b| b.bar.clone())) {
            Some(bar) => bar.suspend(f),
            None => f(),
        }
    }

    fn with_bar(&self, f: impl FnOnce(&mut Bar)) {
        if let Ok(mut state) = self.state.lock() {
            if let Some(bar) = state.as_mut() {
                f(bar);
            }
        }
    }
}

impl OutageObserver for Progress {
    fn db_down(&self, what: &str, error: &StoreError, patience: Duration) {
        self.above(|| eprintln!("mjai-sim: {error}; retrying ({what}) for up to {} s", patience.as_secs()));
    }

    fn db_back(&self, what: &str, after: Duration) {
        self.above(|| eprintln!("mjai-sim: the database answers again after {:.1} s ({what})", after.as_secs_f64()));
    }
}

impl Observer for Progress {
    fn started(&self, start: &RunStart) {
        if !self.announce {
            return;
        }
        let games = match start.total {
            None => "a league: open-ended, runs until stopped".to_string(),
            Some(total) => format!("{total} games"),
        };
        eprintln!(
            "mjai-sim: tournament in {} ({} bots: {}; seed {},{}; {games}, {} done; {} at once)",
            start.place,
            start.names.len(),
            start.names.join(", "),
            start.seed[0],
            start.seed[1],
            start.done.len(),
            start.jobs
        );
        if let Ok(mut state) = self.state.lock() {
            *state = Some(Bar::new(start.names.clone(), start.total, &start.done, self.visible));
        }
    }

    fn bots(&self, names: &[String]) {
        self.with_bar(|b| b.set_names(names.to_vec()));
    }

    fn recorded(&self, records: &[GameRecord]) {
        self.with_bar(|b| b.recorded(records));
    }

    fn game_failed(&self, index: u64, reason: &str, retrying: bool) {
        let then = if retrying { "retrying once" } else { "failed for good" };
        self.above(|| eprintln!("mjai-sim: game {index} failed ({reason}); {then}"));
    }

    fn notice(&self, notice: &Notice) {
        self.above(|| eprintln!("mjai-sim: {notice}"));
    }

    fn finished(&self) {
        self.with_bar(|b| b.bar.finish_and_clear());
    }
}

impl Bar {
    fn new(names: Vec<String>, total: Option<u64>, records: &[GameRecord], visible: bool) -> Bar {
        let target = if visible { ProgressDrawTarget::stderr_with_hz(4) } else { ProgressDrawTarget::hidden() };
        let bar = ProgressBar::with_draw_target(total, target);
        let template = match total {
            Some(_) => "{bar:30} {pos}/{len} games  {per_sec:.1}  ETA {eta}  {msg}",
            None => "{pos} games  {per_sec:.1}  {msg}",
        };
        let style = ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar());
        bar.set_style(style);
        let mut p = Bar { tallies: vec![Tally::default(); names.len()], names, bar, last_message: None };
        p.bar.set_position(records.len() as u64);
        p.bar.reset_eta();
        p.count(records);
        p.update_message(true);
        p
    }

    fn recorded(&mut self, records: &[GameRecord]) {
        self.count(records);
        self.bar.inc(records.len() as u64);
        self.update_message(false);
    }

    /// The bot names after bots were added to a league (their tallies start empty).
    fn set_names(&mut self, names: Vec<String>) {
        self.tallies.resize(names.len().max(self.tallies.len()), Tally::default());
        self.names = names;
        self.names.resize(self.tallies.len(), String::new());
    }

    /// The bot with the lowest average rank so far: name, average rank, half-width of its
    /// 95% interval.
    fn leader(&self) -> Option<(String, f64, f64)> {
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
            for (&bot, &rank) in r.seats.iter().zip(&r.ranks) {
                if let Some(t) = self.tallies.get_mut(bot) {
                    let rank = f64::from(rank);
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
        GameRecord {
            index,
            set: 0,
            seats: seats.to_vec(),
            scores: vec![0; 4],
            ranks: ranks.to_vec(),
            stats: vec![Default::default(); 4],
        }
    }

    #[test]
    fn the_leader_has_the_lowest_average_rank_and_an_interval() {
        let names: Vec<String> = ["a", "b", "c", "d"].map(String::from).to_vec();
        let mut p = Bar::new(names, Some(10), &[game(0, [0, 1, 2, 3], [2, 1, 3, 4])], false);
        assert_eq!(p.leader(), Some(("b".into(), 1.0, 0.0)));
        p.recorded(&[game(1, [1, 2, 3, 0], [3, 1, 2, 4]), game(2, [2, 3, 0, 1], [1, 2, 3, 4])]);
        // b: 1, 3, 4 → 2.67; c: 3, 1, 1 → 1.67
        let (name, mean, half) = p.leader().unwrap();
        assert_eq!(name, "c");
        assert!((mean - 5.0 / 3.0).abs() < 1e-9);
        // sd of (3, 1, 1) = 1.1547; 1.96 · sd / √3 = 1.3067
        assert!((half - 1.3067).abs() < 1e-3, "{half}");
        assert_eq!(p.bar.position(), 3);
        let open = Bar::new(vec!["a".into()], None, &[], false);
        assert_eq!(open.bar.length(), None);
    }
}
