//! The log reader ([`crate::log`]) over whole games the engine plays with random legal
//! answers (a property test): what it reads is checked against the engine's own log and
//! scores, and a seat's masked view against the full log. Here in `game`, which plays the
//! games: `log` reads logs and does not know the game.

use proptest::prelude::*;
use rand08::{Rng, SeedableRng};
use rand_chacha03::ChaCha8Rng;

use super::play::Game;
use super::setup::{GameConfig, StartState};
use crate::event::{DrawReason, Event, Seat};
use crate::hand::Riichi;
use crate::log::{inferred_reason, read, Closing, Ending, Table};
use crate::rules::Rules;

/// Plays a whole game under `rules`: each seat wins when it can, else now and then picks any
/// legal answer (kans, calls, kyuushu kyuuhai), else declares riichi half the time, else
/// discards toward the lowest shanten (its hand read by a [`Table`]); a chombo now and then.
fn random_game(seed: u64, rules: Rules) -> Game {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let config = GameConfig {
        seed: [seed, seed ^ 0x5eed],
        names: ["a", "b", "c", "d"].map(String::from),
        start: StartState::default(),
    };
    let mut game = Game::with_rules(config, Vec::new(), rules);
    let mut table = Table::default();
    let mut seen = 0;
    while !game.is_over() {
        for e in &game.log()[seen..] {
            let _ = table.apply(e);
        }
        seen = game.log().len();
        if rng.gen_range(0..400) == 0 {
            let seat = game.pending()[0].seat;
            game.chombo(&[seat]);
            continue;
        }
        let choices: Vec<(Seat, usize)> =
            game.pending().iter().map(|d| (d.seat, choose(&table, &d.legal, &mut rng))).collect();
        game.apply_legal(&choices).expect("legal answers apply");
    }
    game
}

/// The position in `legal` of the answer [`random_game`]'s players give.
fn choose(table: &Table, legal: &[Event], rng: &mut ChaCha8Rng) -> usize {
    let find = |f: &dyn Fn(&Event) -> bool| legal.iter().position(f);
    if let Some(i) = find(&|e| matches!(e, Event::Hora { .. })) {
        return i;
    }
    if rng.gen_range(0..8) == 0 {
        return rng.gen_range(0..legal.len());
    }
    if let Some(i) = find(&|e| matches!(e, Event::Reach { .. })).filter(|_| rng.gen_bool(0.5)) {
        return i;
    }
    let shanten_after = |e: &Event| match e {
        Event::Dahai { actor, pai, .. } => {
            let s = &table.seats[usize::from(*actor)];
            let mut counts = crate::tile::to_counts(&s.tehai);
            counts[usize::from(pai.kind())] -= 1;
            Some(crate::hand::shanten(&counts, s.melds.len() as u8))
        }
        _ => None,
    };
    let best = legal.iter().filter_map(shanten_after).min();
    let dahais: Vec<usize> = (0..legal.len()).filter(|&i| best.is_some() && shanten_after(&legal[i]) == best).collect();
    match find(&|e| *e == Event::None) {
        _ if !dahais.is_empty() => dahais[rng.gen_range(0..dahais.len())],
        Some(pass) if rng.gen_range(0..4) != 0 => pass,
        _ => rng.gen_range(0..legal.len()),
    }
}

