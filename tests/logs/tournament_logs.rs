//! Tournament records from real games: the 100 hanchans of mjai.app's engine
//! (`tests/data/mortal-arena-100.tar.xz`) and self-play games of the built-in bots (the
//! `random` bot calls and kans a lot). Every counter of `SeatStats` is compared with a
//! count done here independently, and the tenpai found at each exhaustive draw with the
//! noten payments the engine that played the game logged.

use std::collections::BTreeSet;
use std::time::Duration;

use crate::reference_support;

use mjai_sim::arena::match_loop::{MatchEnding, MatchReport};
use mjai_sim::bots::by_name;
use mjai_sim::bots::selfplay::{play, series_config, IgnoreAnswers};
use mjai_sim::engine::event::{DrawReason, Event};
use mjai_sim::engine::game::Rules;
use mjai_sim::engine::log::{inferred_reason, Table};
use mjai_sim::tournament::record::{FromGame, GameRecord, SeatStats};
use mjai_sim::tournament::standings::{compute, StandingsOptions, MORTAL_UMA};

/// Every log of the mjai.app archive, sorted by name.
fn mortal_games() -> Vec<Vec<Event>> {
    reference_support::mortal_arena_100().into_iter().map(|(_, events)| events).collect()
}

/// Counts done directly on the events, hand by hand (no shared code with `SeatStats`).
fn independent_counts(log: &[Event]) -> [[u32; 6]; 4] {
    // [kyokus, horas, tsumos, deal-in hands, riichi hands, call hands]
    let mut c = [[0u32; 6]; 4];
    let mut hand = 0u32;
    let mut deal_in: BTreeSet<(u32, u8)> = BTreeSet::new();
    let mut reach: BTreeSet<(u32, u8)> = BTreeSet::new();
    let mut call: BTreeSet<(u32, u8)> = BTreeSet::new();
    for e in log {
        match e {
            Event::StartKyoku { .. } => {
                hand += 1;
                c.iter_mut().for_each(|s| s[0] += 1);
            }
            Event::Hora { actor, target, .. } => {
                c[*actor as usize][1] += 1;
                if actor == target {
                    c[*actor as usize][2] += 1;
                } else {
                    deal_in.insert((hand, *target));
                }
            }
            Event::Reach { actor } => {
                reach.insert((hand, *actor));
            }
            Event::Chi { actor, .. } | Event::Pon { actor, .. } | Event::Daiminkan { actor, .. } => {
                call.insert((hand, *actor));
            }
            _ => {}
        }
    }
    for (set, k) in [(&deal_in, 3), (&reach, 4), (&call, 5)] {
        for &(_, s) in set {
            c[s as usize][k] += 1;
        }
    }
    c
}

/// Checks every `ryukyoku` of `log` against the hands followed by the engine's log reader
/// (its incremental [`Table`], and the draw reason it infers without the logged one): a draw with
/// noten payments must be exhaustive, and its paid seats exactly the tenpai ones; an
/// exhaustive draw without payments has all four tenpai or none; a logged `reason` (issue
/// 20) agrees with the hands. Chombos are skipped. Returns (exhaustive draws, draws with
/// payments).
fn check_draws(log: &[Event]) -> (u32, u32) {
    let mut hands = Table::default();
    let (mut exhaustive, mut paid) = (0, 0);
    for (i, e) in log.iter().enumerate() {
        let reason = DrawReason::of(e);
        if let (Event::Ryukyoku { deltas: Some(d), .. }, false) = (e, reason == Some(DrawReason::Chombo)) {
            let tenpai = hands.seats.each_ref().map(|s| s.tenpai_at_draw(&Rules::tenhou()));
            let at_exhaustive_draw = inferred_reason(&hands) == DrawReason::Exhaustive;
            if let Some(r) = reason {
                assert_eq!(r == DrawReason::Exhaustive, at_exhaustive_draw, "event {i}: reason {r:?}");
            }
            if at_exhaustive_draw {
                exhaustive += 1;
                if d.iter().any(|&x| x != 0) {
                    paid += 1;
                    let nagashi = d.iter().any(|&x| x.abs() >= 2000 && x.abs() != 3000);
                    if !nagashi {
                        assert_eq!(tenpai, d.map(|x| x > 0), "event {i}: tenpai vs noten payments {d:?}");
                    }
                } else {
                    assert!(tenpai.iter().all(|&t| t == tenpai[0]), "event {i}: no payments but tenpai {tenpai:?}");
                }
            } else {
                assert_eq!(*d, [0; 4], "event {i}: payments at a draw not seen as exhaustive");
            }
        }
        let _ = hands.apply(e);
    }
    (exhaustive, paid)
}

fn assert_matches_independent(stats: &[SeatStats], log: &[Event], what: &str) {
    let c = independent_counts(log);
    for s in 0..4 {
        let st = &stats[s];
        let got = [st.kyokus, st.horas, st.tsumos, st.deal_ins, st.reaches, st.calls];
        assert_eq!(got, c[s], "{what} seat {s}: [kyokus, horas, tsumos, deal-ins, riichi, calls]");
        assert!(st.tenpai_draws <= st.draws);
    }
}

