//! Three-player (sanma) games played end to end by the built-in bots through
//! `bots::selfplay::play_with_rules`, kita included: the engine asks seats 0-2 only, every
//! answer is in its legal set (no chombo), the 105,000 points in play are kept, seat 3
//! stays empty, and the `random` bot's kita are played.

use mjai_sim::bots::selfplay::{play_with_rules, IgnoreAnswers};
use mjai_sim::bots::{by_name, Agent};
use mjai_sim::engine::event::Event;
use mjai_sim::engine::game::{GameConfig, Players, Rules, StartState};

/// Line-ups for seats 0-2 (seat 3's agent is never asked), rotated per game.
const LINEUPS: [[&str; 3]; 3] =
    [["random", "rulebase", "tsumogiri"], ["rulebase", "random", "random"], ["random", "random", "random"]];

#[test]
fn built_in_bots_play_three_player_games_with_kita() {
    let mut kitas = 0;
    for (i, rules) in (0..30u64).zip([Rules::riichi_dev_3p(), Rules::tenhou_3p()].into_iter().cycle()) {
        let lineup = LINEUPS[i as usize % LINEUPS.len()];
        let mut agents: [Box<dyn Agent>; 4] =
            std::array::from_fn(|s| by_name(lineup.get(s).copied().unwrap_or("tsumogiri")).unwrap());
        let config = GameConfig {
            seed: [38, i],
            names: ["a", "b", "c", "d"].map(String::from),
            start: StartState::initial(Players::Three),
        };
        let done = play_with_rules(config, rules, &mut agents, &mut IgnoreAnswers).unwrap();
        assert!(done.chombos.is_empty(), "game {i}: {:?}", done.chombos);
        assert_eq!(done.log.last(), Some(&Event::EndGame));
        assert_eq!(done.scores[..3].iter().sum::<i32>(), 105_000, "game {i}");
        assert_eq!(done.scores[3], 0);
        for e in &done.log {
            assert!(e.actor().is_none_or(|a| a < 3), "game {i}: seat 3 acted: {e:?}");
            assert!(!matches!(e, Event::Chi { .. }), "game {i}: chi at three seats");
            kitas += usize::from(matches!(e, Event::Kita { .. }));
        }
    }
    assert!(kitas > 0, "the random bot sets Norths aside");
}
