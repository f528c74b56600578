//! Batched bots in tournaments: many tables served by one process, the same games as one
//! process per seat, and the mission's rules per table (an illegal answer, a crash).

use std::path::Path;

use serde_json::Value;

use crate::batch_support::{faulty_batch_bot, logged_requests};
use crate::e2e_support::{chombos, mjai_sim, repo};

/// Plays `mjai-sim tournament --format 1v3 CHALLENGER builtin:tsumogiri` with `extra`
/// options into `dir`; panics unless it succeeds.
fn one_vs_three(dir: &Path, challenger: &str, extra: &[&str]) {
    let out = mjai_sim()
        .args(["tournament", "--format", "1v3", challenger, "builtin:tsumogiri", "--runtime", "process"])
        .args(["--dir", dir.to_str().unwrap()])
        .args(extra)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

fn game_log(dir: &Path, game: usize) -> String {
    std::fs::read_to_string(dir.join(format!("games/{game:06}/mjai_log.json"))).unwrap()
}

/// Chombos of each of the tournament's 4 games.
fn chombos_per_game(dir: &Path) -> Vec<usize> {
    let events = |log: String| -> Vec<Value> { log.lines().map(|l| serde_json::from_str(l).unwrap()).collect() };
    (0..4).map(|g| chombos(&events(game_log(dir, g))).len()).collect()
}

/// The requests the faulty batched bot logged over the tournament.
fn batch_requests(dir: &Path) -> Vec<Value> {
    logged_requests(&std::fs::read_to_string(dir.join("bot_logs/0-batch.stderr.txt")).unwrap())
}

#[test]
fn many_tables_batched_give_the_logs_of_one_process_per_seat() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("batched"), tmp.path().join("separate"));
    let bot = repo("examples/batch-tsumogiri");
    one_vs_three(&a, &bot, &["--sets", "2", "--seed", "41", "--tables", "8"]);
    one_vs_three(&b, &bot, &["--sets", "2", "--seed", "41", "--no-batch", "--jobs", "2"]);
    for game in 0..8 {
        assert_eq!(game_log(&a, game), game_log(&b, game), "game {game}");
    }
    let stderr = std::fs::read_to_string(a.join("bot_logs/0-batch.stderr.txt"));
    assert_eq!(stderr.ok().as_deref(), Some(""), "one batched process (its log), which writes nothing to stderr");
    assert!(!b.join("bot_logs").exists(), "--no-batch: no batched process");
}

#[test]
fn an_illegal_answer_costs_its_table_alone_and_that_table_restarts() {
    let tmp = tempfile::tempdir().unwrap();
    let bot = faulty_batch_bot(tmp.path(), "illegal", "illegal", [0, 0], 3);
    let dir = tmp.path().join("t");
    one_vs_three(&dir, &bot, &["--sets", "1", "--seed", "42", "--tables", "4"]);
    let per_game = chombos_per_game(&dir);
    assert_eq!(per_game.iter().sum::<usize>(), 1, "one chombo in all: {per_game:?}");
    let requests = batch_requests(&dir);
    let restarts: Vec<&Value> = requests.iter().filter(|r| r["restart"] == true).collect();
    assert_eq!(restarts.len(), 1, "only table 0's seat restarts: {restarts:?}");
    assert_eq!((restarts[0]["table"].as_u64(), restarts[0]["first"].as_str()), (Some(0), Some("start_game")));
    let tables: std::collections::BTreeSet<u64> = requests.iter().filter_map(|r| r["table"].as_u64()).collect();
    assert_eq!(tables.len(), 4, "four tables served by one process: {tables:?}");
}

#[test]
fn a_crash_is_a_chombo_at_every_table_it_served_and_the_process_starts_again() {
    let tmp = tempfile::tempdir().unwrap();
    let bot = faulty_batch_bot(tmp.path(), "crash", "crash", [0, 0], 3);
    let dir = tmp.path().join("t");
    one_vs_three(&dir, &bot, &["--sets", "1", "--seed", "43", "--tables", "2"]);
    let per_game = chombos_per_game(&dir);
    // tables 0 and 1 were in play when the process exited; tables 2 and 3 came later
    let mut sorted = per_game.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, [0, 0, 1, 1], "{per_game:?}");
    let starts = batch_requests(&dir).iter().filter(|r| r["first"] == "start_game").count();
    assert_eq!(starts, 6, "4 games + 2 restarts after the crash");
}
