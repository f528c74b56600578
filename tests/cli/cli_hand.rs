//! `mjai-sim hand` end to end: the built binary, its text and JSON output, its exit codes.

use std::process::{Command, Output};

fn hand(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mjai-sim")).arg("hand").args(args).output().expect("run mjai-sim")
}

#[test]
fn json_reports_yaku_fu_and_payment() {
    // riichi + tsumo + pinfu + tanyao, dora indicator 4p with no 5p held: 4 han 20 fu,
    // base 1280: non-dealer tsumo 1300/2600.
    let out = hand(&["234567m234p55s78s+6s", "--tsumo", "--riichi", "--dora", "4p", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["han"], 4);
    assert_eq!(v["fu"], 20);
    assert_eq!(v["payment"]["tsumo_oya"], 2600);
    assert_eq!(v["payment"]["tsumo_ko"], 1300);
    assert_eq!(v["received"], 5200);
    let names: Vec<&str> = v["yaku"].as_array().unwrap().iter().map(|y| y["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["riichi", "menzen tsumo", "pinfu", "tanyao"]);
}

#[test]
fn text_output_with_melds_honba_and_kyotaku() {
    // Open tanyao 1 han 30 fu ron = 1000, + 2 honba (600) + 1 kyotaku (1000).
    let out = hand(&["567p345s6678s+6s", "--meld", "chi:234m", "--honba", "2", "--kyotaku", "1"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success());
    assert!(text.contains("tanyao"), "{text}");
    assert!(text.contains("total: 1 han 30 fu"), "{text}");
    assert!(text.contains("discarder pays 1600"), "{text}");
    assert!(text.contains("winner receives 2600"), "{text}");
}

#[test]
fn dora_in_mjai_names() {
    // Indicators 4p and E in mjai names: dora 5p (red, counts as dora and aka) and S (none).
    // riichi 1 + pinfu 1 + dora 1 + aka 1 = 4 han 30 fu ron: 7700 (Tenhou: no kiriage).
    let out = hand(&["23499m067p23456s+1s", "--riichi", "--dora", "4p,E", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((v["han"].as_u64(), v["payment"]["ron"].as_u64()), (Some(4), Some(7700)));
}

#[test]
fn bad_hands_exit_non_zero_with_one_line() {
    for (args, want) in [
        (vec!["23499m567p234567s+1s"], "14 concealed tiles"),
        (vec!["11111m567p23456s+1s"], "5 copies of 1m"),
        (vec!["567p345s6678s+6s", "--meld", "pon:111m"], "no yaku"),
        (vec!["23499m567p23456s"], "no '+'"),
        (vec!["567p345s6678s+6s", "--meld", "chii:234m"], "not chi, pon"),
        (vec!["23499m567p23456s+1s", "--dora", "4p,X"], "'X' is not an mjai tile"),
    ] {
        let out = hand(&args);
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
}
