//! The validation of an uploaded version: the bot plays every seat, in two full hanchans
//! against the built-in opponent ([`seatings`]: seats 0 and 2, then 1 and 3; in a
//! three-player league seats 0 and 2, then 1; a bot that fails only in one seat is
//! caught), in the league's runtime (Docker by default), under
//! the league's time limits and its whole-game bound (`--game-timeout`, the arena's
//! watchdog), so it always ends. It passes when both games completed with no chombo of the
//! bot; then the version is admitted to the league. Otherwise it is rejected at the first
//! failing game with a one-line reason naming the seat and the hand. Either way the last
//! game's log, summary, errors and the bot's stderr (tail, of the seat that failed, else
//! of its first seat) are stored for the author. Cost: two hanchans at once (each takes a
//! slot of `--max-validations`, default 2), up to four containers of the bot at once
//! (three in a three-player league).
//!
//! A remote bot (issue 29, [`BotKind::Remote`]) is validated when its first connection
//! comes: one connection plays one seat, so it plays a hanchan in each seat, one after
//! the other ([`remote_seatings`]: four, or three), over that connection (its stderr stays
//! on its author's machine).
//!
//! At most `--max-validations` games run at once (a semaphore, taken per game); a version still
//! `validating` when the server stopped is validated again at the next start (a remote one
//! at its next connection). A version already queued or playing is not queued twice.
//!
//! Not verdicts (issue 42): a validation game the host could not play (Docker gone, the
//! image missing: [`is_host_fault`]) records nothing and is tried again after 5 s, doubling
//! up to 5 minutes; one in which the built-in opponent took a chombo (the referee's bug)
//! records nothing and is logged as an error (validated again at the next start).

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use anyhow::Context;
use std::rc::Rc;
use std::thread::JoinHandle;

use tokio::sync::{mpsc, Semaphore};
use tokio_util::task::TaskTracker;

use super::local::spawn_thread;

use mjai_sim_arena::cancel::Cancel;
use mjai_sim_arena::game_run::{run_game, GameOutcome, GameSpec};
use mjai_sim_arena::launch::{BotRefused, BotSpec, LaunchSettings, RemoteSeats};
use mjai_sim_arena::logs::stderr_path_in;
use mjai_sim_arena::match_loop::Ending;
use mjai_sim_arena::observer::Silent;
use mjai_sim_arena::verdict::{validation_verdict, Judging};
use mjai_sim_arena::MatchOptions;
use mjai_sim_engine::game::{Players, Rules, StartState};
use mjai_sim_runtime::backoff::Doubling;
use mjai_sim_runtime::remote::control::Control;
use mjai_sim_tournament::session::{is_host_fault, HOST_BACKOFF, HOST_BACKOFF_MAX};
use mjai_sim_tournament::store::{gzip, BotKind, Store, ValidationFiles, VersionRow};
use mjai_sim_tournament::submission_cache::SubmissionCache;

/// The bot's seats in each validation game at a table of `players` seats, played in
/// this order (the others are the built-in opponent): together every seat, each once, in
/// two games. Four seats: `[[0, 2], [1, 3]]`; three: `[[0, 2], [1]]`.
pub fn seatings(players: Players) -> Vec<Vec<usize>> {
    let n = players.count();
    vec![(0..n).step_by(2).collect(), (1..n).step_by(2).collect()]
}

/// A remote bot's seat in each of its validation games at a table of `players` seats, in
/// order: every seat, one connection at a time (`[[0], [1], [2], [3]]`, or three).
pub fn remote_seatings(players: Players) -> Vec<Vec<usize>> {
    (0..players.count()).map(|s| vec![s]).collect()
}

/// A riichi.dev dialect bot's seat in its one validation game (riichi.dev: "one East-only
/// game against three tsumogiri, the bot in seat 0"; the opponent here is
/// `--validation-opponent`, the game East-only under the league's rules,
/// [`Rules::east_only`]).
pub const RIICHILAB_SEATING: &[usize] = &[0];

pub use mjai_sim_runtime::riichilab::validation_slot;

/// Bytes of the bot's stderr kept with its validation game.
pub const STDERR_KEPT: usize = 64 * 1024;

