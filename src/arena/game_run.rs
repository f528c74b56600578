//! One whole game into an output folder: the main job's game (`mjai-sim BOT×4`), shared by
//! every command that plays games (one game, tournaments, workers).
//!
//! [`run_game`] checks the four submissions, starts their seats, plays the match with the
//! chombo/restart rules of [`play_match`], writes `mjai_log.json`, `errors.json`,
//! `player_logs.*` as the game goes and `summary.json` at its end, and removes every
//! container it started before returning.

use std::path::PathBuf;

use anyhow::Context;

use super::builtin_fault::{builtin_fault, BuiltinFault};
use super::engine_stamp::EngineStamp;
use super::launch::{build_launcher, BotSpec, LaunchSettings, RemoteSeats};
use super::logs::LogDir;
use super::match_loop::MatchReport;
use super::observer::{Fanout, GameObserver};
use super::summary::Summary;
use super::verdict::{pass_reason, validation_verdict, Judging};
use super::{play_match, MatchOptions};
use mjai_sim_engine::event::Event;
use mjai_sim_engine::game::{Game, GameConfig, Rules, StartState, Wall, MAX_SEATS};
use mjai_sim_runtime::cancel::CancelToken;
use mjai_sim_runtime::riichi_dev::wire::validation_result;

/// What one game is: bots by seat, walls, start, limits and where its files go.
#[derive(Debug, Clone)]
pub struct GameSpec {
    /// Bots, seat 0 (first dealer) on: one per seat of `rules.players` (four, or three for
    /// sanma); any other number is refused by [`run_game`].
    pub bots: Vec<BotSpec>,
    /// Names written in `start_game.names` (mjai.app writes `"0".."3"`; at three seats the
    /// fourth is written nowhere).
    pub names: [String; MAX_SEATS],
    /// Wall seed `[nonce, key]`, as in the log's `start_game.seed`.
    pub seed: [u64; 2],
    /// Where the game starts (East 1, 25000 each by default; [`StartState::initial`] of the
    /// table size).
    pub start: StartState,
    /// Rule variant the engine referees (Tenhou by default).
    pub rules: Rules,
    /// Time limits and restart cap.
    pub options: MatchOptions,
    /// Runtime, transport, image, intake limit and stderr paths of the seats.
    pub settings: LaunchSettings,
    /// Output folder (created if missing).
    pub dir: PathBuf,
    /// The logged hand this game re-plays (`--from LOG@HAND`), if any.
    pub from_log: Option<FromLog>,
    /// Where `remote:NAME` seats find their bridges (`None`: no remote seat allowed).
    pub remote: Option<RemoteSeats>,
    /// A validation game: at its end each `riichilab:NAME` seat hears
    /// `validation_result` ([`super::verdict::validation_verdict`] of its seats) before its
    /// connection closes.
    pub validation: bool,
}

/// A game that starts at a logged hand: `start` is that hand's state, and its wall is `wall`
/// (or the seeded one when `wall` is `None`).
#[derive(Debug, Clone)]
pub struct FromLog {
    /// `LOG@HAND`, written in `summary.json`'s `start.from`.
    pub source: String,
    /// The first hand's wall when the seed does not deal it (a log without seed).
    pub wall: Option<Wall>,
}

/// What a finished (or abandoned) game left behind.
#[derive(Debug)]
pub struct GameOutcome {
    /// The match loop's report (ending, scores, chombos, errors, decision times).
    pub report: MatchReport,
    /// `summary.json` as written.
    pub summary: Summary,
    /// The whole unmasked log (`mjai_log.json`).
    pub log: Vec<Event>,
    /// A built-in seat's chombo, the referee's bug ([`BuiltinFault`]): the game is not a
    /// result (the one-game command exits 3).
    pub builtin_fault: Option<BuiltinFault>,
}

/// Plays `spec` to its end, the restart limit, or `stop` becoming true. `observer` sees the
/// game as it goes besides the log files (e.g. progress lines). Errors (one line naming the
/// cause): intake or runtime preparation failed before any bot started; the logs folder
/// cannot be created or written; the engine contradicted itself. Containers are removed
/// before returning, on every path.
pub async fn run_game(
    spec: &GameSpec,
    observer: &mut dyn GameObserver,
    stop: CancelToken,
    on_start: impl FnOnce(&super::launch::SeatLauncher),
) -> anyhow::Result<GameOutcome> {
    let players = spec.rules.players;
    if spec.bots.len() != players.count() {
        anyhow::bail!(
            "{} bots given for the {} rules, which seat {}",
            spec.bots.len(),
            spec.rules.name(),
            players.count()
        );
    }
    let launcher = build_launcher(&spec.bots, &spec.settings, spec.remote.as_ref()).await?;
    let result = async {
        let engine = EngineStamp::new(spec.rules.name(), &spec.options.clock, spec.settings.runtime.name());
        let mut logs = LogDir::create_for(&spec.dir, players)
            .context("cannot create the logs folder (choose another with --logs-dir)")?
            .with_engine(&engine);
        let config = GameConfig { seed: spec.seed, names: spec.names.clone(), start: spec.start.clone() };
        let walls = spec.from_log.iter().filter_map(|f| f.wall.clone()).collect();
        let mut game = Game::with_rules(config, walls, spec.rules);
        on_start(&launcher);
        let report = {
            let mut observers = Fanout(vec![&mut logs, observer]);
            play_match(&mut game, &launcher, &spec.options, &mut observers, stop).await?
        };
        let mut summary = Summary::new(game.log(), &report, spec.bots.iter().map(|b| b.to_string()).collect());
        summary.engine = Some(engine);
        if let (Some(start), Some(from)) = (summary.start.as_mut(), &spec.from_log) {
            start.from = Some(from.source.clone());
        }
        logs.write_summary(&summary)?;
        launcher.report_remote(report.scores, report.chombos);
        let riichi_dev: Vec<usize> =
            (0..spec.bots.len()).filter(|&s| matches!(spec.bots[s], BotSpec::RiichiDev(_))).collect();
        let farewell = (spec.validation && !riichi_dev.is_empty()).then(|| {
            let (passed, reason) = match validation_verdict(&report, &riichi_dev, Judging::EveryRequest) {
                Ok(()) => (true, pass_reason(&report, &riichi_dev)),
                Err((_, why)) => (false, why),
            };
            validation_result(passed, &reason)
        });
        launcher.close_riichi_dev_seats(farewell.as_ref()).await; // bounded: inside.
        let builtin: Vec<Option<&str>> = spec
            .bots
            .iter()
            .map(|b| match b {
                BotSpec::Builtin(name) => Some(name.strip_prefix("builtin:").unwrap_or(name)),
                BotSpec::Submission(_) | BotSpec::Remote(_) | BotSpec::RiichiDev(_) => None,
            })
            .collect();
        let builtin_fault = builtin_fault(&report, &builtin);
        Ok(GameOutcome { report, summary, log: game.into_log(), builtin_fault })
    }
    .await;
    launcher.close_batches().await; // bounded: inside.
    if let Some(guard) = launcher.guard() {
        guard.shutdown().await;
    }
    result
}
