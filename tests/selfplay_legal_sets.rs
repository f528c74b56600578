//! Cross-check of two independent rule implementations: at every decision of self-play
//! games, the seat's own [`PlayerState::legal_actions`] (built only from the masked events
//! the seat received) must equal the engine's legal set, as sets.

use mjai_sim::bots::selfplay::{play, series_config, Observer};
use mjai_sim::bots::{by_name, Agent, PlayerState};
use mjai_sim::engine::event::Event;
use mjai_sim::engine::game::{Decision, Game};

struct Shadow {
    states: [PlayerState; 4],
    sent: [usize; 4],
    compared: u64,
    diffs: Vec<String>,
}

impl Observer for Shadow {
    fn on_answer(&mut self, game: &Game, d: &Decision, _: &Event, _: bool) {
        let s = d.seat as usize;
        for e in &game.log()[self.sent[s]..] {
            self.states[s].update(&e.masked_for(d.seat));
        }
        self.sent[s] = game.log().len();
        let mine = self.states[s].legal_actions();
        let missing: Vec<String> = d.legal.iter().filter(|e| !mine.contains(e)).map(Event::to_json).collect();
        let extra: Vec<String> = mine.iter().filter(|e| !d.legal.contains(e)).map(Event::to_json).collect();
        self.compared += 1;
        if (!missing.is_empty() || !extra.is_empty()) && self.diffs.len() < 5 {
            let last = game.log().last().map(Event::to_json).unwrap_or_default();
            self.diffs.push(format!("seat {s} after {last}: engine only {missing:?}; PlayerState only {extra:?}"));
        }
    }
}

#[test]
fn player_state_options_equal_engine_legal_sets() {
    let mut compared = 0;
    for i in 0..400u64 {
        let lineup = match i % 3 {
            0 => ["rulebase"; 4],
            1 => ["rulebase", "tsumogiri", "rulebase", "tsumogiri"],
            // Chi, kans, kakan and riichi at odd moments.
            _ => ["random", "rulebase", "random", "random"],
        };
        let mut agents: [Box<dyn Agent>; 4] = std::array::from_fn(|s| by_name(lineup[s]).unwrap());
        let mut shadow =
            Shadow { states: Default::default(), sent: [0; 4], compared: 0, diffs: Vec::new() };
        play(series_config(77, i, lineup.map(String::from)), &mut agents, &mut shadow).unwrap();
        assert!(shadow.diffs.is_empty(), "seed [77, {i}]:\n{}", shadow.diffs.join("\n"));
        compared += shadow.compared;
    }
    assert!(compared > 100_000, "only {compared} decisions compared");
}
