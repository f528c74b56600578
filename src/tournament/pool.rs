//! Bots for the seats of a tournament's games.
//!
//! - [`BotFactory`]: the tournament's bots, each checked once (intake), and one runtime
//!   (one Docker client for the whole tournament); starts bot `b` in seat `s`.
//! - [`Pool`]: with `--keep-bots`, bots that ended a game cleanly wait here and play the
//!   next game that needs the same bot in the same seat (a bot process is started for one
//!   seat, `python3 -u bot.py SEAT`, so it is reused only in that seat). Each game begins
//!   with `start_game`, as mjai bots expect. After any error in a game its bots are stopped.
//! - [`GameSeats`]: the match loop's [`Launcher`] for one game. [`GameSeats::prepare`] gets
//!   its four bots ready before the game (fresh ones started, or kept ones taken from the
//!   pool), so the runner can hide container start-up behind the game being played. A
//!   restart after a chombo always starts fresh bots.

use mjai_sim_arena::launch::RemoteSeats;
use mjai_sim_engine::game::{Players, MAX_SEATS};
use mjai_sim_runtime::remote::control::Control;
use mjai_sim_runtime::remote::hub::RemoteBot;
use mjai_sim_runtime::riichi_dev::seat::{close_parked_and_wait, seat_bot_at, Parking, RiichiDevSeat};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use futures_util::future::{join_all, BoxFuture};

use mjai_sim_arena::clock::Clock;
use mjai_sim_arena::launch::{batch_process, batch_refused, docker_launcher, LaunchSettings, RuntimeKind};
use mjai_sim_arena::Launcher;
use mjai_sim_engine::event::Seat;
use mjai_sim_runtime::batch::{BatchHub, BatchOptions, BatchStats, LaunchProcess};
use mjai_sim_runtime::bounded;
use mjai_sim_runtime::builtin::BuiltinBot;
use mjai_sim_runtime::docker::cleanup::ContainerGuard;
use mjai_sim_runtime::docker::DockerOptions;
use mjai_sim_runtime::launcher::{SeatSpec, SubmissionLauncher};
use mjai_sim_runtime::process::ProcessOptions;
use mjai_sim_runtime::submission::Submission;
use mjai_sim_runtime::{Bot, BotError, Offer};

/// One bot of the tournament, checked.
#[derive(Debug, Clone)]
pub enum LoadedBot {
    /// `builtin:NAME` (the name checked).
    Builtin(String),
    /// A submission read once at the start of the tournament.
    Submission(Arc<Submission>),
    /// `remote:NAME`: played by a bridge connected to the tournament's remote hub.
    Remote(String),
    /// `riichilab:NAME`: a bot of riichi.dev's dialect connected to the hub; one connection
    /// plays one game ([`mjai_sim_runtime::riichi_dev`]).
    RiichiDev(String),
}

/// Starts any of the tournament's bots in any seat.
pub struct BotFactory {
    bots: Vec<LoadedBot>,
    runtime: Runtime,
    remote: Option<RemoteSeats>,
    /// How bots that opt in are batched (`None`: `--no-batch`).
    batch: Option<BatchOptions>,
    /// Each batched bot's hub, started at its first seat (by bot index).
    hubs: Vec<OnceLock<Arc<BatchHub>>>,
    /// Why each batched bot cannot be batched here ([`batch_refused`]), by bot index.
    refused: Vec<Option<String>>,
    next_table: AtomicU64,
}

/// Where submissions run. In Docker every start gets its own container guard (and so its
/// own container name, `mjai-sim-<tag>-<n>-<seat>`): games in parallel and kept bots never
/// collide, and a bot's container lives exactly as long as the bot.
enum Runtime {
    None,
    Process(Arc<SubmissionLauncher>),
    Docker {
        client: bollard::Docker,
        options: Box<DockerOptions>,
        tag: String,
        serial: AtomicU64,
        cpus: f64,
        network: String,
    },
}

