//! The match loop against a scripted table and scripted bots: batching and masking,
//! informational lines, chombo with restart, concurrent offenders, timeouts, start
//! failures, the restart cap, warnings, interruption, and the output folder.

use std::sync::Arc;
use std::time::Duration;

use crate::arena_support::{t, Behaviour, ScriptLauncher, ScriptTable};
use mjai_sim::arena::logs::LogDir;
use mjai_sim::arena::match_loop::{MatchEnding, MatchError};
use mjai_sim::arena::observer::{Fanout, Silent};
use mjai_sim::arena::progress::HandLines;
use mjai_sim::arena::summary::Summary;
use mjai_sim::arena::{play_match, Clock, GameObserver, MatchOptions, MatchReport, RefereedGame};
use mjai_sim::engine::event::Event;
use mjai_sim::runtime::BotError;

use Behaviour::{Tsumogiri as T, *};

async fn play(
    table: &mut ScriptTable,
    launcher: &ScriptLauncher,
    options: MatchOptions,
    observer: &mut dyn GameObserver,
) -> MatchReport {
    let rx = mjai_sim::arena::cancel::CancelToken::new();
    play_match(table, launcher, &options, observer, rx).await.expect("no I/O or engine error")
}

fn events(line: &str) -> Vec<Event> {
    serde_json::from_str(line).unwrap()
}

