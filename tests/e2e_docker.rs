//! End-to-end: real games in real Docker containers, through the `mjai-sim` binary, with
//! the example bots. Fail (never skip) when Docker is unreachable.

mod e2e_support;

use e2e_support::{chombo_deltas, chombos, play, repo, require_docker, require_image, Run};

fn setup() {
    require_docker();
    require_image();
}

/// Every chombo in the log is `seat`'s, with a lone offender's mangan deltas; returns
/// how many there were.
fn assert_chombos_are(run: &Run, seat: u64) -> usize {
    let found = chombos(&run.log());
    for (oya, e) in &found {
        assert_eq!(e["actor"], seat, "{e}");
        let deltas: Vec<i64> = e["deltas"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect();
        assert_eq!(deltas, chombo_deltas(seat, *oya), "{e}");
    }
    let s = run.summary();
    assert_eq!(s["chombos"][seat as usize].as_u64().unwrap() as usize, found.len());
    found.len()
}

/// The seat's errors are all of `kinds`, and there is at least one.
fn assert_errors_of(run: &Run, seat: u64, kinds: &[&str]) {
    let errors = run.errors();
    assert!(!errors.is_empty(), "expected errors for seat {seat}\n{}", run.stderr());
    for e in &errors {
        assert_eq!(e["player_id"], seat, "{e}");
        assert!(kinds.contains(&e["error_type"].as_str().unwrap()), "{e}");
    }
}

#[test]
fn four_example_bots_play_a_full_hanchan() {
    setup();
    let run = play(
        [&repo("examples/tsumogiri"), &repo("examples/shanten"), &repo("examples/mjaibot"), &repo("examples/tsumogiri")],
        &["--seed", "1"],
    );
    run.assert_complete_and_verified();
    assert_eq!(run.errors(), Vec::<serde_json::Value>::new(), "{}", run.stderr());
    let s = run.summary();
    assert_eq!(s["restarts"], 0);
    assert!(s["kyoku_count"].as_u64().unwrap() >= 8, "a hanchan has at least 8 hands: {s}");
    for seat in 0..4 {
        assert!(s["decision_times"][seat]["count"].as_u64().unwrap() > 0, "seat {seat} decided nothing");
    }
    // Each seat's answers are logged.
    assert!(!run.read("player_logs.1.stdout.txt").is_empty());
}

#[test]
fn an_invalid_bot_pays_chombo_and_the_game_completes_after_restart() {
    setup();
    let t = repo("examples/tsumogiri");
    let run = play([&t, &t, &repo("examples/invalid"), &t], &["--seed", "2"]);
    run.assert_complete_and_verified();
    assert_errors_of(&run, 2, &["invalid"]);
    assert!(assert_chombos_are(&run, 2) >= 1);
    assert!(run.summary()["restarts"].as_u64().unwrap() >= 1);
    assert!(run.errors()[0]["line"].is_string(), "the offending answer is kept");
}

#[test]
fn a_slow_bot_times_out_and_pays() {
    setup();
    let t = repo("examples/tsumogiri");
    let run = play([&t, &repo("examples/timeout"), &t, &t], &["--seed", "3", "--timeout", "0.5", "--start-timeout", "5"]);
    run.assert_complete_and_verified();
    assert_errors_of(&run, 1, &["timeout"]);
    assert!(assert_chombos_are(&run, 1) >= 1);
}

#[test]
fn a_crashing_bot_pays_and_is_restarted() {
    setup();
    let t = repo("examples/tsumogiri");
    let run = play([&t, &t, &t, &repo("examples/crash")], &["--seed", "4"]);
    run.assert_complete_and_verified();
    assert_errors_of(&run, 3, &["crashed", "closed", "runtime"]);
    assert!(assert_chombos_are(&run, 3) >= 1);
    assert!(run.summary()["restarts"].as_u64().unwrap() >= 1);
}

#[test]
fn the_http_transport_plays_a_full_hanchan() {
    setup();
    let t = repo("examples/tsumogiri");
    let run = play([&t, &t, &t, &t], &["--seed", "5", "--transport", "http"]);
    run.assert_complete_and_verified();
    assert_eq!(run.errors(), Vec::<serde_json::Value>::new());
}
