//! [`TournamentLines`]: a tournament run's messages (`tournament-started`, `game-finished`,
//! `progress`, `game-failed`, `notice`), as the tournament's [`Observer`] in front of
//! another one (the command line's progress lines on stderr), which hears everything too.

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::Message;
use mjai_sim_tournament::observer::{Notice, Observer, RunStart};
use mjai_sim_tournament::record::GameRecord;
use mjai_sim_tournament::store::retry::OutageObserver;
use mjai_sim_tournament::store::StoreError;

/// Games recorded and scheduled so far.
#[derive(Debug, Default)]
struct Count {
    done: u64,
    total: Option<u64>,
}

/// Writes a tournament's messages, one JSON line each, to a writer (stdout in the command
/// line), and passes every event on to `inner`. A failed write is dropped: the run goes on
/// (a closed pipe must not stop the games; the store keeps every result).
pub struct TournamentLines {
    out: Mutex<Box<dyn Write + Send>>,
    count: Mutex<Count>,
    inner: Arc<dyn Observer>,
}

impl TournamentLines {
    /// Messages written to `out`; every event also goes to `inner`.
    pub fn new(out: Box<dyn Write + Send>, inner: Arc<dyn Observer>) -> TournamentLines {
        TournamentLines { out: Mutex::new(out), count: Mutex::new(Count::default()), inner }
    }

    fn write(&self, message: &Message) {
        if let Ok(mut out) = self.out.lock() {
            let _ = message.write_to(out.as_mut());
        }
    }
}

impl OutageObserver for TournamentLines {
    fn db_down(&self, what: &str, error: &StoreError, patience: Duration) {
        self.inner.db_down(what, error, patience);
    }

    fn db_back(&self, what: &str, after: Duration) {
        self.inner.db_back(what, after);
    }
}

impl Observer for TournamentLines {
    fn started(&self, start: &RunStart) {
        self.inner.started(start);
        if let Ok(mut c) = self.count.lock() {
            *c = Count { done: start.done.len() as u64, total: start.total };
        }
        self.write(&Message::TournamentStarted {
            place: start.place.clone(),
            tid: start.tid.clone(),
            bots: start.names.clone(),
            seed: start.seed,
            total: start.total,
            done: start.done.len() as u64,
            jobs: start.jobs,
        });
    }

    fn bots(&self, names: &[String]) {
        self.inner.bots(names);
    }

    fn recorded(&self, records: &[GameRecord]) {
        self.inner.recorded(records);
        for r in records {
            self.write(&Message::GameFinished {
                index: r.index,
                set: r.set,
                seats: r.seats.clone(),
                scores: r.scores.clone(),
                ranks: r.ranks.clone(),
            });
        }
        let progress = self.count.lock().ok().map(|mut c| {
            c.done += records.len() as u64;
            Message::Progress { done: c.done, total: c.total }
        });
        if let Some(p) = progress {
            self.write(&p);
        }
    }

    fn game_failed(&self, index: u64, reason: &str, retrying: bool) {
        self.inner.game_failed(index, reason, retrying);
        self.write(&Message::GameFailed { index, message: reason.to_string(), retrying });
    }

    fn notice(&self, notice: &Notice) {
        self.inner.notice(notice);
        self.write(&Message::Notice { message: notice.to_string() });
    }

    fn finished(&self) {
        self.inner.finished();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mjai_sim_tournament::observer::Quiet;

    /// A writer whose bytes a test reads back.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn record(index: u64) -> GameRecord {
        GameRecord {
            index,
            set: 0,
            seats: vec![0, 1, 2, 3],
            scores: vec![40000, 30000, 20000, 10000],
            ranks: vec![1, 2, 3, 4],
            stats: Default::default(),
        }
    }

    #[test]
    fn progress_counts_earlier_games_and_each_recorded_one() {
        let out = Shared::default();
        let lines = TournamentLines::new(Box::new(out.clone()), Arc::new(Quiet));
        let names: Vec<String> = ["a", "b", "c", "d"].map(String::from).to_vec();
        let start = RunStart {
            place: "t".into(),
            tid: "x".into(),
            names,
            seed: [1, 0],
            total: Some(4),
            done: vec![record(0)],
            jobs: 2,
        };
        lines.started(&start);
        lines.recorded(&[record(1), record(2)]);
        let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        let values: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        let reasons: Vec<&str> = values.iter().map(|v| v["reason"].as_str().unwrap()).collect();
        assert_eq!(reasons, ["tournament-started", "game-finished", "game-finished", "progress"]);
        assert_eq!((values[0]["done"].as_u64(), values[0]["total"].as_u64()), (Some(1), Some(4)));
        assert_eq!((values[3]["done"].as_u64(), values[3]["total"].as_u64()), (Some(3), Some(4)));
        assert_eq!(values[2]["index"], 2);
    }
}
