//! Three-player (sanma) tournaments as a user runs them: `--rules riichi-dev-3p` with
//! built-in bots, duplicate sets of three rotated seats, one-vs-two, standings of three
//! places, and the refusals that name the fix.

use super::command::{run, standings_but_timing, standings_json, text};
use crate::e2e_support::mjai_sim;
use std::path::Path;

const BOTS: [&str; 4] = ["builtin:rulebase", "builtin:random", "builtin:tsumogiri", "rb2=builtin:rulebase"];

fn summary(dir: &Path, game: usize) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join(format!("games/{game:06}/summary.json"))).unwrap();
    serde_json::from_str(&text).unwrap()
}

#[test]
fn a_three_player_tournament_rotates_three_seats_and_ranks_three_places() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("t");
    let out = mjai_sim()
        .arg("tournament")
        .args(BOTS)
        .args(["--rules", "riichi-dev-3p", "--sets", "4", "--seed", "21,5", "--dir", dir.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = standings_json(&dir);
    assert_eq!((s["games"].as_u64(), s["sets"].as_u64()), (Some(12), Some(4)), "three games per set");
    assert_eq!(s["uma"], serde_json::json!([90.0, 0.0, -90.0]), "the three-player default uma");
    let bots = s["bots"].as_array().unwrap();
    let seats: u64 = bots.iter().map(|b| b["games"].as_u64().unwrap()).sum();
    assert_eq!(seats, 36, "three seats in each of the 12 games");
    for b in bots {
        let counts: Vec<u64> = b["rank_counts"].as_array().unwrap().iter().map(|c| c.as_u64().unwrap()).collect();
        assert_eq!(counts.len(), 3, "{}: ranks 1st to 3rd", b["name"]);
        assert_eq!(counts.iter().sum::<u64>(), b["games"].as_u64().unwrap());
        assert_eq!(b["rank_dist"].as_array().unwrap().len(), 3);
    }
    let md = std::fs::read_to_string(dir.join("standings.md")).unwrap();
    assert!(md.contains("| 1st | 2nd | 3rd | mean score") && !md.contains("4th"), "{md}");
    for set in 0..4usize {
        let tables: Vec<Vec<String>> = (0..3)
            .map(|g| {
                let s = summary(&dir, set * 3 + g);
                let scores: Vec<i64> = s["scores"].as_array().unwrap().iter().map(|x| x.as_i64().unwrap()).collect();
                assert_eq!((scores.len(), scores.iter().sum::<i64>()), (3, 105_000), "game {}", set * 3 + g);
                s["bots"].as_array().unwrap().iter().map(|b| b.as_str().unwrap().to_string()).collect()
            })
            .collect();
        for bot in &tables[0] {
            let mut at: Vec<usize> = tables.iter().map(|t| t.iter().position(|b| b == bot).unwrap()).collect();
            at.sort();
            assert_eq!(at, [0, 1, 2], "set {set}: {bot} sits in every seat once");
        }
    }
    assert!(!dir.join("games/000012").exists(), "12 games, numbered 0 to 11");
    let out = run(&["report", dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let page = std::fs::read_to_string(dir.join("report.html")).unwrap();
    assert_eq!(page.matches("title=\"seat 2, rank").count(), 12, "each game lists its three seats");
    assert!(!page.contains("title=\"seat 3,"), "no fourth seat");
    let log = dir.join("games/000007/mjai_log.json");
    let out = run(&["verify", "--rules", "riichi-dev-3p", log.to_str().unwrap()]);
    assert!(out.status.success(), "{}{}", text(&out.stdout), text(&out.stderr));
}

#[test]
fn three_player_built_in_games_without_folders_give_the_same_standings() {
    let tmp = tempfile::tempdir().unwrap();
    let (logged, fast) = (tmp.path().join("logged"), tmp.path().join("fast"));
    for (dir, extra) in [(&logged, None), (&fast, Some("--no-logs"))] {
        let out = mjai_sim()
            .arg("tournament")
            .args(&BOTS[..3])
            .args(["--rules", "riichi-dev-3p", "--sets", "3", "--seed", "4", "--dir", dir.to_str().unwrap()])
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    assert_eq!(standings_but_timing(&logged), standings_but_timing(&fast));
}

#[test]
fn one_vs_two_plays_the_challenger_in_every_seat_of_three() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("t");
    let d = dir.to_str().unwrap();
    let args = ["builtin:rulebase", "builtin:tsumogiri", "--rules", "riichi-dev-3p", "--sets", "2", "--seed", "9"];
    let out =
        mjai_sim().args(["tournament", "--format", "1v2"]).args(args).args(["--json", "--dir", d]).output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((s["bots"][0]["games"].as_u64(), s["bots"][1]["games"].as_u64()), (Some(6), Some(12)));
    for g in 0..6 {
        let bots = summary(&dir, g)["bots"].clone();
        assert_eq!(bots.as_array().unwrap().len(), 3);
        assert_eq!(bots.as_array().unwrap().iter().position(|b| b == "rulebase"), Some(g % 3), "game {g}");
    }
    // 1v3 under a three-player preset (and 1v2 under a four-player one) names the other
    let out = mjai_sim().args(["tournament", "--format", "1v3"]).args(args).args(["--dir", d]).output().unwrap();
    let e = text(&out.stderr);
    assert!(!out.status.success() && e.contains("--format 1v2"), "{e}");
    let out = run(&["tournament", "--format", "1v2", "builtin:rulebase", "builtin:tsumogiri"]);
    let e = text(&out.stderr);
    assert!(!out.status.success() && e.contains("--format 1v3"), "{e}");
}

#[test]
fn too_few_bots_or_a_four_number_uma_under_a_three_player_preset_is_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path().join("t");
    let d = d.to_str().unwrap();
    let out = run(&["tournament", "--rules", "riichi-dev-3p", "builtin:random", "builtin:random", "--dir", d]);
    let e = text(&out.stderr);
    assert!(
        !out.status.success() && e.contains("at least 3 needed under the three-player preset riichi-dev-3p"),
        "{e}"
    );
    let three = ["builtin:random", "builtin:random", "builtin:random"];
    let out = mjai_sim()
        .args(["tournament", "--rules", "riichi-dev-3p", "--uma", "90,45,0,-135", "--dir", d])
        .args(three)
        .output()
        .unwrap();
    let e = text(&out.stderr);
    assert!(!out.status.success() && e.contains("uma: 4 values") && e.contains("90,0,-90"), "{e}");
    // just under: three bots and three numbers play
    let out = mjai_sim()
        .args(["tournament", "--rules", "riichi-dev-3p", "--uma", "60,0,-60", "--no-logs", "--dir", d])
        .args(three)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(standings_json(Path::new(d))["uma"], serde_json::json!([60.0, 0.0, -60.0]));
}
