//! The reader over hand-built logs and over whole games the engine plays with random legal
//! answers (a property test): what it reads is checked against the engine's own log and
//! scores, and a seat's masked view against the full log.

use proptest::prelude::*;
use rand08::{Rng, SeedableRng};
use rand_chacha03::ChaCha8Rng;

use super::*;
use crate::event::{DrawReason, Event, Seat};
use crate::game::{Game, GameConfig, StartState};
use crate::hand::{MeldKind, Riichi};
use crate::rules::wall_size::LIVE_TILES;
use crate::rules::Rules;
use crate::tile::{parse_compact, Tile};

fn t(s: &str) -> Tile {
    s.parse().unwrap()
}

fn hand(s: &str) -> [Tile; 13] {
    parse_compact(s).unwrap().try_into().unwrap()
}

fn start(tehais: [&str; 4], kyotaku: u8) -> Event {
    Event::StartKyoku {
        bakaze: t("E"),
        dora_marker: t("1m"),
        kyoku: 1,
        honba: 1,
        kyotaku,
        oya: 0,
        scores: [25000; 4],
        tehais: Box::new(tehais.map(hand)),
    }
}

/// Seat 2 declares riichi, its declaration tile is ponned, and it wins by tsumo; ura shown.
fn riichi_ron_log() -> Vec<Event> {
    vec![
        Event::StartGame { names: None, seed: Some([1, 2]), id: None },
        start(["1122m3344p5566s7z", "1357m1157p1357s1z", "123456789m1p234s", "1469m1469p1469s3z"], 1),
        Event::Tsumo { actor: 0, pai: t("9s") },
        Event::Dahai { actor: 0, pai: t("9s"), tsumogiri: true },
        Event::Tsumo { actor: 1, pai: t("E") },
        Event::Dahai { actor: 1, pai: t("3m"), tsumogiri: false },
        Event::Tsumo { actor: 2, pai: t("5p") },
        Event::Reach { actor: 2 },
        Event::Dahai { actor: 2, pai: t("1p"), tsumogiri: false },
        Event::ReachAccepted { actor: 2 },
        Event::Pon { actor: 1, target: 2, pai: t("1p"), consumed: [t("1p"), t("1p")] },
        Event::Dahai { actor: 1, pai: t("E"), tsumogiri: false },
        Event::Tsumo { actor: 2, pai: t("5p") },
        Event::Hora {
            actor: 2,
            target: 2,
            pai: Some(t("5p")),
            // Haneman tsumo by a non-dealer (double riichi, menzen tsumo, ittsu, dora 2m,
            // ura 1m: 7 han): 6000/3000, 100 per payer for the honba, the two sticks to the winner.
            deltas: Some([-6100, -3100, 14300, -3100]),
            ura_markers: Some(vec![t("9m")]),
        },
        Event::EndKyoku,
        Event::EndGame,
    ]
}

#[test]
fn a_hand_built_kyoku_is_read_event_by_event() {
    let log = riichi_ron_log();
    let game = read(&log);
    assert_eq!(game.seed, Some([1, 2]));
    assert_eq!((game.kyokus.len(), game.outside.len(), game.end_game), (1, 0, Some(15)));
    let k = &game.kyokus[0];
    assert_eq!((k.index, k.label(), k.closing), (1, "E1-1".to_string(), Closing::EndKyoku(14)));
    assert_eq!(k.table.draws, 4);
    assert_eq!(k.table.tiles_left(), LIVE_TILES - 4);
    let s2 = &k.table.seats[2];
    assert!(s2.reach && !s2.reach_pending);
    assert_eq!(s2.riichi, Riichi::Double, "declared on its first, uninterrupted discard");
    assert!(!s2.ippatsu, "the pon ended it");
    assert_eq!(s2.river.iter().map(|d| (d.pai, d.riichi, d.called)).collect::<Vec<_>>(), [(t("1p"), true, true)]);
    assert_eq!(k.table.seats[1].melds.len(), 1);
    assert_eq!(k.table.seats[1].melds[0].kind, MeldKind::Pon);
    assert!(k.table.seats[1].actions.iter().any(|a| a.opens_hand()));
    assert!(!k.table.seats[0].actions.iter().any(|a| a.opens_hand()));
    assert_eq!(k.ura_markers, [t("9m")]);
    // 1000 for the riichi stick, then the hora's deltas; the sticks went with the win.
    assert_eq!(k.table.scores, [18900, 21900, 38300, 21900]);
    assert_eq!(k.score_changes(), [-6100, -3100, 13300, -3100]);
    assert_eq!(k.table.kyotaku, 0);
    let h = k.horas().next().expect("one hora");
    assert_eq!((h.actor, h.target, h.kyotaku, h.gain(), h.is_tsumo()), (2, 2, 2, 14300, true));
    let score = h.score().expect("the hand scores");
    let yaku: Vec<&str> = score.yaku.iter().map(|(n, _)| *n).collect();
    assert!(["double riichi", "menzen tsumo", "ittsu"].iter().all(|y| yaku.contains(y)), "{yaku:?}");
    assert!(!yaku.contains(&"ippatsu"), "{yaku:?}");
    assert_eq!(score.han, 7, "{yaku:?}");
    assert_eq!(score.payment.deltas(2, None, 0, 1, 2), [-6100, -3100, 14300, -3100]);
    assert!(k.problems.is_empty(), "{:?}", k.problems);
    assert_eq!(game.final_scores(), [18900, 21900, 38300, 21900]);
}

