//! The author's side (`mjai-sim connect URL --token TOKEN BOT`): runs BOT as a local
//! process and relays its stdio over one WebSocket to the game side.
//!
//! Per connection: a `start` control starts a fresh bot (stopping the one running) and is
//! answered `ready`; each mjai line goes to the bot's stdin and its answer line back; `stop`
//! and `game_over` stop the bot (the latter also reports the game, one line); `verdict`
//! reports a validation (one line); `bye` from a game ends the bridge, from a server (it is
//! stopping) is followed by reconnecting. A dropped or silent ([`IDLE_TIMEOUT`]) connection
//! stops the bot and is reconnected, with backoff, for up to
//! [`BridgeOptions::reconnect_for`]. A final refusal (a token refused, a bot that cannot be
//! played this way: [`crate::dial::ConnectError::is_transient`]) ends the bridge at once
//! with the server's own message.
//!
//! Draining ([`run_bridge`]'s `drain`, `mjai-sim connect`'s first SIGTERM): the bridge says
//! `draining` to the game side, which seats it in no new game; it finishes the game in play
//! (if any), then closes and returns.

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use mjai_sim_runtime::cancel::CancelToken as CancellationToken;
use tokio::sync::{mpsc, oneshot};
use tokio_tungstenite::tungstenite::Message;

use crate::dial::{connect_to, Reconnect, Ws};
use mjai_sim_runtime::bounded::{self, join_or_abort, within, STOP_GRACE};
use mjai_sim_runtime::process::{ProcessBot, ProcessOptions};
use mjai_sim_runtime::remote::control::Control;
use mjai_sim_runtime::remote::{CLOSE_TIMEOUT, IDLE_TIMEOUT, WRITE_TIMEOUT};
use mjai_sim_runtime::submission::Submission;
use mjai_sim_runtime::{Bot, BotError};

/// Longest the bridge lets its bot think about one line (the game side's own timeout,
/// usually 2 s, decides the chombo; this only bounds a bot nobody restarts).
pub const LOCAL_ANSWER_LIMIT: Duration = Duration::from_secs(300);

/// What the bridge runs.
#[derive(Debug, Clone)]
pub enum BridgeBot {
    /// A checked submission (zip or folder with `bot.py`): `python3 -u bot.py SEAT`.
    Submission(Arc<Submission>),
    /// Any program: `PROGRAM ARGS... SEAT` in the current folder.
    Command {
        /// The program (looked up on PATH).
        program: OsString,
        /// Its arguments (the seat is appended).
        args: Vec<OsString>,
    },
}

/// Settings of [`run_bridge`].
#[derive(Debug, Clone)]
pub struct BridgeOptions {
    /// `ws://HOST:PORT/remote/NAME`.
    pub url: String,
    /// The seat's (or author's) token, sent as `Authorization: Bearer TOKEN`.
    pub token: String,
    /// The bot.
    pub bot: BridgeBot,
    /// Where the bot's stderr goes (appended, capped as the process runtime's).
    pub stderr_log: PathBuf,
    /// Longest time without a connection before the bridge gives up (`None`: never;
    /// `mjai-sim connect`: 60 s for a game's URL, never for a server's).
    pub reconnect_for: Option<Duration>,
    /// Interpreter and limits of the local process.
    pub process: ProcessOptions,
}

impl BridgeOptions {
    /// Starts the bot for `seat` as a local process (the dialect's client starts it the
    /// same way). Errors: the process could not be started.
    pub(crate) async fn start_bot(&self, seat: u8) -> anyhow::Result<ProcessBot> {
        // bounded: a local process start (spawn, a temporary folder, a local file).
        Ok(match &self.bot {
            // bounded: as above.
            BridgeBot::Submission(sub) => ProcessBot::start(sub, seat, &self.stderr_log, &self.process).await?,
            BridgeBot::Command { program, args } => {
                // bounded: as above.
                ProcessBot::start_command(program, args, seat, &self.stderr_log, &self.process).await?
            }
        })
    }
}

/// One line for a finished game: `game over: seat 2, rank 1, 31000 points, 0 chombos
/// (scores 25000,20000,31000,24000; chombos 0,1,0,0)`; `None` for other controls.
pub fn game_line(control: &Control) -> Option<String> {
    let Control::GameOver { seat, scores, chombos, rank } = control else { return None };
    let join = |v: Vec<String>| v.join(",");
    Some(format!(
        "game over: seat {seat}, rank {rank}, {} points, {} chombos (scores {}; chombos {})",
        scores.get(usize::from(*seat)).copied().unwrap_or_default(),
        chombos.get(usize::from(*seat)).copied().unwrap_or_default(),
        join(scores.iter().map(i32::to_string).collect()),
        join(chombos.iter().map(u32::to_string).collect()),
    ))
}