#[test]
fn mortal_arena_games_counted_independently() {
    let games = mortal_games();
    assert_eq!(games.len(), 100);
    let (mut exhaustive, mut paid, mut tenpai, mut draws) = (0, 0, 0, 0);
    let mut records = Vec::new();
    for (g, log) in games.iter().enumerate() {
        let stats = SeatStats::from_log(log);
        assert_matches_independent(&stats, log, &format!("game {g}"));
        let (e, p) = check_draws(log);
        exhaustive += e;
        paid += p;
        assert!(stats.iter().all(|s| s.draws == e), "game {g}: every seat sees each exhaustive draw");
        tenpai += stats.iter().map(|s| s.tenpai_draws).sum::<u32>();
        draws += stats.iter().map(|s| s.draws).sum::<u32>();
        let scores = match log.iter().rev().find(|e| matches!(e, Event::StartKyoku { .. })) {
            Some(_) => final_scores(log),
            None => [25000; 4],
        };
        let report = report(scores, [0; 4]);
        records.push(GameRecord::from_game(g as u64, g as u64 / 4, vec![0, 1, 2, 3], log, &report, &Rules::mjai_app()));
    }
    // 137 draws in the archive carry noten payments; more are exhaustive without them.
    assert_eq!(paid, 137);
    assert!(exhaustive > paid, "{exhaustive}");
    println!("mortal-arena-100: {exhaustive} exhaustive draws, {paid} with payments, tenpai share {tenpai}/{draws}");
    let names: Vec<String> = (0..4).map(|s| format!("seat{s}")).collect();
    let st = compute(&names, &records, &StandingsOptions::new(MORTAL_UMA.to_vec(), 1));
    assert_eq!((st.games, st.sets), (100, 25));
    let rank_sum: f64 = st.bots.iter().map(|b| b.avg_rank.unwrap()).sum();
    assert!((rank_sum - 10.0).abs() < 1e-9, "ranks 1+2+3+4 per game");
    let pt_sum: f64 = st.bots.iter().map(|b| b.avg_pt.unwrap()).sum();
    assert!(pt_sum.abs() < 1e-9, "Mortal's uma sums to zero");
    assert!(st.bots.iter().all(|b| b.avg_rank_ci.is_some()));
    println!("{}", mjai_sim::pages::standings_text::table(&st));
}

/// Final scores: the last `start_kyoku`'s scores plus everything after it.
fn final_scores(log: &[Event]) -> [i32; 4] {
    let mut scores = [25000; 4];
    for e in log {
        match e {
            Event::StartKyoku { scores: s, .. } => scores = *s,
            Event::ReachAccepted { actor } => scores[*actor as usize] -= 1000,
            Event::Hora { deltas: Some(d), .. } | Event::Ryukyoku { deltas: Some(d), .. } => {
                for (x, y) in scores.iter_mut().zip(d) {
                    *x += y;
                }
            }
            _ => {}
        }
    }
    scores
}

fn report(scores: [i32; 4], chombos: [u32; 4]) -> MatchReport {
    MatchReport {
        ending: MatchEnding::Completed,
        scores,
        chombos,
        defaulted: [0; 4],
        disconnected: [0; 4],
        restarts: 0,
        decision_times: std::array::from_fn(|s| vec![Duration::from_micros(100 * (s as u64 + 1)); 3]),
        errors: vec![],
        warnings: vec![],
        players: mjai_sim::engine::game::Players::Four,
    }
}

#[test]
fn selfplay_games_with_calls_and_kans() {
    let lineup = ["random", "rulebase", "random", "tsumogiri"];
    let names: [String; 4] = lineup.map(String::from);
    let (mut exhaustive, mut paid, mut calls, mut kans) = (0, 0, 0, 0);
    let mut records = Vec::new();
    for i in 0..80u64 {
        let mut agents = lineup.map(|n| by_name(n).unwrap());
        let game = play(series_config(11, i, names.clone()), &mut agents, &mut IgnoreAnswers).expect("game finishes");
        let mut chombos = [0u32; 4];
        for (s, _) in &game.chombos {
            chombos[*s as usize] += 1;
        }
        let record = GameRecord::from_game(
            i,
            i / 4,
            vec![0, 1, 2, 3],
            &game.log,
            &report(game.scores, chombos),
            &Rules::tenhou(),
        );
        assert_matches_independent(&record.stats, &game.log, &format!("game {i}"));
        assert_eq!(record.scores, game.scores.to_vec());
        assert_eq!(record.ranks, mjai_sim::engine::game::ranks(game.scores).to_vec());
        let (e, p) = check_draws(&game.log);
        exhaustive += e;
        paid += p;
        calls += record.stats.iter().map(|s| s.calls).sum::<u32>();
        kans += game
            .log
            .iter()
            .filter(|e| matches!(e, Event::Daiminkan { .. } | Event::Ankan { .. } | Event::Kakan { .. }))
            .count();
        records.push(record);
    }
    assert!(
        paid > 20 && calls > 100 && kans > 20,
        "the sample exercises draws ({paid}), calls ({calls}), kans ({kans})"
    );
    println!("self-play 80 games: {exhaustive} exhaustive draws ({paid} with payments), {calls} hands with calls, {kans} kans");
    let seat_names: Vec<String> = names.to_vec();
    let st = compute(&seat_names, &records, &StandingsOptions::new(MORTAL_UMA.to_vec(), 2));
    assert_eq!(st.bots[0].decisions, 80 * 3);
    assert!(st.bots[1].win_rate.unwrap() > st.bots[3].win_rate.unwrap(), "rulebase wins more than tsumogiri");
    assert_eq!(st.bots[3].call_rate, Some(0.0), "tsumogiri never calls");
    assert_eq!(st.bots[3].riichi_rate, Some(0.0), "tsumogiri never declares riichi");
}
