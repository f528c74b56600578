//! The hub: one batched process, its cycles, its restarts.

use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::future::BoxFuture;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio::time::Instant;

use super::queue::{Ask, Reply, Shared};
use super::seat::BatchSeat;
use super::wire::{cycle_line, split_answer, Request};
use super::BatchOptions;
use crate::bounded::{self, until, within};
use crate::{Bot, BotError};

/// Starts the batched process (`python3 -u bot.py --batch` in its container or folder);
/// called at the first cycle and after every crash.
pub type LaunchProcess = Arc<dyn Fn() -> BoxFuture<'static, Result<Box<dyn Bot>, BotError>> + Send + Sync>;

/// Time granted to the process's own timeout before the hub stops waiting itself.
const GRACE: Duration = Duration::from_millis(500);

/// Counts of a hub's work so far (benchmarks print the mean cycle).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BatchStats {
    /// Times the process was started.
    pub starts: u64,
    /// Cycles written.
    pub cycles: u64,
    /// Requests written, over all cycles.
    pub requests: u64,
}

/// One batched process serving any number of table-seats ([`BatchHub::seat`]). Dropping
/// the hub and all its seats stops the process; [`BatchHub::close`] does it and waits.
pub struct BatchHub {
    tx: Mutex<Option<mpsc::UnboundedSender<Ask>>>,
    shared: Arc<Shared>,
    options: BatchOptions,
    next_table: AtomicU64,
    task: Mutex<Option<JoinHandle<()>>>,
}

impl BatchHub {
    /// A hub whose process `launch` starts (not yet: at the first cycle). Must be called
    /// within a tokio runtime.
    pub fn new(launch: LaunchProcess, options: BatchOptions) -> BatchHub {
        let (tx, rx) = mpsc::unbounded_channel();
        let shared = Arc::new(Shared::default());
        let task = tokio::spawn(serve(rx, launch, options, shared.clone()));
        BatchHub {
            tx: Mutex::new(Some(tx)),
            shared,
            options,
            next_table: AtomicU64::new(0),
            task: Mutex::new(Some(task)),
        }
    }

    /// A fresh table number (one per game; unique within this hub).
    pub fn table(&self) -> u64 {
        self.next_table.fetch_add(1, Ordering::Relaxed)
    }

    /// The bot of `seat` at `table`: the first request of a table-seat this process served
    /// before carries `"restart": true`. A closed hub gives a seat whose every exchange fails
    /// ([`BotError::Crashed`]).
    pub fn seat(&self, table: u64, seat: u8) -> BatchSeat {
        let tx = self.tx.lock().ok().and_then(|t| t.clone());
        let allowance = self.options.queue_allowance();
        BatchSeat::new(tx, self.shared.clone(), table, seat, allowance)
    }

    /// Counts of the work so far.
    pub fn stats(&self) -> BatchStats {
        BatchStats {
            starts: self.shared.starts.load(Ordering::Relaxed),
            cycles: self.shared.cycles.load(Ordering::Relaxed),
            requests: self.shared.requests.load(Ordering::Relaxed),
        }
    }

    /// Takes no more seats and waits (at most [`bounded::STOP_GRACE`] twice) until the
    /// process is stopped; seats still alive then are cut off (their task aborted, the
    /// process killed on drop or its container removed by the run's guard).
    pub async fn close(&self) {
        drop(self.tx.lock().ok().and_then(|mut t| t.take()));
        let task = self.task.lock().ok().and_then(|mut t| t.take());
        if let Some(mut task) = task {
            bounded::join_or_abort(&mut task, bounded::STOP_GRACE * 2, "closing a batched bot").await;
        }
    }
}

impl Drop for BatchHub {
    fn drop(&mut self) {
        // The task ends (and stops the process) once every seat is gone too.
        drop(self.tx.lock().ok().and_then(|mut t| t.take()));
    }
}

/// The hub's loop: gather a cycle, (re)start the process, write, read, answer.
async fn serve(
    mut rx: mpsc::UnboundedReceiver<Ask>,
    launch: LaunchProcess,
    options: BatchOptions,
    shared: Arc<Shared>,
) {
    let mut process: Option<Box<dyn Bot>> = None;
    let mut epoch = 0u64;
    let mut known: HashSet<(u64, u8)> = HashSet::new();
    // bounded: ends when the hub and every seat are gone (each seat waits on its own bound).
    while let Some(first) = rx.recv().await {
        let asks = gather(&mut rx, first, &options, &shared).await; // bounded: the window.
        if process.is_none() {
            shared.starts.fetch_add(1, Ordering::Relaxed);
            match within(options.start_timeout, "starting a batched bot", launch()).await {
                Ok(Ok(bot)) => {
                    process = Some(bot);
                    epoch += 1;
                    known.clear();
                }
                Ok(Err(e)) => {
                    answer_all(asks, &Err(e), None);
                    continue;
                }
                Err(_) => {
                    let e = BotError::Transport(format!(
                        "the batched bot did not start within {:.0} s",
                        options.start_timeout.as_secs_f64()
                    ));
                    answer_all(asks, &Err(e), None);
                    continue;
                }
            }
        }
        let (stale, asks): (Vec<Ask>, Vec<Ask>) = asks.into_iter().partition(|a| a.served.is_some_and(|e| e != epoch));
        let restarted = BotError::Crashed("the batched bot's process was restarted: this table's seats restart".into());
        answer_all(stale, &Err(restarted), None);
        if asks.is_empty() {
            continue;
        }
        let Some(bot) = process.as_mut() else { continue };
        let healthy = cycle(bot.as_mut(), asks, &mut known, epoch, &options, &shared).await; // bounded: inside.
        if let Ok(mut tail) = shared.tail.lock() {
            *tail = bot.stderr_tail();
        }
        if !healthy {
            if let Some(mut bot) = process.take() {
                bounded::stop(bot.as_mut()).await;
            }
        }
    }
    if let Some(mut bot) = process.take() {
        bounded::stop(bot.as_mut()).await;
    }
}

