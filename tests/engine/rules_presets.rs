//! The two rule presets (issue 15, item 3): every switch where mjai.app's engine parts from
//! Tenhou, shown on one arranged hand each, under both presets.

use crate::game_support::*;
use mjai_sim::bots::from_spec;
use mjai_sim::bots::selfplay::{play_with_rules, series_config, IgnoreAnswers};
use mjai_sim::engine::event::{DrawReason, Event};
use mjai_sim::engine::game::replay::replay_with;
use mjai_sim::engine::game::{Game, Rules, StartState};
use mjai_sim::export::tenhou6::export;

fn on(rules: Rules, start: StartState, hands: [&str; 4], live: &str, dora: &str) -> Game {
    game_with_rules(start, vec![wall(hands, live, "", dora, "")], rules)
}

#[test]
fn presets_are_named_and_tenhou_is_the_default() {
    assert_eq!(Rules::default(), Rules::tenhou());
    assert_eq!(Rules::tenhou().name(), "tenhou");
    assert_eq!(Rules::mjai_app().name(), "mjai-app");
    let custom = Rules { pay_triple_ron: true, ..Rules::tenhou() };
    assert_eq!(custom.name(), "custom");
    assert_eq!(Rules::tenhou().east_only().name(), "tenhou-east");
    assert_eq!(Rules::mjai_app().east_only().name(), "mjai-app-east");
    assert_eq!(custom.east_only().name(), "custom");
}

