//! Logs with chombos (`ryukyoku` with `"reason":"error"`) replay through the engine, also when
//! several seats err at once and the log names only the first offender.

use mjai_sim::engine::event::{Event, Seat};
use mjai_sim::engine::game::replay::replay;
use mjai_sim::engine::game::{Game, GameConfig, StartState};

fn config(seed: u64) -> GameConfig {
    GameConfig { seed: [seed, 7], names: ["a", "b", "c", "d"].map(String::from), start: StartState::default() }
}

/// Plays a seeded game answering the first legal action, with chombos by `offenders[i]` at
/// the first decision of the `i`-th kyoku that has one listed.
fn play_with_chombos(seed: u64, chombos: &[(usize, &[Seat])]) -> Game {
    let mut game = Game::new(config(seed));
    let mut kyoku = 0usize;
    let mut done = Vec::new();
    while !game.is_over() {
        kyoku = game.log().iter().filter(|e| matches!(e, Event::StartKyoku { .. })).count();
        if let Some((_, offenders)) = chombos.iter().find(|(k, _)| *k == kyoku && !done.contains(k)) {
            done.push(kyoku);
            game.chombo(offenders);
            continue;
        }
        let answers: Vec<(Seat, Event)> = game.pending().iter().map(|d| (d.seat, d.legal[0].clone())).collect();
        game.apply(&answers).expect("a legal answer is accepted");
    }
    assert!(kyoku >= 3, "the game should last a few kyoku");
    assert_eq!(done.len(), chombos.len(), "every planned chombo happened");
    game
}

#[test]
fn single_and_multiple_offenders_replay() {
    let game = play_with_chombos(11, &[(1, &[2]), (2, &[0, 3]), (3, &[1])]);
    let errors: Vec<&Event> =
        game.log().iter().filter(|e| matches!(e, Event::Ryukyoku { reason: Some(r), .. } if r == "error")).collect();
    assert_eq!(errors.len(), 3);
    // Kyoku 2 is East 2 (seat 1 deals): seats 0 and 3 each pay 4000 to the dealer and 2000 to
    // each other non-dealer, so each gets 2000 back from the other offender.
    let both = [-8000 + 2000, 4000 + 4000, 2000 + 2000, -8000 + 2000];
    assert_eq!(errors[1], &Event::Ryukyoku { actor: Some(0), deltas: Some(both), reason: Some("error".into()) });
    let report = replay(game.log()).expect("the chombo log replays");
    assert_eq!(report.scores, game.scores());
}

#[test]
fn a_wrong_chombo_delta_is_reported() {
    let game = play_with_chombos(12, &[(1, &[1])]);
    let mut log = game.log().to_vec();
    let i = log.iter().position(|e| matches!(e, Event::Ryukyoku { reason: Some(r), .. } if r == "error")).unwrap();
    log[i] = Event::Ryukyoku { actor: Some(1), deltas: Some([4000, -9000, 2000, 3000]), reason: Some("error".into()) };
    let err = replay(&log).unwrap_err();
    assert_eq!(err.index, i, "{err}");
}
