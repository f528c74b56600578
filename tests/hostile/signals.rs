//! SIGTERM while a hostile bot holds the game (it ignores SIGTERM, stops reading, floods
//! stdout, or is SIGSTOPped), with a 60 s decision timeout so that only the signal can end
//! the wait: the game, the tournament or the worker stops within [`SIGNAL_BOUND`], exits
//! 143, keeps its logs and leaves no container.

use std::time::Duration;

use super::catalogue::Hostile;
use super::harness::{json, seats_with, signal, spawn, wait_bounded, wait_for_misbehaviour, Sandbox, OPPONENTS};
use super::pg_support::PgCluster;

/// The longest a stop may take after SIGTERM (seconds): a bounded stop of each bot
/// ([`mjai_sim::runtime::bounded::STOP_GRACE`], 10 s) at most, in parallel.
pub const SIGNAL_BOUND: Duration = Duration::from_secs(20);

/// Time for the game to reach the misbehaviour (container starts included).
const REACH: Duration = Duration::from_secs(120);

/// The main job, SIGTERMed once `h` misbehaves in seat 1.
pub fn main_job(h: &Hostile, transport: &str) {
    let sandbox = Sandbox::new();
    let bot = sandbox.bot(h);
    let logs = sandbox.path("logs");
    let mut command = sandbox.command(&["--seed", "11", "--transport", transport, "--timeout", "60"]);
    command.arg("--logs-dir").arg(&logs).args(seats_with(&bot));
    let what = format!("SIGTERM to a game with {} over {transport}", h.name);
    let mut child = spawn(command);
    wait_for_misbehaviour(&mut child, &logs, REACH, &what);
    signal(&child, libc::SIGTERM);
    let (output, took) = wait_bounded(child, SIGNAL_BOUND, &what);
    assert_eq!(output.status.code(), Some(143), "{what}: {}", String::from_utf8_lossy(&output.stderr));
    let summary = json(&logs.join("summary.json"));
    assert_eq!(summary["ending"], "interrupted", "{what}: {summary}");
    let log = std::fs::read_to_string(logs.join("mjai_log.json")).unwrap();
    assert!(log.starts_with("{\"type\":\"start_game\""), "{what}: the log so far is kept");
    sandbox.assert_no_container_left(&what);
    eprintln!("{what}: stopped {:.2} s after the signal", took.as_secs_f64());
}

/// A 2-set tournament (`--jobs 2`), SIGTERMed once `h` misbehaves in some game.
pub fn tournament(h: &Hostile) {
    let sandbox = Sandbox::new();
    let bot = format!("hostile={}", sandbox.bot(h));
    let dir = sandbox.path("tournament");
    let mut command = sandbox.command(&["tournament", "--sets", "2", "--jobs", "2", "--seed", "7", "--timeout", "60"]);
    command.arg("--dir").arg(&dir).arg(bot.as_str()).args(OPPONENTS);
    let what = format!("SIGTERM to a tournament with {}", h.name);
    let mut child = spawn(command);
    wait_for_misbehaviour(&mut child, &dir, REACH, &what);
    signal(&child, libc::SIGTERM);
    let (output, took) = wait_bounded(child, SIGNAL_BOUND, &what);
    assert_eq!(output.status.code(), Some(143), "{what}: {}", String::from_utf8_lossy(&output.stderr));
    assert!(dir.join("tournament.db").exists() || dir.read_dir().unwrap().next().is_some(), "{what}: files kept");
    sandbox.assert_no_container_left(&what);
    eprintln!("{what}: stopped {:.2} s after the signal", took.as_secs_f64());
}

/// A PostgreSQL worker, SIGTERMed once `h` misbehaves in one of its games.
pub fn worker(h: &Hostile) {
    let pg = PgCluster::start();
    let url = pg.url();
    let sandbox = Sandbox::new();
    let bot = format!("hostile={}", sandbox.bot_zip(h));
    let mut create = sandbox.command(&["tournament", "--db", &url, "--sets", "1", "--seed", "3", "--jobs", "0"]);
    create.args(["--timeout", "60", "--dir"]).arg(sandbox.path("coord")).arg(bot.as_str()).args(OPPONENTS);
    let coordinator = spawn(create);
    let work = sandbox.path("work");
    let mut command = sandbox.command(&["worker", "--db", &url, "--name", "hostsig", "--jobs", "2", "--poll", "0.2"]);
    command.arg("--work-dir").arg(&work);
    let what = format!("SIGTERM to a worker with {}", h.name);
    let mut child = spawn(command);
    wait_for_misbehaviour(&mut child, &work, REACH, &what);
    signal(&child, libc::SIGTERM);
    let (output, took) = wait_bounded(child, SIGNAL_BOUND, &what);
    assert_eq!(output.status.code(), Some(143), "{what}: {}", String::from_utf8_lossy(&output.stderr));
    sandbox.assert_no_container_left(&what);
    signal(&coordinator, libc::SIGTERM);
    let (coordinated, _) = wait_bounded(coordinator, SIGNAL_BOUND, "the coordinator");
    assert_eq!(coordinated.status.code(), Some(143), "the coordinator stops on SIGTERM too");
    eprintln!("{what}: stopped {:.2} s after the signal", took.as_secs_f64());
}
