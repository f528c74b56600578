//! The `observation` of a request, built by RiichiEnv itself (`riichienv-core`, the library
//! riichi.dev's clients decode it with), not re-implemented here.
//!
//! Each dialect seat keeps a RiichiEnv `GameState` fed with exactly the masked events the
//! seat is sent (`apply_mjai_event`, RiichiEnv's own replay of mjai events, and
//! `_push_mjai_event` for the observation's `events`); at a request the state's
//! `get_observation(seat)` is serialized with `serialize_to_base64` (standard padded
//! base64 of its JSON). Only the seat's own hand is in it (RiichiEnv masks the others).
//!
//! At three seats the state is RiichiEnv's own three-player one (`GameState3P`,
//! `state_3p/mod.rs`; `get_observation` gives an `Observation3P`, `observation_3p/mod.rs`,
//! with three entries per seat array, the kitas, and its own `serialize_to_base64`): what
//! riichienv's `Observation3P.deserialize_from_base64` reads.

use riichienv_core::parser::tid_to_mjai;
use riichienv_core::replay::MjaiEvent;
use riichienv_core::rule::GameRule;
use riichienv_core::state::GameState;
use riichienv_core::state_3p::GameState3P;

use super::wire::{into_value, Object};
use crate::engine::game::Players;
use crate::engine::tile::Tile;

/// RiichiEnv's game mode of a hanchan (`GameSubMode::Half`); the replay does not depend on
/// it (`start_kyoku` sets the round), but the state wants one.
const HANCHAN: u8 = 2;

/// RiichiEnv's three-player hanchan (`GameSubMode3P::Half`, game mode 5); as [`HANCHAN`],
/// the replay sets the round from `start_kyoku`.
const HANCHAN_3P: u8 = 5;

/// RiichiEnv's state of the table, by its size.
enum State {
    Four(Box<GameState>),
    Three(Box<GameState3P>),
}

/// One seat's view in RiichiEnv's terms.
pub struct SeatView {
    state: State,
    seat: u8,
}

impl std::fmt::Debug for SeatView {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SeatView").field("seat", &self.seat).finish_non_exhaustive()
    }
}

impl SeatView {
    /// A fresh view for `seat` (`0..players.count()`) at a table of `players`, Tenhou's
    /// rules (RiichiEnv's `default_tenhou`, the rule it plays its own sanma with too): a
    /// `GameState` at four seats, a `GameState3P` at three.
    pub fn new(seat: u8, players: Players) -> SeatView {
        let state = match players {
            Players::Four => {
                let mut state = GameState::new(HANCHAN, false, Some(0), 0, GameRule::default_tenhou());
                // Forget the constructor's own `start_game`: the stream's comes next.
                state.reset();
                state.mjai_log_per_player = Default::default();
                state.player_event_counts = Default::default();
                State::Four(Box::new(state))
            }
            Players::Three => {
                let mut state = GameState3P::new(HANCHAN_3P, false, Some(0), 0, GameRule::default_tenhou());
                state.reset();
                state.mjai_log_per_player = Default::default();
                state.player_event_counts = Default::default();
                State::Three(Box::new(state))
            }
        };
        SeatView { state, seat }
    }

    /// Feeds one event as sent to the seat. An event RiichiEnv cannot read is skipped (its
    /// type is logged at debug level); nothing panics.
    pub fn apply(&mut self, message: &Object) {
        let value = into_value(message.clone());
        match serde_json::from_value::<MjaiEvent>(value.clone()) {
            Ok(event) => {
                let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match &mut self.state {
                    State::Four(state) => {
                        state.apply_mjai_event(event);
                        state._push_mjai_event(value);
                    }
                    State::Three(state) => {
                        state.apply_mjai_event(event);
                        state._push_mjai_event(value);
                    }
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
        let built = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match state {
            State::Four(state) => state.get_observation(seat).serialize_to_base64(),
            State::Three(state) => state.get_observation(seat).serialize_to_base64(),
        }));
        match built {
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
        let hand = match &self.state {
            State::Four(state) => state.players.get(usize::from(self.seat)).map(|p| &p.hand),
            State::Three(state) => state.players.get(usize::from(self.seat)).map(|p| &p.hand),
        };
        hand.map_or(0, |hand| hand.iter().filter(|&&t| tid_to_mjai(t) == want).count())
    }
}
