//! From the command line's BOT arguments to running bots: which runtime starts a seat.
//!
//! A BOT is `builtin:NAME` (a built-in bot, in process), a `.zip` or a folder holding
//! `bot.py` (run in Docker, or as a local process with `--runtime process`).

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::future::BoxFuture;

use super::clock::Clock;
use super::Launcher;
use mjai_sim_engine::event::Seat;
use mjai_sim_engine::game::{Players, MAX_SEATS};
use mjai_sim_runtime::batch::{BatchHub, BatchOptions, LaunchProcess};
use mjai_sim_runtime::builtin::BuiltinBot;
use mjai_sim_runtime::docker::cleanup::ContainerGuard;
use mjai_sim_runtime::docker::resources::Resources;
use mjai_sim_runtime::docker::{self, DockerOptions};
use mjai_sim_runtime::launcher::{SeatSpec, SubmissionLauncher};
use mjai_sim_runtime::process::ProcessOptions;
use mjai_sim_runtime::remote::control::Control;
use mjai_sim_runtime::remote::hub::RemoteHub;
use mjai_sim_runtime::riichi_dev::seat::{close_parked, close_parked_and_wait, seat_bot_at, Parking, RiichiDevSeat};
use mjai_sim_runtime::riichi_dev::wire::Object;
use mjai_sim_runtime::submission::{Submission, SubmissionLimits};
use mjai_sim_runtime::{Bot, BotError};

/// One seat's bot as given on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BotSpec {
    /// `builtin:NAME`.
    Builtin(String),
    /// A `.zip` or a folder with `bot.py`.
    Submission(PathBuf),
    /// `remote:NAME`: played over a WebSocket by `mjai-sim connect` on its author's machine
    /// ([`mjai_sim_runtime::remote`]).
    Remote(String),
    /// `riichilab:NAME`: a bot written for riichi.dev, connecting with riichi.dev's dialect
    /// to `/ws/ranked` with its token ([`mjai_sim_runtime::riichi_dev`]).
    RiichiDev(String),
}

/// True for a remote bot name: 1 to 64 ASCII letters, digits, `-`, `_` or `.` (it goes in
/// a URL path).
pub fn is_remote_name(name: &str) -> bool {
    (1..=64).contains(&name.len()) && name.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
}

impl FromStr for BotSpec {
    type Err = String;

    /// Never fails on a path (intake checks it later, with a precise message); refuses an
    /// empty argument or `builtin:` without a name.
    fn from_str(s: &str) -> Result<BotSpec, String> {
        if s.is_empty() {
            return Err("empty BOT; give a .zip, a folder with bot.py, or builtin:NAME".into());
        }
        if let Some(name) = s.strip_prefix("riichilab:") {
            if !is_remote_name(name) {
                return Err(format!(
                    "`riichilab:{name}`: a riichi.dev bot's name is 1 to 64 letters, digits, `-`, `_` or `.`, e.g. riichilab:alice"
                ));
            }
            return Ok(BotSpec::RiichiDev(name.to_string()));
        }
        if let Some(name) = s.strip_prefix("remote:") {
            if !is_remote_name(name) {
                return Err(format!(
                    "`remote:{name}`: a remote bot's name is 1 to 64 letters, digits, `-`, `_` or `.`, e.g. remote:alice"
                ));
            }
            return Ok(BotSpec::Remote(name.to_string()));
        }
        match s.strip_prefix("builtin:") {
            Some("") => Err("`builtin:` needs a name, e.g. builtin:tsumogiri".into()),
            Some(name) => Ok(BotSpec::Builtin(name.to_string())),
            None => Ok(BotSpec::Submission(PathBuf::from(s))),
        }
    }
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotSpec::Builtin(name) => write!(f, "builtin:{name}"),
            BotSpec::Submission(path) => write!(f, "{}", path.display()),
            BotSpec::Remote(name) => write!(f, "remote:{name}"),
            BotSpec::RiichiDev(name) => write!(f, "riichilab:{name}"),
        }
    }
}

/// Who a refused BOT is: a seat of one game, or a tournament bot by name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BotRef {
    /// Seat 0 to 3 of one game (displayed `seat N`).
    Seat(Seat),
    /// A tournament bot's name.
    Named(String),
}

impl fmt::Display for BotRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotRef::Seat(seat) => write!(f, "seat {seat}"),
            BotRef::Named(name) => f.write_str(name),
        }
    }
}

