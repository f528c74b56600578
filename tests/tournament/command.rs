//! `mjai-sim tournament` and `mjai-sim standings` as a user runs them: the real binary, a
//! real SQLite database, built-in bots (fast) or example bots as local processes.

use crate::e2e_support::mjai_sim;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

pub(super) fn run(args: &[&str]) -> Output {
    mjai_sim().args(args).output().expect("run mjai-sim")
}

pub(super) fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

pub(super) fn standings_json(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("standings.json")).unwrap()).unwrap()
}

/// `standings.json` without the decision-time fields: wall-clock times differ from run to
/// run (and the in-process fast path measures none), everything else must not.
pub(super) fn standings_but_timing(dir: &Path) -> serde_json::Value {
    let mut s = standings_json(dir);
    for bot in s["bots"].as_array_mut().unwrap() {
        let bot = bot.as_object_mut().unwrap();
        for field in ["decision_median_ms", "decision_p99_ms", "decisions"] {
            assert!(bot.remove(field).is_some(), "standings.json has {field}");
        }
    }
    s
}

/// Games done as `mjai-sim standings DIR` reports them (`N of M games done`).
fn games_done(dir: &Path) -> Option<(u64, u64)> {
    let out = run(&["standings", dir.to_str()?]);
    let err = text(&out.stderr);
    let rest = err.split(": ").nth(2)?;
    let mut words = rest.split_whitespace();
    let done = words.next()?.parse().ok()?;
    let total = words.nth(1)?.parse().ok()?;
    Some((done, total))
}

/// Games whose `summary.json` is written (a cheap look at the folder, no process started).
fn finished_games(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir.join("games")) else { return 0 };
    entries.filter_map(Result::ok).filter(|e| e.path().join("summary.json").exists()).count()
}

fn example(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples").join(name).display().to_string()
}

const BOTS: [&str; 5] =
    ["builtin:rulebase", "builtin:random", "tsumo=builtin:tsumogiri", "builtin:rulebase", "builtin:tsumogiri"];

