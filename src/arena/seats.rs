//! The four running bots: launch, concurrent exchanges with per-seat timeouts, stop.
//!
//! Every wait here is bounded ([`mjai_sim_runtime::bounded`]): a runtime that does not honour
//! its own timeout is cut off a little later ([`GRACE`]), a stop after
//! [`bounded::STOP_GRACE`], so one broken bot can never hang the game.

use std::time::Duration;

use futures_util::future::join_all;
use tokio::time::Instant;

use super::Launcher;
use mjai_sim_engine::event::Seat;
use mjai_sim_engine::game::{Players, MAX_SEATS};
use mjai_sim_runtime::bounded::{self, within};
use mjai_sim_runtime::{Bot, BotError, Offer};

/// Extra time granted to a runtime beyond the decision timeout before the loop stops
/// waiting for it itself.
pub const GRACE: Duration = Duration::from_millis(500);

/// One line sent to a seat and what came back.
#[derive(Debug, Clone, PartialEq)]
pub struct Exchange {
    /// The seat asked.
    pub seat: Seat,
    /// The answer line, or why there is none.
    pub answer: Result<String, BotError>,
    /// Time from writing the line to the answer (or the failure), on tokio's clock (a test
    /// with paused time sees the time it advanced).
    pub elapsed: Duration,
}

/// One request: the seat, the line to write (a JSON array, no newline), the timeout.
pub type Request = (Seat, String, Duration);

/// The four seats' bots. A seat whose bot failed to launch holds none and fails every
/// exchange until the next restart.
pub struct Seats<'l> {
    launcher: &'l dyn Launcher,
    bots: [Option<Box<dyn Bot>>; MAX_SEATS],
    /// The table size: seats `0..players.count()` are started.
    players: Players,
}

impl<'l> Seats<'l> {
    /// Empty seats for a table of `players`; call [`Seats::launch_all`] next.
    pub fn new(launcher: &'l dyn Launcher, players: Players) -> Seats<'l> {
        Seats { launcher, bots: std::array::from_fn(|_| None), players }
    }

    /// Launches a fresh bot in every seat, concurrently, each bounded by `limit`. Returns
    /// the launch error per seat (`None` when the bot runs).
    pub async fn launch_all(&mut self, limit: Duration) -> Vec<Option<BotError>> {
        let launcher = self.launcher;
        let launches = self.players.seats().map(|seat| async move {
            match within(limit + GRACE, "starting a bot", launcher.launch(seat)).await {
                Ok(result) => result,
                Err(_) => Err(BotError::Timeout(limit.as_secs_f64())),
            }
        });
        let results = join_all(launches).await; // bounded: each by within() above.
        let mut errors: Vec<Option<BotError>> = vec![None; results.len()];
        for (seat, result) in results.into_iter().enumerate() {
            match result {
                Ok(bot) => self.bots[seat] = Some(bot),
                Err(e) => {
                    self.bots[seat] = None;
                    errors[seat] = Some(e);
                }
            }
        }
        errors
    }

    /// Tells `seat`'s bot which answers the referee accepts to its next line (see
    /// [`Bot::offer`]); nothing when the seat holds no bot.
    pub fn offer(&mut self, seat: Seat, offer: &Offer<'_>) {
        if let Some(bot) = self.bots.get_mut(usize::from(seat)).and_then(|b| b.as_mut()) {
            bot.offer(offer);
        }
    }

    /// Stops every running bot, concurrently, each within [`bounded::STOP_GRACE`], and
    /// empties the seats.
    pub async fn stop_all(&mut self) {
        bounded::stop_all(self.bots.iter_mut().flatten()).await;
        self.bots = std::array::from_fn(|_| None);
    }

    /// The last stderr lines of the bot in `seat` (empty when none runs there).
    pub fn stderr_tail(&self, seat: Seat) -> Vec<String> {
        self.bots.get(usize::from(seat)).and_then(Option::as_ref).map(|b| b.stderr_tail()).unwrap_or_default()
    }

    /// Writes each request's line to its seat and waits for all answers concurrently, each
    /// with its own timeout. Results come back in request order. A seat listed twice is
    /// asked once (the first request wins).
    pub async fn exchange_all(&mut self, requests: &[Request]) -> Vec<Exchange> {
        let mut futures = Vec::with_capacity(requests.len());
        for (index, slot) in self.bots.iter_mut().enumerate() {
            let Some((seat, line, timeout)) = requests.iter().find(|r| usize::from(r.0) == index) else {
                continue;
            };
            let (seat, timeout) = (*seat, *timeout);
            futures.push(async move {
                let started = Instant::now();
                let answer = match slot.as_mut() {
                    None => Err(BotError::Crashed("the bot is not running (it failed to start)".into())),
                    Some(bot) => {
                        let bound = timeout + GRACE + bot.queue_allowance();
                        match within(bound, "an exchange", bot.exchange(line, timeout)).await {
                            Ok(answer) => answer,
                            Err(_) => Err(BotError::Timeout(timeout.as_secs_f64())),
                        }
                    }
                };
                Exchange { seat, answer, elapsed: started.elapsed() }
            });
        }
        let mut done = join_all(futures).await; // bounded: each by within() above.
        done.sort_by_key(|x| requests.iter().position(|r| r.0 == x.seat));
        done
    }
}
