//! Plays a tournament's pending games into its store, `jobs` at a time.
//!
//! One coordinator (the caller's task) claims games from the store in batches and hands
//! them to `jobs` worker tasks; each worker plays the main job's game (same match loop,
//! chombo/restart rules, logs in `games/<index>/`) and sends back the result; the
//! coordinator records finished games in one transaction per batch, so a result is in the
//! database before the next batch is claimed, and a crash loses at most the games being
//! played (they are played again on resume).
//!
//! Faults: a game that cannot be refereed (engine error, abandoned after the restart
//! limit) is marked failed with its reason and retried once, then reported while the rest
//! go on. A game in which a built-in bot took a chombo is the referee's bug
//! ([`BuiltinFault`]): failed for good at once, never recorded. A game whose bots the host
//! could not start ([`HostFault`]: Docker gone, image missing, no GPU runtime) goes back to
//! the queue unrecorded and the run stops with that fault (a worker or a server backs off
//! and tries again: [`super::session::PlayLoop`]). A log write failure (disk full) or a
//! store failure stops the tournament with one line; what was recorded stays recorded. A
//! database that goes away is waited for (`patience`, see [`super::store::retry`]):
//! finished games are recorded once it is back. When `stop` fires, games being played end at once and go back to `pending`.
//!
//! Leagues (`open_ended`): each claim batch is preceded by a top-up of the schedule, and
//! claims take only games among the bots this run loaded; the run ends when nothing it can
//! claim is left, and the caller starts another run, which loads the bots added since.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use tokio::sync::{mpsc, Mutex};

use mjai_sim_runtime::cancel::CancelToken;

use super::hand_publisher::HandPublisher;
use super::inproc;
use super::observer::Observer;
use super::pool::{GameSeats, Pool};
use super::record::{FromGame, GameRecord};
use super::schedule::ScheduledGame;
use super::store::retry::{retry, Patience};
use super::store::{GameFiles, Store, StoreError};
use mjai_sim_arena::builtin_fault::{builtin_fault, BuiltinFault};
use mjai_sim_arena::engine_stamp::EngineStamp;
use mjai_sim_arena::logs::{stderr_path_in, LogDir};
use mjai_sim_arena::match_loop::{HostFault, MatchEnding, MatchError, MatchReport};
use mjai_sim_arena::observer::{Fanout, GameObserver, Silent};
use mjai_sim_arena::summary::Summary;
use mjai_sim_arena::trace::TraceFile;
use mjai_sim_arena::{play_match, MatchOptions};
use mjai_sim_engine::event::Seat;
use mjai_sim_engine::game::{Game, GameConfig, Rules, StartState};

/// How games are played.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// Games at once (at least 1).
    pub jobs: usize,
    /// Write each game's folder `games/<index>/` (mjai_log.json, summary.json, ...).
    pub logs: bool,
    /// Write `game.html` (the viewer) in each game's folder (when `logs`).
    pub html: bool,
    /// The tournament folder.
    pub dir: PathBuf,
    /// Time limits and restart cap of every game.
    pub match_options: MatchOptions,
    /// Rule variant (Tenhou).
    pub rules: Rules,
    /// Bot names in the order of the bot list (for `summary.json`).
    pub names: Vec<String>,
    /// Who claims (`claimed_by`): unique per process, e.g. `local-<pid>` or `NAME#<nonce>`.
    pub worker: String,
    /// Lease of a claimed game, renewed every third of it while the game plays.
    pub lease: std::time::Duration,
    /// Store each game's files (compressed log, summary, errors) with its result and then
    /// remove its folder (`--db`: the database is the archive; workers keep no disk state).
    pub store_files: bool,
    /// How long store calls are retried while the database is unreachable, and who hears
    /// of it ([`super::store::retry`]); finished games wait meanwhile.
    pub patience: Patience,
    /// A league (`--sets 0`): the schedule is topped up before each claim batch
    /// ([`super::store::League::top_up`]), and only games among the bots in `names` are
    /// claimed (bots added since are left to a process that loads them: the run ends when
    /// nothing else is left).
    pub open_ended: bool,
    /// Publish each finished hand of a game with logs into the store as it ends
    /// ([`super::store::Live`]: a league's games are watched one hand behind); best
    /// effort: a failed write costs watchers that hand, never the game.
    pub live_hands: bool,
    /// Keep each game's trace for disputes ([`mjai_sim_arena::trace`]: every line each
    /// seat was sent and answered), stored with its files (needs `logs` and `store_files`).
    pub traces: bool,
}