/// The asks of one cycle: `first`, then what comes before the window closes, until
/// `options.max` or every live seat waits.
async fn gather(
    rx: &mut mpsc::UnboundedReceiver<Ask>,
    first: Ask,
    options: &BatchOptions,
    shared: &Shared,
) -> Vec<Ask> {
    let mut asks = vec![first];
    let close = Instant::now() + options.window;
    while asks.len() < options.max.max(1) && asks.len() < shared.live.load(Ordering::Relaxed) {
        match until(close, "gathering a cycle", rx.recv()).await {
            Ok(Some(ask)) => asks.push(ask),
            Ok(None) | Err(_) => break,
        }
    }
    asks
}

/// One ask in flight: its deadline, its limit, its place in the cycle.
struct Waiting {
    deadline: Instant,
    limit: Duration,
    index: usize,
    ask: Ask,
}

/// Writes one cycle and answers its asks; each ask not answered by its deadline fails
/// alone. Returns whether the process is still usable (false after a crash, or a line
/// that never came).
async fn cycle(
    bot: &mut dyn Bot,
    asks: Vec<Ask>,
    known: &mut HashSet<(u64, u8)>,
    epoch: u64,
    options: &BatchOptions,
    shared: &Shared,
) -> bool {
    let requests: Vec<Request<'_>> = asks
        .iter()
        .map(|a| Request {
            table: a.table,
            seat: a.seat,
            restart: a.served.is_none() && known.contains(&(a.table, a.seat)),
            events: &a.line,
        })
        .collect();
    let line = cycle_line(&requests);
    let count = requests.len();
    drop(requests);
    known.extend(asks.iter().map(|a| (a.table, a.seat)));
    shared.cycles.fetch_add(1, Ordering::Relaxed);
    shared.requests.fetch_add(count as u64, Ordering::Relaxed);
    let limit_of = |a: &Ask| a.timeout.max(options.timeout.unwrap_or_default());
    let longest = asks.iter().map(limit_of).max().unwrap_or_default();
    let sent = Instant::now();
    let mut waiting: Vec<Waiting> = asks
        .into_iter()
        .enumerate()
        .map(|(index, ask)| Waiting { deadline: sent + limit_of(&ask), limit: limit_of(&ask), index, ask })
        .collect();
    waiting.sort_by_key(|w| w.deadline);
    let exchange = within(longest + GRACE, "a batched cycle", bot.exchange(&line, longest));
    tokio::pin!(exchange);
    let result = loop {
        // Asks whose limit is shorter than the cycle's longest fail alone at their deadline.
        let next = waiting.first().map(|w| w.deadline).filter(|d| *d < sent + longest);
        tokio::select! {
            // bounded: within() above.
            result = &mut exchange => break result,
            // bounded: a deadline of this cycle, before its longest.
            _ = tokio::time::sleep_until(next.unwrap_or(sent)), if next.is_some() => {
                let now = Instant::now();
                let late = waiting.iter().take_while(|w| w.deadline <= now).count();
                for w in waiting.drain(..late) {
                    w.time_out(epoch);
                }
            }
        }
    };
    match result {
        Ok(Ok(answer)) => {
            match split_answer(&answer, count) {
                Ok(actions) => {
                    for w in waiting {
                        let answer = actions.get(w.index).cloned().ok_or(BotError::Closed);
                        let _ = w.ask.reply.send(Reply { answer, epoch: Some(epoch) });
                    }
                }
                Err(e) => {
                    for w in waiting {
                        w.fail(BotError::Transport(e.to_string()), epoch);
                    }
                }
            }
            true
        }
        Ok(Err(e)) => {
            for w in waiting {
                let e = match &e {
                    BotError::Timeout(_) => BotError::Timeout(w.limit.as_secs_f64()),
                    other => other.clone(),
                };
                w.fail(e, epoch);
            }
            false
        }
        Err(_) => {
            for w in waiting {
                w.time_out(epoch);
            }
            false
        }
    }
}

impl Waiting {
    fn time_out(self, epoch: u64) {
        let limit = self.limit.as_secs_f64();
        self.fail(BotError::Timeout(limit), epoch);
    }

    fn fail(self, error: BotError, epoch: u64) {
        let _ = self.ask.reply.send(Reply { answer: Err(error), epoch: Some(epoch) });
    }
}

/// Gives every ask the same answer (`epoch`: the generation that read them, if any).
fn answer_all(asks: Vec<Ask>, answer: &Result<String, BotError>, epoch: Option<u64>) {
    for ask in asks {
        let _ = ask.reply.send(Reply { answer: answer.clone(), epoch });
    }
}