impl BotFactory {
    /// The factory for `bots`, preparing the runtime of submissions (Docker: connects and
    /// builds or checks the image) when there are any. Errors: Docker unreachable, image
    /// missing (one line naming the fix).
    pub async fn new(bots: Vec<LoadedBot>, settings: &LaunchSettings) -> anyhow::Result<BotFactory> {
        let any_submission = bots.iter().any(|b| matches!(b, LoadedBot::Submission(_)));
        let runtime = match settings.runtime {
            _ if !any_submission => Runtime::None,
            RuntimeKind::Docker => {
                // checks the daemon and the image once, as one game does
                let launcher = docker_launcher(settings).await?; // bounded: Docker client timeouts.
                let guard = launcher.guard().ok_or_else(|| anyhow::anyhow!("docker launcher without guard"))?;
                // the image resolved, the transport and the resources applied by docker_launcher
                let options = Box::new(
                    launcher
                        .docker_options()
                        .cloned()
                        .ok_or_else(|| anyhow::anyhow!("docker launcher without options"))?,
                );
                let (cpus, network) = launcher
                    .docker_settings()
                    .map(|(c, n)| (c, n.to_string()))
                    .ok_or_else(|| anyhow::anyhow!("docker launcher without settings"))?;
                Runtime::Docker {
                    client: guard.docker().clone(),
                    options,
                    tag: guard.game().to_string(),
                    serial: AtomicU64::new(0),
                    cpus,
                    network,
                }
            }
            RuntimeKind::Process => Runtime::Process(Arc::new(SubmissionLauncher::process(ProcessOptions::default()))),
        };
        let hubs = bots.iter().map(|_| OnceLock::new()).collect();
        let refused = bots
            .iter()
            .map(|b| match b {
                LoadedBot::Submission(sub) => batch_refused(settings, sub),
                _ => None,
            })
            .collect();
        let next_table = AtomicU64::new(0);
        Ok(BotFactory { bots, runtime, remote: None, batch: settings.batch, hubs, refused, next_table })
    }

