//! A small Docker tournament of example bots, end to end: fresh bots per game and with
//! `--keep-bots`; every game completes, every game's log replays with `mjai-sim verify`; ranks and scores add up.
//! Needs a running Docker Engine and the bot image (`mjai-sim image build`).

use crate::e2e_support::mjai_sim;
use std::path::Path;

fn example(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples").join(name).display().to_string()
}

fn play(dir: &Path, bots: &[String], extra: &[&str]) {
    let _alone = crate::e2e_support::docker_exclusive(); // tournament_signals counts every container
    let out = mjai_sim()
        .arg("tournament")
        .args(bots)
        .args(["--sets", "2", "--seed", "31", "--jobs", "4", "--dir", dir.to_str().unwrap()])
        .args(extra)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

fn check_games(dir: &Path) {
    for g in 0..8 {
        let game = dir.join(format!("games/{g:06}"));
        let verify = mjai_sim().arg("verify").arg(game.join("mjai_log.json")).output().unwrap();
        assert!(verify.status.success(), "game {g}: {}", String::from_utf8_lossy(&verify.stderr));
        let s: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(game.join("summary.json")).unwrap()).unwrap();
        assert_eq!(s["completed"], true, "game {g}");
        let mut ranks: Vec<u64> = s["rank"].as_array().unwrap().iter().map(|r| r.as_u64().unwrap()).collect();
        ranks.sort();
        assert_eq!(ranks, [1, 2, 3, 4], "game {g}");
        let total: i64 = s["scores"].as_array().unwrap().iter().map(|x| x.as_i64().unwrap()).sum();
        assert!(total <= 100_000 && total % 1000 == 0, "game {g}: scores {}", s["scores"]);
    }
    let st: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("standings.json")).unwrap()).unwrap();
    let bots = st["bots"].as_array().unwrap();
    assert!(bots.iter().all(|b| b["games"] == 8), "{st}");
    let mean_rank: f64 = bots.iter().map(|b| b["avg_rank"].as_f64().unwrap()).sum::<f64>() / 4.0;
    assert!((mean_rank - 2.5).abs() < 1e-9, "average ranks add up to 10");
}

/// With bots that decide deterministically (tsumogiri and shanten; the mjai SDK bot is not:
/// two fresh runs differ at its discards, and it plays in tests/arena's Docker games),
/// `--keep-bots` changes nothing in the games: every game's log equals the fresh run's byte
/// for byte (the games of set 1 get the bots that ended set 0's games in the same seat, each
/// game beginning with `start_game`); both runs' games complete, replay with `mjai-sim
/// verify` and add up.
#[test]
fn example_bots_fresh_and_kept_play_the_same_complete_games() {
    let tmp = tempfile::tempdir().unwrap();
    let bots = [
        example("tsumogiri"),
        example("shanten"),
        format!("t2={}", example("tsumogiri")),
        format!("s2={}", example("shanten")),
    ];
    let (fresh, kept) = (tmp.path().join("fresh"), tmp.path().join("kept"));
    // A generous timeout: on a loaded machine (other tests play at the same time) the
    // Python shanten bot can pass 2 s, and a timeout chombo in one run only is load, not
    // a difference between kept and fresh bots.
    play(&fresh, &bots, &["--timeout", "30"]);
    play(&kept, &bots, &["--keep-bots", "--timeout", "30"]);
    check_games(&fresh);
    check_games(&kept);
    for g in 0..8 {
        let log = |dir: &Path| std::fs::read(dir.join(format!("games/{g:06}/mjai_log.json"))).unwrap();
        let (a, b) = (log(&fresh), log(&kept));
        if a != b {
            let (a, b) = (String::from_utf8_lossy(&a), String::from_utf8_lossy(&b));
            let first = a.lines().zip(b.lines()).position(|(x, y)| x != y).unwrap_or(0);
            let line = |t: &str| t.lines().nth(first).unwrap_or("").to_string();
            panic!("game {g}: the kept bots played differently from line {first}:\n{}\n{}", line(&a), line(&b));
        }
    }
}

/// A three-player Docker tournament (`--rules riichi-dev-3p`): three example bots in three
/// containers a game, two duplicate sets of three games; each game completes without an
/// error, replays with `verify --rules riichi-dev-3p`, ranks 1-3, and each bot plays every
/// seat once a set.
#[test]
fn three_example_bots_play_a_three_player_duplicate_set_in_docker() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("sanma");
    let bots = [example("tsumogiri"), example("shanten"), format!("t2={}", example("tsumogiri"))];
    play(&dir, &bots, &["--rules", "riichi-dev-3p"]);
    let mut seats_of_shanten = Vec::new();
    for g in 0..6 {
        let game = dir.join(format!("games/{g:06}"));
        let log = game.join("mjai_log.json");
        let verify = mjai_sim().args(["verify", "--rules", "riichi-dev-3p"]).arg(&log).output().unwrap();
        assert!(verify.status.success(), "game {g}: {}", String::from_utf8_lossy(&verify.stderr));
        let s: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(game.join("summary.json")).unwrap()).unwrap();
        assert_eq!(s["completed"], true, "game {g}");
        let errors: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(game.join("errors.json")).unwrap()).unwrap();
        assert_eq!(errors, serde_json::json!([]), "game {g}: no chombo");
        let mut ranks: Vec<u64> = s["rank"].as_array().unwrap().iter().map(|r| r.as_u64().unwrap()).collect();
        ranks.sort();
        assert_eq!(ranks, [1, 2, 3], "game {g}");
        let total: i64 = s["scores"].as_array().unwrap().iter().map(|x| x.as_i64().unwrap()).sum();
        assert_eq!(total, 105_000, "game {g}: scores {}", s["scores"]);
        seats_of_shanten.push(s["bots"].as_array().unwrap().iter().position(|b| b == "shanten").unwrap());
    }
    seats_of_shanten.sort();
    assert_eq!(seats_of_shanten, [0, 0, 1, 1, 2, 2], "the shanten bot sits in every seat of each set");
    assert!(!dir.join("games/000006").exists(), "two sets of three games");
}