/// How validation games are played.
#[derive(Debug, Clone)]
pub struct ValidationSettings {
    /// Runtime, transport, image and container limits (stderr paths are set per game).
    pub launch: LaunchSettings,
    /// Time limits, restart cap and whole-game bound.
    pub options: MatchOptions,
    /// The league's rules.
    pub rules: Rules,
    /// The built-in opponent (a `builtin:` name), in the seats the bot does not hold.
    pub opponent: String,
    /// Where games are played (a folder per game, removed after).
    pub work_dir: PathBuf,
    /// Where remote bots' connections wait (the server's hub); `None`: no remote bot is
    /// validated (their validation fails with a reason saying so).
    pub remote: Option<RemoteSeats>,
    /// This host's submission cache (`--cache-dir`, `--cache-mb`); `None`: the zip is
    /// written from the store straight into the game's folder.
    pub cache: Option<Arc<SubmissionCache>>,
}

/// Runs validation games on their own thread ([`super::local`]), at most a fixed number
/// at once.
#[derive(Clone)]
pub struct Validator {
    queue: mpsc::UnboundedSender<VersionRow>,
    tracker: TaskTracker,
    queued: Arc<Mutex<HashSet<(String, u32)>>>,
}

/// The validation thread's side.
struct Games {
    settings: Arc<ValidationSettings>,
    store: Store,
    cancel: Cancel,
    /// Games at once (`--max-validations`).
    slots: Semaphore,
}

/// What one validation game decided.
enum Judged {
    /// The game was stopped by the server's shutdown: no verdict.
    Stopped,
    /// The files to keep and the verdict (a failure's one-line reason).
    Verdict(ValidationFiles, Result<(), String>),
}

impl Validator {
    /// Starts the validation thread over `store`, `max_at_once` games at a time; its games
    /// stop when `cancel` fires, and the thread ends once they have. Errors: the thread
    /// could not be made.
    pub fn start(
        settings: ValidationSettings,
        max_at_once: usize,
        store: Store,
        cancel: Cancel,
    ) -> std::io::Result<(Validator, JoinHandle<anyhow::Result<()>>)> {
        let (queue, mut rows) = mpsc::unbounded_channel::<VersionRow>();
        let tracker = TaskTracker::new();
        let track = tracker.clone();
        let queued: Arc<Mutex<HashSet<(String, u32)>>> = Arc::default();
        let done = queued.clone();
        let thread = spawn_thread("validation", move || async move {
            let slots = Semaphore::new(max_at_once.max(1));
            let games = Rc::new(Games { settings: Arc::new(settings), store, cancel: cancel.clone(), slots });
            let stop = cancel.token();
            loop {
                let row = tokio::select! {
                    row = rows.recv() => match row { Some(r) => r, None => break },
                    _ = stop.cancelled() => break,
                };
                let (games, done) = (games.clone(), done.clone());
                tokio::task::spawn_local(track.track_future(async move {
                    // when cancelled: validated again at the next start
                    let mut backoff = Doubling::new(HOST_BACKOFF, HOST_BACKOFF_MAX);
                    while !games.cancel.is_cancelled() {
                        match games.validate(&row).await {
                            Ok(()) => break,
                            // the host's fault, no verdict: tried again once it may be whole
                            Err(e) if is_host_fault(&e) => {
                                let wait = backoff.next_delay();
                                tracing::warn!(
                                    "validation of {} version {}: {e:#}; trying again in {} s",
                                    row.name,
                                    row.version,
                                    wait.as_secs()
                                );
                                let stop = games.cancel.token();
                                tokio::select! {
                                    _ = tokio::time::sleep(wait) => {}
                                    _ = stop.cancelled() => {}
                                }
                            }
                            Err(e) => {
                                tracing::error!("validation of {} version {}: {e:#}", row.name, row.version);
                                break;
                            }
                        }
                    }
                    if let Ok(mut q) = done.lock() {
                        q.remove(&(row.name.clone(), row.version));
                    }
                }));
            }
            track.close();
            track.wait().await;
            Ok(())
        })?;
        Ok((Validator { queue, tracker, queued }, thread))
    }

    /// Validation games waiting for a slot or playing.
    pub fn in_flight(&self) -> usize {
        self.tracker.len()
    }

    /// Validates `row` in the background (its zip read from the store; a remote bot over
    /// one of its connections), unless it is queued or playing already.
    pub fn spawn(&self, row: VersionRow) {
        let key = (row.name.clone(), row.version);
        if let Ok(mut queued) = self.queued.lock() {
            if !queued.insert(key) {
                return; // queued or playing already
            }
        }
        if self.queue.send(row).is_err() {
            tracing::warn!("the validation thread has stopped; the version is validated at the next start");
        }
    }
}