/// What a run did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Played {
    /// How the run ended.
    pub end: RunEnd,
    /// Games this run recorded (0: it found nothing to play).
    pub games: u64,
}

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunEnd {
    /// Every game is done or failed for good; in a league: nothing is left that this run
    /// can claim (bots were added since it loaded them, or fewer than 4 bots are active).
    Finished,
    /// `stop` fired; unfinished games are pending again.
    Interrupted,
}

/// The folder of game `index`: `DIR/games/<index, 6 digits>/`.
pub fn game_dir(dir: &Path, index: u64) -> PathBuf {
    dir.join("games").join(format!("{index:06}"))
}

/// What a worker sends back for one game.
enum Outcome {
    Done(Box<GameRecord>, Option<GameFiles>),
    /// Not refereed (retried once).
    Failed(u64, String),
    /// A built-in bot took a chombo: the referee's bug, never a result ([`BuiltinFault`]);
    /// failed for good at once.
    Internal(u64, String),
    Released(u64),
    /// The host could not start the bots: the game goes back to the queue unrecorded and
    /// the run stops with the fault.
    Host(u64, HostFault),
    Fatal(String),
    /// A finished hand of a game in play, to publish ([`RunOptions::live_hands`]): game,
    /// hand (from 0), the hand's events as a JSON array. Not an outcome of the game.
    Hand(u64, u32, String),
}

impl Outcome {
    /// Whether this ends its game's run here (every kind but [`Outcome::Hand`]).
    fn ends_game(&self) -> bool {
        !matches!(self, Outcome::Hand(..))
    }

    /// The game this outcome ends (its live hands go), if it names one.
    fn game_ended(&self) -> Option<u64> {
        match self {
            Outcome::Done(r, _) => Some(r.index),
            Outcome::Failed(i, _) | Outcome::Internal(i, _) | Outcome::Released(i) | Outcome::Host(i, _) => Some(*i),
            Outcome::Hand(..) | Outcome::Fatal(_) => None,
        }
    }
}

/// Games one run holds claimed at most (playing or waiting for a job): with submissions
/// or remote bots (games of a second or more, in containers or over a connection) as many
/// as it plays, so a claimed game is a
/// game in play (`mjai_games_running`) and a bot retired meanwhile plays no game claimed
/// ahead; with built-ins only (games of milliseconds, results written in batches) `2 ×
/// jobs + 32`, which keeps the jobs busy between claims.
pub fn claim_ahead(jobs: usize, submissions: bool) -> usize {
    match submissions {
        true => jobs,
        false => jobs * 2 + 32,
    }
}