/// Whether `url` is a game's or a tournament's (`/remote/NAME`: its `bye` means no more
/// games) rather than a server's (`/api/bots/NAME/connect`: its `bye` means it is
/// stopping, and a restart follows).
pub fn is_game_url(url: &str) -> bool {
    url::Url::parse(url).is_ok_and(|u| u.path().starts_with("/remote/"))
}

/// One line for a validation verdict: `validation of v2: passed`, or `validation of v2:
/// failed (seat 1 chombo in E2: ...)`.
pub fn verdict_line(version: u32, passed: bool, reason: Option<&str>) -> String {
    match (passed, reason) {
        (true, _) => format!("validation of v{version}: passed; the bot plays league games while connected"),
        (false, reason) => format!("validation of v{version}: failed ({})", reason.unwrap_or("no reason given")),
    }
}

/// Runs the bridge until a game's side says `bye` (a server's `bye` means it is
/// restarting: the bridge connects again), refuses the connection, or cannot be reached
/// for [`BridgeOptions::reconnect_for`]. `report` gets one line per event worth telling
/// the author: connected, each game over (see [`game_line`]), each verdict, a lost
/// connection.
///
/// Errors (one line naming the fix): the URL is not `ws://` or `wss://`; the server
/// refused the connection (its status and its own message, at once); it was unreachable
/// too long.
///
/// Once `drain` fires, the bridge drains (module docs) and returns `Ok` (at once when no
/// game is in play or while it is not connected).
pub async fn run_bridge(
    options: &BridgeOptions,
    report: &mut (dyn FnMut(String) + Send),
    drain: CancellationToken,
) -> anyhow::Result<()> {
    let game = is_game_url(&options.url);
    let mut reconnect = Reconnect::new(options.reconnect_for);
    while !drain.is_cancelled() {
        // bounded: CONNECT_TIMEOUT.
        match connect_to(&options.url, &options.token).await {
            Ok(ws) => {
                report(format!("connected to {}; waiting for a seat", options.url));
                // bounded: by IDLE_TIMEOUT and the bot's bounds.
                let served = serve(ws, options, report, &drain).await;
                reconnect.connected();
                match served {
                    Served::Bye if game => return Ok(()),
                    Served::Drained => return Ok(()),
                    Served::Bye => report("the server is stopping (a restart?); connecting again".into()),
                    Served::Dropped(why) => report(format!("connection lost ({why}); connecting again")),
                }
            }
            Err(e) => {
                let wait = reconnect.failed(&options.url, &e)?;
                tracing::debug!("connecting failed ({e}); retrying in {wait:?}");
                tokio::select! {
                    _ = tokio::time::sleep(wait) => {} // bounded: at most MAX_BACKOFF.
                    _ = drain.cancelled() => {}
                }
            }
        }
    }
    Ok(())
}

enum Served {
    Bye,
    Dropped(String),
    /// Drained: the game in play (if any) finished, the connection closed.
    Drained,
}

pub(crate) async fn send(sink: &mut futures_util::stream::SplitSink<Ws, Message>, text: String) -> Result<(), String> {
    match within(WRITE_TIMEOUT, "writing", sink.send(Message::Text(text.into()))).await {
        Ok(Ok(())) => Ok(()),
        Ok(Err(e)) => Err(e.to_string()),
        Err(e) => Err(e.to_string()),
    }
}

