//! The engine's log reader (`engine::log::read`) over the reference logs of `tests/data/`
//! (games of mjai.app's engine: no `reason` on `ryukyoku`, so every draw reason is
//! inferred) and over self-play games of the built-in bots: what it reads is checked
//! against counts made here from the raw events, the figures of `tests/data/README.md`, the
//! engine's replay and each game's next `start_kyoku`.

use crate::reference_support;

use mjai_sim::bots::{by_name, selfplay};
use mjai_sim::engine::event::{DrawReason, Event};
use mjai_sim::engine::game::replay::replay;
use mjai_sim::engine::game::Rules;
use mjai_sim::engine::log::{read, Closing, GameLog};

/// Checks one game's reading against its raw events; returns (kyokus, hora events,
/// ryukyoku reasons).
fn check(name: &str, log: &[Event], game: &GameLog) -> (usize, usize, Vec<DrawReason>) {
    let starts: Vec<usize> =
        log.iter().enumerate().filter(|(_, e)| matches!(e, Event::StartKyoku { .. })).map(|(i, _)| i).collect();
    assert_eq!(game.kyokus.iter().map(|k| k.index).collect::<Vec<_>>(), starts, "{name}");
    assert!(game.outside.is_empty(), "{name}: {:?}", game.outside);
    let mut horas = 0;
    let mut reasons = Vec::new();
    for (n, k) in game.kyokus.iter().enumerate() {
        let Closing::EndKyoku(end) = k.closing else { panic!("{name}: kyoku {} not closed", k.label()) };
        let events = &log[k.index..end];
        assert!(k.problems.is_empty(), "{name}: {:?}", k.problems);
        let tsumos = events.iter().filter(|e| matches!(e, Event::Tsumo { .. })).count();
        assert_eq!(k.table.draws, tsumos, "{name} {}", k.label());
        for seat in 0..4u8 {
            let discards = events.iter().filter(|e| matches!(e, Event::Dahai { actor, .. } if *actor == seat)).count();
            assert_eq!(k.table.seats[usize::from(seat)].river.len(), discards, "{name} {}", k.label());
        }
        let kans = events
            .iter()
            .filter(|e| matches!(e, Event::Ankan { .. } | Event::Daiminkan { .. } | Event::Kakan { .. }))
            .count();
        assert_eq!(k.table.kan_makers.len(), kans, "{name} {}", k.label());
        let doras = events.iter().filter(|e| matches!(e, Event::Dora { .. })).count();
        assert_eq!(k.table.dora_markers.len(), 1 + doras, "{name} {}", k.label());
        // The next hand starts with the scores and sticks this one ended with.
        if let Some(next) = game.kyokus.get(n + 1) {
            assert_eq!(next.start().scores, k.table.scores, "{name} after {}", k.label());
        }
        // Every win scores, by the engine's evaluator, to the points its deltas give.
        for (i, h) in k.horas().enumerate() {
            let score = h.score().unwrap_or_else(|e| panic!("{name} {}: hora at {}: {e}", k.label(), h.index));
            let alone = score.yaku.iter().any(|(y, _)| matches!(*y, "tenhou" | "chiihou"));
            if h.liable(&score).is_none() && !alone {
                let (honba, sticks) = if i == 0 { (k.start().honba, h.kyotaku) } else { (0, 0) };
                let payer = (!h.is_tsumo()).then_some(usize::from(h.target));
                let want = score.payment.deltas(
                    usize::from(h.actor),
                    payer,
                    usize::from(k.start().oya),
                    u32::from(honba),
                    u32::from(sticks),
                );
                assert_eq!(h.deltas, Some(want), "{name} {}: hora at {}", k.label(), h.index);
            }
            horas += 1;
        }
        reasons.extend(k.ryukyoku().map(|r| r.reason));
    }
    (game.kyokus.len(), horas, reasons)
}

#[test]
fn mortal_arena_games_read_as_the_readme_counts_them() {
    let (mut kyokus, mut horas, mut exhaustive, mut abortive) = (0, 0, 0, 0);
    for (name, log) in reference_support::mortal_arena_100() {
        let game = read(&log);
        let (k, h, reasons) = check(&name, &log, &game);
        kyokus += k;
        horas += h;
        exhaustive += reasons.iter().filter(|&&r| r == DrawReason::Exhaustive).count();
        abortive += reasons.iter().filter(|&&r| r != DrawReason::Exhaustive).count();
        let replayed = replay(&log).unwrap_or_else(|d| panic!("{name}: {d}"));
        assert_eq!(game.final_scores(), replayed.scores, "{name}");
        assert_eq!(game.end_game, Some(log.len() - 1), "{name}");
    }
    // tests/data/README.md: 956 hands, 444 wins, 514 exhaustive draws, 2 abortive draws.
    assert_eq!((kyokus, horas, exhaustive, abortive), (956, 444, 514, 2));
}

#[test]
fn caller_games_read_with_their_kans() {
    let mut kans = 0;
    for (name, log) in reference_support::libriichi_callers_40() {
        let game = read(&log);
        check(&name, &log, &game);
        kans += game.kyokus.iter().map(|k| k.table.kan_makers.len()).sum::<usize>();
        assert_eq!(game.final_scores(), replay(&log).unwrap_or_else(|d| panic!("{name}: {d}")).scores, "{name}");
    }
    // tests/data/README.md: 246 kans.
    assert_eq!(kans, 246);
}

#[test]
fn selfplay_games_read_with_the_reasons_the_engine_logged() {
    let lineups = [["rulebase"; 4], ["random", "rulebase", "tsumogiri", "random"], ["random"; 4]];
    let mut reasons = Vec::new();
    for i in 0..30u64 {
        let names = lineups[(i % 3) as usize];
        let mut agents = names.map(|n| by_name(n).expect("a built-in bot"));
        let rules = if i % 2 == 0 { Rules::tenhou() } else { Rules::mjai_app() };
        let config = selfplay::series_config(11, i, names.map(String::from));
        let f = selfplay::play_with_rules(config, rules, &mut agents, &mut selfplay::IgnoreAnswers).expect("a game");
        let game = read(&f.log);
        let name = format!("self-play game {i}");
        let (_, _, mine) = check(&name, &f.log, &game);
        assert_eq!(game.final_scores(), f.scores, "{name}");
        // The engine logs a reason on every ryukyoku; the reader takes it as it is.
        let logged: Vec<DrawReason> = f.log.iter().filter_map(DrawReason::of).collect();
        assert_eq!(mine, logged, "{name}");
        assert!(game.kyokus.iter().filter_map(|k| k.ryukyoku()).all(|r| r.logged), "{name}");
        reasons.extend(mine);
    }
    assert!(reasons.contains(&DrawReason::Exhaustive) && reasons.iter().any(|&r| r != DrawReason::Exhaustive));
}
