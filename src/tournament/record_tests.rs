//! Hand-built logs for [`super::record`]: every counter checked against a count done by hand.

use std::time::Duration;

use super::record::{FromGame, GameRecord, SeatStats};
use mjai_sim_arena::match_loop::{MatchEnding, MatchReport};
use mjai_sim_engine::event::Event;
use mjai_sim_engine::game::Rules;
use mjai_sim_engine::tile::{parse_compact, Tile};

fn t(s: &str) -> Tile {
    s.parse().unwrap()
}

fn hand(s: &str) -> [Tile; 13] {
    parse_compact(s).unwrap().try_into().unwrap()
}

fn start(kyoku: u8, tehais: [&str; 4]) -> Event {
    Event::StartKyoku {
        bakaze: t("E"),
        dora_marker: t("1m"),
        kyoku,
        honba: 0,
        kyotaku: 0,
        oya: kyoku - 1,
        scores: [25000; 4],
        tehais: Box::new(tehais.map(hand)),
    }
}

fn tsumo(actor: u8, pai: &str) -> Event {
    Event::Tsumo { actor, pai: t(pai) }
}

fn dahai(actor: u8, pai: &str) -> Event {
    Event::Dahai { actor, pai: t(pai), tsumogiri: true }
}

fn hora(actor: u8, target: u8, deltas: [i32; 4]) -> Event {
    Event::Hora { actor, target, pai: None, deltas: Some(deltas), ura_markers: None }
}

/// Seat 0 tenpai on 5p (123m456m789m123p5p); seats 1..3 far from it.
const TENPAI_0: [&str; 4] = ["123456789m123p5p", "1357m1357p1357s1z", "2468m2468p2468s2z", "1469m1469p1469s3z"];

fn game_log() -> Vec<Event> {
    let mut log = vec![Event::StartGame { names: None, seed: Some([1, 2]), id: None }];
    // Hand 1: seat 1 pons and chis seat 0's discards (the tiles need not make sense for
    // counting), seat 2 declares riichi, and seats 2 and 3 both ron seat 0 (double ron).
    log.push(start(1, TENPAI_0));
    log.extend([tsumo(0, "9s"), dahai(0, "9s")]);
    log.push(Event::Pon { actor: 1, target: 0, pai: t("9s"), consumed: [t("9s"), t("9s")] });
    log.push(dahai(1, "E"));
    log.push(Event::Chi { actor: 1, target: 0, pai: t("2m"), consumed: [t("3m"), t("4m")] });
    log.extend([tsumo(2, "S"), Event::Reach { actor: 2 }, dahai(2, "S"), Event::ReachAccepted { actor: 2 }]);
    log.extend([tsumo(3, "W"), dahai(3, "W"), tsumo(0, "C"), dahai(0, "C")]);
    log.push(hora(2, 0, [-8000, 0, 9000, 0]));
    log.push(hora(3, 0, [-2000, 0, 0, 2000]));
    log.push(Event::EndKyoku);
    // Hand 2: seat 3 wins by tsumo; seat 1 makes an ankan (not a call).
    log.push(start(2, TENPAI_0));
    log.extend([tsumo(1, "E"), Event::Ankan { actor: 1, consumed: [t("E"); 4] }]);
    log.extend([tsumo(3, "N"), hora(3, 3, [-1000, -2000, -1000, 4000]), Event::EndKyoku]);
    // Hand 3: exhaustive draw after 70 draws, everyone discarding what they draw; only
    // seat 0 is tenpai.
    log.push(start(3, TENPAI_0));
    for i in 0..70u8 {
        let seat = (2 + i) % 4;
        log.extend([tsumo(seat, "9p"), dahai(seat, "9p")]);
    }
    log.push(Event::Ryukyoku { actor: None, deltas: Some([3000, -1000, -1000, -1000]), reason: None });
    log.push(Event::EndKyoku);
    // Hand 4: kyuushu kyuuhai after one draw (abortive: not an exhaustive draw).
    log.push(start(4, TENPAI_0));
    log.extend([tsumo(3, "1m"), Event::Ryukyoku { actor: None, deltas: Some([0; 4]), reason: None }]);
    log.push(Event::EndKyoku);
    // Hand 5: a chombo by seat 1 (reason "error").
    log.push(start(1, TENPAI_0));
    log.push(Event::Ryukyoku { actor: Some(1), deltas: Some([2000, -8000, 2000, 4000]), reason: Some("error".into()) });
    log.extend([Event::EndKyoku, Event::EndGame]);
    log
}

#[test]
fn counts_from_a_hand_built_log() {
    let s = SeatStats::from_log(&game_log());
    assert!(s.iter().all(|x| x.kyokus == 5));
    // Wins.
    assert_eq!(s.iter().map(|x| x.horas).collect::<Vec<_>>(), [0, 0, 1, 2]);
    assert_eq!(s.iter().map(|x| x.tsumos).collect::<Vec<_>>(), [0, 0, 0, 1]);
    assert_eq!(s.iter().map(|x| x.hora_points).collect::<Vec<_>>(), [0, 0, 9000, 6000]);
    // Double ron: one hand dealt in, both payments.
    assert_eq!(s.iter().map(|x| x.deal_ins).collect::<Vec<_>>(), [1, 0, 0, 0]);
    assert_eq!(s[0].deal_in_points, 10000);
    // Pon + chi in one hand is one hand with a call; the ankan is not a call.
    assert_eq!(s.iter().map(|x| x.calls).collect::<Vec<_>>(), [0, 1, 0, 0]);
    assert_eq!(s.iter().map(|x| x.reaches).collect::<Vec<_>>(), [0, 0, 1, 0]);
    // One exhaustive draw (the abort and the chombo are not), only seat 0 tenpai.
    assert_eq!(s.iter().map(|x| x.draws).collect::<Vec<_>>(), [1, 1, 1, 1]);
    assert_eq!(s.iter().map(|x| x.tenpai_draws).collect::<Vec<_>>(), [1, 0, 0, 0]);
    assert!(s.iter().all(|x| x.chombos == 0), "chombos come from the report");
}

