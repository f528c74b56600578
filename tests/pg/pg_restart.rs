//! A PostgreSQL restart in the middle of a `--db` tournament loses nothing (real
//! PostgreSQL, real processes): the playing process waits for the database (one line when it
//! goes away, one when it is back), records the games it finished meanwhile, and ends with
//! every scheduled game recorded exactly once and the standings of a single-host SQLite run
//! with the same seed.

use crate::e2e_support::mjai_sim;
use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::pg_support::{poll, PgCluster};
use sqlx::Row;

const BOTS: [&str; 4] = ["builtin:rulebase", "builtin:random", "builtin:tsumogiri", "r2=builtin:rulebase"];
const SETS: &str = "100";
const SEED: &str = "91,4";

/// Standings JSON without the decision-time fields (wall-clock measures differ per run).
fn but_timing(mut s: serde_json::Value) -> serde_json::Value {
    for bot in s["bots"].as_array_mut().unwrap() {
        let bot = bot.as_object_mut().unwrap();
        for field in ["decision_median_ms", "decision_p99_ms", "decisions"] {
            bot.remove(field);
        }
    }
    s
}

/// (games done, results rows) in the database, or `None` while it does not answer.
fn counts(rt: &tokio::runtime::Runtime, url: &str) -> Option<(i64, i64)> {
    rt.block_on(async {
        let pool =
            sqlx::postgres::PgPoolOptions::new().acquire_timeout(Duration::from_secs(2)).connect(url).await.ok()?;
        let done = sqlx::query("SELECT COUNT(*) FROM games WHERE state = 'done'").fetch_one(&pool).await.ok()?;
        let rows = sqlx::query("SELECT COUNT(*) FROM results").fetch_one(&pool).await.ok()?;
        pool.close().await;
        Some((done.get::<i64, _>(0), rows.get::<i64, _>(0)))
    })
}

#[test]
fn a_database_restart_mid_tournament_loses_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    // The single-host reference run.
    let sqlite = format!("sqlite:{}", tmp.path().join("ref.sqlite").display());
    let out = mjai_sim()
        .arg("tournament")
        .args(BOTS)
        .args(["--sets", SETS, "--seed", SEED, "--jobs", "1", "--json", "--db", &sqlite, "--dir"])
        .arg(tmp.path().join("ref"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let reference = but_timing(serde_json::from_slice(&out.stdout).unwrap());

    let pg = PgCluster::start();
    let url = pg.url();
    let mut child = mjai_sim()
        .arg("tournament")
        .args(BOTS)
        .args(["--sets", SETS, "--seed", SEED, "--jobs", "1", "--json", "--lease", "60", "--db", &url, "--dir"])
        .arg(tmp.path().join("pg"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let lines = Arc::new(Mutex::new(Vec::<String>::new()));
    let stderr = BufReader::new(child.stderr.take().unwrap());
    let sink = lines.clone();
    let reader = std::thread::spawn(move || {
        for line in stderr.lines().map_while(Result::ok) {
            sink.lock().unwrap().push(line);
        }
    });
    let said = |what: &str| lines.lock().unwrap().iter().any(|l| l.contains(what));
    let total: i64 = SETS.parse::<i64>().unwrap() * 4;

    poll(Duration::from_secs(120), "the first results", || counts(&rt, &url).filter(|(done, _)| *done >= 8));
    pg.stop();
    // The run cannot have finished while the database was down.
    poll(Duration::from_secs(60), "the outage line", || said("the database is unreachable").then_some(()));
    assert!(child.try_wait().unwrap().is_none(), "the run gave up during the outage: {:?}", lines.lock().unwrap());
    pg.restart();

    let status = poll(Duration::from_secs(300), "the run to end", || child.try_wait().unwrap());
    let mut stdout = String::new();
    std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut stdout).unwrap();
    reader.join().unwrap();
    let log = lines.lock().unwrap().join("\n");
    assert!(status.success(), "{log}");
    assert!(said("the database answers again"), "{log}");
    assert_eq!(counts(&rt, &url), Some((total, total * 4)), "every game recorded exactly once");
    let standings = but_timing(serde_json::from_str(&stdout).unwrap());
    assert_eq!(standings, reference, "the restart changed the results");
}