/// Plays every pending game of `store` (call `requeue_running` first on resume), telling
/// `observer` of each game recorded or failed. Errors: the store failed (one line; results
/// already recorded stay), a log could not be written.
pub async fn run(
    store: &Store,
    pool: Arc<Pool>,
    options: &RunOptions,
    stop: CancelToken,
    observer: &dyn Observer,
) -> anyhow::Result<Played> {
    let jobs = options.jobs.max(1);
    let capacity = claim_ahead(jobs, pool.factory().has_submissions() || pool.factory().has_remote());
    let (job_tx, job_rx) = mpsc::channel::<ScheduledGame>(capacity);
    let job_rx = Arc::new(Mutex::new(job_rx));
    let (out_tx, mut out_rx) = mpsc::unbounded_channel::<Outcome>();
    let shared = Arc::new(options.clone());
    // The match loop's future is not Send: workers run on a LocalSet here (bots outside the
    // process: one thread waits on them all) or one per OS thread (built-ins: CPU-bound).
    let local = tokio::task::LocalSet::new();
    let mut threads = Vec::new();
    for _ in 0..jobs {
        let (rx, tx, pool, opts, stop) = (job_rx.clone(), out_tx.clone(), pool.clone(), shared.clone(), stop.clone());
        if pool.factory().has_submissions() {
            local.spawn_local(worker(rx, tx, pool, opts, stop));
        } else {
            threads.push(std::thread::spawn(move || {
                let rt = tokio::runtime::Builder::new_current_thread().enable_all().build();
                if let Ok(rt) = rt {
                    tokio::task::LocalSet::new().block_on(&rt, worker(rx, tx, pool, opts, stop));
                }
            }));
        }
    }
    drop(out_tx);
    // riichi.dev never seats a bot that is not connected: a game whose dialect bot has no
    // connection waiting when it is claimed is not played (see `coordinate`).
    let league = store.league();
    let factory = pool.factory();
    let absent = |g: &ScheduledGame| {
        g.seats.iter().copied().find(|&b| factory.riichi_dev_name(b).is_some_and(|name| !league.seatable_name(name)))
    };
    let channels = (job_tx, &mut out_rx);
    // what played these games, recorded with each
    let engine = EngineStamp::new(options.rules.name(), &options.match_options.clock, factory.runtime_name());
    let end = local.run_until(coordinate(store, options, &engine, channels, capacity, stop, observer, &absent)).await;
    drop(out_rx);
    for t in threads {
        let _ = tokio::task::spawn_blocking(move || t.join()).await;
    }
    local.await;
    end
}

