//! The referee loop: asks the seats that can act, checks their answers with the rules,
//! applies them, and handles chombo and restart, until `end_game`.
//!
//! Protocol (mjai.app's, with its gaps closed):
//! - each bot first gets `[{"type":"start_game","names":[..],"id":SEAT}]` and answers `none`;
//! - a seat is written to only when it can act, with every event since its last line,
//!   masked for it; seats that may claim the same discard are asked concurrently;
//! - at the end of a hand every seat gets its unseen events followed by `end_kyoku` in one
//!   line (mjai.app drops them; we deliver them, e.g. the hora with its deltas), and at the
//!   end of the game `[{"type":"end_game"}]`. Anything but `none` there is a warning;
//! - a timeout, crash, unparsable or illegal answer, or `none` when the seat must act is a
//!   chombo ([`RefereedGame::chombo`]): the hand ends at once, all the bots are stopped and
//!   started fresh, and the game resumes at the next hand (bots get `start_game` again,
//!   then the events from the current `start_kyoku` on);
//! - except under a clock that forgives timeouts ([`OnTimeout::Default`], riichi.dev's):
//!   there a timeout plays the default action for the seat
//!   ([`mjai_sim_engine::game::default_answer`]; `none` to an informational line), empties the
//!   seat's bank until the next hand, and is recorded as `defaulted`: no chombo, no restart.
//!
//! Each seat's [`Clock`] is the match's ([`MatchOptions::clock`]) unless its launcher names
//! another ([`Launcher::seat_clock`]). A decision line may take the clock's decision time
//! plus what is left of the seat's bank; what it takes beyond the decision time is taken
//! from the bank. The bank is full at the start and, under a clock that refills per hand,
//! again with every line that holds a `start_kyoku` (the seat's first line of each hand).
//! Lines beginning with `start_game` or `start_kyoku` have the start timeout instead and
//! spend nothing, unless the seat's clock has no start lines ([`Clock::start_lines`]: a
//! seat of riichi.dev's dialect, whose every request has the grace and the bank).

use std::time::Duration;

use mjai_sim_runtime::cancel::CancelToken;

use super::observer::{kyoku_label, truncate_line, AnswerMeta, ErrorEntry, GameObserver};
use super::relay::{begins_with_start, last_start_kyoku, start_game_line, Relay};
use super::seats::{Exchange, Request, Seats};
use super::watchdog::Watchdog;
use super::{Clock, Launcher, MatchOptions, OnTimeout, RefereedGame, Refill};
use mjai_sim_engine::event::{batch_line_for, Event, Seat};
use mjai_sim_engine::game::{default_answer, Players, MAX_SEATS};
use mjai_sim_runtime::{BotError, Offer};

/// How a match ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MatchEnding {
    /// `end_game` was reached (chombos included).
    Completed,
    /// More restarts than `MatchOptions::max_restarts` were needed; the game was abandoned.
    RestartLimit(u32),
    /// The shutdown signal fired (Ctrl-C); the game was abandoned.
    Interrupted,
    /// The game exceeded its bound ([`super::watchdog`]): stuck, or over
    /// `--game-timeout`; the reason, one line. Tournaments retry such a game once.
    Failed(String),
}

/// What happened in a match, for the summary.
#[derive(Debug, Clone, PartialEq)]
pub struct MatchReport {
    /// How the match ended.
    pub ending: MatchEnding,
    /// Scores (points) when the match ended ([`MAX_SEATS`] entries, as every per-seat
    /// array here: seats from `players.count()` on stay empty).
    pub scores: [i32; MAX_SEATS],
    /// Chombos per seat.
    pub chombos: [u32; MAX_SEATS],
    /// Timeouts per seat for which the default action was played, with no penalty (only
    /// under a clock with [`OnTimeout::Default`]; each also has an `errors` entry of type
    /// `defaulted`).
    pub defaulted: [u32; MAX_SEATS],
    /// Requests of riichi.dev seats with no connection (dropped or never made) played by
    /// their default action, no penalty; each has an `errors` entry of type `disconnected`.
    pub disconnected: [u32; MAX_SEATS],
    /// Restarts of the bots.
    pub restarts: u32,
    /// Every decision's answer time per seat (informational lines excluded).
    pub decision_times: [Vec<Duration>; MAX_SEATS],
    /// Errors, in order (`errors.json`).
    pub errors: Vec<ErrorEntry>,
    /// Warnings, in order (e.g. an answer other than `none` to `end_kyoku`).
    pub warnings: Vec<ErrorEntry>,
    /// The table size the match was played at (4, or 3 for sanma).
    pub players: Players,
}

