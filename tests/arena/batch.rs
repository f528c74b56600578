//! Batched bots in one game (`mjai-sim A B C D` with a bot whose mjai-sim.toml says
//! `batch = true`): the same game as one process per seat, the per-table rules for a late
//! cycle, and one container in Docker.

use crate::batch_support::{faulty_batch_bot, logged_requests};
use crate::e2e_support::{chombos, docker_exclusive, labelled_containers, play, repo, require_image};

#[test]
fn a_batched_bot_plays_the_same_game_as_one_process_per_seat() {
    let b = repo("examples/batch-tsumogiri");
    let t = "builtin:tsumogiri";
    let batched = play([&b, t, &b, &b], &["--seed", "31,7", "--runtime", "process"]);
    let separate = play([&b, t, &b, &b], &["--seed", "31,7", "--runtime", "process", "--no-batch"]);
    batched.assert_complete_and_verified();
    separate.assert_complete_and_verified();
    assert_eq!((batched.errors(), separate.errors()), (vec![], vec![]), "no chombo either way");
    assert_eq!(batched.read("mjai_log.json"), separate.read("mjai_log.json"));
}

#[test]
fn a_late_cycle_is_a_chombo_of_its_table_and_the_process_starts_again() {
    let dir = tempfile::tempdir().unwrap();
    let bot = faulty_batch_bot(dir.path(), "late", "late", [0, 0], 3);
    let t = "builtin:tsumogiri";
    let run = play([&bot, t, t, t], &["--seed", "32", "--runtime", "process", "--timeout", "1"]);
    run.assert_complete_and_verified();
    let errors = run.errors();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!((errors[0]["player_id"].as_u64(), errors[0]["error_type"].as_str()), (Some(0), Some("timeout")));
    assert_eq!(chombos(&run.log()).len(), 1);
    // the restarted process got the seat's fresh start (a new process: no restart flag needed)
    let requests = logged_requests(&run.read("player_logs.0.stderr.txt"));
    let starts = requests.iter().filter(|r| r["first"] == "start_game").count();
    assert_eq!(starts, 2, "the first game start and the one after the chombo");
}

#[test]
fn a_misspelt_manifest_is_refused_before_any_game_with_the_fix() {
    let dir = tempfile::tempdir().unwrap();
    let bot = dir.path().join("bad");
    std::fs::create_dir_all(&bot).unwrap();
    std::fs::write(bot.join("bot.py"), "print('hi')\n").unwrap();
    std::fs::write(bot.join("mjai-sim.toml"), "bacth = true\n").unwrap();
    let b = bot.display().to_string();
    let t = "builtin:tsumogiri";
    let run = play([&b, t, t, t], &["--runtime", "process"]);
    assert_eq!(run.output.status.code(), Some(1));
    let err = run.stderr();
    assert!(err.contains("seat 0") && err.contains("mjai-sim.toml") && err.contains("known keys"), "{err}");
}

#[test]
fn a_batched_bot_runs_in_one_container_in_docker() {
    require_image();
    let _docker = docker_exclusive();
    let b = repo("examples/batch-tsumogiri");
    let t = "builtin:tsumogiri";
    let before = labelled_containers().len();
    let batched = play([&b, &b, t, &b], &["--seed", "33"]);
    let separate = play([&b, &b, t, &b], &["--seed", "33", "--no-batch"]);
    batched.assert_complete_and_verified();
    separate.assert_complete_and_verified();
    assert_eq!(batched.read("mjai_log.json"), separate.read("mjai_log.json"));
    assert_eq!(labelled_containers().len(), before, "no container left behind");
    let http = play([&b, t, t, t], &["--seed", "33", "--transport", "http"]);
    assert_eq!(http.output.status.code(), Some(1));
    assert!(http.stderr().contains("needs --transport stdio"), "{}", http.stderr());
}