#[test]
fn kill_9_then_resume_gives_the_standings_of_an_uninterrupted_run() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let common = |dir: &PathBuf| {
        let mut args: Vec<String> = BOTS.iter().map(|s| s.to_string()).collect();
        args.extend(["--sets", "250", "--seed", "77,3", "--jobs", "2", "--dir"].map(String::from));
        args.push(dir.display().to_string());
        args
    };
    let mut whole = vec!["tournament".to_string()];
    whole.extend(common(&a));
    let out = mjai_sim().args(&whole).output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));

    let mut child = mjai_sim().args(&whole[..1]).args(common(&b)).stderr(Stdio::null()).spawn().unwrap();
    // Wait until 8 games have finished (their summary.json is written), then kill -9 mid-run.
    // Polled with a cheap file check: asking `mjai-sim standings` each time (a debug build
    // computing bootstrap standings) was slow enough that on an idle machine the whole run
    // could finish between two looks.
    while finished_games(&b) < 8 {
        assert!(child.try_wait().unwrap().is_none(), "the run ended before it could be killed");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let (done, total) = games_done(&b).unwrap();
    assert!(done < total, "killed mid-run: {done} of {total}");
    assert!(!b.join("standings.json").exists(), "the killed run wrote no standings");

    let out = run(&["tournament", "--resume", b.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(games_done(&b), Some((1000, 1000)));
    assert_eq!(
        standings_but_timing(&a),
        standings_but_timing(&b),
        "resumed standings differ from the uninterrupted run's"
    );
    let s = standings_json(&b);
    let games: u64 = s["bots"].as_array().unwrap().iter().map(|b| b["games"].as_u64().unwrap()).sum();
    assert_eq!(games, 1000 * 4, "every game counted once, four seats each");
    assert_eq!(s["bots"][2]["name"], "tsumo");
    // the markdown table names every bot
    let md = std::fs::read_to_string(b.join("standings.md")).unwrap();
    assert!(["rulebase", "random", "tsumo", "rulebase#2", "tsumogiri"].iter().all(|n| md.contains(n)), "{md}");
    // each game's folder is there, with its log and summary
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(b.join("games/000399/summary.json")).unwrap()).unwrap();
    assert_eq!(summary["completed"], true);
}

#[test]
fn a_crashing_bot_keeps_paying_chombos_and_its_games_complete() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("t");
    let crash = example("crash");
    let out = run(&[
        "tournament",
        &crash,
        "builtin:tsumogiri",
        "builtin:tsumogiri",
        "builtin:tsumogiri",
        "--runtime",
        "process",
        "--seed",
        "1",
        "--jobs",
        "2",
        "--dir",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    for g in 0..4 {
        let path = dir.join(format!("games/{g:06}/summary.json"));
        let s: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        assert_eq!(s["completed"], true);
        let seat = s["bots"].as_array().unwrap().iter().position(|b| b == "crash").unwrap();
        assert!(s["chombos"][seat].as_u64().unwrap() >= 1, "game {g}: {}", s["chombos"]);
    }
    assert_eq!(standings_json(&dir)["bots"][0]["games"], 4);
}

#[test]
fn a_game_that_cannot_be_refereed_is_retried_once_then_reported() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("t");
    // --max-restarts 0: the crash bot's first chombo abandons the game
    let out = run(&[
        "tournament",
        &example("crash"),
        "builtin:tsumogiri",
        "builtin:tsumogiri",
        "builtin:tsumogiri",
        "--runtime",
        "process",
        "--max-restarts",
        "0",
        "--seed",
        "1",
        "--dir",
        dir.to_str().unwrap(),
    ]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    for g in 0..4 {
        assert!(err.contains(&format!("game {g} failed 2 times: abandoned after 0 restarts")), "{err}");
    }
    assert_eq!(games_done(&dir), Some((0, 4)));
}

#[test]
fn a_bad_submission_stops_the_tournament_before_any_game() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("t");
    let missing = tmp.path().join("nope.zip");
    let out = run(&[
        "tournament",
        "builtin:tsumogiri",
        "builtin:tsumogiri",
        "builtin:tsumogiri",
        missing.to_str().unwrap(),
        "--dir",
        dir.to_str().unwrap(),
    ]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("nope.zip") && err.lines().count() == 1, "{err}");
    assert!(!dir.exists(), "nothing written");
}

#[test]
fn a_changed_submission_is_refused_on_resume() {
    let tmp = tempfile::tempdir().unwrap();
    let bot = tmp.path().join("mybot");
    std::fs::create_dir(&bot).unwrap();
    std::fs::copy(Path::new(&example("tsumogiri")).join("bot.py"), bot.join("bot.py")).unwrap();
    let dir = tmp.path().join("t");
    let out = run(&[
        "tournament",
        bot.to_str().unwrap(),
        "builtin:tsumogiri",
        "builtin:tsumogiri",
        "builtin:tsumogiri",
        "--runtime",
        "process",
        "--seed",
        "4",
        "--dir",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(standings_json(&dir)["bots"][0]["name"], "mybot");
    let again = run(&["tournament", "--resume", dir.to_str().unwrap()]);
    assert!(again.status.success(), "an unchanged bot resumes: {}", text(&again.stderr));
    std::fs::write(bot.join("bot.py"), "# changed\n").unwrap();
    let out = run(&["tournament", "--resume", dir.to_str().unwrap()]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("mybot") && err.contains("changed since the tournament began"), "{err}");
    // a second tournament into the same folder is refused too
    let out = run(&[
        "tournament",
        "builtin:tsumogiri",
        "builtin:tsumogiri",
        "builtin:tsumogiri",
        "builtin:tsumogiri",
        "--dir",
        dir.to_str().unwrap(),
    ]);
    assert!(text(&out.stderr).contains("--resume"), "{}", text(&out.stderr));
}

#[test]
fn one_vs_three_plays_the_challenger_in_every_seat() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("t");
    let out = run(&[
        "tournament",
        "--format",
        "1v3",
        "builtin:rulebase",
        "builtin:tsumogiri",
        "--sets",
        "2",
        "--seed",
        "9",
        "--json",
        "--dir",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(s["bots"][0]["games"], 8);
    assert_eq!(s["bots"][1]["games"], 24, "three champion seats per game");
    for g in 0..8 {
        let summary: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join(format!("games/{g:06}/summary.json"))).unwrap())
                .unwrap();
        let seat = summary["bots"].as_array().unwrap().iter().position(|b| b == "rulebase").unwrap();
        assert_eq!(seat, g % 4, "game {g}");
        let log = std::fs::read_to_string(dir.join(format!("games/{g:06}/mjai_log.json"))).unwrap();
        assert!(log.lines().next().unwrap().contains(&format!("\"seed\":[{},0]", 9 + g / 4)), "set seed");
    }
}

#[test]
fn built_in_games_without_folders_give_the_same_results_as_through_the_match_loop() {
    let tmp = tempfile::tempdir().unwrap();
    let (logged, fast) = (tmp.path().join("logged"), tmp.path().join("fast"));
    for (dir, extra) in [(&logged, None), (&fast, Some("--no-logs"))] {
        let out = mjai_sim()
            .arg("tournament")
            .args(BOTS)
            .args(["--sets", "10", "--seed", "12", "--dir", dir.to_str().unwrap()])
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    assert!(!fast.join("games").exists(), "--no-logs writes no game folders");
    assert_eq!(standings_but_timing(&logged), standings_but_timing(&fast));
}

#[test]
fn a_tournament_folder_gets_game_pages_a_rating_history_and_a_report() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("t");
    let out = mjai_sim()
        .arg("tournament")
        .args(BOTS)
        .args(["--sets", "5", "--seed", "9", "--dir", dir.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let games: Vec<PathBuf> =
        std::fs::read_dir(dir.join("games")).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir()).collect();
    assert_eq!(games.len(), 20, "5 sets of 4 games");
    assert!(games.iter().all(|g| g.join("game.html").is_file()), "every game has its viewer page");

    let s = standings_json(&dir);
    let history = s["rating_history"].as_array().unwrap();
    assert_eq!(history.last().unwrap()["game"], 20, "the last point is after the last game");
    for (i, bot) in s["bots"].as_array().unwrap().iter().enumerate() {
        let name = bot["name"].as_str().unwrap();
        let last = history.last().unwrap()["ratings"][name].as_f64().unwrap();
        assert_eq!(last, bot["weng_lin"]["mu"].as_f64().unwrap(), "bot {i}: history ends at the final mu");
    }

    let out = run(&["report", dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let page = std::fs::read_to_string(dir.join("report.html")).unwrap();
    for bot in s["bots"].as_array().unwrap() {
        assert!(page.contains(bot["name"].as_str().unwrap()), "the report names {}", bot["name"]);
    }
    assert!(!page.contains("has no <code>rating_history</code>"), "ratings over games are drawn");
    let linked = games.iter().filter(|g| page.contains(g.file_name().unwrap().to_str().unwrap())).count();
    assert_eq!(linked, 20, "the report links every game");

    let bare = tmp.path().join("bare");
    let out = mjai_sim()
        .arg("tournament")
        .args(BOTS)
        .args(["--sets", "1", "--no-html", "--dir", bare.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    for game in std::fs::read_dir(bare.join("games")).unwrap() {
        let game = game.unwrap().path();
        assert!(game.join("mjai_log.json").is_file() && !game.join("game.html").exists(), "--no-html");
    }
}
