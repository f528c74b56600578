//! mjai-sim: a referee for riichi mahjong games between mjai bots.
//!
//! - [`engine`]: the rules (pure, synchronous): tiles, hand evaluation, mjai events, game;
//!   the `mjai-sim-engine` crate (`src/engine`), for tools that need the referee alone.
//! - [`bots`]: built-in bots (pure deciders over mjai events).
//! - [`riichi_dev`]: riichi.dev's dialect, the pure part: its messages, reply matching and
//!   each seat's observation in riichienv 0.4.8's form (the runtime's dialect seats and the
//!   training environment's `riichi_dev` option).
//! - [`env`]: the vectorized training environment (tables stepped from outside, action
//!   masks, features, rewards); the Python package's `VecEnv`.
//! - [`runtime`]: where bots run (Docker containers, local processes, in-process built-ins,
//!   remote and batched bots).
//! - [`images`]: building the bot images and mjai-sim's own image (`mjai-sim image`).
//! - [`connect`]: the author's side of a remote bot (`mjai-sim connect`): a local bot played
//!   on a remote server, over mjai-sim's wire or riichi.dev's dialect.
//! - [`arena`]: the match loop tying a game to four bots, with logs and summary.
//! - [`stats`]: ratings (Weng-Lin, Elo), bootstrap intervals and time histograms: pure arithmetic.
//! - [`tournament`]: many games between N bots: schedule, running, results store, standings.
//! - [`export`]: other formats of a game's log (tenhou.net/6), pure functions.
//! - [`viewer`]: the HTML game viewer (a pure function of a log, below the arena).
//! - [`pages`]: the tournament report, `standings.md` and the grading server's pages (pure functions of
//!   standings and leaderboards).
//! - [`messages`]: the command line's machine-readable messages (`--message-format json`),
//!   for any front end.
//! - [`serve`]: the grading server (`mjai-sim serve`): uploads, validation, a league's read API.
//! - [`cli`]: the command line.

#![warn(missing_docs)]

pub use mjai_sim_arena as arena;
pub use mjai_sim_bots as bots;
pub mod cli;
pub use mjai_sim_connect as connect;
pub use mjai_sim_engine as engine;
pub use mjai_sim_env as env;
pub use mjai_sim_export as export;
pub use mjai_sim_images as images;
pub use mjai_sim_messages as messages;
pub use mjai_sim_pages as pages;
pub use mjai_sim_riichi_dev as riichi_dev;
pub use mjai_sim_runtime as runtime;
#[cfg(feature = "server")]
pub use mjai_sim_serve as serve;
pub use mjai_sim_stats as stats;
pub use mjai_sim_tournament as tournament;
pub use mjai_sim_viewer as viewer;