    /// Where this factory's submissions run (`docker`, `process`; `none`: it has none), as
    /// a game's [`mjai_sim_arena::engine_stamp::EngineStamp`] names it.
    pub fn runtime_name(&self) -> &'static str {
        match self.runtime {
            Runtime::None => "none",
            Runtime::Process(_) => "process",
            Runtime::Docker { .. } => "docker",
        }
    }

    /// Lets `remote:NAME` bots play through `remote`'s hub.
    pub fn with_remote(mut self, remote: Option<RemoteSeats>) -> BotFactory {
        self.remote = remote;
        self
    }

    /// Starts remote bot `bot` for `seat` (`previous`: the connection it played this game
    /// over, for a restart): `None` when `bot` is not remote.
    async fn start_remote(&self, bot: usize, seat: Seat, previous: Option<u64>) -> Option<Result<RemoteBot, BotError>> {
        let Some(LoadedBot::Remote(name)) = self.bots.get(bot) else { return None };
        Some(match &self.remote {
            // bounded: RemoteHub::start_bot_again waits at most `wait`.
            Some(remote) => remote.hub.start_bot_again(name, seat, remote.wait, previous).await,
            None => Err(BotError::Transport(format!("remote:{name} needs a listener for remote bots (--listen)"))),
        })
    }

    /// Tells remote seats' bridges how a game ended (`conns`: the connection of each
    /// seat's last remote bot); does not wait.
    pub fn report_remote(
        &self,
        bots: &[usize],
        conns: [Option<u64>; MAX_SEATS],
        scores: [i32; MAX_SEATS],
        chombos: [u32; MAX_SEATS],
    ) {
        let Some(remote) = &self.remote else { return };
        let players = Players::of_count(bots.len()).unwrap_or_default();
        for seat in players.seats() {
            let s = usize::from(seat);
            if let (Some(LoadedBot::Remote(name)), Some(conn)) = (self.bots.get(bots[s]), conns[s]) {
                remote.hub.notify(name, conn, &Control::game_over(seat, players, scores, chombos));
            }
        }
    }

    /// Labels this factory's containers `<tag>-<n>` (a worker's `worker-NAME`, so that its
    /// next life can remove what this one left).
    pub fn with_tag(mut self, new_tag: &str) -> BotFactory {
        if let Runtime::Docker { tag, .. } = &mut self.runtime {
            *tag = new_tag.to_string();
        }
        self
    }

    /// The Docker client when submissions run in Docker.
    pub fn docker(&self) -> Option<&bollard::Docker> {
        match &self.runtime {
            Runtime::Docker { client, .. } => Some(client),
            _ => None,
        }
    }

    /// True when some bot runs outside the process (start-up worth hiding).
    pub fn has_submissions(&self) -> bool {
        !matches!(self.runtime, Runtime::None)
    }

    /// True when bot `bot` is `remote:NAME` or `riichilab:NAME` (played over a connection).
    pub fn is_remote(&self, bot: usize) -> bool {
        matches!(self.bots.get(bot), Some(LoadedBot::Remote(_) | LoadedBot::RiichiDev(_)))
    }

    /// True when some bot is `remote:NAME` or `riichilab:NAME` (played over a connection).
    pub fn has_remote(&self) -> bool {
        self.bots.iter().any(|b| matches!(b, LoadedBot::Remote(_) | LoadedBot::RiichiDev(_)))
    }

    /// The name of bot `bot` when it is a riichi.dev dialect bot (`riichilab:NAME`).
    pub fn riichi_dev_name(&self, bot: usize) -> Option<&str> {
        self.riichi_dev(bot).map(|(name, _)| name)
    }

    /// The name of dialect bot `bot` and where its connections wait (`None`: no listener):
    /// `None` when `bot` is not `riichilab:NAME`.
    fn riichi_dev(&self, bot: usize) -> Option<(&str, Option<&RemoteSeats>)> {
        match self.bots.get(bot) {
            Some(LoadedBot::RiichiDev(name)) => Some((name, self.remote.as_ref())),
            _ => None,
        }
    }

    /// The name (`NAME` of `builtin:NAME`) of bot `bot` when it is a built-in.
    pub fn builtin_name(&self, bot: usize) -> Option<&str> {
        match self.bots.get(bot)? {
            LoadedBot::Builtin(name) => Some(name),
            LoadedBot::Submission(_) | LoadedBot::Remote(_) | LoadedBot::RiichiDev(_) => None,
        }
    }

    /// The built-in names (`NAME` of `builtin:NAME`) of `bots` (by seat) when all are
    /// built-ins.
    pub fn builtin_names(&self, bots: &[usize]) -> Option<Vec<String>> {
        bots.iter()
            .map(|b| match self.bots.get(*b)? {
                LoadedBot::Builtin(name) => Some(name.clone()),
                LoadedBot::Submission(_) | LoadedBot::Remote(_) | LoadedBot::RiichiDev(_) => None,
            })
            .collect()
    }

    /// True when bot `bot` is a submission that opts in to batching and batching is on:
    /// its seats are served by one process ([`BotFactory::batch_seat`]).
    pub fn is_batched(&self, bot: usize) -> bool {
        self.batch.is_some()
            && matches!(self.bots.get(bot), Some(LoadedBot::Submission(sub)) if sub.manifest().batch)
            && !matches!(self.runtime, Runtime::None)
    }

    /// True when some bot is batched and every submission is: games then cost the host
    /// little beyond the batched process, and many at once fill its cycles.
    pub fn only_batched_submissions(&self) -> bool {
        let subs: Vec<usize> =
            (0..self.bots.len()).filter(|&b| matches!(self.bots[b], LoadedBot::Submission(_))).collect();
        !subs.is_empty() && subs.iter().all(|&b| self.is_batched(b))
    }

    /// A fresh table number for a game's batched seats (unique within the tournament).
    pub fn next_table(&self) -> u64 {
        self.next_table.fetch_add(1, Ordering::Relaxed)
    }

    /// The seat of batched bot `bot` at `table`, its hub started at the first call (the
    /// process's stderr appended to `stderr`). Errors: `bot` is not batched
    /// ([`BotFactory::is_batched`]), or it cannot be batched here ([`batch_refused`]: the
    /// http transport).
    pub fn batch_seat(&self, bot: usize, table: u64, seat: Seat, stderr: &Path) -> Result<Box<dyn Bot>, BotError> {
        let (Some(options), Some(LoadedBot::Submission(sub)), Some(hub)) =
            (self.batch, self.bots.get(bot), self.hubs.get(bot))
        else {
            return Err(BotError::Host(format!("bot {bot} is not batched")));
        };
        if let Some(Some(why)) = self.refused.get(bot) {
            return Err(BotError::Host(why.clone()));
        }
        let spec = SeatSpec { submission: sub.clone(), stderr_log: stderr.to_path_buf() };
        let hub = hub.get_or_init(|| Arc::new(BatchHub::new(self.batch_launch(bot, spec), options)));
        Ok(Box::new(hub.seat(table, seat)))
    }

    /// How the process of batched bot `bot` starts (each start in Docker has a guard and a
    /// container name of its own: `<tag>-b<bot>-<n>`).
    fn batch_launch(&self, bot: usize, spec: SeatSpec) -> LaunchProcess {
        match &self.runtime {
            Runtime::Docker { client, options, tag, cpus, network, .. } => {
                let (client, options, tag, cpus, network) =
                    (client.clone(), (**options).clone(), tag.clone(), *cpus, network.clone());
                let serial = Arc::new(AtomicU64::new(0));
                Arc::new(move || {
                    let n = serial.fetch_add(1, Ordering::Relaxed);
                    let guard = ContainerGuard::with_game_id(client.clone(), format!("{tag}-b{bot}-{n}"));
                    let runtime = SubmissionLauncher::docker_checked(options.clone(), guard, cpus, network.clone());
                    let spec = spec.clone();
                    // bounded: the hub's start timeout.
                    Box::pin(async move { runtime.start_batch(&spec).await.map_err(BotError::from) })
                })
            }
            Runtime::Process(runtime) => batch_process(runtime.clone(), spec),
            Runtime::None => batch_process(Arc::new(SubmissionLauncher::process(ProcessOptions::default())), spec),
        }
    }

    /// Stops the batched bots' processes (end of the tournament), each bounded.
    pub async fn close_batches(&self) {
        for hub in self.hubs.iter().filter_map(OnceLock::get) {
            hub.close().await; // bounded: inside (join_or_abort).
        }
    }

    /// Counts of each batched bot's cycles so far, by bot index (benchmarks print them).
    pub fn batch_stats(&self) -> Vec<(usize, BatchStats)> {
        self.hubs.iter().enumerate().filter_map(|(bot, hub)| hub.get().map(|h| (bot, h.stats()))).collect()
    }

    /// Starts bot `bot` for `seat`, its stderr appended to `stderr`.
    pub async fn start(&self, bot: usize, seat: Seat, stderr: &Path) -> Result<Box<dyn Bot>, BotError> {
        let sub = match self.bots.get(bot) {
            Some(LoadedBot::Builtin(name)) => {
                return BuiltinBot::from_spec(name)
                    .map(|b| Box::new(b) as Box<dyn Bot>)
                    .map_err(|e| BotError::Host(e.to_string()))
            }
            Some(LoadedBot::Submission(sub)) => sub.clone(),
            Some(LoadedBot::RiichiDev(name)) => {
                return Err(BotError::Host(format!("riichilab:{name} is seated by its game (GameSeats)")))
            }
            Some(LoadedBot::Remote(_)) => {
                // bounded: start_remote.
                return match self.start_remote(bot, seat, None).await {
                    Some(result) => result.map(|b| Box::new(b) as Box<dyn Bot>),
                    None => Err(BotError::Host(format!("no bot {bot}"))),
                };
            }
            None => return Err(BotError::Host(format!("no bot {bot}"))),
        };
        let spec = SeatSpec { submission: sub, stderr_log: stderr.to_path_buf() };
        match &self.runtime {
            Runtime::None => Err(BotError::Host("no runtime for submissions".into())),
            Runtime::Process(runtime) => {
                // bounded: start (Docker client timeouts, the relay's ready_timeout).
                runtime.start_seat(seat, &spec).await.map_err(BotError::from)
            }
            Runtime::Docker { client, options, tag, serial, cpus, network } => {
                let n = serial.fetch_add(1, Ordering::Relaxed);
                let guard = ContainerGuard::with_game_id(client.clone(), format!("{tag}-{n}"));
                // image, CPU count and network were checked once, by `new`
                let runtime = SubmissionLauncher::docker_checked((**options).clone(), guard, *cpus, network.clone());
                // bounded: start (Docker client timeouts, the relay's ready_timeout).
                runtime.start_seat(seat, &spec).await.map_err(BotError::from)
            }
        }
    }
}

