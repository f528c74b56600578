//! The one loop that plays tournaments round after round, under every process that plays
//! them: a folder's tournament (`mjai-sim tournament`), the coordinator
//! (`mjai-sim tournament --db`), the workers (`mjai-sim worker`) and the grading server
//! (`mjai-sim serve --jobs`). Each builds a [`PlayLoop`] saying what differs for it — which
//! tournaments it plays, whether it tops a league's schedule up and reports counts, when it
//! ends — and hears what happens through its [`Observer`]; every round has the one setup of
//! [`super::round`].
//!
//! One turn of the loop: stop if cancelled; top the league up (when asked); play a round of
//! each tournament with claimable games (and of a folder's tournament at the first turn, so
//! that its observer always hears it start); read the counts (told when asked; a fixed
//! tournament ends when no game is pending or running); wait [`PlayLoop::poll`] when
//! nothing was played. When the loop ends, for any reason, the observer hears
//! [`Observer::finished`] once.

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::round::Announce;
use super::{patience_of, Notice, Observer, Place, PlayOptions, RunEnd, Session};
use crate::store::retry::{retry, Patience};
use crate::store::{Counts, Store, TopUp};
use mjai_sim_arena::cancel::CancelToken;
use mjai_sim_arena::match_loop::HostFault;
use mjai_sim_runtime::backoff::Doubling;
use mjai_sim_runtime::docker::DockerError;

/// Least time between two [`Notice::Counts`] of a league (it runs for days).
pub const LEAGUE_REPORT: Duration = Duration::from_secs(10);

/// The first wait of a loop that never ends by itself (a worker, the server) after the host
/// could not run bots ([`is_host_fault`]); each fault in a row doubles it, up to
/// [`HOST_BACKOFF_MAX`].
pub const HOST_BACKOFF: Duration = Duration::from_secs(5);

/// The longest wait after host faults in a row.
pub const HOST_BACKOFF_MAX: Duration = Duration::from_secs(300);

/// Whether `error` is the host's, not a bot's nor the database's: a game stopped because
/// the host could not start its bots ([`HostFault`]), or the Docker daemon, the image or a
/// container start failing when a round prepares its bots.
pub fn is_host_fault(error: &anyhow::Error) -> bool {
    error.chain().any(|c| {
        HostFault::is(c)
            || matches!(
                c.downcast_ref::<DockerError>(),
                Some(
                    DockerError::Unreachable(_)
                        | DockerError::ImageMissing(_)
                        | DockerError::Start { .. }
                        | DockerError::Api { .. }
                )
            )
    })
}

/// Which tournaments a loop plays.
#[derive(Clone, Copy)]
pub enum Scope<'a> {
    /// This one (the coordinator, the server).
    One(&'a Session),
    /// Every tournament of the database with claimable games (a worker).
    Every(&'a Store),
}

/// When a loop returns [`RunEnd::Finished`] (it always returns
/// [`RunEnd::Interrupted`] when its stop fires first).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Until {
    /// Never: only the stop ends it (the server; a worker without `--exit-when-idle`).
    Stopped,
    /// When a look finds no tournament with claimable games (`--exit-when-idle`).
    Idle,
    /// When a fixed tournament has no game pending or running (a league never ends so): a
    /// folder's tournament, the coordinator. Only for [`Scope::One`].
    Done,
}

/// One loop's settings.
#[derive(Clone, Copy)]
pub struct PlayLoop<'a> {
    /// What it plays.
    pub scope: Scope<'a>,
    /// Top a league's schedule up at each turn and tell the observer once when it idles
    /// (fewer than 4 active bots). Only for [`Scope::One`].
    pub top_up: bool,
    /// Tell the observer [`Notice::Counts`] when they change (a league's at most every
    /// [`LEAGUE_REPORT`]). Only for [`Scope::One`].
    pub report_counts: bool,
    /// When it finishes.
    pub until: Until,
    /// Wait after a turn that played nothing (seconds to a few).
    pub poll: Duration,
}

