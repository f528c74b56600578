//! The `observation` of a request, built by RiichiEnv itself (`riichienv-core`, the library
//! riichi.dev's clients decode it with), not re-implemented here.
//!
//! Each dialect seat keeps a RiichiEnv `GameState` fed with exactly the masked events the
//! seat is sent (`apply_mjai_event`, RiichiEnv's own replay of mjai events, and
//! `_push_mjai_event` for the observation's `events`); at a request the state's
//! `get_observation(seat)` is serialized with `serialize_to_base64` (standard padded
//! base64 of its JSON). Only the seat's own hand is in it (RiichiEnv masks the others).

use riichienv_core::parser::tid_to_mjai;
use riichienv_core::replay::MjaiEvent;
use riichienv_core::rule::GameRule;
use riichienv_core::state::GameState;

use super::wire::{into_value, Object};
use crate::engine::tile::Tile;

/// RiichiEnv's game mode of a hanchan (`GameSubMode::Half`); the replay does not depend on
/// it (`start_kyoku` sets the round), but the state wants one.
const HANCHAN: u8 = 2;

/// One seat's view in RiichiEnv's terms.
pub struct SeatView {
    state: GameState,
    seat: u8,
}

impl std::fmt::Debug for SeatView {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SeatView").field("seat", &self.seat).finish_non_exhaustive()
    }
}

impl SeatView {
    /// A fresh view for `seat` (0..4), Tenhou's rules (RiichiEnv's `default_tenhou`).
    pub fn new(seat: u8) -> SeatView {
        let mut state = GameState::new(HANCHAN, false, Some(0), 0, GameRule::default_tenhou());
        // Forget the constructor's own `start_game`: the stream's comes next.
        state.reset();
        state.mjai_log_per_player = Default::default();
        state.player_event_counts = [0; 4];
        SeatView { state, seat }
    }

    /// Feeds one event as sent to the seat. An event RiichiEnv cannot read is skipped (its
    /// type is logged at debug level); nothing panics.
    pub fn apply(&mut self, message: &Object) {
        let value = into_value(message.clone());
        match serde_json::from_value::<MjaiEvent>(value.clone()) {
            Ok(event) => {
                let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    self.state.apply_mjai_event(event);
                    self.state._push_mjai_event(value);
                }));
                if caught.is_err() {
                    tracing::debug!("riichienv could not replay {:?}", message.get("type"));
                }
            }
            Err(e) => tracing::debug!("riichienv cannot read {:?}: {e}", message.get("type")),
        }
    }

    /// The observation now, as RiichiEnv's `serialize_to_base64` writes it; an empty
    /// string if RiichiEnv fails (never seen; logged).
    pub fn observation(&mut self) -> String {
        let seat = self.seat;
        let state = &mut self.state;
        let built = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| state.get_observation(seat)));
        match built.map(|obs| obs.serialize_to_base64()) {
            Ok(Ok(text)) => text,
            Ok(Err(e)) => {
                tracing::warn!("riichienv observation: {e}");
                String::new()
            }
            Err(_) => {
                tracing::warn!("riichienv observation panicked");
                String::new()
            }
        }
    }

    /// How many copies of `tile` (red fives apart) the seat holds in its hand now.
    pub fn copies(&self, tile: Tile) -> usize {
        let want = tile.as_mjai();
        self.state.players[usize::from(self.seat)].hand.iter().filter(|&&t| tid_to_mjai(t) == want).count()
    }
}