/// Kept bots waiting for their next game, by (bot index, seat).
type IdleBots = HashMap<(usize, Seat), Vec<Box<dyn Bot>>>;

/// Bots kept between games (`--keep-bots`), by (bot, seat).
pub struct Pool {
    factory: Arc<BotFactory>,
    keep: bool,
    per_key: usize,
    idle: Mutex<IdleBots>,
    bot_logs: PathBuf,
}

impl Pool {
    /// A pool over `factory`. With `keep`, at most `per_key` idle bots wait per (bot, seat)
    /// (the number of games played at once); kept bots write their stderr to
    /// `bot_logs/<bot>-<seat>.stderr.txt` since they outlive a game's folder.
    pub fn new(factory: Arc<BotFactory>, keep: bool, per_key: usize, bot_logs: PathBuf) -> Pool {
        Pool { factory, keep, per_key: per_key.max(1), idle: Mutex::new(HashMap::new()), bot_logs }
    }

    /// The factory.
    pub fn factory(&self) -> &BotFactory {
        &self.factory
    }

    fn take(&self, bot: usize, seat: Seat) -> Option<Box<dyn Bot>> {
        self.idle.lock().ok()?.get_mut(&(bot, seat))?.pop()
    }

    /// Puts a bot back, or returns it when the pool is full (the caller stops it).
    fn put(&self, bot: usize, seat: Seat, b: Box<dyn Bot>) -> Option<Box<dyn Bot>> {
        let Ok(mut idle) = self.idle.lock() else { return Some(b) };
        let list = idle.entry((bot, seat)).or_default();
        if list.len() >= self.per_key {
            return Some(b);
        }
        list.push(b);
        None
    }

