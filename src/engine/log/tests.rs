//! The reader over hand-built logs. Over whole games the engine plays with random legal
//! answers (a property test) it is checked in `game` (`game/log_reader_tests.rs`): `log`
//! reads logs and does not know the game.

use super::*;
use crate::event::{DrawReason, Event, Seat};
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