/// Claims games, hands them to the workers, records what they send back.
///
/// A claimed game in which `absent` finds a bot that may not be seated now (a riichi.dev
/// bot with no connection waiting) is given back and that bot's pending games are
/// cancelled, as when a remote bot goes offline: it is scheduled again once connected.
/// Each game is recorded with `engine`.
#[allow(clippy::too_many_arguments)] // the run's parts, each used once; a struct would only rename them
async fn coordinate(
    store: &Store,
    options: &RunOptions,
    engine: &EngineStamp,
    (job_tx, out_rx): (mpsc::Sender<ScheduledGame>, &mut mpsc::UnboundedReceiver<Outcome>),
    capacity: usize,
    stop: CancelToken,
    observer: &dyn Observer,
    absent: &dyn Fn(&ScheduledGame) -> Option<usize>,
) -> anyhow::Result<Played> {
    let worker_id = options.worker.as_str();
    let patience = &options.patience;
    let mut recorded = 0u64;
    let lease_ms = options.lease.as_millis().min(i64::MAX as u128) as i64;
    let mut beat = tokio::time::interval((options.lease / 3).max(std::time::Duration::from_millis(100)));
    beat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut job_tx = Some(job_tx);
    let (mut in_flight, mut exhausted, mut fatal) = (0usize, false, None::<anyhow::Error>);
    let mut host_fault = None::<HostFault>;
    loop {
        let stopping = stop.is_cancelled() || fatal.is_some() || host_fault.is_some();
        if stopping {
            job_tx = None; // workers finish what they hold, then exit
        }
        if let (Some(tx), false) = (&job_tx, exhausted) {
            if in_flight <= capacity / 2 {
                let n = capacity - in_flight;
                if options.open_ended {
                    // whether the league idles is told by the caller's loop, once per change
                    retry("top up", patience, || store.league().top_up(capacity as u64)).await?;
                }
                let bots = options.names.len();
                let games =
                    retry("claim", patience, || store.leases().claim_among(worker_id, n, lease_ms, bots)).await?;
                exhausted = games.is_empty();
                let mut given_back = 0;
                for g in games {
                    if let Some(bot) = absent(&g) {
                        retry("release", patience, || store.leases().release(worker_id, g.index)).await?;
                        let cancelled = retry("cancel", patience, || store.league().cancel_pending_of(bot)).await?;
                        tracing::info!(
                            "game {}: bot {bot} is not connected; {cancelled} pending game(s) cancelled",
                            g.index
                        );
                        given_back += 1;
                        continue;
                    }
                    in_flight += 1;
                    if tx.send(g).await.is_err() {
                        break;
                    }
                }
                // nothing in play waits for an outcome: claim again (the games given back
                // are cancelled now, and the bot is not scheduled until it connects)
                if given_back > 0 && in_flight == 0 {
                    continue;
                }
            }
        }
        if in_flight == 0 && (exhausted || stopping) {
            break;
        }
        let first = tokio::select! {
            o = out_rx.recv() => o,
            _ = stop.cancelled(), if !stop.is_cancelled() => continue,
            _ = beat.tick(), if in_flight > 0 => {
                retry("heartbeat", patience, || store.leases().heartbeat(worker_id, lease_ms)).await?;
                continue;
            }
        };
        let Some(first) = first else { break };
        let mut batch = vec![first];
        while batch.len() < 4096 {
            match out_rx.try_recv() {
                Ok(o) => batch.push(o),
                Err(_) => break,
            }
        }
        in_flight = in_flight.saturating_sub(batch.iter().filter(|o| o.ends_game()).count());
        let (mut records, mut files) = (Vec::new(), Vec::new());
        let ended: Vec<u64> = match options.live_hands {
            true => batch.iter().filter_map(Outcome::game_ended).collect(),
            false => Vec::new(),
        };
        for o in batch {
            match o {
                Outcome::Hand(index, hand, events) => {
                    // best effort: watchers lose this hand, the game goes on
                    if let Err(e) = store.live().put_hand(worker_id, index, hand, &events).await {
                        tracing::warn!("game {index}: hand {hand} not published for watchers: {e}");
                    }
                }
                Outcome::Done(r, f) => {
                    records.push(*r);
                    files.extend(f);
                }
                Outcome::Failed(index, reason) => {
                    let again = retry("fail", patience, || store.games().fail(worker_id, index, &reason)).await?;
                    observer.game_failed(index, &reason, again);
                    exhausted &= !again;
                }
                Outcome::Internal(index, reason) => {
                    retry("fail", patience, || store.games().fail_for_good(worker_id, index, &reason)).await?;
                    observer.game_failed(index, &reason, false);
                }
                Outcome::Released(index) => {
                    retry("release", patience, || store.leases().release(worker_id, index)).await?
                }
                Outcome::Host(index, fault) => {
                    retry("release", patience, || store.leases().release(worker_id, index)).await?;
                    host_fault.get_or_insert(fault);
                }
                Outcome::Fatal(reason) => {
                    fatal.get_or_insert_with(|| anyhow::anyhow!(reason));
                }
            }
        }
        if !records.is_empty() {
            let fresh = retry("record", patience, || store.games().record_with(&records, &files, Some(engine)))
                .await
                .map_err(with_kept)?;
            records.retain(|r| fresh.contains(&r.index));
            recorded += records.len() as u64;
            observer.recorded(&records);
            if options.store_files {
                for f in &files {
                    let _ = std::fs::remove_dir_all(game_dir(&options.dir, f.index));
                }
            }
        }
        // after the record: a watcher finds the whole log before the hands go
        if !ended.is_empty() {
            if let Err(e) = store.live().forget(&ended).await {
                tracing::warn!("live hands of finished games not dropped: {e}");
            }
        }
    }
    drop(job_tx);
    if let Some(e) = fatal {
        return Err(e);
    }
    if let Some(HostFault(why)) = host_fault {
        return Err(HostFault(format!("{why}; the games in play were not recorded and wait in the queue")).into());
    }
    let end = if stop.is_cancelled() { RunEnd::Interrupted } else { RunEnd::Finished };
    Ok(Played { end, games: recorded })
}

fn with_kept(e: StoreError) -> anyhow::Error {
    anyhow::anyhow!("{e}; games recorded before are kept (continue with --resume)")
}