/// Why a match could not be refereed at all (not a bot's fault).
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// Writing the logs failed; the match was stopped so that no data is silently lost.
    #[error("writing the logs failed: {0} (check free space and permissions of the logs folder)")]
    Io(#[from] std::io::Error),
    /// The rules engine contradicted itself (refused an answer it had validated, or has no
    /// decision pending before the game ended). A bug in mjai-sim: please report it.
    #[error("rules engine error (a bug in mjai-sim, please report it with mjai_log.json): {0}")]
    Engine(String),
    /// The host could not start the bots ([`HostFault`]): the game was stopped at once,
    /// with no chombo charged for it; its logs so far stay, and it must not be recorded as
    /// a result (a tournament puts it back in the queue).
    #[error(transparent)]
    Host(#[from] HostFault),
}

/// A fault of the host, not of a bot: a seat whose bot could not be started for a reason
/// that is the host's or the referee's ([`BotError::Host`]: the Docker daemon gone, the
/// image missing, no GPU runtime for `--gpus`), or every seat failing to start in the same
/// way. One line naming the cause; shown after `mjai-sim: `.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the host cannot run the bots: {0}")]
pub struct HostFault(pub String);

impl HostFault {
    /// Whether `cause` (one link of an error's chain) is a host fault: a [`HostFault`] or a
    /// [`MatchError::Host`]. The one test every reader of errors uses (exit codes, backoff).
    pub fn is(cause: &(dyn std::error::Error + 'static)) -> bool {
        cause.is::<HostFault>() || matches!(cause.downcast_ref::<MatchError>(), Some(MatchError::Host(_)))
    }

    /// The host fault among one start's results (`errors[seat]`: why that seat's bot did
    /// not start), if any: the first seat with [`BotError::Host`], else, when every seat
    /// failed and all in the same words, that one cause (the host, not four bots). `None`:
    /// the failed seats are the bots' own (each pays a chombo).
    pub fn of_start(errors: &[Option<BotError>]) -> Option<HostFault> {
        // The cause names its seat where it has one (Docker's start errors do).
        if let Some(why) = errors.iter().find_map(|e| match e {
            Some(BotError::Host(why)) => Some(why),
            _ => None,
        }) {
            return Some(HostFault(why.clone()));
        }
        let first = errors.first()?.as_ref()?.to_string();
        let same = errors.len() > 1 && errors.iter().all(|e| e.as_ref().is_some_and(|e| e.to_string() == first));
        same.then(|| HostFault(format!("every seat failed to start: {first}")))
    }
}

/// Plays one game on `table` with bots from `launcher` until `end_game`, the restart
/// limit, or `shutdown` becoming true. Bots are always stopped before returning.
pub async fn play_match(
    table: &mut dyn RefereedGame,
    launcher: &dyn Launcher,
    options: &MatchOptions,
    observer: &mut dyn GameObserver,
    shutdown: CancelToken,
) -> Result<MatchReport, MatchError> {
    let players = table.players();
    let clocks: [Clock; MAX_SEATS] = std::array::from_fn(|s| launcher.seat_clock(s as Seat).unwrap_or(options.clock));
    let watchdog = Watchdog::new(options, &clocks);
    let mut referee = Referee {
        watchdog: watchdog.clone(),
        seats: Seats::new(launcher, players),
        players,
        relay: Relay::at(1),
        options,
        observer,
        shutdown,
        emitted: 0,
        metas: Vec::new(),
        bank: clocks.map(|c| c.bank),
        clocks,
        requests: 0,
        report: MatchReport {
            ending: MatchEnding::Completed,
            scores: table.scores(),
            chombos: [0; MAX_SEATS],
            defaulted: [0; MAX_SEATS],
            disconnected: [0; MAX_SEATS],
            restarts: 0,
            decision_times: Default::default(),
            players,
            errors: Vec::new(),
            warnings: Vec::new(),
        },
    };
    let finished = tokio::select! {
        result = referee.run(table) => Ok(result), // bounded: by the watchdog.
        reason = watchdog.expired() => Err(reason), // bounded: it is the bound.
    };
    let result = finished.unwrap_or_else(|reason| {
        tracing::warn!("game failed: {reason}");
        Ok(referee.finish(MatchEnding::Failed(reason)))
    });
    referee.seats.stop_all().await;
    let mut report = result?;
    report.scores = table.scores();
    Ok(report)
}

struct Referee<'a> {
    /// Kicked after every step; see [`super::watchdog`].
    watchdog: Watchdog,
    seats: Seats<'a>,
    /// The table size.
    players: Players,
    relay: Relay,
    options: &'a MatchOptions,
    observer: &'a mut dyn GameObserver,
    shutdown: CancelToken,
    /// Log events already passed to the observer.
    emitted: usize,
    /// `meta` of the answers just applied, with the action, waiting for their logged event.
    metas: Vec<(Seat, Event, AnswerMeta)>,
    /// Each seat's clock, fixed when the match starts.
    clocks: [Clock; MAX_SEATS],
    /// What is left of each seat's time bank ([`Clock::bank`]).
    bank: [Duration; MAX_SEATS],
    /// Decisions asked so far, every seat's: the last [`Offer::request_id`].
    requests: u64,
    report: MatchReport,
}

/// Seats that must pay a chombo now.
type Offenders = Vec<Seat>;

/// The time a line gave its seat.
#[derive(Debug, Clone, Copy)]
enum Allowed {
    /// A line beginning with `start_game` or `start_kyoku`: the start timeout, no bank.
    Start(Duration),
    /// A decision: the clock's decision time plus what was left of the bank.
    Decision { decision: Duration, bank: Duration },
}

impl Allowed {
    fn duration(self) -> Duration {
        match self {
            Allowed::Start(limit) => limit,
            Allowed::Decision { decision, bank } => decision + bank,
        }
    }

    /// `3.0 s + 15.0 s bank`, `3.0 s` (no bank left), `20.0 s (start timeout)`.
    fn describe(self) -> String {
        match self {
            Allowed::Start(limit) => format!("{:.1} s (start timeout)", limit.as_secs_f64()),
            Allowed::Decision { decision, bank } if bank.is_zero() => format!("{:.1} s", decision.as_secs_f64()),
            Allowed::Decision { decision, bank } => {
                format!("{:.1} s + {:.1} s bank", decision.as_secs_f64(), bank.as_secs_f64())
            }
        }
    }
}

/// What each asked seat's line gave it.
type Limit = (Seat, Allowed);

impl Referee<'_> {
    async fn run(&mut self, table: &mut dyn RefereedGame) -> Result<MatchReport, MatchError> {
        self.flush(table)?;
        let mut offenders = match self.start_bots(table).await? {
            Some(o) => o,
            None => return Ok(self.finish(MatchEnding::Interrupted)),
        };
        loop {
            self.watchdog.kick();
            if !offenders.is_empty() {
                match self.chombo_and_restart(table, &offenders).await? {
                    Some(next) => offenders = next,
                    None => return Ok(self.finish(self.report.ending.clone())),
                }
                continue;
            }
            self.flush(table)?;
            let step = if self.has_unseen_end(table) {
                self.informational(table).await?
            } else if table.is_over() {
                return Ok(self.finish(MatchEnding::Completed));
            } else {
                self.decide(table).await?
            };
            match step {
                Some(o) => offenders = o,
                None => return Ok(self.finish(MatchEnding::Interrupted)),
            }
        }
    }

    fn finish(&mut self, ending: MatchEnding) -> MatchReport {
        let mut report = self.report.clone();
        report.ending = ending;
        report
    }

    /// Passes new log events to the observer, each action with the `meta` of the answer
    /// that made it (same seat, same event type).
    fn flush(&mut self, table: &dyn RefereedGame) -> Result<(), MatchError> {
        let log = table.log();
        if self.emitted < log.len() {
            let new = &log[self.emitted..];
            let metas: Vec<Option<AnswerMeta>> =
                if self.metas.is_empty() { Vec::new() } else { new.iter().map(|e| self.take_meta(e)).collect() };
            self.metas.clear();
            self.observer.on_events_with_meta(new, &metas)?;
            self.emitted = log.len();
        }
        Ok(())
    }

    /// The waiting meta of the answer that made `event`, if any.
    fn take_meta(&mut self, event: &Event) -> Option<AnswerMeta> {
        let made = |(seat, action, _): &(Seat, Event, AnswerMeta)| {
            event.actor() == Some(*seat) && std::mem::discriminant(action) == std::mem::discriminant(event)
        };
        let index = self.metas.iter().position(made)?;
        Some(self.metas.remove(index).2)
    }

    /// Exchanges unless the shutdown signal fires first (then `None`); each exchange is
    /// reported to the observer ([`GameObserver::on_exchange`]).
    async fn exchange(&mut self, requests: &[Request]) -> Result<Option<Vec<Exchange>>, MatchError> {
        let shutdown = self.shutdown.clone();
        let done = tokio::select! {
            done = self.seats.exchange_all(requests) => done,
            _ = shutdown.cancelled() => return Ok(None),
        };
        for x in &done {
            if let Some((_, sent, _)) = requests.iter().find(|r| r.0 == x.seat) {
                self.observer.on_exchange(x.seat, sent, x.answer.as_deref(), x.elapsed)?;
            }
        }
        Ok(Some(done))
    }

    /// Launches the table's bots and sends each its `start_game`; returns the seats that failed.
    async fn start_bots(&mut self, table: &dyn RefereedGame) -> Result<Option<Offenders>, MatchError> {
        let log = table.log();
        let limit = self.options.start_timeout;
        let shutdown = self.shutdown.clone();
        let launched = tokio::select! {
            errors = self.seats.launch_all(limit) => { self.watchdog.kick(); errors }
            _ = shutdown.cancelled() => return Ok(None),
        };
        if let Some(fault) = HostFault::of_start(&launched) {
            tracing::debug!("game stopped: {fault}");
            return Err(MatchError::Host(fault));
        }
        let mut offenders = Vec::new();
        let mut requests = Vec::new();
        for (seat, error) in self.players.seats().zip(launched) {
            match error {
                Some(e) => {
                    offenders.push(seat);
                    self.error(table, seat, "start", format!("the bot could not be started: {e}"), None)?;
                }
                None => requests.push((seat, start_game_line(log, seat, self.players), limit)),
            }
        }
        self.relay = Relay::at(last_start_kyoku(log).unwrap_or(log.len()));
        let limits: Vec<Limit> = requests.iter().map(|r| (r.0, Allowed::Start(limit))).collect();
        let Some(done) = self.exchange(&requests).await? else { return Ok(None) };
        offenders.extend(self.check_informational(table, &done, &limits)?);
        offenders.sort_unstable();
        Ok(Some(offenders))
    }

    fn has_unseen_end(&self, table: &dyn RefereedGame) -> bool {
        self.players.seats().any(|seat| self.relay.unseen_end(seat, table.log()).is_some())
    }

    /// Sends every seat its events up to the next `end_kyoku` / `end_game`.
    async fn informational(&mut self, table: &dyn RefereedGame) -> Result<Option<Offenders>, MatchError> {
        let log = table.log();
        let mut requests = Vec::new();
        let mut limits = Vec::new();
        for seat in self.players.seats() {
            if let Some(end) = self.relay.unseen_end(seat, log) {
                let events = self.relay.take(seat, log, end + 1);
                let allowed = self.allowed(seat, &events);
                requests.push((seat, batch_line_for(&events, self.players), allowed.duration()));
                limits.push((seat, allowed));
            }
        }
        let Some(done) = self.exchange(&requests).await? else { return Ok(None) };
        self.spend_bank(&limits, &done);
        let offenders = self.check_informational(table, &done, &limits)?;
        // After end_game nobody can pay: errors are recorded, not punished.
        Ok(Some(if table.is_over() { Vec::new() } else { offenders }))
    }

    /// Answers to `start_game`, `end_kyoku`, `end_game` must parse; non-`none` is a warning.
    /// A timeout under a forgiving clock is answered `none` for the seat (defaulted).
    fn check_informational(
        &mut self,
        table: &dyn RefereedGame,
        done: &[Exchange],
        limits: &[Limit],
    ) -> Result<Offenders, MatchError> {
        let mut offenders = Vec::new();
        for x in done {
            if self.defaults(x) {
                self.default_played(table, x.seat, &Event::None, limits)?;
                continue;
            }
            let Some(line) = self.answer_line(table, x, &mut offenders)? else { continue };
            match serde_json::from_str::<Event>(line) {
                Ok(Event::None) => {}
                Ok(_) => {
                    let entry = self.entry(
                        table,
                        x.seat,
                        "warning",
                        "answer other than none to an informational line (ignored)".into(),
                        Some(line),
                    );
                    self.observer.on_warning(&entry)?;
                    self.report.warnings.push(entry);
                }
                Err(e) => {
                    offenders.push(x.seat);
                    self.error(table, x.seat, "invalid", format!("unparsable answer: {e}"), Some(line))?;
                }
            }
        }
        Ok(offenders)
    }

    /// The answer line of one exchange, logged; `None` (with the seat added to `offenders`
    /// and the error recorded) when the bot gave no line.
    fn answer_line<'x>(
        &mut self,
        table: &dyn RefereedGame,
        x: &'x Exchange,
        offenders: &mut Offenders,
    ) -> Result<Option<&'x str>, MatchError> {
        match &x.answer {
            Err(e) => {
                offenders.push(x.seat);
                self.error(table, x.seat, e.kind(), e.to_string(), None)?;
                Ok(None)
            }
            Ok(line) => {
                self.observer.on_answer(x.seat, line)?;
                Ok(Some(line))
            }
        }
    }

    /// Asks the seats that can act, validates, applies.
    async fn decide(&mut self, table: &mut dyn RefereedGame) -> Result<Option<Offenders>, MatchError> {
        let pending: Vec<Seat> = table.pending().iter().map(|d| d.seat).collect();
        if pending.is_empty() {
            return Err(MatchError::Engine("no decision pending but the game is not over".into()));
        }
        // In-process built-ins decide from the engine's legal set (external bots ignore it).
        // riichi.dev's seats number the tiles of their observation by the wall's ids, and
        // their requests by one counter over every seat's decisions.
        for d in table.pending() {
            self.requests += 1;
            let offer = Offer { legal: &d.legal, wall: table.wall_ids(), request_id: self.requests };
            self.seats.offer(d.seat, &offer);
        }
        let mut requests = Vec::new();
        let mut limits = Vec::new();
        for &seat in &pending {
            let events = self.relay.take(seat, table.log(), table.log().len());
            let allowed = self.allowed(seat, &events);
            requests.push((seat, batch_line_for(&events, self.players), allowed.duration()));
            limits.push((seat, allowed));
        }
        let Some(done) = self.exchange(&requests).await? else { return Ok(None) };
        self.spend_bank(&limits, &done);
        let mut offenders = Vec::new();
        let mut answers = Vec::new();
        let mut metas = Vec::new();
        for x in &done {
            self.report.decision_times[usize::from(x.seat)].push(x.elapsed);
            let played;
            let line = if self.defaults(x) {
                let legal = table.pending().iter().find(|d| d.seat == x.seat).map_or(&[][..], |d| &d.legal[..]);
                let action = default_answer(legal);
                match &x.answer {
                    Err(BotError::Disconnected(why)) => self.disconnected_default(&*table, x.seat, &action, why)?,
                    _ => self.default_played(&*table, x.seat, &action, &limits)?,
                }
                played = action.to_json();
                played.as_str()
            } else {
                let Some(line) = self.answer_line(&*table, x, &mut offenders)? else { continue };
                line
            };
            match table.validate(x.seat, line) {
                Ok(action) => {
                    if let Some(meta) = AnswerMeta::of_answer(line) {
                        metas.push((x.seat, action.clone(), meta));
                    }
                    answers.push((x.seat, action));
                }
                Err(why) => {
                    offenders.push(x.seat);
                    self.error(&*table, x.seat, "invalid", why.to_string(), Some(line))?;
                }
            }
        }
        if offenders.is_empty() {
            table.apply(&answers).map_err(|e| MatchError::Engine(format!("validated answers refused: {e}")))?;
            self.metas = metas;
        }
        Ok(Some(offenders))
    }

    /// Charges the chombo, stops the bots and starts fresh ones if the game goes on.
    /// Returns the seats failing to start (next offenders), or `None` when the match ends.
    async fn chombo_and_restart(
        &mut self,
        table: &mut dyn RefereedGame,
        offenders: &[Seat],
    ) -> Result<Option<Offenders>, MatchError> {
        table.chombo(offenders);
        for &seat in offenders {
            self.report.chombos[usize::from(seat)] += 1;
        }
        self.flush(table)?;
        self.seats.stop_all().await;
        self.watchdog.kick();
        if table.is_over() {
            self.report.ending = MatchEnding::Completed;
            return Ok(None);
        }
        if self.report.restarts >= self.options.max_restarts {
            self.report.ending = MatchEnding::RestartLimit(self.report.restarts);
            return Ok(None);
        }
        self.report.restarts += 1;
        self.observer.on_restart(self.report.restarts)?;
        match self.start_bots(table).await? {
            Some(next) => Ok(Some(next)),
            None => {
                self.report.ending = MatchEnding::Interrupted;
                Ok(None)
            }
        }
    }

    /// The time `seat` has for the line of `events`: the start timeout for a line beginning
    /// with `start_game` or `start_kyoku` (unless its clock has no start lines), else its
    /// clock's decision time plus what is left of its bank. A line holding a `start_kyoku`
    /// first refills the bank of a clock that refills per hand (the seat's first line of a
    /// new hand).
    fn allowed(&mut self, seat: Seat, events: &[Event]) -> Allowed {
        let s = usize::from(seat);
        let clock = self.clocks[s];
        if clock.refill == Refill::Hand && events.iter().any(|e| matches!(e, Event::StartKyoku { .. })) {
            self.bank[s] = clock.bank;
        }
        if clock.start_lines && begins_with_start(events) {
            Allowed::Start(self.options.start_timeout)
        } else {
            Allowed::Decision { decision: clock.decision, bank: self.bank[s] }
        }
    }

    /// Takes from each asked seat's bank the time its answer took beyond its decision time
    /// (start lines, which have their own timeout, spend nothing).
    fn spend_bank(&mut self, limits: &[Limit], done: &[Exchange]) {
        for x in done {
            let Some((_, Allowed::Decision { decision, .. })) = limits.iter().find(|l| l.0 == x.seat) else { continue };
            let bank = &mut self.bank[usize::from(x.seat)];
            *bank = bank.saturating_sub(x.elapsed.saturating_sub(*decision));
        }
    }

    /// Whether this exchange's answer is the default action: it timed out and the seat's
    /// clock forgives timeouts.
    /// A riichi.dev seat without a connection ([`BotError::Disconnected`]) is always
    /// played by default actions (the dialect's rule).
    fn defaults(&self, x: &Exchange) -> bool {
        matches!(x.answer, Err(BotError::Disconnected(_)))
            || matches!(x.answer, Err(BotError::Timeout(_)))
                && self.clocks[usize::from(x.seat)].on_timeout == OnTimeout::Default
    }

    /// Records that `action` was played for `seat`, which gave no answer in time under a
    /// forgiving clock: its bank goes to 0 until it refills, it is counted in
    /// [`MatchReport::defaulted`], and an `errors.json` entry of type `defaulted` names the
    /// time it had and the action played.
    fn default_played(
        &mut self,
        table: &dyn RefereedGame,
        seat: Seat,
        action: &Event,
        limits: &[Limit],
    ) -> Result<(), MatchError> {
        let s = usize::from(seat);
        self.bank[s] = Duration::ZERO;
        self.report.defaulted[s] += 1;
        let within = limits.iter().find(|l| l.0 == seat).map_or_else(String::new, |(_, a)| a.describe());
        let message = format!(
            "no answer within {within}; the default {} was played ({} clock, no penalty)",
            action.to_json(),
            self.clocks[s].preset
        );
        self.error(table, seat, "defaulted", message, None)
    }

    /// Records that `action` was played for `seat`, a riichi.dev seat with no connection
    /// (dropped, or never made): counted in [`MatchReport::disconnected`] (apart from
    /// timeouts) with an `errors.json` entry of type `disconnected` saying `why`. Its bank is
    /// not touched: nothing was asked.
    fn disconnected_default(
        &mut self,
        table: &dyn RefereedGame,
        seat: Seat,
        action: &Event,
        why: &str,
    ) -> Result<(), MatchError> {
        self.report.disconnected[usize::from(seat)] += 1;
        let message = format!("disconnected: default action {} played; {why}", action.to_json());
        self.error(table, seat, "disconnected", message, None)
    }

    /// The error entry; a bot that died for want of a module the ml image has gets the hint
    /// naming `--image ml` after its message ([`mjai_sim_runtime::missing_module`]).
    fn entry(
        &self,
        table: &dyn RefereedGame,
        seat: Seat,
        kind: &str,
        message: String,
        line: Option<&str>,
    ) -> ErrorEntry {
        let stderr_tail = self.seats.stderr_tail(seat);
        let exception = match mjai_sim_runtime::missing_module::ml_image_hint(&stderr_tail) {
            Some(hint) => format!("{message}; {hint}"),
            None => message,
        };
        ErrorEntry {
            error_type: kind.to_string(),
            exception,
            player_id: seat,
            kyoku: kyoku_label(table.log()),
            line: line.map(truncate_line),
            stderr_tail,
        }
    }

    fn error(
        &mut self,
        table: &dyn RefereedGame,
        seat: Seat,
        kind: &str,
        message: String,
        line: Option<&str>,
    ) -> Result<(), MatchError> {
        let entry = self.entry(table, seat, kind, message, line);
        self.observer.on_error(&entry)?;
        self.report.errors.push(entry);
        Ok(())
    }
}
