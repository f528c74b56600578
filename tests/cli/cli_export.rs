//! `mjai-sim export` and `verify` end to end: the built binary on logs written to a scratch
//! folder under `target/`.

use std::path::PathBuf;
use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mjai-sim")).args(args).output().expect("run mjai-sim")
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli_export").join(name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A short hand-made game: E1 where the dealer draws and wins by tsumo at once (tenhou).
const GAME: &str = r#"{"type":"start_game","names":["a","b","c","d"],"seed":[1,2]}
{"type":"start_kyoku","bakaze":"E","dora_marker":"9s","kyoku":1,"honba":0,"kyotaku":0,"oya":0,"scores":[25000,25000,25000,25000],"tehais":[["1m","2m","3m","4p","5p","6p","7s","8s","9s","E","E","E","P"],["1m","2m","3m","4p","5p","6p","7s","8s","9s","S","S","S","F"],["1m","2m","3m","4p","5p","6p","7s","8s","9s","W","W","W","C"],["4m","5m","6m","7p","8p","9p","1s","2s","3s","N","N","N","F"]]}
{"type":"tsumo","actor":0,"pai":"P"}
{"type":"hora","actor":0,"target":0,"deltas":[48000,-16000,-16000,-16000],"ura_markers":[]}
{"type":"end_kyoku"}
"#;

