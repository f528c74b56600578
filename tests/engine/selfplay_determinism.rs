//! Self-play is a pure function of the seed and the bots: the same series gives the same
//! logs, and different wall seeds give different games.

use mjai_sim::bots::selfplay::{play, series_config, IgnoreAnswers};
use mjai_sim::bots::{by_name, Agent};
use mjai_sim::engine::event::Event;

fn game(seed: u64, index: u64) -> Vec<Event> {
    let names = ["rulebase", "tsumogiri", "rulebase", "rulebase"];
    let mut agents: [Box<dyn Agent>; 4] = std::array::from_fn(|s| by_name(names[s]).unwrap());
    play(series_config(seed, index, names.map(String::from)), &mut agents, &mut IgnoreAnswers).unwrap().log
}

#[test]
fn same_seed_same_log_other_seed_other_game() {
    let a = game(11, 3);
    assert_eq!(a, game(11, 3));
    assert_ne!(a, game(11, 4));
    assert_eq!(a.first().map(|e| matches!(e, Event::StartGame { seed: Some([11, 3]), .. })), Some(true));
    assert_eq!(a.last(), Some(&Event::EndGame));
}
