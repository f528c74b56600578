//! riichi.dev's observation of each learner decision ([`EnvConfig::riichi_dev`]): the one a
//! `riichilab:` seat of the referee is sent with each `request_action`
//! (`mjai_sim_riichi_dev::observe`: riichienv 0.4.8's `Observation` / `Observation3P` as
//! its `serialize_to_base64` writes it, with the referee's physical tile ids), for authors
//! porting RiichiEnv code.
//!
//! Each learner seat of a table keeps a [`SeatView`] for the game in play, fed the same
//! masked events, in the same order and wire form, as the runtime's dialect seat
//! (`mjai_sim_runtime::riichi_dev::seat`): the last `start_kyoku` of a seat's batch deals
//! the kyoku in play from its wall's ids ([`Game::wall_ids`]). At the decision the
//! observation is built with the legal answers ([`SeatView::observation`]) and kept with
//! the row.
//!
//! [`EnvConfig::riichi_dev`]: super::EnvConfig::riichi_dev

use mjai_sim_engine::event::{Event, Seat};
use mjai_sim_engine::game::{Game, Players, MAX_SEATS};
use mjai_sim_riichi_dev::wire::event_message;
use mjai_sim_riichi_dev::SeatView;

/// The views of one table's learner seats for its game in play (`None` for the other
/// seats).
pub struct Views {
    players: Players,
    seats: [Option<SeatView>; MAX_SEATS],
}

impl Views {
    /// Fresh views for the seats of `learner` at a table of `players`, at a game's start.
    pub fn new(learner: &[bool; MAX_SEATS], players: Players) -> Views {
        let seats =
            std::array::from_fn(|s| (s < players.count() && learner[s]).then(|| SeatView::new(s as Seat, players)));
        Views { players, seats }
    }

    /// Feeds `seat` the events of `log` (the game's log since the seat's previous decision,
    /// unmasked), each masked for it as it is sent, and returns its observation at the
    /// decision among `legal` (base64 text; empty if RiichiEnv failed, which
    /// [`SeatView::observation`] logs). `None` when `seat` has no view (not a learner).
    pub fn decide(&mut self, seat: Seat, log: &[Event], game: &Game, legal: &[Event]) -> Option<String> {
        let players = self.players;
        let view = self.seats.get_mut(usize::from(seat))?.as_mut()?;
        // Only the batch's last deal is the kyoku in play; an earlier one is over.
        let last_deal = log.iter().rposition(|e| matches!(e, Event::StartKyoku { .. }));
        for (i, event) in log.iter().enumerate() {
            if matches!(event, Event::StartKyoku { .. }) {
                view.deal((Some(i) == last_deal).then(|| game.wall_ids().clone()));
            }
            let masked = event.masked_for(seat);
            view.apply(&masked, &event_message(&masked, seat, players));
        }
        Some(view.observation(Some(legal)))
    }
}