#[test]
fn export_writes_tenhou6_and_prints_urls() {
    let dir = scratch("tenhou");
    let log = dir.join("mjai_log.json");
    std::fs::write(&log, GAME).unwrap();
    let out_file = dir.join("game.json");
    let out = run(&["export", log.to_str().unwrap(), "--format", "tenhou6", "-o", out_file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&out_file).unwrap()).unwrap();
    assert_eq!(v["name"], serde_json::json!(["a", "b", "c", "d"]));
    // Tenhou (dealer, first draw): 役満 16000 from each, written as a dealer tsumo.
    assert_eq!(
        v["log"][0][16],
        serde_json::json!(["和了", [48000, -16000, -16000, -16000], [0, 0, 0, "役満16000点∀", "天和(役満)"]])
    );
    assert_eq!(v["log"][0][5], serde_json::json!([45]));
    let out = run(&["export", log.to_str().unwrap(), "--urls"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 1);
    assert!(text.starts_with("https://tenhou.net/6/#json={\"title\""), "{text}");
}

#[test]
fn verify_reports_a_partial_game() {
    let dir = scratch("partial");
    let log = dir.join("mjai_log.json");
    std::fs::write(&log, GAME).unwrap();
    let out = run(&["verify", log.to_str().unwrap()]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}");
    assert!(text.trim_end().ends_with("1 kyoku verified, partial game"), "{text}");
    assert!(text.contains("ok under --rules tenhou"), "{text}");
}

#[test]
fn a_file_that_is_not_a_log_gets_one_line() {
    let dir = scratch("bad");
    let log = dir.join("notes.txt");
    std::fs::write(&log, "hello\n").unwrap();
    let out = run(&["export", log.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("is not an mjai log"), "{err}");
}

#[test]
fn a_three_player_log_exports_in_tenhous_three_player_form() {
    use mjai_sim::engine::event::Event;
    let (seed, log) = crate::sanma_support::game_with_kita();
    let dir = scratch("sanma");
    let path = dir.join("mjai_log.json");
    std::fs::write(&path, crate::sanma_support::text(&log)).unwrap();
    let out = run(&["export", path.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // Tenhou's three-player form (src/export/tenhou6/sanma.rs): four places, the fourth empty.
    assert_eq!(v["name"], serde_json::json!(["alice", "bob", "carol", ""]));
    assert_eq!(v["rule"]["disp"], "三般南喰赤");
    let sc = v["sc"].as_array().unwrap();
    assert_eq!((sc.len(), &sc[6], &sc[7]), (8, &serde_json::json!(0), &serde_json::json!(0)), "{sc:?}");
    let points: i64 = (0..3).map(|s| sc[2 * s].as_i64().unwrap()).sum();
    let results: f64 = (0..3).map(|s| sc[2 * s + 1].as_f64().unwrap()).sum();
    assert_eq!(points, 105000, "seed {seed}: {sc:?}");
    assert!(results.abs() < 0.15, "results from 40000 with uma and oka sum to 0: {sc:?}");
    let kyokus = v["log"].as_array().unwrap();
    assert_eq!(kyokus.len(), log.iter().filter(|e| matches!(e, Event::StartKyoku { .. })).count());
    let mut f44 = [0usize; 3];
    for k in kyokus {
        let k = k.as_array().unwrap();
        assert_eq!((k[1].as_array().unwrap().len(), &k[1][3]), (4, &serde_json::json!(0)), "start scores");
        assert_eq!(&k[13..16], &[serde_json::json!([]), serde_json::json!([]), serde_json::json!([])], "seat 3");
        for s in 0..3 {
            assert_eq!(k[4 + 3 * s].as_array().unwrap().len(), 13, "haipai of seat {s}");
            f44[s] += k[6 + 3 * s].as_array().unwrap().iter().filter(|d| *d == "f44").count();
        }
        let result = k[16].as_array().unwrap();
        if result[0] == "和了" {
            for pair in result[1..].chunks(2) {
                assert_eq!((pair[0].as_array().unwrap().len(), &pair[0][3]), (4, &serde_json::json!(0)), "deltas");
                // Nukidora is in ドラ, as Tenhou writes it: no yaku string of its own.
                assert!(pair[1].as_array().unwrap().iter().all(|y| !y.to_string().contains("nukidora")), "{pair:?}");
            }
        }
    }
    // Every kita is an "f44" in its seat's discards, where Tenhou writes it.
    let kitas: Vec<usize> = (0..3u8)
        .map(|s| log.iter().filter(|e| matches!(e, Event::Kita { actor, .. } if *actor == s)).count())
        .collect();
    assert_eq!(f44.to_vec(), kitas, "seed {seed}");
    assert!(kitas.iter().sum::<usize>() > 0);
    // The exporter scores each win as the log pays it (tsumo-son, 100 per honba per payer).
    assert!(!err.contains("the engine scores"), "{err}");
}

#[test]
fn the_three_player_first_hand_round_trips_its_win_in_tenhou_terms() {
    use mjai_sim::engine::event::Event;
    // A short log: the first hand of a three-player game that ends in a win.
    let full = (0..50).map(crate::sanma_support::game).find(|log| {
        let end = log.iter().position(|e| matches!(e, Event::EndKyoku)).unwrap();
        log[..end].iter().any(|e| matches!(e, Event::Hora { .. }))
    });
    let log = crate::sanma_support::first_kyoku(&full.expect("a game whose first hand is won"));
    let dir = scratch("sanma-first");
    let path = dir.join("mjai_log.json");
    std::fs::write(&path, crate::sanma_support::text(&log)).unwrap();
    let out = run(&["export", path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let k = &v["log"][0];
    assert_eq!(k[0], serde_json::json!([0, 0, 0]), "East 1, no honba or sticks");
    assert_eq!(k[1], serde_json::json!([35000, 35000, 35000, 0]));
    let Some(Event::Hora { actor, target, deltas: Some(d), .. }) = log.iter().find(|e| matches!(e, Event::Hora { .. }))
    else {
        unreachable!()
    };
    assert_eq!(k[16][0], "和了");
    assert_eq!(k[16][1], serde_json::json!(d), "the log's deltas, four entries");
    assert_eq!((&k[16][2][0], &k[16][2][1]), (&serde_json::json!(actor), &serde_json::json!(target)));
    let point = k[16][2][3].as_str().unwrap();
    assert!(point.ends_with('点') || point.ends_with('∀'), "{point}");
}

#[test]
fn a_riichi_dev_3p_tsumo_on_a_kita_replacement_is_exported_with_rinshan_and_a_note() {
    use mjai_sim::engine::event::Event;
    // riichi-dev-3p (RiichiEnv) pays rinshan kaihou on a kita's replacement tile; Tenhou
    // does not: the export shows the hand as the log paid it and says so. Seed 38 of the
    // support games has one such win (S1-1, seat 2, no yaku but rinshan kaihou).
    let log = crate::sanma_support::game(38);
    let dir = scratch("sanma-kita-rinshan");
    let path = dir.join("mjai_log.json");
    std::fs::write(&path, crate::sanma_support::text(&log)).unwrap();
    let out = run(&["export", path.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let note = "hora by seat 2: a tsumo on a kita's replacement tile, paid with rinshan kaihou (riichi-dev-3p";
    assert_eq!(err.matches(note).count(), 1, "{err}");
    assert!(!err.contains("cannot score") && !err.contains("the engine scores"), "{err}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let win = v["log"].as_array().unwrap().iter().find(|k| k[0] == serde_json::json!([4, 1, 0])).expect("S1-1");
    assert_eq!(win[16][2][0], 2);
    assert!(win[16][2].as_array().unwrap().contains(&serde_json::json!("嶺上開花(1飜)")), "{}", win[16]);
    let kitas = log.iter().filter(|e| matches!(e, Event::Kita { actor: 2, .. })).count();
    assert!(kitas > 0);
}
