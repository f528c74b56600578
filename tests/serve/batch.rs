//! A batched bot on the grading server: its upload validates (one process for its seats),
//! and the league plays it, one process serving its concurrent games.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::support::{poll, spawn_server, zip_of, Http};

/// examples/batch-tsumogiri as an author uploads it: bot.py and mjai-sim.toml.
fn batch_zip() -> Vec<u8> {
    let folder = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/batch-tsumogiri");
    let (bot, toml) =
        (std::fs::read(folder.join("bot.py")).unwrap(), std::fs::read(folder.join("mjai-sim.toml")).unwrap());
    zip_of(&[("bot.py", bot.as_slice()), ("mjai-sim.toml", toml.as_slice())])
}

/// Every `bot_logs/*-batch.stderr.txt` under `dir`: a batched process's log.
fn batch_logs(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                todo.push(path);
            } else if path.to_string_lossy().ends_with("-batch.stderr.txt") {
                found.push(path);
            }
        }
    }
    found
}

#[test]
fn a_batched_bot_validates_and_the_league_plays_it_from_one_process() {
    let server = spawn_server(&["--jobs", "2"]);
    let alice = server.author("alice", false);
    let http = Http::new();
    let up = http.upload(&server, Some(&alice), "batcher", batch_zip());
    assert_eq!(up.status, 202, "{}", up.body);
    http.wait_status(&server, "batcher", "active", Duration::from_secs(180));
    poll(Duration::from_secs(300), "league games of the batched bot", || {
        let board = http.get(&server.url("/api/leaderboard"), None).json();
        let games = board["bots"].as_array()?.iter().find(|e| e["name"] == "batcher")?["games"].as_u64()?;
        (games >= 2).then_some(())
    });
    let errors = http.get(&server.url("/api/bots/batcher/errors"), Some(&alice)).json();
    let validation = &errors["validations"][0];
    assert_eq!(
        (&validation["status"], &validation["reason"]),
        (&"active".into(), &serde_json::Value::Null),
        "{errors}"
    );
    assert!(!batch_logs(&server.dir.path().join("work")).is_empty(), "the league served it batched");
}