    /// Stops every idle bot (end of the tournament).
    pub async fn drain(&self) {
        let all: Vec<Box<dyn Bot>> = match self.idle.lock() {
            Ok(mut idle) => idle.drain().flat_map(|(_, v)| v).collect(),
            Err(_) => Vec::new(),
        };
        stop_all(all).await; // bounded: each bot by bounded::stop.
    }
}

/// One entry per seat, [`MAX_SEATS`] wide as capacity (seats past the table stay empty).
type Slots = Arc<Mutex<[Option<Box<dyn Bot>>; MAX_SEATS]>>;

/// The seats of one game: the match loop's [`Launcher`].
pub struct GameSeats {
    pool: Arc<Pool>,
    /// Bot index by seat: one per seat of the table.
    bots: Vec<usize>,
    /// Where each seat's fresh bots write their stderr (one per seat).
    stderr: Vec<PathBuf>,
    /// Bots made ready before the game, used by the first launch of each seat.
    ready: Slots,
    /// Kept bots handed back by the match loop's stop (`--keep-bots`).
    returned: Slots,
    /// The connection of each remote seat's last bot.
    remote_conns: Arc<Mutex<[Option<u64>; MAX_SEATS]>>,
    /// Each dialect seat's session between restarts (one connection per game).
    riichi_dev: [Parking; MAX_SEATS],
    /// This game's table number for batched seats.
    table: u64,
}

impl GameSeats {
    /// The seats of a game with `bots` by seat (one per seat of the table: 4, or 3); fresh
    /// bots write their stderr to `stderr` (one path per seat).
    pub fn new(pool: Arc<Pool>, bots: Vec<usize>, stderr: Vec<PathBuf>) -> GameSeats {
        GameSeats {
            pool: pool.clone(),
            bots,
            stderr,
            ready: Slots::default(),
            returned: Slots::default(),
            remote_conns: Arc::default(),
            riichi_dev: Default::default(),
            table: pool.factory.next_table(),
        }
    }

    /// Closes the dialect seats' connections after the game (the server closes after
    /// `end_game`), waiting (bounded) until what was queued is written.
    pub async fn close_riichi_dev(&self) {
        close_parked_and_wait(&self.riichi_dev, None).await; // bounded: inside.
    }