async fn serve(
    ws: Ws,
    options: &BridgeOptions,
    report: &mut (dyn FnMut(String) + Send),
    drain: &CancellationToken,
) -> Served {
    let (mut sink, mut stream) = ws.split();
    let (answers_tx, mut answers) = mpsc::channel::<(u64, Result<String, BotError>)>(4);
    let mut bot: Option<BotTask> = None;
    let mut generation = 0;
    // seated: from a `start` to the game's `game_over` (restarts within a game included)
    let (mut seated, mut draining) = (false, false);
    let served = loop {
        let next = tokio::select! {
            next = within(IDLE_TIMEOUT, "reading", stream.next()) => next,
            _ = drain.cancelled(), if !draining => {
                draining = true;
                // bounded: WRITE_TIMEOUT.
                if let Err(e) = send(&mut sink, Control::Draining.to_text()).await {
                    break Served::Dropped(e);
                }
                if !seated {
                    break Served::Drained;
                }
                report("draining: finishing the game in play, then leaving (no new seat)".into());
                continue;
            }
            Some((g, answer)) = answers.recv() => {
                if g != generation {
                    continue;
                }
                let text = match answer {
                    Ok(line) => line,
                    Err(e) => Control::Error { message: e.to_string() }.to_text(),
                };
                match send(&mut sink, text).await { // bounded: WRITE_TIMEOUT.
                    Ok(()) => continue,
                    Err(e) => break Served::Dropped(e),
                }
            }
        };
        let text = match next {
            Err(_) => break Served::Dropped(format!("nothing received for {} s", IDLE_TIMEOUT.as_secs())),
            Ok(None) | Ok(Some(Ok(Message::Close(_)))) => break Served::Dropped("closed by the game side".into()),
            Ok(Some(Err(e))) => break Served::Dropped(e.to_string()),
            Ok(Some(Ok(Message::Text(text)))) => text,
            Ok(Some(Ok(_))) => continue,
        };
        let reply = match Control::parse(text.as_str()) {
            None => match &bot {
                Some(b) => {
                    b.line(text.as_str().to_string());
                    None
                }
                None => Some(Control::Error { message: "no bot is running (no start received)".into() }),
            },
            Some(Control::Start { seat, generation: g }) => {
                stop(&mut bot).await; // bounded: STOP_GRACE.
                generation = g;
                seated = true;
                // bounded: a local process start.
                match BotTask::start(options, seat, g, answers_tx.clone()).await {
                    Ok(task) => {
                        bot = Some(task);
                        Some(Control::Ready { generation: g })
                    }
                    Err(e) => Some(Control::Error { message: format!("{e:#}") }),
                }
            }
            Some(Control::Stop) => {
                stop(&mut bot).await; // bounded: STOP_GRACE.
                None
            }
            Some(game_over @ Control::GameOver { .. }) => {
                stop(&mut bot).await; // bounded: STOP_GRACE.
                report(game_line(&game_over).unwrap_or_default());
                seated = false;
                if draining {
                    break Served::Drained;
                }
                None
            }
            Some(Control::Verdict { version, passed, reason }) => {
                report(verdict_line(version, passed, reason.as_deref()));
                None
            }
            Some(Control::Bye) => break Served::Bye,
            Some(_) => None,
        };
        if let Some(reply) = reply {
            // bounded: WRITE_TIMEOUT.
            if let Err(e) = send(&mut sink, reply.to_text()).await {
                break Served::Dropped(e);
            }
        }
    };
    stop(&mut bot).await; // bounded: STOP_GRACE.
    let _ = within(CLOSE_TIMEOUT, "closing", sink.close()).await;
    served
}

async fn stop(bot: &mut Option<BotTask>) {
    if let Some(task) = bot.take() {
        task.stop().await; // bounded: STOP_GRACE.
    }
}

/// The running bot: a task that feeds it lines and sends its answers back tagged with
/// the start's generation.
struct BotTask {
    lines: mpsc::Sender<String>,
    stop: Option<oneshot::Sender<()>>,
    handle: tokio::task::JoinHandle<()>,
}

impl BotTask {
    async fn start(
        options: &BridgeOptions,
        seat: u8,
        generation: u64,
        answers: mpsc::Sender<(u64, Result<String, BotError>)>,
    ) -> anyhow::Result<BotTask> {
        let mut process = options.start_bot(seat).await?; // bounded: a local process start.
        let (lines, mut lines_rx) = mpsc::channel::<String>(4);
        let (stop, mut stop_rx) = oneshot::channel::<()>();
        let handle = tokio::spawn(async move {
            loop {
                let line = tokio::select! {
                    _ = &mut stop_rx => break,
                    line = lines_rx.recv() => match line { Some(l) => l, None => break },
                };
                let answer = tokio::select! {
                    _ = &mut stop_rx => break,
                    answer = process.exchange(&line, LOCAL_ANSWER_LIMIT) => answer,
                };
                let _ = answers.try_send((generation, answer));
            }
            bounded::stop(&mut process).await;
        });
        Ok(BotTask { lines, stop: Some(stop), handle })
    }

    /// Hands the bot one line (dropped when it still has lines queued: the game side
    /// already counts it late).
    fn line(&self, line: String) {
        let _ = self.lines.try_send(line);
    }

    async fn stop(mut self) {
        drop(self.stop.take());
        join_or_abort(&mut self.handle, STOP_GRACE + Duration::from_secs(1), "stopping the bot").await;
    }
}
