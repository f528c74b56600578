//! 10,000 hanchans of built-in bots (tsumogiri and rulebase mixed), plus 1,000 with the
//! `random` bot (which calls chi, every kan and riichi at odd moments), every event checked
//! by an independent table model: 136 tiles accounted for, scores + kyotaku × 1000 =
//! 100000, every answer in the engine's legal set, no chombo, no panic, honba / kyotaku /
//! oya progression per Tenhou rules, no seat asked right after a `dora`. Split in tests
//! (one seed each) so they run in parallel.

use crate::selfplay_support::Checker;
use mjai_sim::bots::selfplay::{play, series_config, AnswerObserver};
use mjai_sim::bots::{by_name, Agent};
use mjai_sim::engine::event::Event;
use mjai_sim::engine::game::{Decision, Game};

/// Line-ups with the random bot, rotated per game; rulebase keeps winning hands in them.
const RANDOM_LINEUPS: [[&str; 4]; 2] =
    [["random", "rulebase", "random", "random"], ["rulebase", "random", "tsumogiri", "random"]];

/// Seat line-ups, rotated per game: every seat meets both bots.
const LINEUPS: [[&str; 4]; 4] = [
    ["rulebase", "tsumogiri", "rulebase", "tsumogiri"],
    ["tsumogiri", "rulebase", "rulebase", "rulebase"],
    ["rulebase", "rulebase", "rulebase", "rulebase"],
    ["tsumogiri", "tsumogiri", "rulebase", "tsumogiri"],
];

#[derive(Default)]
struct Answers {
    asked: u64,
    illegal: Vec<String>,
    /// Seats asked right after a `dora`: libriichi-based bots (mjai.app's `mjai.Bot`) reset
    /// their options on `dora` and would answer `none`; the engine must never do this.
    asked_after_dora: Vec<String>,
}

impl AnswerObserver for Answers {
    fn on_answer(&mut self, game: &Game, decision: &Decision, answer: &Event, legal: bool) {
        self.asked += 1;
        if matches!(game.log().last(), Some(Event::Dora { .. })) && self.asked_after_dora.len() < 5 {
            self.asked_after_dora.push(format!(
                "seat {} asked at event #{} right after a dora",
                decision.seat,
                game.log().len()
            ));
        }
        if !legal && self.illegal.len() < 5 {
            self.illegal.push(format!(
                "seat {} answered {} at event #{}; legal: {}",
                decision.seat,
                answer.to_json(),
                game.log().len(),
                decision.legal.iter().map(Event::to_json).collect::<Vec<_>>().join(" ")
            ));
        }
    }
}

/// Plays `games` hanchans of series `seed` (or `SELFPLAY_GAMES` when set, for quicker local
/// runs) and checks each; panics with the first failure.
fn run_series(seed: u64, games: u64) -> Vec<Event> {
    run_lineups(seed, games, &LINEUPS)
}

/// Like [`run_series`] with other line-ups; returns every call and kan made.
fn run_lineups(seed: u64, games: u64, lineups: &[[&str; 4]]) -> Vec<Event> {
    let games = std::env::var("SELFPLAY_GAMES").ok().and_then(|v| v.parse().ok()).unwrap_or(games);
    let (mut kyokus, mut horas, mut asked) = (0usize, 0usize, 0u64);
    let mut calls = Vec::new();
    for i in 0..games {
        let lineup = lineups[i as usize % lineups.len()];
        let mut agents: [Box<dyn Agent>; 4] = std::array::from_fn(|s| by_name(lineup[s]).unwrap());
        let names = lineup.map(String::from);
        let mut answers = Answers::default();
        let game = play(series_config(seed, i, names), &mut agents, &mut answers)
            .unwrap_or_else(|e| panic!("seed [{seed}, {i}]: {e}"));
        assert!(
            answers.illegal.is_empty(),
            "seed [{seed}, {i}]: answers outside the legal set:\n{}",
            answers.illegal.join("\n")
        );
        assert!(game.chombos.is_empty(), "seed [{seed}, {i}]: chombos {:?}", game.chombos);
        assert!(answers.asked_after_dora.is_empty(), "seed [{seed}, {i}]: {:?}", answers.asked_after_dora);
        let mut checker = Checker::new();
        for e in &game.log {
            checker.feed(e).unwrap_or_else(|m| panic!("seed [{seed}, {i}]: {m}"));
        }
        assert!(checker.ended(), "seed [{seed}, {i}]: log does not end with end_game");
        assert_eq!(game.scores.iter().sum::<i32>(), 100_000, "seed [{seed}, {i}]: final scores {:?}", game.scores);
        kyokus += checker.kyokus;
        horas += checker.horas;
        asked += answers.asked;
        calls.extend(game.log.into_iter().filter(|e| {
            matches!(
                e,
                Event::Chi { .. }
                    | Event::Pon { .. }
                    | Event::Daiminkan { .. }
                    | Event::Kakan { .. }
                    | Event::Ankan { .. }
            )
        }));
    }
    // The bots must actually play: hands end in wins, not only in draws.
    assert!(kyokus as u64 >= 6 * games, "seed {seed}: only {kyokus} hands in {games} games");
    assert!(horas * 5 > kyokus, "seed {seed}: only {horas} wins in {kyokus} hands");
    eprintln!(
        "seed {seed}: {games} games, {kyokus} hands, {horas} wins, {asked} answers checked, {} calls",
        calls.len()
    );
    calls
}

#[test]
fn series_1() {
    run_series(1, 2500);
}

#[test]
fn series_2() {
    run_series(2, 2500);
}

#[test]
fn series_3() {
    run_series(3, 2500);
}

#[test]
fn series_4() {
    run_series(4, 2500);
}

#[test]
fn series_with_random_bots_makes_every_call() {
    let calls = run_lineups(5, 1000, &RANDOM_LINEUPS);
    let made = |f: fn(&Event) -> bool| calls.iter().filter(|e| f(e)).count();
    let counts = [
        ("chi", made(|e| matches!(e, Event::Chi { .. }))),
        ("pon", made(|e| matches!(e, Event::Pon { .. }))),
        ("daiminkan", made(|e| matches!(e, Event::Daiminkan { .. }))),
        ("kakan", made(|e| matches!(e, Event::Kakan { .. }))),
        ("ankan", made(|e| matches!(e, Event::Ankan { .. }))),
    ];
    // With the default SELFPLAY_GAMES every kind happens many times; a quick local run
    // (SELFPLAY_GAMES=10) may miss the rare ones.
    if std::env::var("SELFPLAY_GAMES").is_err() {
        assert!(counts.iter().all(|&(_, n)| n >= 20), "every kind of call at least 20 times: {counts:?}");
    }
}
