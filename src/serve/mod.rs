//! The grading server (`mjai-sim serve`, issue 21): authors upload bots over HTTP, each
//! version passes a validation game before it enters a league, the league plays (here with
//! `--jobs`, or on `mjai-sim worker`s through PostgreSQL), and a JSON read API shows the
//! leaderboard, every bot, every game, and to each author their bots' errors and stderr.
//!
//! A front end like `src/cli`: nothing else imports it. Handlers are thin: who asks, which
//! bot or game and whether the caller owns it are typed extractors, so that a bad
//! parameter or a missing right is refused before any handler runs. One concept per file:
//! - the resources, each with its own `router()`: [`bots`] (the bot API), [`upload`]
//!   (`POST /api/bots`, with the page [`upload_form`]; their body: [`upload_body`]), [`remote_socket`] (remote bots'
//!   WebSocket, `/api/bots/{name}/connect`), [`games`], [`list_games`] (`GET /api/games`
//!   and `/games`), [`live_stream`] (a running game's hands as they end, `GET
//!   /api/games/{id}/live`; who watches: [`watchers`]), [`login`], [`ops`]
//!   (health, metrics), [`seasons`] (a league's seasons and their finals; the operator's
//!   routes: [`season_admin`]; the page: [`season_page`]; what they show:
//!   [`season_view`]; uploads refused after a freeze: [`freeze`]), [`openapi`] (the
//!   OpenAPI document, generated from the handlers and their types), [`pages`] (the HTML pages, answered through [`html`]);
//! - [`router`] (one league's routes merged, and the layers: request id and trace span,
//!   timeout, rate limits in [`limits`], body limits, security headers); [`dispatch`] (a
//!   server's leagues at one address: `/api/leagues/NAME/...`, `/leagues/NAME/...`; each
//!   league's facts: [`league_info`], listed by [`leagues`]);
//! - the extractors: [`auth`] (`Author`, `MaybeAuthor`; a dead token is 401 at the
//!   [`gate`] first), [`html`] (`Viewer`, `LoggedIn`),
//!   [`params`] (`BotPath`, `GameId`, `Paged`), [`game_query`] (`GamesQuery`), [`owned`] (`OwnedBot`, `OwnedSeats`), with
//!   [`name`] (checked bot names) and [`token`];
//! - what handlers share: [`state`], [`error`] (the one error type), [`bot_errors`] (a
//!   bot's private errors), [`leaderboard`] (the figures), [`counters`] (for `/metrics`);
//! - the background jobs, in [`jobs`]: validation games, the league played here, the
//!   threads they run on;
//! - starting: [`settings`] ([`ServeSettings`], what a server is started with), [`start`](mod@start)
//!   (the assembly: store, [`admin`] author, [`open_league`] opened with its [`house`] bots,
//!   pace, suspension policy, cut-off games requeued, the listener bound), [`run`] (serving:
//!   the remote bots' hub, the jobs, the router, [`listen`] (connections, header timeout,
//!   graceful stop), and the stop).
//!
//! A front end starts a server in two calls, printing what it likes between them:
//!
//! ```no_run
//! # async fn f(settings: mjai_sim_serve::ServeSettings) -> anyhow::Result<()> {
//! let cancel = mjai_sim_arena::cancel::Cancel::new(); // fired on the front end's stop
//! let started = mjai_sim_serve::start(settings, |note| eprintln!("{note}")).await?;
//! eprintln!("serving on http://{}", started.address());
//! started.run(cancel.token()).await?;
//! # Ok(()) }
//! ```
//!
//! Stopping: the caller's cancellation token (the command line turns SIGTERM/SIGINT into
//! it) closes the listener, lets requests in hand finish, stops validation games (their
//! versions stay `validating` and are validated again at the next start) and the league's
//! games in play (given back to the queue).

#![warn(missing_docs)]

pub mod about;
pub mod admin;
pub mod auth;
pub mod bot_errors;
pub mod bots;
pub mod counters;
pub mod dispatch;
pub mod downloads;
pub mod error;
pub mod freeze;
pub mod game_query;
pub mod game_trace;
pub mod games;
pub mod gate;
pub mod house;
pub mod html;
pub mod jobs;
pub mod leaderboard;
pub mod league_info;
pub mod leagues;
pub mod limits;
pub mod list_games;
pub mod listen;
pub mod live_stream;
pub mod login;
pub mod name;
pub mod open_league;
pub mod openapi;
pub mod ops;
pub mod owned;
pub mod pages;
pub mod params;
pub mod remote_socket;
pub mod riichi_dev;
pub mod router;
pub mod run;
pub mod season_admin;
pub mod season_page;
pub mod season_view;
pub mod seasons;
pub mod settings;
pub mod start;
pub mod state;
pub mod token;
pub mod upload;
pub mod upload_body;
pub mod upload_form;
pub mod watchers;

use std::time::Duration;

pub use settings::{LeagueSettings, ServeSettings};
pub use start::{start, StartNote, Started};

/// The `tracing` target of the server's audit events, shown at the default level: one
/// `info` event per upload accepted (`event="upload"`), validation verdict
/// (`event="validation"`), admission (`event="admit"`) and retirement (`event="retire"`),
/// with the bot, its version and the author as fields.
pub const AUDIT: &str = "mjai_sim::audit";

/// Longest wait, after the listener closed, for validation games to stop.
pub const STOP_WAIT: Duration = Duration::from_secs(30);