/// A BOT refused at intake (unknown built-in, unreadable or malformed submission), before
/// any bot starts: one line `WHO: CAUSE`, e.g. `seat 2: x.zip: bot.py is inside the folder ...`.
#[derive(Debug, thiserror::Error)]
#[error("{who}: {cause}")]
pub struct BotRefused {
    /// The seat or bot refused.
    pub who: BotRef,
    /// Why, with the fix (the intake's one line).
    pub cause: String,
}

impl BotRefused {
    /// `who` refused for `cause`.
    pub fn new(who: BotRef, cause: impl fmt::Display) -> BotRefused {
        BotRefused { who, cause: cause.to_string() }
    }
}

/// Where submissions run (`--runtime`; stored by name in a tournament's options).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RuntimeKind {
    /// One hardened container per seat (the default).
    #[default]
    Docker,
    /// A local `python3 -u bot.py SEAT` process: fast, NOT sandboxed; for bot authors.
    Process,
}

impl RuntimeKind {
    /// Every runtime, in `--help` order.
    pub const ALL: [RuntimeKind; 2] = [RuntimeKind::Docker, RuntimeKind::Process];

    /// The name `--runtime` takes: `docker` or `process`.
    pub fn name(self) -> &'static str {
        match self {
            RuntimeKind::Docker => "docker",
            RuntimeKind::Process => "process",
        }
    }
}

/// How lines reach a bot in Docker (the runtime's own choice, one type for every layer).
pub use mjai_sim_runtime::docker::Transport;

/// Everything needed to start the seats of a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LaunchSettings {
    /// Runtime of submissions.
    pub runtime: RuntimeKind,
    /// Transport in Docker.
    pub transport: Transport,
    /// Bot image (`--image`): `None` or `default`, `ml`, or a reference ([`mjai_sim_images::resolve_image`]).
    pub image: Option<String>,
    /// Largest accepted submission, in bytes.
    pub max_submission_bytes: u64,
    /// Where each seat's stderr goes (`player_logs.{seat}.stderr.txt`).
    pub stderr_paths: [PathBuf; MAX_SEATS],
    /// Container limits chosen by the user (Docker only); defaults where `None`.
    pub resources: Resources,
    /// How submissions that opt in (`batch = true` in `mjai-sim.toml`) are batched: one
    /// process serves all their seats ([`mjai_sim_runtime::batch`]); `None` (`--no-batch`):
    /// one process per seat, as any bot.
    pub batch: Option<BatchOptions>,
}

/// Checks the submissions of `specs` (one per seat: four, or three at a three-player table;
/// intake) and prepares their runtime; the result starts any
/// seat on demand. Errors (one line naming the seat, the cause and the fix) come before
/// any bot starts: unknown built-in, unreadable or malformed submission, Docker daemon
/// unreachable, image missing.
pub async fn build_launcher(
    specs: &[BotSpec],
    settings: &LaunchSettings,
    remote: Option<&RemoteSeats>,
) -> anyhow::Result<SeatLauncher> {
    let limits = SubmissionLimits { max_archive_bytes: settings.max_submission_bytes, ..SubmissionLimits::default() };
    let mut loaded: Vec<(PathBuf, Arc<Submission>)> = Vec::new();
    let mut kinds = Vec::with_capacity(specs.len());
    for (seat, spec) in specs.iter().enumerate() {
        kinds.push(match spec {
            BotSpec::Builtin(name) => {
                BuiltinBot::from_spec(name).map_err(|e| BotRefused::new(BotRef::Seat(seat as Seat), e))?;
                SeatKind::Builtin(name.clone())
            }
            BotSpec::Submission(path) => {
                let known = loaded.iter().find(|(p, _)| p == path).map(|(_, s)| s.clone());
                let submission = match known {
                    Some(s) => s,
                    None => {
                        let s = Arc::new(
                            Submission::load(path, &limits)
                                .map_err(|e| BotRefused::new(BotRef::Seat(seat as Seat), e))?,
                        );
                        loaded.push((path.clone(), s.clone()));
                        s
                    }
                };
                SeatKind::Submission(submission)
            }
            BotSpec::Remote(name) => {
                let Some(remote) = remote.filter(|r| r.hub.allows(name)) else {
                    anyhow::bail!("seat {seat}: remote:{name} needs a listener for remote bots (--listen)");
                };
                SeatKind::Remote(remote.clone(), name.clone())
            }
            BotSpec::RiichiDev(name) => {
                let Some(remote) = remote.filter(|r| r.hub.allows(name)) else {
                    anyhow::bail!("seat {seat}: riichilab:{name} needs a listener for riichi.dev bots (--listen)");
                };
                SeatKind::RiichiDev(remote.clone(), name.clone(), Parking::default())
            }
        });
    }
    let has_submission = kinds.iter().any(|k| matches!(k, SeatKind::Submission(_)));
    let submissions = match settings.runtime {
        _ if !has_submission => None,
        RuntimeKind::Docker => Some(Arc::new(docker_launcher(settings).await?)),
        RuntimeKind::Process => Some(Arc::new(SubmissionLauncher::process(ProcessOptions::default()))),
    };
    let kinds = batch_seats(kinds, settings, submissions.as_ref())?;
    Ok(SeatLauncher {
        kinds,
        stderr_paths: settings.stderr_paths.clone(),
        submissions,
        remote_conns: Mutex::new([None; MAX_SEATS]),
    })
}