/// Seats 1, 2 and 3 all wait on 5m with tanyao (kanchan 4-6m); the dealer's first discard
/// is a 5m. Honba 1 and one riichi stick on the table.
fn triple_ron(rules: Rules) -> Game {
    let hands = ["1199m1199p1199s1z", "46m234p678p345s66s", "46m234p678p345s77s", "46m234p678p345s88s"];
    let start = StartState { honba: 1, kyotaku: 1, scores: [25000, 25000, 24000, 25000], ..Default::default() };
    let mut g = on(rules, start, hands, "5m", "1z");
    assert_eq!(pending_seats(&g), vec![0]);
    act(&mut g, 0, r#"{"type":"dahai","actor":0,"pai":"5m","tsumogiri":true}"#);
    assert_eq!(pending_seats(&g), vec![1, 2, 3]);
    act_many(
        &mut g,
        &[
            (1, r#"{"type":"hora","actor":1,"target":0,"pai":"5m"}"#),
            (2, r#"{"type":"hora","actor":2,"target":0,"pai":"5m"}"#),
            (3, r#"{"type":"hora","actor":3,"target":0,"pai":"5m"}"#),
        ],
    );
    g
}

#[test]
fn triple_ron_aborts_under_tenhou() {
    let g = triple_ron(Rules::tenhou());
    assert_eq!(
        since(&g, 0)[4..6],
        [
            r#"{"type":"ryukyoku","deltas":[0,0,0,0],"reason":"triple_ron"}"#.to_string(),
            r#"{"type":"end_kyoku"}"#.to_string()
        ]
    );
    // An abortive draw: the dealer repeats with one more honba, the stick stays.
    assert_eq!(last_start(&g), ("E".into(), 1, 2, 1, 0, [25000, 25000, 24000, 25000]));
}

#[test]
fn triple_ron_is_paid_under_mjai_app() {
    let g = triple_ron(Rules::mjai_app());
    // Tanyao 1 han 40 fu (closed ron 30 + kanchan 2) = 1300 each; the first winner after
    // the discarder (seat 1) takes the honba (300) and the riichi stick (1000).
    assert_eq!(
        since(&g, 0)[4..8],
        [
            r#"{"type":"hora","actor":1,"target":0,"deltas":[-1600,2600,0,0],"ura_markers":[]}"#,
            r#"{"type":"hora","actor":2,"target":0,"deltas":[-1300,0,1300,0],"ura_markers":[]}"#,
            r#"{"type":"hora","actor":3,"target":0,"deltas":[-1300,0,0,1300],"ura_markers":[]}"#,
            r#"{"type":"end_kyoku"}"#,
        ]
    );
    // A non-dealer win: the deal moves on, honba 0, no stick left.
    assert_eq!(last_start(&g), ("E".into(), 2, 0, 0, 1, [20800, 27600, 25300, 26300]));
}

/// Seat 0 draws its fourth East and makes an ankan; seat 1 is kokushi tenpai on East.
fn ankan_before_kokushi(rules: Rules) -> Game {
    let hands = ["111z2345m234567p", "19m19p19s2234567z", "3579m2468p1357s6z", "2468m3579p2468s7z"];
    let mut g = on(rules, Default::default(), hands, "1z", "9s");
    act(&mut g, 0, r#"{"type":"ankan","actor":0,"consumed":["E","E","E","E"]}"#);
    g
}

#[test]
fn kokushi_may_not_rob_an_ankan_under_either_preset() {
    // Tenhou denies it (riichi.wiki Chankan, "Kokushi Denied": Tenhou log
    // 2013121107gm-0019-0000-b01e54cd); mjai.app's libriichi offers no ron on an ankan.
    for rules in [Rules::tenhou(), Rules::mjai_app()] {
        let g = ankan_before_kokushi(rules);
        // The rinshan tsumo follows at once.
        assert_eq!(pending_seats(&g), vec![0], "{}", rules.name());
        assert!(tail(&g, 1)[0].starts_with(r#"{"type":"tsumo","actor":0,"#), "{:?}", tail(&g, 1));
    }
}

#[test]
fn kokushi_robs_an_ankan_when_the_switch_is_on() {
    // Mahjong Soul's rule (riichienv `GameRule::default_mjsoul`), kept as a switch.
    let rules = Rules { kokushi_robs_ankan: true, ..Rules::tenhou() };
    assert_eq!(rules.name(), "custom");
    let mut g = ankan_before_kokushi(rules);
    assert_eq!(pending_seats(&g), vec![1]);
    assert!(g.pending()[0].legal.iter().any(|e| matches!(e, Event::Hora { actor: 1, target: 0, .. })));
    act(&mut g, 1, r#"{"type":"hora","actor":1,"target":0,"pai":"E"}"#);
    // Kokushi, a yakuman ron by a non-dealer off the dealer: 32000.
    assert_eq!(last_deltas(&g), [-32000, 32000, 0, 0]);
}

/// Seat 1 holds 1111m with three sets: it waits only on a fifth 1m (karaten). Everyone
/// discards what they draw until the wall runs out.
fn karaten_to_the_end(rules: Rules) -> Game {
    let hands = ["2468m2468s13579p", "1111m234p567s789s", "3579m2468p1357s1z", "369m369p369s2345z"];
    let mut g = on(rules, Default::default(), hands, "", "9s");
    autoplay_kyoku(&mut g);
    g
}

#[test]
fn karaten_is_noten_under_tenhou_and_tenpai_under_mjai_app() {
    let g = karaten_to_the_end(Rules::tenhou());
    assert_eq!(last_deltas(&g), [0, 0, 0, 0]);
    // The dealer was noten: the deal moves on.
    assert_eq!(last_start(&g).0.as_str(), "E");
    assert_eq!((last_start(&g).1, last_start(&g).2), (2, 1));

    let g = karaten_to_the_end(Rules::mjai_app());
    assert_eq!(last_deltas(&g), [-1000, 3000, -1000, -1000]);
}

/// Seat 0 discards a P; seat 1 holds three and pons it.
fn pon_then(rules: Rules) -> Game {
    let hands = ["2468m2468s13579p", "555z2468m2468p99s", "3579m1357p1357s1z", "369m369p369s2346z"];
    let mut g = on(rules, Default::default(), hands, "5z", "9s");
    act(&mut g, 0, r#"{"type":"dahai","actor":0,"pai":"P","tsumogiri":true}"#);
    act(&mut g, 1, r#"{"type":"pon","actor":1,"target":0,"pai":"P","consumed":["P","P"]}"#);
    g
}

#[test]
fn kuikae_is_refused_under_tenhou_and_allowed_under_mjai_app() {
    let line = r#"{"type":"dahai","actor":1,"pai":"P","tsumogiri":false}"#;
    let g = pon_then(Rules::tenhou());
    let e = g.validate(1, line).unwrap_err().0;
    assert!(e.contains("kuikae"), "{e}");

    let mut g = pon_then(Rules::mjai_app());
    let n = g.log().len();
    act(&mut g, 1, line);
    assert_eq!(since(&g, n)[0], line);
}

#[test]
fn a_noten_riichi_discard_is_refused_under_tenhou_and_allowed_under_mjai_app() {
    let hands = ["123456789m1123p", "147m258p369s1234z", "147m258p1369s567z", "258m369p147s1234z"];
    let line = r#"{"type":"dahai","actor":0,"pai":"1m","tsumogiri":false}"#;
    let riichi = |rules| {
        let mut g = game_with_rules(Default::default(), vec![wall(hands, "7z", "", "4z", "4z")], rules);
        act(&mut g, 0, r#"{"type":"reach","actor":0}"#);
        g
    };
    let e = riichi(Rules::tenhou()).validate(0, line).unwrap_err().0;
    assert!(e.contains("tenpai"), "{e}");

    let mut g = riichi(Rules::mjai_app());
    let n = g.log().len();
    act(&mut g, 0, line);
    assert_eq!(since(&g, n)[..2], [line, r#"{"type":"reach_accepted","actor":0}"#]);
}

/// The dealer's first draw completes four concealed triplets: tenhou + suuankou.
fn tenhou_with_suuankou(rules: Rules) -> Game {
    let hands = ["111222333m444p5p", "45678m1379p1357s", "46789m1268p2468s", "1234567z1234z9s9p"];
    let mut g = on(rules, Default::default(), hands, "5p", "9s");
    act(&mut g, 0, r#"{"type":"hora","actor":0,"target":0,"pai":"5p"}"#);
    g
}

#[test]
fn tenhou_stacks_with_another_yakuman_only_under_tenhou() {
    // Two yakuman for the dealer: 32000 from each seat.
    assert_eq!(last_deltas(&tenhou_with_suuankou(Rules::tenhou())), [96000, -32000, -32000, -32000]);
    // mjai.app: tenhou alone, one yakuman.
    assert_eq!(last_deltas(&tenhou_with_suuankou(Rules::mjai_app())), [48000, -16000, -16000, -16000]);
}

/// All four declare riichi on their first discard (each is tenpai from the deal); returns
/// the game and the log length before seat 3's riichi.
fn four_riichi_game(rules: Rules) -> (Game, usize) {
    let hands = ["123456789m1123p", "123456789p1123s", "123456789s1123m", "1112223334445z"];
    let mut g = on(rules, Default::default(), hands, "7z6z8p9s1m", "9m");
    for (seat, pai) in [(0, "C"), (1, "F"), (2, "8p")] {
        act(&mut g, seat, &format!(r#"{{"type":"reach","actor":{seat}}}"#));
        act(&mut g, seat, &format!(r#"{{"type":"dahai","actor":{seat},"pai":"{pai}","tsumogiri":true}}"#));
    }
    let n = g.log().len();
    act(&mut g, 3, r#"{"type":"reach","actor":3}"#);
    act(&mut g, 3, r#"{"type":"dahai","actor":3,"pai":"9s","tsumogiri":true}"#);
    (g, n)
}

/// The events after seat 3's riichi discard, to the end of the kyoku.
fn four_riichi(rules: Rules) -> Vec<String> {
    let (g, n) = four_riichi_game(rules);
    since(&g, n)[2..].iter().take_while(|e| !e.contains("start_kyoku")).cloned().collect()
}

/// The tenhou.net/6 result of the first kyoku of `log`.
fn first_result(log: &[Event]) -> serde_json::Value {
    let game = export(log, &[]).expect("exports");
    game.log[0][16].clone()
}

#[test]
fn four_riichi_is_exported_as_four_riichi_under_both_presets() {
    // issue 20, 2(a): under mjai-app the abort follows the next seat's tsumo (as mjai.app
    // logs it), which the export used to read as kyuushu kyuuhai.
    for rules in [Rules::tenhou(), Rules::mjai_app()] {
        let (g, _) = four_riichi_game(rules);
        assert_eq!(first_result(g.log()), serde_json::json!(["四家立直"]), "{}", rules.name());
        // The same log without the draw reason (as mjai.app writes it) is read the same.
        let bare = without_draw_reasons(g.log());
        assert_eq!(first_result(&bare), serde_json::json!(["四家立直"]), "{} without reason", rules.name());
    }
}

/// `log` as mjai.app writes it: every `ryukyoku` without its draw reason.
fn without_draw_reasons(log: &[Event]) -> Vec<Event> {
    log.iter()
        .map(|e| match e {
            Event::Ryukyoku { actor, deltas, .. } => Event::Ryukyoku { actor: *actor, deltas: *deltas, reason: None },
            e => e.clone(),
        })
        .collect()
}

#[test]
fn four_riichi_logs_verify_with_and_without_the_draw_reason() {
    for rules in [Rules::tenhou(), Rules::mjai_app()] {
        let (g, _) = four_riichi_game(rules);
        // The first kyoku, to its end_kyoku.
        let end = g.log().iter().position(|e| matches!(e, Event::EndKyoku)).expect("an end_kyoku");
        let log = g.log()[..=end].to_vec();
        let reasons: Vec<_> = log.iter().filter_map(DrawReason::of).collect();
        assert_eq!(reasons, [DrawReason::FourRiichi], "{}", rules.name());
        let bare = without_draw_reasons(&log);
        for l in [&log, &bare] {
            // Every logged event is reproduced; the replay stops where the engine deals the
            // next kyoku, past the end of the cut log.
            let err = replay_with(l, rules).expect_err("the log stops after one kyoku");
            assert_eq!(err.index, l.len(), "{}: {err}", rules.name());
        }
    }
}

#[test]
fn four_riichi_abort_after_reach_accepted_under_tenhou_and_after_the_next_tsumo_under_mjai_app() {
    let end = [r#"{"type":"ryukyoku","deltas":[0,0,0,0],"reason":"four_riichi"}"#, r#"{"type":"end_kyoku"}"#];
    let accepted = r#"{"type":"reach_accepted","actor":3}"#;
    assert_eq!(four_riichi(Rules::tenhou()), [accepted, end[0], end[1]]);
    assert_eq!(four_riichi(Rules::mjai_app()), [accepted, r#"{"type":"tsumo","actor":0,"pai":"1m"}"#, end[0], end[1]]);
}

/// Everyone draws and discards an East; seat 3 declares riichi with it.
fn four_winds_with_riichi(rules: Rules) -> Vec<String> {
    let hands = ["2468m2468p13579s", "3579m1357p2468s9p", "3689m369p234567z", "123456789s1123m"];
    let mut g = on(rules, Default::default(), hands, "1z1z1z1z", "9s");
    for seat in 0..3 {
        act(&mut g, seat, &format!(r#"{{"type":"dahai","actor":{seat},"pai":"E","tsumogiri":true}}"#));
    }
    let n = g.log().len();
    act(&mut g, 3, r#"{"type":"reach","actor":3}"#);
    act(&mut g, 3, r#"{"type":"dahai","actor":3,"pai":"E","tsumogiri":true}"#);
    since(&g, n)[2..4].to_vec()
}

#[test]
fn four_winds_take_the_riichi_stick_only_under_tenhou() {
    let abort = r#"{"type":"ryukyoku","deltas":[0,0,0,0],"reason":"four_winds"}"#;
    assert_eq!(four_winds_with_riichi(Rules::tenhou()), [r#"{"type":"reach_accepted","actor":3}"#, abort]);
    assert_eq!(four_winds_with_riichi(Rules::mjai_app()), [abort, r#"{"type":"end_kyoku"}"#]);
}

/// Game `index` of `selfplay builtin:random builtin:rulebase builtin:random
/// builtin:tsumogiri --seed 2026` under `rules`: its log.
fn selfplay_2026(index: u64, rules: Rules) -> Vec<Event> {
    let names = ["builtin:random", "builtin:rulebase", "builtin:random", "builtin:tsumogiri"].map(String::from);
    let mut agents = names.each_ref().map(|s| from_spec(s).expect("a built-in bot"));
    play_with_rules(series_config(2026, index, names.clone()), rules, &mut agents, &mut IgnoreAnswers)
        .expect("the game finishes")
        .log
}

/// Rons on the tile of an ankan: a `hora` whose target made the ankan just before (only the
/// ankan's `dora` between).
fn ankan_rons(log: &[Event]) -> usize {
    (0..log.len())
        .filter(|&i| {
            let Event::Hora { actor, target, .. } = log[i] else { return false };
            let before = log[..i].iter().rev().find(|e| !matches!(e, Event::Dora { .. } | Event::Hora { .. }));
            actor != target && matches!(before, Some(Event::Ankan { actor: a, .. }) if *a == target)
        })
        .count()
}

#[test]
fn selfplay_game_3370_has_no_ron_on_an_ankan_under_tenhou() {
    // issue 20, item 3: an independent check of 5,000 such games found one kokushi ron on an
    // ankan, in game 3370; Tenhou allows none.
    assert_eq!(ankan_rons(&selfplay_2026(3370, Rules::tenhou())), 0);
    // The same game with the switch on (the old Tenhou preset) has it.
    let robs = Rules { kokushi_robs_ankan: true, ..Rules::tenhou() };
    assert_eq!(ankan_rons(&selfplay_2026(3370, robs)), 1);
}

/// The (round wind, scores) of every `start_kyoku` of `log`.
fn hands_of(log: &[Event]) -> Vec<(String, [i32; 4])> {
    log.iter()
        .filter_map(|e| match e {
            Event::StartKyoku { bakaze, scores, .. } => Some((bakaze.as_mjai().to_string(), *scores)),
            _ => None,
        })
        .collect()
}

#[test]
fn east_only_games_never_pass_the_south_round_and_play_south_only_while_nobody_has_30000() {
    // Tenhou's 東風戦 (docs/rules.md): East 4 ends the game when someone has 30000; the
    // South round that follows otherwise is sudden death.
    let (mut ended_in_east, mut went_south, mut shorter) = (0, 0, 0);
    for index in 0..40 {
        let log = selfplay_2026(index, Rules::tenhou().east_only());
        let hands = hands_of(&log);
        assert!(hands.iter().all(|(wind, _)| wind == "E" || wind == "S"), "game {index}: {hands:?}");
        for (wind, scores) in &hands {
            if wind == "S" {
                assert!(scores.iter().all(|&s| s < 30000), "game {index}: a South hand with 30000 on the table");
            }
        }
        match hands.last().map(|(wind, _)| wind.as_str()) {
            Some("E") => ended_in_east += 1,
            _ => went_south += 1,
        }
        // The same walls as a hanchan: the same hands as long as the East-only game lasts.
        if index < 10 {
            let full = hands_of(&selfplay_2026(index, Rules::tenhou()));
            let same = hands.len().min(full.len());
            assert_eq!(full[..same], hands[..same], "game {index}");
            shorter += usize::from(full.len() > hands.len());
        }
    }
    assert!(ended_in_east > 0 && went_south > 0, "both ends seen: {ended_in_east} in East, {went_south} in South");
    assert!(shorter > 0, "no hanchan of the first ten outlasted its East-only game");
}