#[test]
fn karaten_is_not_tenpai_at_the_draw() {
    // Seat 0 holds 5p four times and waits only on 5p: not tenpai (Tenhou).
    let mut tehais = TENPAI_0;
    tehais[0] = "123456789m5555p";
    let mut log = vec![start(1, tehais)];
    for i in 0..70u8 {
        log.extend([tsumo(i % 4, "9p"), dahai(i % 4, "9p")]);
    }
    log.push(Event::Ryukyoku { actor: None, deltas: Some([0; 4]), reason: None });
    let s = SeatStats::from_log(&log);
    assert_eq!(s.iter().map(|x| x.draws).collect::<Vec<_>>(), [1; 4]);
    assert_eq!(s.iter().map(|x| x.tenpai_draws).collect::<Vec<_>>(), [0; 4]);
}

/// Seat 0 holds 5p four times and waits only on 5p (karaten) through a whole wall.
fn karaten_draw(deltas: [i32; 4], reason: Option<&str>) -> Vec<Event> {
    let mut tehais = TENPAI_0;
    tehais[0] = "123456789m5555p";
    let mut log = vec![start(1, tehais)];
    for i in 0..70u8 {
        log.extend([tsumo(i % 4, "9p"), dahai(i % 4, "9p")]);
    }
    log.push(Event::Ryukyoku { actor: None, deltas: Some(deltas), reason: reason.map(String::from) });
    log
}

#[test]
fn karaten_is_tenpai_at_the_draw_under_the_mjai_app_preset() {
    // issue 20, 2(b): mjai.app pays karaten as tenpai (3000 from the three others), so the
    // statistic counts it, with or without the logged reason.
    for reason in [None, Some("exhaustive")] {
        let log = karaten_draw([3000, -1000, -1000, -1000], reason);
        let s = SeatStats::from_log_with(&log, &Rules::mjai_app());
        assert_eq!(s.iter().map(|x| x.draws).collect::<Vec<_>>(), [1; 4], "{reason:?}");
        assert_eq!(s.iter().map(|x| x.tenpai_draws).collect::<Vec<_>>(), [1, 0, 0, 0], "{reason:?}");
    }
    let s = SeatStats::from_log_with(&karaten_draw([0; 4], None), &Rules::tenhou());
    assert_eq!(s.iter().map(|x| x.tenpai_draws).collect::<Vec<_>>(), [0; 4]);
}

#[test]
fn a_logged_abortive_reason_is_not_an_exhaustive_draw() {
    // The wall is empty, but the log says the hand was aborted (four kans by the discard
    // that emptied it, say): not an exhaustive draw.
    let s = SeatStats::from_log(&karaten_draw([0; 4], Some("four_kans")));
    assert_eq!(s.iter().map(|x| x.draws).collect::<Vec<_>>(), [0; 4]);
}

#[test]
fn record_takes_scores_chombos_and_times_from_the_report() {
    let report = MatchReport {
        ending: MatchEnding::Completed,
        scores: [30000, 10000, 30000, 30000],
        chombos: [0, 1, 0, 0],
        defaulted: [0; 4],
        disconnected: [0; 4],
        restarts: 1,
        decision_times: [vec![Duration::from_millis(3); 5], vec![], vec![Duration::from_millis(40)], vec![]],
        errors: vec![],
        warnings: vec![],
        players: mjai_sim_engine::game::Players::Four,
    };
    let r = GameRecord::from_game(7, 1, vec![3, 0, 2, 1], &game_log(), &report, &Rules::tenhou());
    assert_eq!((r.index, r.set, r.seats.clone()), (7, 1, vec![3, 0, 2, 1]));
    assert_eq!(r.ranks, [1, 4, 2, 3], "ties go to the earlier seat");
    assert_eq!(r.stats.iter().map(|s| s.chombos).collect::<Vec<_>>(), [0, 1, 0, 0]);
    assert_eq!(r.stats[0].times.count(), 5);
    assert!(r.stats[1].times.is_empty());
    let json = serde_json::to_string(&r.stats).unwrap();
    assert!(json.len() < 600, "compact: {json}");
    assert!(!json.contains("\"tsumos\":0"), "zero counters are left out: {json}");
    let back: GameRecord = serde_json::from_str(&serde_json::to_string(&r).unwrap()).unwrap();
    assert_eq!(back, r);
}

#[test]
fn malformed_logs_do_not_panic() {
    let log = vec![
        Event::Hora { actor: 9, target: 7, pai: None, deltas: None, ura_markers: None },
        Event::Reach { actor: 200 },
        Event::Pon { actor: 5, target: 0, pai: t("1m"), consumed: [t("1m"), t("1m")] },
        dahai(3, "5p"),
        Event::Ryukyoku { actor: None, deltas: None, reason: None },
    ];
    let s = SeatStats::from_log(&log);
    assert!(s.iter().all(|x| x.horas == 0 && x.draws == 0));
    assert_eq!(SeatStats::from_log(&[]), <[SeatStats; 4]>::default());
}
