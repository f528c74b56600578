//! The grading server, `mjai-sim serve`, as its users meet it: over HTTP, started as the
//! real binary ([`support::spawn_server`]). One binary, modules by area:
//! - [`authz`]: every route from both sides (author, other author, admin, nobody);
//!   uploads, validation, versions, retirement, login;
//! - [`hostile`]: at least 30 hostile requests, each with its status, the server still
//!   serving afterwards (the table in docs/server.md);
//! - [`operations`]: SIGTERM (exit 143), kill -9 mid-league and restart (no game lost or
//!   counted twice), the league playing;
//! - [`pg`]: two servers on one PostgreSQL database serve one league;
//! - [`pages`]: the HTML pages over HTTP, who sees what, the upload form;
//! - [`docker`]: end to end in Docker, two authors, one driving Chromium ([`browser`]);
//! - [`remote`]: remote bots (`kind=remote`, `mjai-sim connect`): validation, online-only
//!   scheduling, who may connect;
//! - [`uploads`]: zips up to the submission cap (2.1, 50 and 300 MB; the cap from both sides);
//! - [`privacy`]: rejected versions and their authors seen only by them and admins; a dead
//!   token is 401 everywhere;
//! - [`suspension`]: a version that chombos in league games is suspended, off the ranking,
//!   its author told why, back by a new upload;
//! - [`games_list`]: `GET /api/games` and `/games`: running and finished games, pages,
//!   filters, times;
//! - [`live`]: a running game watched one hand behind, over its event stream and on its
//!   page in Chromium;
//! - [`voids`]: `serve void` against a running server: the voided game stays listed,
//!   marked, and leaves the standings;
//! - [`sanma`]: a three-player league (`--rules riichi-dev-3p`): an upload's declared mode,
//!   validation in every seat of three, three-seat games, pages and downloads;
//! - [`site_details`]: the icon, a form that is not multipart, the runtime the upload page
//!   states;
//! - [`backup`]: `serve backup` of a running server's store, the copy served again;
//! - [`leagues`]: a four- and a three-player league at one address, each under its name;
//! - [`seasons`]: a season opened and frozen by the admin, uploads refused after the
//!   freeze, its final played by the server and its standings frozen.

mod authors;
mod authz;
mod backup;
mod batch;
mod browser;
#[path = "../browser_support/mod.rs"]
mod browser_support;
mod docker;
mod games_list;
mod hostile;
mod leagues;
mod live;
mod operations;
mod pages;
mod pg;
#[path = "../pg_support/mod.rs"]
mod pg_support;
mod privacy;
mod remote;
mod riichi_dev;
#[path = "../riichienv_support/mod.rs"]
mod riichienv_support;
mod sanma;
mod seasons;
mod site_details;
mod support;
mod suspension;
mod uploads;
mod voids;
