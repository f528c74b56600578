//! Built-in bots as canaries (issue 42): a built-in never errs, so under every way a game can
//! be driven — one game, a tournament in a folder or a database, `--keep-bots` on and off,
//! duplicate sets and 1-vs-3, one job or several, each rules preset, `--from`, beside a
//! Docker bot, beside a remote seat — the built-ins take no chombo, and each game's log is
//! the plain game's: the same seed, bots and rules played in process by the library
//! (`tournament::inproc`, no protocol, no runtime).
//!
//! And when a built-in does take one (a referee's bug, injected here with
//! `MJAI_SIM_TEST_DROP_OFFERS=1`, which makes built-ins forget their legal set as kept ones
//! did before the fix), the game is never a result: an internal error on stderr and in JSON
//! messages, the game listed as not counted, exit 3.

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

use mjai_sim::engine::game::Rules;
use mjai_sim::tournament::inproc;
use serde_json::Value;

use crate::e2e_support::{mjai_sim, repo, require_image};
use crate::remote_support::{finish_bridge, RemoteGame};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn run(args: &[String]) -> Output {
    mjai_sim().args(args).output().expect("run mjai-sim")
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn log_of(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut log: Vec<Value> =
        text.lines().map(|l| serde_json::from_str(l).expect("mjai_log.json holds JSON lines")).collect();
    // start_game's meta names the engine that played (not part of the game): there, then set aside
    if let Some(start) = log.first_mut().and_then(Value::as_object_mut) {
        let meta = start.remove("meta");
        assert!(meta.is_some_and(|m| m["engine"]["version"].is_string()), "{}: no engine stamp", path.display());
    }
    log
}

/// The plain game: `builtins` (seat order, `NAME` of `builtin:NAME`) on `seed` under `rules`,
/// played in process by the library, as JSON events.
fn plain_log(builtins: &[String; 4], seed: [u64; 2], rules: Rules) -> Vec<Value> {
    let (report, log) = inproc::play(builtins, seed, rules).expect("the plain game plays");
    assert_eq!(report.chombos, [0; 4], "a built-in takes no chombo in process");
    log.iter().map(|e| serde_json::from_str(&e.to_json()).unwrap()).collect()
}

/// Asserts two logs are equal, naming the first line that differs.
fn assert_same_log(got: &[Value], want: &[Value], what: &str) {
    if let Some(i) = (0..got.len().max(want.len())).find(|&i| got.get(i) != want.get(i)) {
        panic!(
            "{what}: the log differs from the plain game's at line {} (of {} and {}):\n got  {:?}\n want {:?}",
            i + 1,
            got.len(),
            want.len(),
            got.get(i),
            want.get(i)
        );
    }
}

/// The game folders under `dir/games`, in schedule order.
fn game_dirs(dir: &Path) -> Vec<PathBuf> {
    let mut games: Vec<PathBuf> = std::fs::read_dir(dir.join("games"))
        .unwrap_or_else(|e| panic!("{}/games: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    games.sort();
    games
}

/// Checks every game of a tournament folder: no chombo of a built-in seat, and the log of
/// each all-built-in game equal to the plain game's. `builtin`: the built-in behind a bot's
/// name, `None` for a submission or a remote bot. Returns the games checked.
fn assert_canaries(dir: &Path, builtin: &dyn Fn(&str) -> Option<String>, rules: Rules, what: &str) -> usize {
    let games = game_dirs(dir);
    for game in &games {
        let summary = read_json(&game.join("summary.json"));
        let here = format!("{what}, {}", game.display());
        assert_eq!(summary["completed"], true, "{here}: {summary}");
        let bots: Vec<String> =
            summary["bots"].as_array().unwrap().iter().map(|b| b.as_str().unwrap().into()).collect();
        let chombos: Vec<u64> = summary["chombos"].as_array().unwrap().iter().map(|c| c.as_u64().unwrap()).collect();
        for (seat, bot) in bots.iter().enumerate() {
            if builtin(bot).is_some() {
                assert_eq!(chombos[seat], 0, "{here}: built-in {bot} in seat {seat} took a chombo: {}", errors(game));
            }
        }
        let names: Vec<Option<String>> = bots.iter().map(|b| builtin(b)).collect();
        if let [Some(a), Some(b), Some(c), Some(d)] = names.as_slice() {
            let seed = summary["seed"].as_array().unwrap();
            let seed = [seed[0].as_u64().unwrap(), seed[1].as_u64().unwrap()];
            let plain = plain_log(&[a.clone(), b.clone(), c.clone(), d.clone()], seed, rules);
            assert_same_log(&log_of(&game.join("mjai_log.json")), &plain, &here);
        }
    }
    games.len()
}

fn errors(game: &Path) -> String {
    std::fs::read_to_string(game.join("errors.json")).unwrap_or_default()
}

/// `name=builtin:NAME` entrants: the built-in of each name.
fn builtin_of(name: &str) -> Option<String> {
    let known = ["tsumogiri", "rulebase", "random"];
    known.iter().find(|k| name == **k || name.strip_prefix(&format!("{k}-")).is_some()).map(|k| k.to_string())
}

#[test]
fn one_game_of_built_ins_is_the_plain_game_under_every_preset() {
    let seats = ["rulebase", "random", "tsumogiri", "rulebase"];
    for preset in Rules::PRESETS {
        for seed in [[5u64, 0], [6, 2]] {
            let dir = tempfile::tempdir().unwrap();
            let mut args = strings(&["--seed", &format!("{},{}", seed[0], seed[1]), "--rules", preset, "--no-html"]);
            args.extend(["--logs-dir".into(), dir.path().display().to_string()]);
            args.extend(seats.iter().map(|s| format!("builtin:{s}")));
            let out = run(&args);
            assert_eq!(out.status.code(), Some(0), "{preset} {seed:?}: {}", text(&out.stderr));
            let summary = read_json(&dir.path().join("summary.json"));
            assert_eq!(summary["chombos"], serde_json::json!([0, 0, 0, 0]), "{preset} {seed:?}");
            let plain = plain_log(&seats.map(String::from), seed, Rules::preset(preset).unwrap());
            assert_same_log(
                &log_of(&dir.path().join("mjai_log.json")),
                &plain,
                &format!("one game, {preset}, {seed:?}"),
            );
        }
    }
}

#[test]
fn a_hand_played_again_from_its_log_is_the_logged_hand() {
    let dir = tempfile::tempdir().unwrap();
    let (first, again) = (dir.path().join("first"), dir.path().join("again"));
    let seats = ["builtin:rulebase", "builtin:tsumogiri", "builtin:rulebase", "builtin:tsumogiri"];
    let mut args = strings(&["--seed", "31", "--no-html", "--logs-dir", first.to_str().unwrap()]);
    args.extend(seats.iter().map(|s| s.to_string()));
    let out = run(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let log = log_of(&first.join("mjai_log.json"));
    // the third hand, as `--from` names it: BAKAZE KYOKU - HONBA
    let starts: Vec<usize> = (0..log.len()).filter(|&i| log[i]["type"] == "start_kyoku").collect();
    assert!(starts.len() >= 3, "a hanchan has three hands at least");
    let k = &log[starts[2]];
    let hand = format!("{}{}-{}", k["bakaze"].as_str().unwrap(), k["kyoku"], k["honba"]);
    let from = format!("{}@{hand}", first.join("mjai_log.json").display());
    let mut args = strings(&["--from", &from, "--no-html", "--logs-dir", again.to_str().unwrap()]);
    args.extend(seats.iter().map(|s| s.to_string()));
    let out = run(&args);
    assert!(out.status.success(), "--from {hand}: {}", text(&out.stderr));
    let summary = read_json(&again.join("summary.json"));
    assert_eq!(summary["chombos"], serde_json::json!([0, 0, 0, 0]), "--from {hand}");
    let replayed = log_of(&again.join("mjai_log.json"));
    assert_eq!(replayed[0]["type"], "start_game");
    assert_same_log(&replayed[1..], &log[starts[2]..], &format!("--from {hand}"));
}

/// One tournament of built-ins in a folder; returns the folder's checked game count.
fn folder_tournament(keep: bool, one_vs_three: bool, jobs: u32, preset: &str) -> usize {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("t");
    let what = format!("keep-bots {keep}, 1v3 {one_vs_three}, jobs {jobs}, rules {preset}");
    let mut args = strings(&["tournament"]);
    match one_vs_three {
        true => args.extend(strings(&["--format", "1v3", "builtin:rulebase", "builtin:tsumogiri"])),
        false => args.extend(strings(&[
            "builtin:rulebase",
            "builtin:random",
            "builtin:tsumogiri",
            "tsumogiri-2=builtin:tsumogiri",
        ])),
    }
    args.extend(strings(&["--sets", "2", "--seed", "40,1", "--no-html", "--rules", preset]));
    args.extend(["--jobs".into(), jobs.to_string(), "--dir".into(), dir.display().to_string()]);
    if keep {
        args.push("--keep-bots".into());
    }
    let out = run(&args);
    assert_eq!(out.status.code(), Some(0), "{what}: {}", text(&out.stderr));
    let checked = assert_canaries(&dir, &builtin_of, Rules::preset(preset).unwrap(), &what);
    let standings = read_json(&dir.join("standings.json"));
    assert_eq!(standings["games"].as_u64(), Some(checked as u64), "{what}: every game counted");
    assert_eq!(standings["not_counted"], serde_json::json!([]), "{what}");
    checked
}

#[test]
fn tournaments_in_a_folder_play_the_plain_games_with_and_without_kept_bots() {
    let mut games = 0;
    for keep in [false, true] {
        for one_vs_three in [false, true] {
            for (jobs, preset) in [(1, "tenhou"), (3, "mjai-app")] {
                games += folder_tournament(keep, one_vs_three, jobs, preset);
            }
        }
    }
    assert_eq!(games, 8 * 8, "eight tournaments of two sets of four games");
}

#[test]
fn tournaments_in_a_database_play_the_plain_games_with_and_without_kept_bots() {
    for (keep, jobs) in [(false, 1), (true, 1), (true, 3)] {
        let tmp = tempfile::tempdir().unwrap();
        let what = format!("--db, keep-bots {keep}, jobs {jobs}");
        let db = format!("sqlite:{}", tmp.path().join("t.sqlite").display());
        let mut args = strings(&["tournament", "--db", &db, "builtin:rulebase", "builtin:random", "builtin:tsumogiri"]);
        args.extend(strings(&["tsumogiri-2=builtin:tsumogiri", "--sets", "2", "--seed", "41", "--jobs"]));
        args.extend([jobs.to_string(), "--dir".into(), tmp.path().join("t").display().to_string()]);
        if keep {
            args.push("--keep-bots".into());
        }
        let out = run(&args);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{what}: {err}");
        let tid = err
            .split_whitespace()
            .skip_while(|w| *w != "tournament")
            .nth(1)
            .unwrap_or_else(|| panic!("{what}: the tournament id is printed: {err}"));
        let exported = tmp.path().join("exported");
        let out =
            run(&strings(&["export-games", "--db", &db, "--tournament", tid, "--no-html", exported.to_str().unwrap()]));
        assert!(out.status.success(), "{what}: {}", text(&out.stderr));
        assert_eq!(assert_canaries(&exported, &builtin_of, Rules::tenhou(), &what), 8, "{what}");
    }
}

#[test]
fn kept_built_ins_beside_a_docker_bot_play_as_fresh_ones() {
    require_image();
    let mut logs = Vec::new();
    for keep in [false, true] {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("t");
        let docker = format!("docker-tsumogiri={}", repo("examples/tsumogiri"));
        let mut args = strings(&["tournament", &docker, "builtin:rulebase", "builtin:random"]);
        args.extend(strings(&["builtin:tsumogiri", "--sets", "1", "--seed", "42", "--jobs", "2", "--no-html"]));
        args.extend(["--dir".into(), dir.display().to_string()]);
        if keep {
            args.push("--keep-bots".into());
        }
        let out = run(&args);
        assert_eq!(out.status.code(), Some(0), "keep-bots {keep}: {}", text(&out.stderr));
        assert_eq!(assert_canaries(&dir, &builtin_of, Rules::tenhou(), &format!("Docker, keep-bots {keep}")), 4);
        let games: Vec<Vec<Value>> = game_dirs(&dir).iter().map(|g| log_of(&g.join("mjai_log.json"))).collect();
        logs.push(games);
    }
    for (g, (fresh, kept)) in logs[0].iter().zip(&logs[1]).enumerate() {
        assert_same_log(kept, fresh, &format!("game {g} with kept bots against fresh ones"));
    }
}

#[test]
fn kept_built_ins_beside_a_remote_seat_play_clean() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("t");
    let mut args =
        strings(&["tournament", "alice=remote:alice", "builtin:tsumogiri", "builtin:rulebase", "builtin:random"]);
    args.extend(strings(&["--sets", "1", "--seed", "43", "--no-html", "--keep-bots", "--dir"]));
    args.push(folder.display().to_string());
    let mut tournament = RemoteGame::spawn(&args, 1, dir);
    let bridge = tournament.bridge(0, &[&repo("examples/tsumogiri")]);
    let status = tournament.wait(Duration::from_secs(300));
    assert!(status.success(), "{:?}", tournament.stderr_lines);
    let (bridge_status, _, err) = finish_bridge(bridge, Duration::from_secs(30));
    assert!(bridge_status.success(), "{err}");
    assert_eq!(assert_canaries(&folder, &builtin_of, Rules::tenhou(), "a remote seat, keep-bots"), 4);
}

#[test]
fn a_built_in_chombo_is_an_internal_error_and_never_a_result() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("t");
    let mut args =
        strings(&["tournament", "builtin:rulebase", "builtin:tsumogiri", "builtin:random", "builtin:tsumogiri"]);
    args.extend(strings(&["--sets", "1", "--seed", "44", "--no-html", "--message-format", "json", "--dir"]));
    args.push(dir.display().to_string());
    let out = mjai_sim().args(&args).env("MJAI_SIM_TEST_DROP_OFFERS", "1").output().unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.contains("internal error: built-in bot"), "each game says so on stderr: {err}");
    assert!(err.lines().last().unwrap().contains("internal error: 4 game(s) not counted"), "{err}");
    let messages: Vec<Value> = text(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let internal = messages.iter().find(|m| m["reason"] == "error").expect("an error message");
    assert_eq!(internal["code"], "internal", "{internal}");
    let failed: Vec<&Value> = messages.iter().filter(|m| m["reason"] == "game-failed").collect();
    assert_eq!(failed.len(), 4, "every game failed at once, none retried: {messages:?}");
    assert!(failed
        .iter()
        .all(|m| m["retrying"] == false && m["message"].as_str().unwrap().starts_with("internal error: ")));

    let standings = read_json(&dir.join("standings.json"));
    assert_eq!(standings["games"], 0, "no game counted: {standings}");
    let not_counted = standings["not_counted"].as_array().unwrap();
    assert_eq!(not_counted.len(), 4, "{standings}");
    assert!(not_counted.iter().all(|g| g["reason"].as_str().unwrap().contains("took")), "{standings}");
    let table = std::fs::read_to_string(dir.join("standings.md")).unwrap();
    assert!(table.contains("## Games not counted") && table.contains("- game 0: internal error"), "{table}");

    // Without the injected fault the same tournament is clean: the fault, not the bots, failed it.
    let clean = tmp.path().join("clean");
    let mut args =
        strings(&["tournament", "builtin:rulebase", "builtin:tsumogiri", "builtin:random", "builtin:tsumogiri"]);
    args.extend(strings(&["--sets", "1", "--seed", "44", "--no-html", "--dir", clean.to_str().unwrap()]));
    assert_eq!(run(&args).status.code(), Some(0));

    // One game: its table, then the internal error, exit 3.
    let game = tmp.path().join("game");
    let out = mjai_sim()
        .args(["--seed", "44", "--no-html", "--logs-dir", game.to_str().unwrap()])
        .args(["builtin:rulebase", "builtin:tsumogiri", "builtin:random", "builtin:tsumogiri"])
        .env("MJAI_SIM_TEST_DROP_OFFERS", "1")
        .output()
        .unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.lines().last().unwrap().starts_with("mjai-sim: internal error: built-in bot"), "{err}");
}