    /// Tells the remote seats' bridges how the game ended (scores in points, chombos).
    pub fn report_remote(&self, scores: [i32; MAX_SEATS], chombos: [u32; MAX_SEATS]) {
        let conns = self.remote_conns.lock().map(|c| *c).unwrap_or([None; MAX_SEATS]);
        self.pool.factory.report_remote(&self.bots, conns, scores, chombos);
    }

    /// The pool the seats come from.
    pub fn pool(&self) -> &Pool {
        &self.pool
    }

    /// Gets the table's bots ready: kept ones from the pool, the rest started now (concurrently).
    /// A bot that fails to start is left out: the game's first launch tries again and the
    /// seat pays a chombo if that fails too.
    pub async fn prepare(&self) {
        let starts = (0..self.bots.len() as u8).map(|seat| async move {
            let s = usize::from(seat);
            let bot = match self.pool.take(self.bots[s], seat) {
                Some(b) => Some(b),
                None => self.start_fresh(seat).await.ok(), // bounded: start.
            };
            (s, bot)
        });
        let bots = join_all(starts).await; // bounded: starts.
        if let Ok(mut ready) = self.ready.lock() {
            for (s, b) in bots {
                ready[s] = b;
            }
        }
    }

    /// Ends the game: with `clean` (completed, no error, no restart) and `--keep-bots` the
    /// bots go back to the pool; otherwise they are stopped. Bots made ready but never used
    /// are stopped too.
    pub async fn finish(&self, clean: bool) {
        let mut to_stop = take_all(&self.ready);
        for (s, b) in take_all(&self.returned).into_iter().enumerate() {
            let Some(b) = b else { continue };
            let back = if clean && self.pool.keep { self.pool.put(self.bots[s], s as Seat, b) } else { Some(b) };
            to_stop.push(back);
        }
        stop_all(to_stop.into_iter().flatten().collect()).await; // bounded: each bot by bounded::stop.
    }

    /// Starts a fresh bot for `seat` in a task of its own on the runner's `LocalSet`: a
    /// start the match loop gives up on (shutdown, launch timeout) still runs to its end
    /// and the bot is then dropped, which removes its container; the runner waits for such
    /// tasks before it returns, so no container outlives the tournament.
    async fn start_fresh(&self, seat: Seat) -> Result<Box<dyn Bot>, BotError> {
        let s = usize::from(seat);
        let stderr = if self.pool.keep {
            self.pool.bot_logs.join(format!("{}-{seat}.stderr.txt", self.bots[s]))
        } else {
            self.stderr[s].clone()
        };
        let (pool, bot) = (self.pool.clone(), self.bots[s]);
        if self.pool.factory.is_batched(bot) {
            // the process outlives any one game: its stderr goes beside kept bots' logs
            let stderr = match std::fs::create_dir_all(&self.pool.bot_logs) {
                Ok(()) => self.pool.bot_logs.join(format!("{bot}-batch.stderr.txt")),
                Err(_) => self.stderr[s].clone(),
            };
            return self.pool.factory.batch_seat(bot, self.table, seat, &stderr);
        }
        if let Some((name, remote)) = self.pool.factory.riichi_dev(bot) {
            let Some(remote) = remote else {
                return Err(BotError::Transport(format!("riichilab:{name} needs a listener (--listen)")));
            };
            let players = Players::of_count(self.bots.len()).unwrap_or_default();
            let at = RiichiDevSeat { hub: &remote.hub, name, wait: remote.wait, parking: &self.riichi_dev[s] };
            let bot = seat_bot_at(at, seat, players).await?; // bounded: remote.wait.
            return Ok(Box::new(bot));
        }
        let previous = self.remote_conns.lock().ok().and_then(|c| c[s]);
        // bounded: start_remote.
        if let Some(remote) = self.pool.factory.start_remote(bot, seat, previous).await {
            let remote = remote?;
            if let Ok(mut conns) = self.remote_conns.lock() {
                conns[s] = Some(remote.conn_id());
            }
            return Ok(Box::new(remote));
        }
        let start = async move { pool.factory.start(bot, seat, &stderr).await }; // bounded: start.
        if !self.pool.factory.has_submissions() {
            return start.await; // bounded: built-ins start at once, in the process.
        }
        // bounded: start.
        match tokio::task::spawn_local(start).await {
            Ok(result) => result,
            Err(e) => Err(BotError::Host(format!("the start of seat {seat} failed: {e}"))),
        }
    }
}

