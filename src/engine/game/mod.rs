//! The game: a seeded wall, the kyoku state machine and the hanchan around it, under
//! Tenhou rules. Pure and deterministic: the same [`GameConfig`] and the same answers give
//! the same log, bit for bit.
//!
//! The referee loop is: look at [`Game::pending`]; ask each listed seat (a bot, over
//! whatever transport); check each raw answer with [`Game::validate`]; hand the answers to
//! [`Game::apply`]; repeat until [`Game::is_over`]. [`Game::log`] grows with the unmasked
//! event stream (`start_game` .. `end_game`), which is `mjai_log.json`.
//!
//! Rules (Tenhou unless [`Rules`] says otherwise; checked against 100 logged games of
//! Mortal's engine, see `tests/logs/replay_mortal.rs`):
//! - Events: `ura_markers` is in every `hora`, with as many tiles as dora indicators when
//!   the winner is in riichi and empty otherwise. A riichi discard that passes is followed
//!   by `reach_accepted` before any call on it. Kan dora (Tenhou; Mortal's arena
//!   `board.rs` does the same): ankan → dora at once (→ a chankan chance for kokushi,
//!   only under [`Rules::kokushi_robs_ankan`]) → tsumo; daiminkan/kakan → rinshan tsumo →
//!   the maker decides → dora → `dahai`, so the
//!   seat acting on the rinshan tsumo sees the `tsumo` last (bots built on libriichi's
//!   `PlayerState`, as mjai.app's `mjai.Bot`, read their options from the last event), and
//!   a rinshan kaihou win does not count that dora. A kan made while a minkan's dora still
//!   waits shows it first: before the ankan, or before the rinshan tsumo of a kakan.
//! - Chankan: any winning hand may rob a kakan; nobody may rob an ankan (Tenhou, kokushi
//!   included; kokushi may under [`Rules::kokushi_robs_ankan`], Mahjong Soul's rule). A
//!   robbed kakan was never complete: the robber keeps ippatsu.
//! - Double ron: one `hora` per winner in seat order after the discarder; the first takes
//!   the honba and riichi sticks. Three rons abort the hand (mjai.app: all three paid).
//! - Pao (daisangen, daisuushii): the seat that fed the last set pays a tsumo alone, or
//!   half of a ron plus the honba (the discarder pays the other half). Tenhou's manual:
//!   「ツモ＝全額・ロン＝折半で支払う。積み棒は包。」 The whole hand is
//!   charged this way, also when another yakuman is combined with the pao yakuman.
//! - Nagashi mangan is paid as a mangan tsumo and replaces the noten payments.
//! - Karaten (waiting only on a kind the hand holds four of) is not tenpai.

pub mod autoplay;
mod decision;
mod default_answer;
mod disagreement;
pub mod from_log;
mod hanchan;
#[cfg(test)]
mod kan_dora_tests;
mod kyoku;
mod legal;
#[cfg(test)]
mod log_reader_tests;
mod play;
mod player;
pub mod replay;
pub mod replay_converted;
mod replay_guard;
#[cfg(test)]
mod sanma_tests;
mod setup;
mod shape;
mod shown;
pub mod tile_ids;
#[cfg(test)]
mod tile_ids_game_tests;
mod validate;
pub mod wall;

pub use crate::ranking::{
    default_uma, final_scores, final_scores_for, rank_order, rank_order_for, ranks, ranks_for, MORTAL_UMA, SANMA_UMA,
};
pub use crate::rules::{GameLength, Players, Rules, WaitingKanDora, MAX_SEATS};
pub use decision::{Decision, Illegal};
pub use default_answer::default_answer;
pub use play::Game;
pub use setup::{GameConfig, StartState};
pub use tile_ids::WallIds;
pub use wall::Wall;