/// What the reader says of `log` agrees with the log itself and with the engine's scores.
fn check_game(game: &Game, rules: Rules) -> Result<(), TestCaseError> {
    let log = game.log();
    let read = read(log);
    let starts: Vec<usize> =
        log.iter().enumerate().filter(|(_, e)| matches!(e, Event::StartKyoku { .. })).map(|(i, _)| i).collect();
    prop_assert_eq!(read.kyokus.iter().map(|k| k.index).collect::<Vec<_>>(), starts);
    prop_assert!(read.outside.is_empty());
    prop_assert_eq!(read.final_scores(), game.scores());
    for (n, k) in read.kyokus.iter().enumerate() {
        let Closing::EndKyoku(end) = k.closing else { return Err(TestCaseError::fail("a kyoku without end_kyoku")) };
        let events = &log[k.index..end];
        prop_assert!(k.problems.is_empty(), "{:?}", k.problems);
        // Draws and actions are the log's.
        let tsumos = events.iter().filter(|e| matches!(e, Event::Tsumo { .. })).count();
        prop_assert_eq!(k.table.draws, tsumos);
        for seat in 0..4u8 {
            let own = events
                .iter()
                .filter(|e| e.actor() == Some(seat))
                .filter(|e| {
                    !matches!(
                        e,
                        Event::Reach { .. } | Event::ReachAccepted { .. } | Event::Hora { .. } | Event::Ryukyoku { .. }
                    )
                })
                .count();
            prop_assert_eq!(k.table.seats[usize::from(seat)].actions.len(), own);
        }
        // Every tile is somewhere: hands, calls, rivers (called ones in the calls).
        let s = &k.table.seats;
        let held: usize = s.iter().map(|x| x.tehai.len() + x.melds.iter().map(|m| m.tiles.len()).sum::<usize>()).sum();
        let rivers: usize = s.iter().map(|x| x.river.iter().filter(|d| !d.called).count()).sum();
        prop_assert_eq!(held + rivers, 52 + tsumos);
        // Scores: the sticks and deltas account for every change; the next kyoku starts
        // where this one ended.
        let sum = |sc: [i32; 4], sticks: u8| sc.iter().sum::<i32>() + 1000 * i32::from(sticks);
        prop_assert_eq!(sum(k.table.scores, k.table.kyotaku), sum(k.start().scores, k.start().kyotaku));
        let deltas: [i32; 4] = k.endings.iter().fold([0; 4], |mut acc, e| {
            let d = match e {
                Ending::Hora(h) => h.deltas,
                Ending::Ryukyoku(r) => r.deltas,
            };
            for (a, x) in acc.iter_mut().zip(d.unwrap_or([0; 4])) {
                *a += x;
            }
            acc
        });
        let sticks: [i32; 4] = s.each_ref().map(|x| if x.riichi != Riichi::None { 1000 } else { 0 });
        prop_assert_eq!(k.score_changes(), std::array::from_fn(|i| deltas[i] - sticks[i]));
        if let Some(next) = read.kyokus.get(n + 1) {
            prop_assert_eq!(next.start().scores, k.table.scores);
        }
        // Each hora scores, by the engine's evaluator, to its logged deltas.
        let mut first = true;
        for h in k.horas() {
            let score = h.score().map_err(|e| TestCaseError::fail(format!("hora at {}: {e}", h.index)))?;
            let alone =
                rules.tenhou_chiihou_alone && score.yaku.iter().any(|(y, _)| matches!(*y, "tenhou" | "chiihou"));
            if h.liable(&score).is_none() && !alone {
                let (honba, sticks) = if first { (u32::from(k.start().honba), u32::from(h.kyotaku)) } else { (0, 0) };
                let payer = (!h.is_tsumo()).then_some(usize::from(h.target));
                let want = score.payment.deltas(usize::from(h.actor), payer, usize::from(k.start().oya), honba, sticks);
                prop_assert_eq!(h.deltas, Some(want), "hora at {}", h.index);
            }
            first = false;
        }
        // The engine's logged reason is the one inferred from the table (mjai.app's order).
        if let (Some(r), false) = (k.ryukyoku(), rules == Rules::tenhou()) {
            if r.reason != DrawReason::Chombo {
                let mut before = read_until(log, r.index);
                before.kyotaku = 0;
                prop_assert_eq!(inferred_reason(&before), r.reason, "ryukyoku at {}", r.index);
            }
        }
    }
    Ok(())
}

/// The table just before `log[index]`.
fn read_until(log: &[Event], index: usize) -> Table {
    let mut t = Table::default();
    for e in &log[..index] {
        let _ = t.apply(e);
    }
    t
}

/// A seat's table over its masked events knows what the full table knows of it.
fn check_masked_view(game: &Game, seat: Seat) -> Result<(), TestCaseError> {
    let mut full = Table::default();
    let mut mine = Table::default();
    for e in game.log() {
        full.apply(e).map_err(TestCaseError::fail)?;
        mine.apply(&e.masked_for(seat)).map_err(TestCaseError::fail)?;
        let (f, m) = (&full.seats[usize::from(seat)], &mine.seats[usize::from(seat)]);
        prop_assert_eq!(&f.tehai, &m.tehai);
        prop_assert_eq!(&f.melds, &m.melds);
        prop_assert_eq!((full.scores, full.kyotaku, full.draws), (mine.scores, mine.kyotaku, mine.draws));
        for s in 0..4 {
            prop_assert_eq!(&full.seats[s].river, &mine.seats[s].river);
            prop_assert_eq!(&full.seats[s].melds, &mine.seats[s].melds);
            prop_assert_eq!(full.seats[s].tehai.len(), mine.seats[s].tehai.len());
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn the_reader_agrees_with_random_games(seed in any::<u64>(), mjai_app in any::<bool>()) {
        let rules = if mjai_app { Rules::mjai_app() } else { Rules::tenhou() };
        let game = random_game(seed, rules);
        check_game(&game, rules)?;
        check_masked_view(&game, (seed % 4) as Seat)?;
    }
}