impl Games {
    async fn validate(&self, row: &VersionRow) -> anyhow::Result<()> {
        let dir = self.settings.work_dir.join(format!("validate-{}-{}-{}", row.name, row.version, std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
        let players = self.settings.rules.players;
        let (bot, seatings): (BotSpec, Vec<Vec<usize>>) = match row.kind {
            BotKind::Zip => {
                // streamed from the store (through the cache) to disk, never whole in memory
                let path = dir.join("bot.zip");
                let found = match &self.settings.cache {
                    Some(cache) => cache.link_into(&self.store, &row.sha256, &path).await?,
                    None => self.store.blobs().write_submission(&row.sha256, &path).await?.is_some(),
                };
                anyhow::ensure!(found, "the submission is missing from the store");
                (BotSpec::Submission(path), seatings(players))
            }
            BotKind::Remote => (BotSpec::Remote(row.name.clone()), remote_seatings(players)),
            BotKind::RiichiLab => (BotSpec::RiichiLab(validation_slot(&row.name)), vec![RIICHILAB_SEATING.to_vec()]),
        };
        // riichi.dev's bots pass only when they answered every request, connected.
        let judging = match row.kind {
            BotKind::RiichiLab => Judging::EveryRequest,
            BotKind::Zip | BotKind::Remote => Judging::NoChombo,
        };
        // riichi.dev validates in one East-only game; the others play the league's games.
        let rules = match row.kind {
            BotKind::RiichiLab => self.settings.rules.east_only(),
            BotKind::Zip | BotKind::Remote => self.settings.rules,
        };
        // A zip's games are played at once (each takes a slot of --max-validations); a
        // remote bot's one after the other over its connection, up to the first failure.
        let game_dir = |i: usize| dir.join(format!("game-{i}"));
        let mut judged = Vec::new();
        if row.kind == BotKind::Zip {
            let games = seatings.iter().enumerate().map(|(i, seats)| self.play(game_dir(i), &bot, seats, rules));
            let outcomes = futures_util::future::join_all(games).await;
            for ((i, outcome), seats) in outcomes.into_iter().enumerate().zip(&seatings) {
                judged.push(self.judge(outcome, &dir, &game_dir(i), seats, judging)?);
            }
        } else {
            for (i, seats) in seatings.iter().enumerate() {
                let outcome = self.play(game_dir(i), &bot, seats, rules).await;
                let step = self.judge(outcome, &dir, &game_dir(i), seats, judging)?;
                let failed = matches!(&step, Judged::Verdict(_, Err(_)));
                judged.push(step);
                if failed {
                    break;
                }
            }
        }
        let mut last = None;
        for step in judged {
            match step {
                Judged::Stopped => return Ok(()),
                Judged::Verdict(files, verdict) => {
                    let failed = verdict.is_err();
                    last = Some((files, verdict));
                    if failed {
                        break; // the first failing game, in seating order, is the one shown
                    }
                }
            }
        }
        let Some((files, verdict)) = last else { return Ok(()) };
        let _ = std::fs::remove_dir_all(&dir);
        let reason = verdict.as_ref().err().map(|r| one_line(r));
        self.store
            .versions()
            .record_validation(&row.name, row.version, &files, reason.as_deref().map_or(Ok(()), Err))
            .await?;
        let (bot, version, author) = (&row.name, row.version, row.author.as_deref().unwrap_or("-"));
        let verdict = reason.as_deref().unwrap_or("passed");
        tracing::info!(target: super::AUDIT, event = "validation", bot = %bot, version, author, verdict, "validation ended");
        if let (BotKind::Remote, Some(remote)) = (row.kind, &self.settings.remote) {
            let said = Control::Verdict { version, passed: reason.is_none(), reason: reason.clone() };
            remote.hub.tell(bot, &said); // the bridges print it
        }
        if reason.is_none() {
            self.store.versions().admit(&row.name, row.version).await?;
            tracing::info!(target: super::AUDIT, event = "admit", bot = %bot, version, author, "version admitted to the league");
        }
        Ok(())
    }

    /// What a validation game's `outcome` (played in `game_dir`, with the bot in `seats`)
    /// means: a verdict with the files to keep, or no verdict (the server stopped: validated
    /// again at the next start). Errors, recording no verdict (`dir` removed): the built-in
    /// opponent's chombo (the referee's bug) or a host fault (not the bot's).
    fn judge(
        &self,
        outcome: anyhow::Result<GameOutcome>,
        dir: &Path,
        game_dir: &Path,
        seats: &[usize],
        judging: Judging,
    ) -> anyhow::Result<Judged> {
        match outcome {
            Ok(outcome) if self.cancel.is_cancelled() && outcome.report.ending == Ending::Interrupted => {
                let _ = std::fs::remove_dir_all(dir);
                Ok(Judged::Stopped)
            }
            // A built-in opponent's chombo is the referee's bug and a host fault is the
            // host's: neither is a verdict on the bot. None is recorded; the version is
            // validated again at the next start.
            Ok(outcome) if outcome.builtin_fault.is_some() => {
                let _ = std::fs::remove_dir_all(dir);
                let fault = outcome.builtin_fault.map(|f| f.to_string()).unwrap_or_default();
                anyhow::bail!("{fault}; no verdict recorded");
            }
            Err(e) if !e.chain().any(|c| c.is::<BotRefused>()) => {
                let _ = std::fs::remove_dir_all(dir);
                Err(e.context("the validation game could not be played (not the bot's fault): no verdict recorded; validated again at the next start"))
            }
            Ok(outcome) => {
                let verdict = validation_verdict(&outcome.report, seats, judging);
                let shown = verdict.as_ref().err().map_or(seats[0], |(seat, _)| *seat);
                Ok(Judged::Verdict(read_files(game_dir, shown)?, verdict.map_err(|(_, reason)| reason)))
            }
            Err(e) => Ok(Judged::Verdict(empty_files(), Err(format!("the validation game could not start: {e:#}")))),
        }
    }

    /// One validation game under `rules` with `bot` in `seats`, in folder `game_dir`
    /// (replaced), once a slot of `--max-validations` is free.
    async fn play(
        &self,
        game_dir: PathBuf,
        bot: &BotSpec,
        seats: &[usize],
        rules: Rules,
    ) -> anyhow::Result<GameOutcome> {
        let _slot = self.slots.acquire().await.context("the validation slots are closed")?;
        let _ = std::fs::remove_dir_all(&game_dir);
        let s = &self.settings;
        let bots = (0..rules.players.count())
            .map(|seat| match seats.contains(&seat) {
                true => bot.clone(),
                false => BotSpec::Builtin(s.opponent.clone()),
            })
            .collect();
        let spec = GameSpec {
            bots,
            names: ["0", "1", "2", "3"].map(String::from),
            seed: [rand::random::<u32>() as u64, 0],
            start: StartState::initial(rules.players),
            rules,
            options: s.options.clone(),
            settings: LaunchSettings {
                stderr_paths: std::array::from_fn(|seat| stderr_path_in(&game_dir, seat as u8)),
                ..s.launch.clone()
            },
            dir: game_dir,
            from_log: None,
            remote: s.remote.clone(),
            validation: true,
        };
        run_game(&spec, &mut Silent, self.cancel.token(), |_| {}).await
    }
}

fn one_line(text: &str) -> String {
    let line: String = text.replace(['\n', '\r'], " ");
    line.chars().take(500).collect()
}

fn empty_files() -> ValidationFiles {
    ValidationFiles { log_gz: Vec::new(), stderr: String::new(), summary: String::new(), errors: "[]".into() }
}

/// The stored form of a validation game's folder: the log gzipped, the stderr tail of the
/// bot in `seat`.
fn read_files(dir: &Path, seat: usize) -> anyhow::Result<ValidationFiles> {
    let log = std::fs::read(dir.join("mjai_log.json")).unwrap_or_default();
    let stderr = std::fs::read(stderr_path_in(dir, seat as u8)).unwrap_or_default();
    let tail = &stderr[stderr.len().saturating_sub(STDERR_KEPT)..];
    let text = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap_or_default();
    Ok(ValidationFiles {
        log_gz: gzip(&log)?,
        stderr: String::from_utf8_lossy(tail).into_owned(),
        summary: text("summary.json"),
        errors: text("errors.json"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every seat of the table once, over two games, at four and at three seats; a remote
    /// bot one seat a game.
    #[test]
    fn validation_games_cover_every_seat_once() {
        assert_eq!(seatings(Players::Four), vec![vec![0, 2], vec![1, 3]]);
        assert_eq!(seatings(Players::Three), vec![vec![0, 2], vec![1]]);
        for players in [Players::Four, Players::Three] {
            let mut seats: Vec<usize> = seatings(players).concat();
            seats.sort_unstable();
            assert_eq!(seats, (0..players.count()).collect::<Vec<_>>());
            let remote = remote_seatings(players);
            assert_eq!(remote.len(), players.count());
            assert_eq!(remote.concat(), (0..players.count()).collect::<Vec<_>>());
        }
    }
}
