//! Three-player (sanma) logs for the front ends' tests, made by the engine's reference
//! policy (`engine::game::autoplay`) under `riichi-dev-3p`, written in the three-seat wire
//! form (`Event::to_json_for(Players::Three)`), as the arena writes them.
#![allow(dead_code)]

use mjai_sim::engine::event::Event;
use mjai_sim::engine::game::{autoplay, GameConfig, Players, Rules, StartState};

/// Player names of the games below (seat 3 is the empty place).
pub const NAMES: [&str; 4] = ["alice", "bob", "carol", ""];

/// The whole three-player game of `seed`: its events, `start_game` to `end_game`.
pub fn game(seed: u64) -> Vec<Event> {
    let rules = Rules::any_preset("riichi-dev-3p").expect("a three-player preset");
    let config = GameConfig {
        seed: [seed, 0x5341_4E4D],
        names: NAMES.map(String::from),
        start: StartState::initial(Players::Three),
    };
    autoplay::play(config, Vec::new(), rules, seed).log().to_vec()
}

/// `log` as a log file's text: one event per line, three entries per seat array.
pub fn text(log: &[Event]) -> String {
    log.iter().map(|e| e.to_json_for(Players::Three) + "\n").collect()
}

/// The first game from seed 0 on with a kita and a win (the reference policy sets Norths
/// aside often; a few seeds suffice).
pub fn game_with_kita() -> (u64, Vec<Event>) {
    (0..50)
        .map(|seed| (seed, game(seed)))
        .find(|(_, log)| {
            log.iter().any(|e| matches!(e, Event::Kita { .. })) && log.iter().any(|e| matches!(e, Event::Hora { .. }))
        })
        .expect("a three-player game with a kita and a win in 50 seeds")
}

/// The events of the first kyoku of `log` (its `start_kyoku` to its `end_kyoku`, both
/// included) with `start_game` before and `end_game` after: a short, whole game log.
pub fn first_kyoku(log: &[Event]) -> Vec<Event> {
    let end = log.iter().position(|e| matches!(e, Event::EndKyoku)).expect("an end_kyoku");
    let mut out = log[..=end].to_vec();
    out.push(Event::EndGame);
    out
}