/// Seats of submissions that opt in to batching (unless `--no-batch`) become seats of one
/// hub per submission: one process serves all of them. Its stderr goes to the first such
/// seat's log. Errors: a batched bot with the http transport (the relay runs `bot.py SEAT`).
fn batch_seats(
    kinds: Vec<SeatKind>,
    settings: &LaunchSettings,
    submissions: Option<&Arc<SubmissionLauncher>>,
) -> anyhow::Result<Vec<SeatKind>> {
    let (Some(options), Some(launcher)) = (settings.batch, submissions) else {
        return Ok(kinds);
    };
    let mut hubs: Vec<(Arc<Submission>, Arc<BatchHub>, u64)> = Vec::new();
    let mut out = Vec::with_capacity(kinds.len());
    for (seat, kind) in kinds.into_iter().enumerate() {
        let SeatKind::Submission(sub) = &kind else {
            out.push(kind);
            continue;
        };
        if !sub.manifest().batch {
            out.push(kind);
            continue;
        }
        if let Some(why) = batch_refused(settings, sub) {
            anyhow::bail!("seat {seat}: {why}");
        }
        let known = hubs.iter().find(|(s, _, _)| Arc::ptr_eq(s, sub)).map(|(_, h, t)| (h.clone(), *t));
        let (hub, table) = match known {
            Some(found) => found,
            None => {
                let spec = SeatSpec { submission: sub.clone(), stderr_log: settings.stderr_paths[seat].clone() };
                let hub = Arc::new(BatchHub::new(batch_process(launcher.clone(), spec), options));
                let table = hub.table();
                hubs.push((sub.clone(), hub.clone(), table));
                (hub, table)
            }
        };
        out.push(SeatKind::Batched(hub, table));
    }
    Ok(out)
}

/// Why `sub`, a batched bot, cannot be batched under `settings`: the http transport (its
/// relay runs `bot.py SEAT`), as one line with the fix; `None` when it can. Checked at
/// intake, by one game and by a tournament's bots.
pub fn batch_refused(settings: &LaunchSettings, sub: &Submission) -> Option<String> {
    let http = settings.runtime == RuntimeKind::Docker && settings.transport != Transport::Stdio;
    (settings.batch.is_some() && sub.manifest().batch && http).then(|| {
        format!(
            "{} is a batched bot (mjai-sim.toml), which needs --transport stdio; or pass --no-batch",
            sub.source().display()
        )
    })
}

/// Starts a batched submission's process (`bot.py --batch`) with `launcher`.
pub fn batch_process(launcher: Arc<SubmissionLauncher>, spec: SeatSpec) -> LaunchProcess {
    Arc::new(move || {
        let (launcher, spec) = (launcher.clone(), spec.clone());
        Box::pin(async move { launcher.start_batch(&spec).await.map_err(BotError::from) })
    })
}

/// The remote bots a game may seat: the hub their bridges connect to, and how long a seat
/// waits for its bridge (and the bridge's bot) at each start (the game's start timeout).
#[derive(Clone)]
pub struct RemoteSeats {
    /// The hub (names allowed by whoever listens: [`mjai_sim_runtime::remote::listen`] or a server).
    pub hub: Arc<RemoteHub>,
    /// Longest wait for a connection and the `ready` of its bot, per start.
    pub wait: Duration,
}

impl fmt::Debug for RemoteSeats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RemoteSeats").field("wait", &self.wait).finish_non_exhaustive()
    }
}

