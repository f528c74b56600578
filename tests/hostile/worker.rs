//! The bots of the reproduction (an 8 MiB line, an endless line) played by a PostgreSQL
//! worker: each game costs the hostile seat exactly one chombo and completes.

use std::time::Duration;

use sqlx::Row;

use super::catalogue::Hostile;
use super::harness::{check_game, run_bounded, wait_bounded, Sandbox, OPPONENTS};
use super::pg_support::{poll, PgCluster};

/// The longest the worker may take for the 4 games of one set (seconds).
pub const WORKER_BOUND: Duration = Duration::from_secs(300);

/// Creates a 1-set tournament on a fresh cluster, plays it with one worker (`--jobs 2`,
/// `--exit-when-idle`) and checks the four stored games.
pub fn play(h: &Hostile) {
    let pg = PgCluster::start();
    let url = pg.url();
    let sandbox = Sandbox::new();
    let bot = format!("hostile={}", sandbox.bot_zip(h));
    let mut create = sandbox.command(&["tournament", "--db", &url, "--sets", "1", "--seed", "3", "--jobs", "0"]);
    create
        .args(["--timeout", "2", "--start-timeout", "6", "--dir"])
        .arg(sandbox.path("coord"))
        .arg(bot.as_str())
        .args(OPPONENTS);
    let coordinator = create.stdout(std::process::Stdio::null()).stderr(std::process::Stdio::piped()).spawn().unwrap();
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let pool = rt.block_on(sqlx::postgres::PgPool::connect(&url)).unwrap();
    // The worker exits when idle: start it once the games exist.
    poll(Duration::from_secs(60), "the tournament's games", || {
        let count = rt.block_on(sqlx::query("SELECT COUNT(*) FROM games").fetch_one(&pool)).ok()?;
        (count.get::<i64, _>(0) == 4).then_some(())
    });
    let mut worker = sandbox.command(&["worker", "--db", &url, "--name", "hostile", "--jobs", "2", "--poll", "0.2"]);
    worker.args(["--exit-when-idle", "--work-dir"]).arg(sandbox.path("work"));
    let what = format!("{} in a PostgreSQL worker", h.name);
    let (output, took) = run_bounded(worker, WORKER_BOUND, &what);
    assert!(output.status.success(), "{what}: exit {:?}\n{}", output.status, String::from_utf8_lossy(&output.stderr));
    let (coordinated, _) = wait_bounded(coordinator, WORKER_BOUND, "the coordinator");
    assert!(coordinated.status.success(), "{what}: coordinator {:?}", coordinated.status);
    let query = sqlx::query("SELECT game_idx, summary, errors FROM game_files ORDER BY game_idx").fetch_all(&pool);
    let rows = rt.block_on(query).unwrap();
    assert_eq!(rows.len(), 4, "{what}: 4 games stored");
    for row in rows {
        let g: i64 = row.get(0);
        let summary: serde_json::Value = serde_json::from_str(&row.get::<String, _>(1)).unwrap();
        let errors: serde_json::Value = serde_json::from_str(&row.get::<String, _>(2)).unwrap();
        let seat = summary["bots"].as_array().unwrap().iter().position(|b| b == "hostile").expect("a hostile seat");
        check_game(&summary, &errors, seat, h, &format!("{what}, game {g}"));
    }
    sandbox.assert_no_container_left(&what);
    eprintln!("{what}: 4 games in {:.1} s", took.as_secs_f64());
}