impl<'a> PlayLoop<'a> {
    /// A folder's tournament played by this process (`mjai-sim tournament`): plays `session`
    /// until every game is done (a league: until stopped, topped up, a round after each
    /// change of its bots, looking again every second when idle).
    pub fn here(session: &'a Session) -> PlayLoop<'a> {
        PlayLoop {
            scope: Scope::One(session),
            top_up: true,
            report_counts: false,
            until: Until::Done,
            poll: Duration::from_secs(1),
        }
    }

    /// The coordinator's loop (`mjai-sim tournament --db`): plays `session` with its own
    /// jobs (none with `--jobs 0`), keeps a league topped up, reports counts, and ends when
    /// a fixed tournament is done.
    pub fn coordinator(session: &'a Session) -> PlayLoop<'a> {
        PlayLoop {
            scope: Scope::One(session),
            top_up: true,
            report_counts: true,
            until: Until::Done,
            poll: Duration::from_millis(500),
        }
    }

    /// The grading server's loop: plays its league until stopped, topping it up.
    pub fn server(session: &'a Session) -> PlayLoop<'a> {
        PlayLoop {
            scope: Scope::One(session),
            top_up: true,
            report_counts: false,
            until: Until::Stopped,
            poll: Duration::from_secs(1),
        }
    }

    /// A worker's loop: every tournament of `store`, looking again every `poll`; with
    /// `until_idle` it ends when nothing is left to claim.
    pub fn worker(store: &'a Store, until_idle: bool, poll: Duration) -> PlayLoop<'a> {
        PlayLoop {
            scope: Scope::Every(store),
            top_up: false,
            report_counts: false,
            until: if until_idle { Until::Idle } else { Until::Stopped },
            poll,
        }
    }

    /// Plays (unless `opts.jobs` is `Some(0)`) until the loop ends or `stop` fires. Store
    /// calls ride out outages for `opts.db_patience`, told to `observer`. A loop that
    /// never ends by itself ([`Until::Stopped`]: a worker, the server) rides out host faults
    /// too ([`is_host_fault`]: told as [`Notice::HostFault`], then waits [`HOST_BACKOFF`],
    /// doubling); the others return them. Errors: the database unreachable beyond the
    /// patience, bots cannot start (Docker; the host's fault, for a loop that ends), a damaged
    /// submission, logs unwritable (one line; what was recorded stays; games in play go back
    /// to the queue).
    pub async fn run(
        &self,
        opts: &PlayOptions,
        observer: Arc<dyn Observer>,
        stop: CancelToken,
    ) -> anyhow::Result<RunEnd> {
        let end = self.turns(opts, &observer, stop).await;
        observer.finished();
        end
    }

    /// The turns of [`PlayLoop::run`], until it ends.
    async fn turns(
        &self,
        opts: &PlayOptions,
        observer: &Arc<dyn Observer>,
        stop: CancelToken,
    ) -> anyhow::Result<RunEnd> {
        let patience = patience_of(opts.db_patience, observer);
        let mut reported: Option<(Counts, Instant)> = None;
        let mut idle = false;
        let mut backoff = Doubling::new(HOST_BACKOFF, HOST_BACKOFF_MAX);
        // the tournament of the last round played: the observer heard it start (a worker
        // going from one tournament to another tells the next one's start)
        let mut last: Option<i64> = None;
        loop {
            if stop.is_cancelled() {
                return Ok(RunEnd::Interrupted);
            }
            if let (true, Scope::One(session)) = (self.top_up, self.scope) {
                idle = top_up(session, &patience, observer.as_ref(), idle).await?;
            }
            let owned: Vec<Session>;
            let sessions: Vec<&Session> = match self.scope {
                _ if opts.jobs == Some(0) => Vec::new(),
                // a folder's first round is played even with nothing to claim, so that its
                // observer always hears it start (a finished tournament resumed says so)
                Scope::One(session) if last.is_none() && matches!(session.place(), Place::Folder(_)) => vec![session],
                Scope::One(session) => {
                    let ids =
                        retry("look for games", &patience, || session.store().leases().claimable_tournaments()).await?;
                    ids.contains(&session.store().id()).then_some(session).into_iter().collect()
                }
                Scope::Every(store) => {
                    let ids = retry("look for games", &patience, || store.leases().claimable_tournaments()).await?;
                    let mut opened = Vec::with_capacity(ids.len());
                    for t in ids {
                        opened.push(Session::of_store(store.scoped(t), &patience).await?);
                    }
                    owned = opened;
                    owned.iter().collect()
                }
            };
            let mut played = 0;
            let mut fault = None;
            for session in &sessions {
                let id = session.store().id();
                let announce = if last == Some(id) { Announce::Bots } else { Announce::Start };
                last = Some(id);
                let round = match session.play_round(opts, &patience, observer.as_ref(), stop.clone(), announce).await {
                    Ok(round) => round,
                    Err(e) if self.until == Until::Stopped && is_host_fault(&e) => {
                        fault = Some(format!("{e:#}"));
                        break;
                    }
                    Err(e) => return Err(e),
                };
                if round.end == RunEnd::Interrupted {
                    return Ok(RunEnd::Interrupted);
                }
                played += round.games;
            }
            if let Some(cause) = fault {
                let retry_in = backoff.next_delay();
                observer.notice(&Notice::HostFault { cause, retry_in });
                wait_or_stop(&stop, retry_in).await;
                continue;
            }
            if played > 0 {
                backoff.reset();
            }
            if let Scope::One(session) = self.scope {
                // a league never ends by itself: its counts are read only to be told
                let may_end = self.until == Until::Done && !session.config().is_league();
                if self.report_counts || may_end {
                    let counts = retry("count games", &patience, || session.store().games().counts()).await?;
                    if self.report_counts {
                        report(session, counts, observer.as_ref(), &mut reported);
                    }
                    if may_end && counts.pending + counts.running == 0 {
                        return Ok(RunEnd::Finished);
                    }
                }
            }
            if played == 0 {
                if self.until == Until::Idle && sessions.is_empty() {
                    return Ok(RunEnd::Finished);
                }
                wait_or_stop(&stop, self.poll).await;
            }
        }
    }
}

/// Tops `session`'s league up (nothing for a fixed tournament) and tells `observer` once
/// when it turns idle (`was_idle`: what the previous call returned). Returns whether it is
/// idle now. The one place where a league's idleness is decided, for this loop and for a
/// folder's league ([`PlayLoop::here`]).
pub(super) async fn top_up(
    session: &Session,
    patience: &Patience,
    observer: &dyn Observer,
    was_idle: bool,
) -> anyhow::Result<bool> {
    if !session.config().is_league() {
        return Ok(false);
    }
    let topped = retry("top up the league", patience, || session.store().league().top_up(1)).await?;
    if let (Some(note), false) = (topped.idle_note(), was_idle) {
        observer.notice(&Notice::LeagueIdle(note));
    }
    Ok(matches!(topped, TopUp::Idle { .. }))
}

/// Tells `observer` `session`'s `counts` when they changed since `reported` (a league's at
/// most every [`LEAGUE_REPORT`]); the first read is always told.
fn report(session: &Session, counts: Counts, observer: &dyn Observer, reported: &mut Option<(Counts, Instant)>) {
    let league = session.config().is_league();
    let due = match reported {
        None => true,
        Some((before, at)) => *before != counts && (!league || at.elapsed() >= LEAGUE_REPORT),
    };
    if due {
        observer.notice(&Notice::Counts { counts, league });
        *reported = Some((counts, Instant::now()));
    }
}

/// Waits `period` or until `stop` fires, whichever comes first.
pub(super) async fn wait_or_stop(stop: &CancelToken, period: Duration) {
    tokio::select! {
        _ = tokio::time::sleep(period) => {}
        _ = stop.cancelled() => {}
    }
}