fn take_all(slots: &Slots) -> Vec<Option<Box<dyn Bot>>> {
    match slots.lock() {
        Ok(mut s) => s.iter_mut().map(Option::take).collect(),
        Err(_) => Vec::new(),
    }
}

async fn stop_all(mut bots: Vec<Box<dyn Bot>>) {
    bounded::stop_all(bots.iter_mut()).await;
}

impl Launcher for GameSeats {
    /// A seat of riichi.dev's dialect plays under riichi.dev's clock, whatever the game's.
    fn seat_clock(&self, seat: Seat) -> Option<Clock> {
        let bot = self.bots.get(usize::from(seat))?;
        matches!(self.pool.factory.bots.get(*bot), Some(LoadedBot::RiichiDev(_))).then(Clock::riichi_dev_seat)
    }

    fn launch(&self, seat: Seat) -> BoxFuture<'_, Result<Box<dyn Bot>, BotError>> {
        Box::pin(async move {
            let s = usize::from(seat);
            if s >= self.bots.len() {
                return Err(BotError::Host(format!("no seat {seat}")));
            }
            // A relaunch within the game is a restart: the old bot goes for good.
            let old = self.returned.lock().ok().and_then(|mut r| r[s].take());
            if let Some(mut old) = old {
                bounded::stop(old.as_mut()).await;
            }
            let ready = self.ready.lock().ok().and_then(|mut r| r[s].take());
            let bot = match ready {
                Some(b) => b,
                None => self.start_fresh(seat).await?, // bounded: start; Seats::launch_all.
            };
            // A remote bot is its author's process on its author's machine: nothing to keep
            // (no start to save), and its bridge hears of each game's end only when it stops.
            let shared = self.pool.factory.is_remote(self.bots[s]) || self.pool.factory.is_batched(self.bots[s]);
            if self.pool.keep && !shared {
                let kept: Box<dyn Bot> =
                    Box::new(KeptBot { inner: Some(bot), seat: s, returned: self.returned.clone() });
                Ok(kept)
            } else {
                Ok(bot)
            }
        })
    }
}

/// A kept bot as the match loop sees it: `stop` hands it back to its game's seats instead
/// of stopping it; [`GameSeats::finish`] decides whether it is kept.
struct KeptBot {
    inner: Option<Box<dyn Bot>>,
    seat: usize,
    returned: Slots,
}

impl Bot for KeptBot {
    fn exchange<'a>(
        &'a mut self,
        line: &'a str,
        timeout: std::time::Duration,
    ) -> BoxFuture<'a, Result<String, BotError>> {
        match self.inner.as_mut() {
            Some(bot) => bot.exchange(line, timeout),
            None => Box::pin(async { Err(BotError::Crashed("the bot was stopped".into())) }),
        }
    }

    /// Passed on: a kept built-in decides from the referee's legal set like a fresh one.
    fn offer(&mut self, offer: &Offer<'_>) {
        if let Some(bot) = self.inner.as_mut() {
            bot.offer(offer);
        }
    }

    fn stderr_tail(&self) -> Vec<String> {
        self.inner.as_ref().map(|b| b.stderr_tail()).unwrap_or_default()
    }

    fn queue_allowance(&self) -> std::time::Duration {
        self.inner.as_ref().map(|b| b.queue_allowance()).unwrap_or_default()
    }

    fn stop(&mut self) -> BoxFuture<'_, ()> {
        let bot = self.inner.take();
        let returned = self.returned.clone();
        let seat = self.seat;
        Box::pin(async move {
            let Some(bot) = bot else { return };
            let displaced = match returned.lock() {
                Ok(mut r) => r[seat].replace(bot),
                Err(_) => Some(bot),
            };
            if let Some(mut other) = displaced {
                bounded::stop(other.as_mut()).await;
            }
        })
    }
}