#[test]
fn problems_and_outside_events_are_listed_and_never_panic() {
    let log = vec![
        Event::Dahai { actor: 0, pai: t("1m"), tsumogiri: false },
        start(["1122m3344p5566s7z"; 4], 0),
        Event::Dahai { actor: 1, pai: t("9s"), tsumogiri: false },
        Event::Reach { actor: 200 },
        Event::Pon { actor: 5, target: 0, pai: t("1m"), consumed: [t("1m"), t("1m")] },
        Event::Hora { actor: 9, target: 7, pai: None, deltas: None, ura_markers: None },
        Event::EndKyoku,
        Event::EndKyoku,
    ];
    let game = read(&log);
    assert_eq!(game.outside, [0, 7]);
    let k = &game.kyokus[0];
    let at: Vec<usize> = k.problems.iter().map(|p| p.index).collect();
    assert_eq!(at, [2, 3, 4]);
    assert!(k.problems[0].message.starts_with("seat 1 does not hold 9s for {\"type\":\"dahai\""), "{:?}", k.problems);
    assert!(k.problems[1].message.contains("seat 200 is not a seat"));
    let h = k.horas().next().unwrap();
    assert!(h.score().unwrap_err().to_string().contains("seat 9 is not a seat"));
}

#[test]
fn reasons_are_inferred_without_the_logged_field() {
    // Kyuushu kyuuhai: right after the first tsumo.
    let mut log = vec![start(["19m19p19s1234567z"; 4], 0), Event::Tsumo { actor: 0, pai: t("5m") }];
    log.push(Event::Ryukyoku { actor: Some(0), deltas: Some([0; 4]), reason: None });
    let k = &read(&log).kyokus[0];
    let r = k.ryukyoku().unwrap();
    assert_eq!((r.reason, r.logged, r.after_tsumo), (DrawReason::KyuushuKyuuhai, false, Some(0)));
    // An exhaustive draw: 70 draws, the last discard passed.
    let mut log = vec![start(["1122m3344p5566s7z"; 4], 0)];
    for i in 0..LIVE_TILES {
        let seat = (i % 4) as Seat;
        log.extend([
            Event::Tsumo { actor: seat, pai: t("9p") },
            Event::Dahai { actor: seat, pai: t("9p"), tsumogiri: true },
        ]);
    }
    log.push(Event::Ryukyoku { actor: None, deltas: Some([0; 4]), reason: None });
    let k = &read(&log).kyokus[0];
    assert!(k.is_exhaustive_draw());
    // Six pairs and a single E each: chiitoitsu tenpai on E.
    assert_eq!(k.tenpai_at_draw(&Rules::tenhou()), [true; 4]);
    // The first go-around: four riichi on four different tiles; four winds on one wind.
    let first_go_around = |tiles: [&str; 4], riichi: bool| {
        let mut log = vec![start(["1122m3344p5566s7z"; 4], 0)];
        for (seat, pai) in (0..4u8).zip(tiles) {
            log.push(Event::Tsumo { actor: seat, pai: t(pai) });
            log.extend(riichi.then_some(Event::Reach { actor: seat }));
            log.push(Event::Dahai { actor: seat, pai: t(pai), tsumogiri: true });
            log.extend(riichi.then_some(Event::ReachAccepted { actor: seat }));
        }
        log.push(Event::Ryukyoku { actor: None, deltas: Some([0; 4]), reason: None });
        read(&log).kyokus[0].ryukyoku().map(|r| r.reason)
    };
    assert_eq!(first_go_around(["C", "F", "8p", "9s"], true), Some(DrawReason::FourRiichi));
    assert_eq!(first_go_around(["W"; 4], false), Some(DrawReason::FourWinds));
    assert_eq!(first_go_around(["W", "W", "W", "N"], false), Some(DrawReason::TripleRon), "nothing else fits");
    // A logged reason is taken as it is.
    log.pop();
    log.push(Event::Ryukyoku { actor: None, deltas: Some([0; 4]), reason: Some("four_kans".into()) });
    let r = read(&log).kyokus[0].ryukyoku().cloned().unwrap();
    assert_eq!((r.reason, r.logged), (DrawReason::FourKans, true));
}

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