#[tokio::test]
async fn clean_game_batches_masks_and_delivers_hand_ends() {
    let mut table = ScriptTable::new(3);
    let launcher = ScriptLauncher::new([T, T, T, T]);
    let report = play(&mut table, &launcher, MatchOptions::default(), &mut Silent).await;

    assert_eq!(report.ending, MatchEnding::Completed);
    assert_eq!(report.scores, [26000, 26000, 26000, 22000]);
    assert_eq!(report.scores.iter().sum::<i32>(), 100000);
    assert!(report.errors.is_empty() && report.warnings.is_empty());
    assert_eq!((report.restarts, report.chombos), (0, [0; 4]));
    let rec = launcher.record.lock().unwrap();
    assert_eq!((rec.launches, rec.stops), ([1; 4], [1; 4]));
    drop(rec);
    // Seat 0: discards in hand 1, may claim in hand 3.
    assert_eq!(report.decision_times[0].len(), 2);
    assert_eq!(report.decision_times[3].len(), 2);

    let lines = launcher.lines(0);
    assert_eq!(lines[0], r#"[{"type":"start_game","names":["0","1","2","3"],"id":0}]"#);
    let first = events(&lines[1]);
    assert_eq!(first.len(), 2, "start_kyoku and its own draw, nothing else");
    match &first[0] {
        Event::StartKyoku { tehais, .. } => {
            assert_eq!(tehais[0], [t("1m"); 13]);
            assert_eq!(tehais[1], [t("?"); 13]);
        }
        other => panic!("expected start_kyoku, got {other:?}"),
    }
    assert_eq!(first[1], Event::Tsumo { actor: 0, pai: t("9s") });
    // End of hand 1: the seat sees its discard, the draw result with deltas, end_kyoku.
    let end1 = events(&lines[2]);
    assert!(matches!(end1[0], Event::Dahai { actor: 0, .. }));
    assert!(matches!(end1[1], Event::Ryukyoku { deltas: Some([3000, -1000, -1000, -1000]), .. }));
    assert_eq!(end1.last(), Some(&Event::EndKyoku));
    // Hand 2 (seat 0 cannot act): the whole hand arrives with end_kyoku, others' draws hidden.
    let end2 = events(&lines[3]);
    assert!(matches!(end2[0], Event::StartKyoku { kyoku: 2, .. }));
    assert_eq!(end2[1], Event::Tsumo { actor: 1, pai: t("?") });
    assert_eq!(end2.last(), Some(&Event::EndKyoku));
    // Hand 3: asked to claim seat 2's discard.
    let claim = events(&lines[4]);
    assert!(matches!(claim.last(), Some(Event::Dahai { actor: 2, .. })));
    assert_eq!(lines.last().unwrap(), r#"[{"type":"end_game"}]"#);
    assert_eq!(lines.len(), 7);
}

#[tokio::test]
async fn illegal_answer_is_a_chombo_and_restarts_all_bots_at_the_next_hand() {
    let mut table = ScriptTable::new(2);
    let bad = r#"{"type":"dahai","actor":1,"pai":"1m","tsumogiri":false}"#;
    let launcher = ScriptLauncher::new([T, ActWith(bad.into()), T, T]);
    let report = play(&mut table, &launcher, MatchOptions::default(), &mut Silent).await;

    assert_eq!(report.ending, MatchEnding::Completed);
    // Hand 1: non-dealer chombo (4000 to the dealer, 2000 to the others); hand 2: seat 1 is
    // the dealer and errs again (4000 to each).
    assert_eq!(report.scores, [33000, 5000, 31000, 31000]);
    assert_eq!(report.chombos, [0, 2, 0, 0]);
    assert_eq!(report.restarts, 1, "no restart once the game is over");
    assert_eq!(report.errors.len(), 2);
    let e = &report.errors[0];
    assert_eq!((e.error_type.as_str(), e.player_id, e.kyoku.as_deref()), ("invalid", 1, Some("E1-0")));
    assert_eq!(e.line.as_deref(), Some(bad));
    assert_eq!(report.errors[1].kyoku.as_deref(), Some("E2-0"));
    assert!(table.log().iter().any(|e| matches!(e,
        Event::Ryukyoku { reason: Some(r), deltas: Some([4000, -8000, 2000, 2000]), .. } if r == "error")));

    let rec = launcher.record.lock().unwrap();
    assert_eq!((rec.launches, rec.stops), ([2; 4], [2; 4]));
    let restarted: Vec<&String> = rec.lines.iter().filter(|l| l.0 == 2 && l.1 == 1).map(|l| &l.2).collect();
    assert_eq!(restarted[0], r#"[{"type":"start_game","names":["0","1","2","3"],"id":1}]"#);
    assert!(matches!(events(restarted[1])[0], Event::StartKyoku { kyoku: 2, .. }), "resumes at the next hand");
}

#[tokio::test]
async fn concurrent_offenders_each_pay() {
    let mut table = ScriptTable::new(1);
    let crash = FailActing(BotError::Crashed("exit status 1".into()));
    let late = FailActing(BotError::Timeout(2.0));
    let launcher = ScriptLauncher::new([T, crash, late, T]);
    let report = play(&mut table, &launcher, MatchOptions::default(), &mut Silent).await;
    assert_eq!(report.scores, [33000, 19000, 19000, 29000]);
    assert_eq!(report.chombos, [0, 1, 1, 0]);
    let kinds: Vec<(&str, u8)> = report.errors.iter().map(|e| (e.error_type.as_str(), e.player_id)).collect();
    assert_eq!(kinds, [("crashed", 1), ("timeout", 2)]);
}

#[tokio::test]
async fn a_bot_that_never_answers_is_cut_off_by_the_loop() {
    let mut table = ScriptTable::new(1);
    let launcher = ScriptLauncher::new([Hang, T, T, T]);
    // The first decision begins with start_kyoku, so the start timeout applies to it.
    let short = Duration::from_millis(20);
    let options = MatchOptions {
        clock: Clock { decision: short, ..Clock::mjai_app() },
        start_timeout: short,
        ..MatchOptions::default()
    };
    let report = play(&mut table, &launcher, options, &mut Silent).await;
    assert_eq!(report.ending, MatchEnding::Completed);
    assert_eq!(report.errors[0].error_type, "timeout");
    assert_eq!(report.scores, [13000, 29000, 29000, 29000]);
}

#[tokio::test]
async fn a_bot_that_cannot_start_keeps_paying_until_the_game_ends() {
    let mut table = ScriptTable::new(4);
    let launcher = ScriptLauncher::new([T, T, T, NoLaunch]);
    let report = play(&mut table, &launcher, MatchOptions::default(), &mut Silent).await;
    assert_eq!(report.ending, MatchEnding::Completed);
    assert_eq!(report.chombos, [0, 0, 0, 4]);
    assert_eq!(report.restarts, 3);
    assert!(report.errors.iter().all(|e| e.error_type == "start" && e.player_id == 3));
    assert_eq!(report.scores.iter().sum::<i32>(), 100000);
    assert_eq!(launcher.lines(0).len(), 4, "only start_game, four times");
}

#[tokio::test]
async fn a_seat_the_host_cannot_start_stops_the_game_with_no_chombo() {
    let mut table = ScriptTable::new(4);
    let launcher = ScriptLauncher::new([T, T, HostDownFrom(1), T]);
    let rx = mjai_sim::arena::cancel::CancelToken::new();
    let result = play_match(&mut table, &launcher, &MatchOptions::default(), &mut Silent, rx).await;
    match result {
        Err(MatchError::Host(fault)) => assert!(fault.to_string().contains("Docker daemon"), "{fault}"),
        other => panic!("a host fault, not a result: {:?}", other.map(|r| r.chombos)),
    }
    assert_eq!(launcher.record.lock().unwrap().stops, [1, 1, 0, 1], "the bots that started are stopped");
    assert!(table.log().iter().all(|e| !matches!(e, Event::Ryukyoku { .. })), "no hand ended in a chombo");
}

#[tokio::test]
async fn the_host_failing_mid_game_stops_it_at_the_restart() {
    let mut table = ScriptTable::new(4);
    // seat 1 errs in its first hand (a chombo, a result so far), then the host fails the restart
    let launcher = ScriptLauncher::new([T, ActWith("not json".into()), HostDownFrom(2), T]);
    let rx = mjai_sim::arena::cancel::CancelToken::new();
    let result = play_match(&mut table, &launcher, &MatchOptions::default(), &mut Silent, rx).await;
    assert!(matches!(result, Err(MatchError::Host(_))), "{:?}", result.map(|r| r.chombos));
}

#[tokio::test]
async fn every_seat_failing_to_start_alike_is_the_host_not_four_bots() {
    let mut table = ScriptTable::new(4);
    let launcher = ScriptLauncher::new([NoLaunch, NoLaunch, NoLaunch, NoLaunch]);
    let rx = mjai_sim::arena::cancel::CancelToken::new();
    let result = play_match(&mut table, &launcher, &MatchOptions::default(), &mut Silent, rx).await;
    match result {
        Err(MatchError::Host(fault)) => assert!(fault.to_string().contains("every seat failed to start"), "{fault}"),
        other => panic!("a host fault: {:?}", other.map(|r| r.chombos)),
    }
}

#[tokio::test]
async fn restart_cap_aborts_the_match() {
    let mut table = ScriptTable::new(4);
    let launcher = ScriptLauncher::new([T, T, T, NoLaunch]);
    let options = MatchOptions { max_restarts: 1, ..MatchOptions::default() };
    let report = play(&mut table, &launcher, options, &mut Silent).await;
    assert_eq!(report.ending, MatchEnding::RestartLimit(1));
    assert_eq!(report.chombos, [0, 0, 0, 2]);
    assert!(!table.is_over());
}

#[tokio::test]
async fn informational_answers_other_than_none_warn_but_garbage_is_an_error() {
    let mut table = ScriptTable::new(2);
    let launcher = ScriptLauncher::new([
        T,
        T,
        EndKyokuWith(r#"{"type":"dahai","actor":2,"pai":"E","tsumogiri":false}"#.into()),
        T,
    ]);
    let report = play(&mut table, &launcher, MatchOptions::default(), &mut Silent).await;
    assert_eq!(report.warnings.len(), 2);
    assert!(report.errors.is_empty());
    assert_eq!(report.chombos, [0; 4]);

    let mut table = ScriptTable::new(2);
    let launcher = ScriptLauncher::new([T, T, EndKyokuWith("not json".into()), T]);
    let report = play(&mut table, &launcher, MatchOptions::default(), &mut Silent).await;
    assert_eq!(report.chombos, [0, 0, 1, 0], "paid in the hand that had already begun");
    assert_eq!(report.errors[0].kyoku.as_deref(), Some("E2-0"));
    assert_eq!(report.errors[0].line.as_deref(), Some("not json"));
}

#[tokio::test]
async fn shutdown_stops_every_bot_and_reports_interrupted() {
    let mut table = ScriptTable::new(4);
    let rx = mjai_sim::arena::cancel::CancelToken::new();
    let tx = rx.clone();
    let launcher = ScriptLauncher::new([T, Interrupt(Arc::new(tx)), T, T]);
    let report = play_match(&mut table, &launcher, &MatchOptions::default(), &mut Silent, rx).await.unwrap();
    assert_eq!(report.ending, MatchEnding::Interrupted);
    assert_eq!(launcher.record.lock().unwrap().stops, [1; 4]);
    assert!(!table.is_over());
}

#[tokio::test]
async fn output_folder_holds_log_errors_answers_and_summary() {
    let tmp = tempfile::tempdir().unwrap();
    let mut table = ScriptTable::new(2);
    let bad = r#"{"type":"pon"}"#;
    let launcher = ScriptLauncher::new([T, ActWith(bad.into()), T, T]);
    let mut logs = LogDir::create(tmp.path()).unwrap();
    let mut progress = HandLines::new(Vec::new());
    let report = {
        let mut both = Fanout(vec![&mut logs, &mut progress]);
        play(&mut table, &launcher, MatchOptions::default(), &mut both).await
    };
    let summary = Summary::new(table.log(), &report, ["a", "b", "c", "d"].map(String::from).to_vec());
    logs.write_summary(&summary).unwrap();

    let read = |name: &str| std::fs::read_to_string(tmp.path().join(name)).unwrap();
    let log_lines: Vec<String> = read("mjai_log.json").lines().map(String::from).collect();
    let expected: Vec<String> = table.log().iter().map(|e| e.to_json()).collect();
    assert_eq!(log_lines, expected, "one log across the restart, as the engine logged it");
    assert_eq!(log_lines[0], r#"{"type":"start_game","names":["0","1","2","3"],"seed":[7,8]}"#);
    let errors: serde_json::Value = serde_json::from_str(&read("errors.json")).unwrap();
    assert_eq!(errors.as_array().unwrap().len(), 2);
    assert_eq!(errors[0]["player_id"], 1);
    assert!(read("player_logs.1.stdout.txt").lines().filter(|l| *l == bad).count() == 2);
    let s: serde_json::Value = serde_json::from_str(&read("summary.json")).unwrap();
    assert_eq!(s["kyoku_count"], 2);
    assert_eq!(s["rank"], serde_json::json!([1, 4, 2, 3]));
    assert_eq!(s["chombos"], serde_json::json!([0, 2, 0, 0]));
    assert_eq!(s["restarts"], 1);
    assert_eq!(s["kyoku"][0]["end_kyoku_scores"], serde_json::json!([29000, 17000, 27000, 27000]));
    assert_eq!(s["kyoku"][0]["error_info"][0]["player_id"], 1);
    let progress = String::from_utf8(progress.into_inner()).unwrap();
    assert!(progress.contains("E1-0") && progress.contains("chombo"), "{progress}");
    assert!(progress.contains("restarting all the bots"), "{progress}");
}

/// `n` seconds and `ms` milliseconds.
fn secs(n: u64, ms: u64) -> Duration {
    Duration::from_secs(n) + Duration::from_millis(ms)
}

/// The timeouts match within the timer's millisecond rounding (paused time).
fn assert_timeouts(got: &[Duration], want: &[Duration]) {
    let close =
        got.len() == want.len() && got.iter().zip(want).all(|(g, w)| g.abs_diff(*w) <= Duration::from_millis(5));
    assert!(close, "timeouts {got:?}, expected {want:?}");
}

fn riichi_dev() -> MatchOptions {
    MatchOptions { clock: Clock::riichi_dev(), ..MatchOptions::default() }
}

const DEFAULT_DAHAI: &str = r#"{"type":"dahai","actor":0,"pai":"9s","tsumogiri":true}"#;

/// The seat-0 dealer of hand 1 never answers its second decision (a plain decision, not the
/// hand's start line): under riichi.dev's clock the default is played for it, the bank is 0
/// for the rest of the hand, and nobody pays; under mjai.app's it is a chombo, as ever.
#[tokio::test(start_paused = true)]
async fn under_riichi_dev_a_decision_never_answered_plays_the_default_without_penalty() {
    let tmp = tempfile::tempdir().unwrap();
    let mut table = ScriptTable::with_rounds(2, 2);
    let launcher = ScriptLauncher::new([Delays(vec![Duration::ZERO, Duration::MAX]), T, T, T]);
    let mut logs = LogDir::create(tmp.path()).unwrap();
    let report = play(&mut table, &launcher, riichi_dev(), &mut logs).await;
    let summary = Summary::new(table.log(), &report, ["a", "b", "c", "d"].map(String::from).to_vec());
    logs.write_summary(&summary).unwrap();

    assert_eq!(report.ending, MatchEnding::Completed);
    assert_eq!((report.chombos, report.restarts, report.defaulted), ([0; 4], 0, [1, 0, 0, 0]));
    assert_eq!(report.scores, [27000, 27000, 23000, 23000], "two clean hands: no penalty");
    assert_eq!(launcher.record.lock().unwrap().launches, [1; 4], "no restart");
    let e = &report.errors[..];
    assert_eq!(e.len(), 1, "{e:?}");
    assert_eq!((e[0].error_type.as_str(), e[0].player_id, e[0].kyoku.as_deref()), ("defaulted", 0, Some("E1-0")));
    assert_eq!(
        e[0].exception,
        format!("no answer within 3.0 s + 15.0 s bank; the default {DEFAULT_DAHAI} was played (riichi-dev clock, no penalty)")
    );
    // the default was applied: the dealer discarded twice in hand 1
    let first_hand_end = table.log().iter().position(|e| matches!(e, Event::EndKyoku)).unwrap();
    let discards = table.log()[..first_hand_end].iter().filter(|e| matches!(e, Event::Dahai { actor: 0, .. })).count();
    assert_eq!(discards, 2);
    // start line 20 s; the decision 3 s + the whole bank; then the hand's end line with the
    // bank at 0 (3 s)
    assert_timeouts(&launcher.decision_timeouts(0), &[secs(20, 0), secs(18, 0)]);
    {
        let r = launcher.record.lock().unwrap();
        let end_line = r.lines.iter().position(|l| l.1 == 0 && l.2.ends_with(r#"{"type":"end_kyoku"}]"#)).unwrap();
        assert_eq!(r.timeouts[end_line], secs(3, 0), "the bank stays at 0 for the rest of the hand");
    }

    let read = |name: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(tmp.path().join(name)).unwrap()).unwrap()
    };
    let errors = read("errors.json");
    assert_eq!(errors.as_array().unwrap().len(), 1);
    assert_eq!(errors[0]["error_type"], "defaulted");
    assert_eq!(errors[0]["player_id"], 0);
    let s = read("summary.json");
    assert_eq!(s["defaulted"], serde_json::json!([1, 0, 0, 0]));
    assert_eq!(s["chombos"], serde_json::json!([0, 0, 0, 0]));

    // the same bot under mjai.app's clock: a chombo and a restart
    let mut table = ScriptTable::with_rounds(2, 2);
    let launcher = ScriptLauncher::new([Delays(vec![Duration::ZERO, Duration::MAX]), T, T, T]);
    let report = play(&mut table, &launcher, MatchOptions::default(), &mut Silent).await;
    assert_eq!((report.chombos, report.restarts, report.defaulted), ([1, 0, 0, 0], 1, [0; 4]));
    assert_eq!(report.scores, [12000, 32000, 28000, 28000]);
    assert_eq!(report.errors.len(), 1);
    assert_eq!(
        (report.errors[0].error_type.as_str(), report.errors[0].exception.as_str()),
        ("timeout", "no answer within 2.0 s")
    );
    assert_eq!(launcher.record.lock().unwrap().launches, [2; 4]);
}

/// riichi.dev's bank from both sides of its limit: an answer just under decision + bank is
/// taken and spends the bank; just over is defaulted; the bank is full again at the seat's
/// next hand and 0 after a default until then.
#[tokio::test(start_paused = true)]
async fn the_riichi_dev_bank_is_spent_refilled_each_hand_and_emptied_by_a_default() {
    // seat 0: dealer of hand 1 (three discards), caller in hand 3 (three claims)
    let mut table = ScriptTable::with_rounds(3, 3);
    let delays = vec![Duration::ZERO, secs(17, 900), secs(3, 200), Duration::ZERO, secs(18, 100), Duration::ZERO];
    let launcher = ScriptLauncher::new([Delays(delays), T, T, T]);
    let report = play(&mut table, &launcher, riichi_dev(), &mut Silent).await;

    assert_eq!(report.ending, MatchEnding::Completed);
    assert_eq!((report.chombos, report.restarts, report.defaulted), ([0; 4], 0, [2, 0, 0, 0]));
    assert_eq!(report.scores, [26000, 26000, 26000, 22000]);
    assert_timeouts(
        &launcher.decision_timeouts(0),
        &[
            secs(20, 0),  // hand 1's start line
            secs(18, 0),  // 3 s + the whole bank: 17.9 s taken, 14.9 s of bank spent
            secs(3, 100), // 3 s + 0.1 s left: 3.2 s is late, the default is played
            secs(20, 0),  // hand 3's start line
            secs(18, 0),  // the bank full again: 18.1 s is late
            secs(3, 0),   // 0 after the default, for the rest of the hand
        ],
    );
    let messages: Vec<(&str, &str, &str)> = report
        .errors
        .iter()
        .map(|e| (e.error_type.as_str(), e.kyoku.as_deref().unwrap_or(""), e.exception.as_str()))
        .collect();
    assert_eq!(
        messages,
        [
            (
                "defaulted",
                "E1-0",
                &*format!("no answer within 3.0 s + 0.1 s bank; the default {DEFAULT_DAHAI} was played (riichi-dev clock, no penalty)")
            ),
            (
                "defaulted",
                "E3-0",
                r#"no answer within 3.0 s + 15.0 s bank; the default {"type":"none"} was played (riichi-dev clock, no penalty)"#
            ),
        ]
    );
}

/// A seat whose launcher names its own clock plays under it; the others keep the match's.
#[tokio::test(start_paused = true)]
async fn a_seat_with_its_own_clock_plays_under_it() {
    let mut table = ScriptTable::with_rounds(1, 2);
    let hang_second = || Delays(vec![Duration::ZERO, Duration::MAX]);
    let mut launcher = ScriptLauncher::new([hang_second(), hang_second(), T, T]);
    launcher.clocks[0] = Some(Clock::riichi_dev());
    let report = play(&mut table, &launcher, MatchOptions::default(), &mut Silent).await;
    assert_eq!(report.defaulted, [1, 0, 0, 0], "seat 0: riichi.dev's clock");
    assert_eq!(report.chombos, [0, 1, 0, 0], "seat 1: the match's, mjai.app's");
    let kinds: Vec<(&str, u8)> = report.errors.iter().map(|e| (e.error_type.as_str(), e.player_id)).collect();
    assert_eq!(kinds, [("defaulted", 0), ("timeout", 1)]);
    assert_timeouts(&launcher.decision_timeouts(0), &[secs(20, 0), secs(18, 0)]);
    assert_timeouts(&launcher.decision_timeouts(1), &[secs(20, 0), secs(2, 0)]);
}