/// Takes games until the channel closes; prepares the next game's seats while one plays
/// when bots run outside the process (hides container start-up).
async fn worker(
    jobs: Arc<Mutex<mpsc::Receiver<ScheduledGame>>>,
    out: mpsc::UnboundedSender<Outcome>,
    pool: Arc<Pool>,
    options: Arc<RunOptions>,
    stop: CancelToken,
) {
    let ahead = pool.factory().has_submissions();
    let mut next: Option<(ScheduledGame, tokio::task::JoinHandle<GameSeats>)> = None;
    loop {
        let (game, seats) = match next.take() {
            Some((g, handle)) => match handle.await {
                Ok(seats) => (g, seats),
                Err(_) => {
                    let seats = seats_of(&pool, &options, &g);
                    (g, seats)
                }
            },
            None => {
                let Some(g) = jobs.lock().await.recv().await else { break };
                let seats = seats_of(&pool, &options, &g);
                // After a stop, games still queued are handed back without starting bots.
                if ahead && !stop.is_cancelled() {
                    seats.prepare().await;
                }
                (g, seats)
            }
        };
        if ahead && !stop.is_cancelled() {
            let taken = jobs.try_lock().ok().and_then(|mut rx| rx.try_recv().ok());
            if let Some(g) = taken {
                let seats = seats_of(&pool, &options, &g);
                next = Some((
                    g,
                    tokio::task::spawn_local(async move {
                        seats.prepare().await;
                        seats
                    }),
                ));
            }
        }
        let outcome = if stop.is_cancelled() {
            seats.finish(false).await;
            Outcome::Released(game.index)
        } else {
            play(&game, &seats, &options, stop.clone(), &out).await
        };
        if out.send(outcome).is_err() {
            break;
        }
    }
    if let Some((g, handle)) = next {
        if let Ok(seats) = handle.await {
            seats.finish(false).await;
        }
        let _ = out.send(Outcome::Released(g.index));
    }
}

fn seats_of(pool: &Arc<Pool>, options: &RunOptions, game: &ScheduledGame) -> GameSeats {
    let stderr = (0..game.seats.len())
        .map(|s| match options.logs {
            true => stderr_path_in(&game_dir(&options.dir, game.index), s as u8),
            false => PathBuf::from("/dev/null"),
        })
        .collect();
    GameSeats::new(pool.clone(), game.seats.clone(), stderr)
}

/// Plays one game to its outcome; the seats are finished (kept or stopped) on every path.
async fn play(
    game: &ScheduledGame,
    seats: &GameSeats,
    options: &RunOptions,
    stop: CancelToken,
    out: &mpsc::UnboundedSender<Outcome>,
) -> Outcome {
    let fast = if options.logs { None } else { seats.pool().factory().builtin_names(&game.seats) };
    let result = match fast.clone() {
        Some(names) => {
            inproc::play(&names, game.seed, options.rules).map_err(GameError::Failed).map(|(report, log)| {
                let record =
                    GameRecord::from_game(game.index, game.set, game.seats.clone(), &log, &report, &options.rules);
                (report, record)
            })
        }
        None => play_logged(game, seats, options, stop, out).await,
    };
    let clean =
        matches!(&result, Ok((r, _)) if r.ending == MatchEnding::Completed && r.errors.is_empty() && r.restarts == 0);
    seats.finish(clean).await;
    if let Ok((report, _)) = &result {
        seats.report_remote(report.scores, report.chombos);
    }
    seats.close_riichi_dev().await; // bounded: inside.
    if let Some(fault) = result.as_ref().ok().and_then(|(report, _)| builtin_fault_of(seats, game, report)) {
        return Outcome::Internal(game.index, fault.to_string());
    }
    match result {
        Ok((report, record)) => match report.ending {
            MatchEnding::Completed => {
                let files = match options.store_files && options.logs && fast.is_none() {
                    true => match GameFiles::read(game.index, &game_dir(&options.dir, game.index)) {
                        Ok(f) => Some(f),
                        Err(e) => return Outcome::Fatal(format!("cannot read the logs of game {}: {e}", game.index)),
                    },
                    false => None,
                };
                Outcome::Done(Box::new(record), files)
            }
            MatchEnding::RestartLimit(n) => Outcome::Failed(game.index, format!("abandoned after {n} restarts")),
            MatchEnding::Failed(reason) => Outcome::Failed(game.index, reason),
            MatchEnding::Interrupted => Outcome::Released(game.index),
        },
        Err(GameError::Fatal(e)) => Outcome::Fatal(e),
        Err(GameError::Failed(e)) => Outcome::Failed(game.index, e),
        Err(GameError::Host(fault)) => Outcome::Host(game.index, fault),
    }
}