enum SeatKind {
    Builtin(String),
    Submission(Arc<Submission>),
    /// A seat of a batched submission: its hub and this game's table there.
    Batched(Arc<BatchHub>, u64),
    Remote(RemoteSeats, String),
    /// A dialect seat: its session waits in the parking between restarts.
    RiichiDev(RemoteSeats, String, Parking),
}

/// The runtime's Docker launcher for this game's submissions. The default and ml images
/// (`--image default|ml`) are built on first use (and after a change of docker/); another
/// image given with `--image` must exist.
pub async fn docker_launcher(settings: &LaunchSettings) -> anyhow::Result<SubmissionLauncher> {
    let mut options = DockerOptions::default();
    settings.resources.apply(&mut options);
    options.transport = settings.transport;
    let guard = ContainerGuard::new(docker::daemon().await?);
    // the binary shows these at its default verbosity (src/cli/logging.rs)
    let progress = |line: &str| tracing::info!(target: IMAGE_PROGRESS, "image: {line}");
    options.image = mjai_sim_images::resolve_image(guard.docker(), settings.image.as_deref(), &progress).await?;
    Ok(SubmissionLauncher::docker_with_guard(options, guard).await?)
}

/// Tracing target of the lines a build of the default image writes while it runs.
pub const IMAGE_PROGRESS: &str = "mjai_sim::image";

/// Starts any seat on demand: built-ins in process, submissions through the runtime's
/// launcher (Docker or local processes). Implements the match loop's [`Launcher`].
pub struct SeatLauncher {
    /// One per seat of the table (four, or three).
    kinds: Vec<SeatKind>,
    stderr_paths: [PathBuf; MAX_SEATS],
    submissions: Option<Arc<SubmissionLauncher>>,
    /// The connection each remote seat last played over (for its `game_over`).
    remote_conns: Mutex<[Option<u64>; MAX_SEATS]>,
}

impl SeatLauncher {
    /// Tells each remote seat's bridge how the game ended (`game_over`: scores in points,
    /// chombos, its rank); does not wait.
    pub fn report_remote(&self, scores: [i32; MAX_SEATS], chombos: [u32; MAX_SEATS]) {
        let conns = self.remote_conns.lock().map(|c| *c).unwrap_or([None; MAX_SEATS]);
        let players = Players::of_count(self.kinds.len()).unwrap_or_default();
        for (seat, kind) in players.seats().zip(&self.kinds) {
            if let (SeatKind::Remote(remote, name), Some(conn)) = (kind, conns[usize::from(seat)]) {
                remote.hub.notify(name, conn, &Control::game_over(seat, players, scores, chombos));
            }
        }
    }

    /// Closes each dialect seat's connection after the game (the server closes after
    /// `end_game`), after `farewell` if given (a validation game's `validation_result`), and
    /// waits until what was queued is written (bounded). Dropping the launcher closes them
    /// without waiting.
    pub async fn close_riichi_dev_seats(&self, farewell: Option<&Object>) {
        close_parked_and_wait(self.parkings(), farewell).await; // bounded: inside.
    }

    fn parkings(&self) -> impl Iterator<Item = &Parking> {
        self.kinds.iter().filter_map(|k| match k {
            SeatKind::RiichiDev(_, _, parking) => Some(parking),
            _ => None,
        })
    }

    /// The container guard of this game, when seats run in Docker: shut it down at the end
    /// (removes every container left, e.g. after Ctrl-C during a start).
    pub fn guard(&self) -> Option<&ContainerGuard> {
        self.submissions.as_deref().and_then(SubmissionLauncher::guard)
    }

    /// Stops the processes of batched seats and waits (bounded): call it once the game is
    /// over, before the guard's shutdown.
    pub async fn close_batches(&self) {
        for kind in &self.kinds {
            if let SeatKind::Batched(hub, _) = kind {
                hub.close().await; // bounded: inside (join_or_abort).
            }
        }
    }
}

impl Drop for SeatLauncher {
    fn drop(&mut self) {
        close_parked(self.parkings());
    }
}

impl Launcher for SeatLauncher {
    /// A seat of riichi.dev's dialect plays under riichi.dev's clock (3 s + a 15 s bank per
    /// hand, a timeout plays the default action), whatever the game's.
    fn seat_clock(&self, seat: Seat) -> Option<Clock> {
        matches!(self.kinds.get(usize::from(seat)), Some(SeatKind::RiichiDev(..))).then(Clock::riichi_dev_seat)
    }

