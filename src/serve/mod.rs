//! The grading server (`mjai-sim serve`, issue 21): authors upload bots over HTTP, each
//! version passes a validation game before it enters a league, the league plays (here with
//! `--jobs`, or on `mjai-sim worker`s through PostgreSQL), and a JSON read API shows the
//! leaderboard, every bot, every game, and to each author their bots' errors and stderr.
//!
//! A front end like `src/cli`: nothing else imports it. Handlers are thin: who asks, which
//! bot or game and whether the caller owns it are typed extractors, so that a bad
//! parameter or a missing right is refused before any handler runs. One concept per file:
//! - the resources, each with its own `router()`: [`bots`] (the bot API), [`upload`]
//!   (`POST /api/bots`, with the page [`upload_form`]), [`connect`] (remote bots'
//!   WebSocket, `/api/bots/{name}/connect`), [`games`], [`game_list`] (`GET /api/games`
//!   and `/games`), [`live`] (a running game's hands as they end, `GET
//!   /api/games/{id}/live`; who watches: [`watchers`]), [`login`], [`ops`]
//!   (health, metrics), [`openapi`] (the OpenAPI document, generated from the handlers and
//!   their types), [`pages`] (the HTML pages, answered through [`html`]);
//! - [`router`] (merging them, and the layers: request id and trace span, timeout, rate
//!   limits in [`limits`], body limits, security headers);
//! - the extractors: [`auth`] (`Author`, `MaybeAuthor`; a dead token is 401 at the
//!   [`gate`] first), [`html`] (`Viewer`, `LoggedIn`),
//!   [`params`] (`BotPath`, `GameId`, `Paged`), [`game_query`] (`GamesQuery`), [`owned`] (`OwnedBot`, `OwnedSeats`), with
//!   [`name`] (checked bot names) and [`token`];
//! - what handlers share: [`state`], [`error`] (the one error type), [`bot_errors`] (a
//!   bot's private errors), [`leaderboard`] (the figures), [`counters`] (for `/metrics`);
//! - the background jobs, in [`jobs`]: validation games, the league played here, the
//!   threads they run on;
//! - running: [`listen`] (connections, header timeout, graceful stop), [`league`] (opening
//!   the league).
//!
//! Stopping: the caller's cancellation token (the command line turns SIGTERM/SIGINT into
//! it) closes the listener, lets requests in hand finish, stops validation games (their
//! versions stay `validating` and are validated again at the next start) and the league's
//! games in play (given back to the queue).

#![warn(missing_docs)]

pub mod auth;
pub mod bot_errors;
pub mod bots;
pub mod connect;
pub mod counters;
pub mod downloads;
pub mod error;
pub mod game_list;
pub mod game_query;
pub mod games;
pub mod gate;
pub mod html;
pub mod jobs;
pub mod leaderboard;
pub mod league;
pub mod limits;
pub mod listen;
pub mod live;
pub mod login;
pub mod name;
pub mod openapi;
pub mod ops;
pub mod owned;
pub mod pages;
pub mod params;
pub mod riichilab;
pub mod router;
pub mod state;
pub mod token;
pub mod upload;
pub mod upload_form;
pub mod watchers;

use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;

use counters::Counters;
use jobs::validation::{ValidationSettings, Validator};
use jobs::{league_loop, local};
use mjai_sim_arena::cancel::Cancel;
use mjai_sim_arena::launch::RemoteSeats;
use mjai_sim_runtime::remote::hub::RemoteHub;
use mjai_sim_tournament::leaderboard::BotStatus;
use mjai_sim_tournament::session::{PlayOptions, Session};
use mjai_sim_tournament::store::retry::Patience;
use mjai_sim_tournament::store::{BotKind, Online};
use state::{AppState, Settings};

/// The `tracing` target of the server's audit events, shown at the default level: one
/// `info` event per upload accepted (`event="upload"`), validation verdict
/// (`event="validation"`), admission (`event="admit"`) and retirement (`event="retire"`),
/// with the bot, its version and the author as fields.
pub const AUDIT: &str = "mjai_sim::audit";

/// Longest wait, after the listener closed, for validation games to stop.
pub const STOP_WAIT: Duration = Duration::from_secs(30);

/// What the server needs beyond its store.
pub struct Server {
    /// Limits and options of requests.
    pub settings: Settings,
    /// How validation games are played.
    pub validation: ValidationSettings,
    /// Validation games at once.
    pub max_validations: usize,
    /// Plays the league here (`None`: workers play it).
    pub play: Option<PlayOptions>,
}

/// Serves the league of `session` on `listener` until `cancel` fires, then stops as the
/// module docs say. Errors: the play loop failed (database gone beyond its patience,
/// Docker unreachable); the listener's own errors are logged and ridden out.
pub async fn run(session: Session, listener: TcpListener, server: Server, cancel: Cancel) -> anyhow::Result<()> {
    let mut server = server;
    // remote bots: one hub for validation and league games; a start finding the bot's
    // connections busy in other games waits up to the whole-game bound
    let options = &server.validation.options;
    let hub = RemoteHub::with_busy_wait(options.game_timeout);
    let seats = RemoteSeats { hub: hub.clone(), wait: options.start_timeout };
    let online = {
        let hub = hub.clone();
        Online(Arc::new(move |name: &str| hub.ready(name)))
    };
    // the league schedules remote bots only while they are connected
    let session = Session::of_store(session.store().with_online(online), &Patience::none()).await?;
    let store = session.store().clone();
    let versions = store.versions().all().await?;
    for row in versions.iter().filter(|v| v.kind.is_connected()) {
        match row.kind {
            BotKind::RiichiLab => hub.allow_one_game(&row.name),
            _ => hub.allow(&row.name),
        }
    }
    if let Some(opts) = &mut server.play {
        opts.remote = Some(seats.clone());
    }
    server.validation.remote = Some(seats);
    let (validator, validations) =
        Validator::start(server.validation, server.max_validations, store.clone(), cancel.clone())?;
    for row in versions.into_iter().filter(|v| v.status == BotStatus::Validating && v.kind == BotKind::Zip) {
        validator.spawn(row); // cut off by the last stop (a remote bot: at its next connection)
    }
    let header_timeout = server.settings.header_timeout;
    let limits =
        Arc::new(limits::RateLimits::new(server.settings.per_ip_per_minute, server.settings.per_token_per_minute));
    let counters = Arc::new(Counters::default());
    let state = AppState {
        store: store.clone(),
        settings: Arc::new(server.settings),
        validator,
        figures: Default::default(),
        counters: counters.clone(),
        limits,
        hub: hub.clone(),
        watchers: Arc::new(watchers::Watchers::new(cancel.token())),
    };
    let play = match server.play {
        Some(opts) => Some(league_loop::spawn(session, opts, counters, cancel.clone())?),
        None => None,
    };
    let app = router::router(state);
    listen::serve(listener, app, header_timeout, cancel.token()).await;
    hub.close_all().await; // bridges hear `bye` (games in play end on the stop)
    if tokio::time::timeout(STOP_WAIT, local::join(validations)).await.is_err() {
        tracing::warn!("validation games still running after {} s were left", STOP_WAIT.as_secs());
    }
    match play {
        Some(play) => local::join(play).await,
        None => Ok(()),
    }
}