/// The chombo of a built-in seat in `report`, if any ([`BuiltinFault`]).
fn builtin_fault_of(seats: &GameSeats, game: &ScheduledGame, report: &MatchReport) -> Option<BuiltinFault> {
    let factory = seats.pool().factory();
    let names: Vec<Option<&str>> = game.seats.iter().map(|&b| factory.builtin_name(b)).collect();
    builtin_fault(report, &names)
}

enum GameError {
    /// The tournament cannot go on (logs cannot be written).
    Fatal(String),
    /// This game cannot be refereed.
    Failed(String),
    /// The host could not start the bots.
    Host(HostFault),
}

async fn play_logged(
    game: &ScheduledGame,
    seats: &GameSeats,
    options: &RunOptions,
    stop: CancelToken,
    out: &mpsc::UnboundedSender<Outcome>,
) -> Result<(MatchReport, GameRecord), GameError> {
    let dir = game_dir(&options.dir, game.index);
    let players = options.rules.players;
    let engine =
        EngineStamp::new(options.rules.name(), &options.match_options.clock, seats.pool().factory().runtime_name());
    let mut logs = match options.logs {
        true => Some(
            LogDir::create_for(&dir, players)
                .map_err(|e| GameError::Fatal(format!("cannot write the game logs: {e}")))?
                .with_engine(&engine),
        ),
        false => None,
    };
    // a stored game keeps its trace for disputes (what each seat was sent and answered),
    // but for its built-in seats: a game of built-ins only has none
    let factory = seats.pool().factory();
    let builtin: Vec<Seat> =
        (0..game.seats.len()).filter(|&s| factory.builtin_name(game.seats[s]).is_some()).map(|s| s as Seat).collect();
    let traced = options.logs && options.store_files && options.traces && builtin.len() < game.seats.len();
    let mut trace = match traced {
        true => Some(
            TraceFile::create(&dir)
                .map_err(|e| GameError::Fatal(format!("cannot write the game's trace: {e}")))?
                .skipping(builtin),
        ),
        false => None,
    };
    let names = ["0", "1", "2", "3"].map(String::from);
    let config = GameConfig { seed: game.seed, names, start: StartState::initial(players) };
    let mut table = Game::with_rules(config, Vec::new(), options.rules);
    let mut silent = Silent;
    let report = {
        let observer: &mut dyn GameObserver = match logs.as_mut() {
            Some(l) => l,
            None => &mut silent,
        };
        let index = game.index;
        let mut live = HandPublisher::new(|hand, events| {
            let _ = out.send(Outcome::Hand(index, hand, events));
        });
        let mut observers = Fanout(vec![observer]);
        if let Some(trace) = trace.as_mut() {
            observers.0.push(trace);
        }
        if options.live_hands {
            observers.0.push(&mut live);
        }
        play_match(&mut table, seats, &options.match_options, &mut observers, stop).await.map_err(|e| match e {
            MatchError::Io(e) => GameError::Fatal(format!("writing the logs of game {} failed: {e}", game.index)),
            MatchError::Engine(e) => GameError::Failed(format!("rules engine error: {e}")),
            MatchError::Host(fault) => GameError::Host(fault),
        })?
    };
    if let Some(trace) = trace {
        trace.finish().map_err(|e| GameError::Fatal(format!("cannot write the trace of game {}: {e}", game.index)))?;
    }
    if let Some(logs) = &logs {
        let bots = game.seats.iter().map(|&b| options.names.get(b).cloned().unwrap_or_default()).collect();
        let mut summary = Summary::new(table.log(), &report, bots);
        summary.engine = Some(engine);
        logs.write_summary(&summary).map_err(|e| GameError::Fatal(format!("cannot write summary.json: {e}")))?;
        // The viewer page, as the main job writes it; a failure costs the page, not the game.
        if options.html {
            if let Err(e) = mjai_sim_arena::game_html::write_game_html(&dir) {
                tracing::warn!("game {}: cannot write game.html: {e:#}", game.index);
            }
        }
    }
    let record = GameRecord::from_game(game.index, game.set, game.seats.clone(), table.log(), &report, &options.rules);
    Ok((report, record))
}