    fn launch(&self, seat: Seat) -> BoxFuture<'_, Result<Box<dyn Bot>, BotError>> {
        Box::pin(async move {
            let index = usize::from(seat);
            let (Some(kind), Some(stderr)) = (self.kinds.get(index), self.stderr_paths.get(index)) else {
                return Err(BotError::Host(format!("no seat {seat}")));
            };
            match (kind, &self.submissions) {
                (SeatKind::Builtin(name), _) => BuiltinBot::from_spec(name)
                    .map(|b| Box::new(b) as Box<dyn Bot>)
                    .map_err(|e| BotError::Host(e.to_string())),
                (SeatKind::Submission(sub), Some(launcher)) => {
                    let spec = SeatSpec { submission: sub.clone(), stderr_log: stderr.clone() };
                    launcher.start_seat(seat, &spec).await.map_err(BotError::from)
                }
                (SeatKind::Submission(_), None) => Err(BotError::Host("no runtime for submissions".into())),
                (SeatKind::Batched(hub, table), _) => Ok(Box::new(hub.seat(*table, seat)) as Box<dyn Bot>),
                (SeatKind::RiichiDev(remote, name, parking), _) => {
                    let players = Players::of_count(self.kinds.len()).unwrap_or_default();
                    let at = RiichiDevSeat { hub: &remote.hub, name, wait: remote.wait, parking };
                    let bot = seat_bot_at(at, seat, players).await?; // bounded: remote.wait.
                    Ok(Box::new(bot) as Box<dyn Bot>)
                }
                (SeatKind::Remote(remote, name), _) => {
                    // a restart plays on the connection of the game's first start
                    let previous = self.remote_conns.lock().ok().and_then(|c| c[index]);
                    let bot = remote.hub.start_bot_again(name, seat, remote.wait, previous).await?;
                    if let Ok(mut conns) = self.remote_conns.lock() {
                        conns[index] = Some(bot.conn_id());
                    }
                    Ok(Box::new(bot) as Box<dyn Bot>)
                }
            }
        })
    }
}

/// Starts one seat's bot; the boxed async function a [`FnLauncher`] calls.
pub type LaunchFn = Box<dyn Fn(Seat) -> BoxFuture<'static, Result<Box<dyn Bot>, BotError>> + Send + Sync>;

/// A [`Launcher`] made of one launch function per seat.
pub struct FnLauncher {
    seats: [LaunchFn; 4],
}

impl FnLauncher {
    /// The launcher calling `seats[seat]` to start `seat`.
    pub fn new(seats: [LaunchFn; 4]) -> FnLauncher {
        FnLauncher { seats }
    }
}

impl Launcher for FnLauncher {
    fn launch(&self, seat: Seat) -> BoxFuture<'_, Result<Box<dyn Bot>, BotError>> {
        match self.seats.get(usize::from(seat)) {
            Some(f) => f(seat),
            None => Box::pin(async move { Err(BotError::Host(format!("no seat {seat}"))) }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bot_specs_parse() {
        assert_eq!("builtin:tsumogiri".parse::<BotSpec>(), Ok(BotSpec::Builtin("tsumogiri".into())));
        assert_eq!("bots/a.zip".parse::<BotSpec>(), Ok(BotSpec::Submission("bots/a.zip".into())));
        assert!("builtin:".parse::<BotSpec>().unwrap_err().contains("needs a name"));
        assert!("".parse::<BotSpec>().is_err());
        assert_eq!("remote:alice".parse::<BotSpec>(), Ok(BotSpec::Remote("alice".into())));
        assert_eq!(BotSpec::Remote("a-b_c.1".into()).to_string(), "remote:a-b_c.1");
        assert!("remote:".parse::<BotSpec>().is_err());
        assert!("remote:a/b".parse::<BotSpec>().unwrap_err().contains("letters, digits"));
        assert!(format!("remote:{}", "a".repeat(64)).parse::<BotSpec>().is_ok());
        assert!(format!("remote:{}", "a".repeat(65)).parse::<BotSpec>().is_err());
        assert_eq!(BotSpec::Builtin("rulebase".into()).to_string(), "builtin:rulebase");
        assert_eq!("riichilab:bob".parse::<BotSpec>(), Ok(BotSpec::RiichiDev("bob".into())));
        assert_eq!(BotSpec::RiichiDev("bob".into()).to_string(), "riichilab:bob");
        assert!("riichilab:".parse::<BotSpec>().is_err());
    }
}
