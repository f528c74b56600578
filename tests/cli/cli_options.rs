//! Numeric options are parsed once into bounded types: a value out of range is one usage
//! error and exit 1, never a panic (`check --start-timeout 1e300` used to panic in
//! `Duration::from_secs_f64`).

use std::process::Command;

use crate::e2e_support::bin;

fn run(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(bin()).args(args).output().unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn out_of_range_numbers_are_usage_errors_not_panics() {
    let b = "builtin:tsumogiri";
    for (args, want) in [
        (vec!["check", "--start-timeout", "1e300", b], "out of range"),
        (vec!["check", "--start-timeout", "NaN", b], "out of range"),
        (vec!["--timeout", "0", b, b, b, b], "out of range"),
        (vec!["--timeout", "inf", b, b, b, b], "out of range"),
        (vec!["--time-bank=-1", b, b, b, b], "out of range"),
        (vec!["--clock", "tenhou", b, b, b, b], "invalid value"),
        (vec!["--max-submission-mb", "99999999999999999", b, b, b, b], "out of range"),
        (vec!["--memory", "5m", b, b, b, b], "out of range"),
        (vec!["--cpus", "1e300", b, b, b, b], "out of range"),
        (vec!["check", "--pids", "3", b], "out of range"),
        (vec!["check", "--gpus", "0,,1", b], "GPU ids"),
    ] {
        let (code, stderr) = run(&args);
        assert_eq!(code, Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains(want), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

/// `tournament` and `serve` share one set of game limits and `--matching`: the same
/// values are refused the same way by both; rating-aware matching needs a league.
#[test]
fn tournament_and_serve_share_game_limits_and_matching() {
    let b = "builtin:tsumogiri";
    for cmd in ["tournament", "serve"] {
        for (flag, value, want) in [
            ("--timeout", "0", "out of range"),
            ("--start-timeout", "inf", "out of range"),
            ("--game-timeout", "1e300", "out of range"),
            ("--max-restarts", "x", "invalid value"),
            ("--clock", "fast", "invalid value"),
            ("--time-bank", "inf", "out of range"),
            ("--matching", "elo", "invalid value"),
        ] {
            let args = vec![cmd, flag, value, b, b, b, b];
            let (code, stderr) = run(&args);
            assert_eq!(code, Some(1), "{args:?}: {stderr}");
            assert!(stderr.contains(want) && stderr.contains(flag), "{args:?}: {stderr}");
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().join("t");
    let (code, stderr) =
        run(&["tournament", "--matching", "rating", "--sets", "2", "--dir", d.to_str().unwrap(), b, b, b, b]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("--matching rating needs --sets 0"), "{stderr}");
    assert!(!d.join("tournament.sqlite").exists(), "nothing created");
}

#[test]
fn help_names_every_kind_of_seat() {
    let out = Command::new(bin()).arg("--help").output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let help = String::from_utf8_lossy(&out.stdout);
    for kind in [".zip", "folder holding bot.py", "builtin:NAME", "remote:NAME", "riichilab:NAME"] {
        assert!(help.contains(kind), "--help does not name {kind}: {help}");
    }
    // a wrong count of bots names them too
    let (code, err) = run(&["--rules", "riichi-dev-3p", "builtin:tsumogiri"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("remote:NAME or riichilab:NAME"), "{err}");
}
