//! The PostgreSQL queue (issue 13's figures), on a throwaway cluster started here
//! (`initdb` + `pg_ctl` on a temporary folder, 127.0.0.1; needs the `postgresql` package).
//! `cargo bench --bench queue` prints:
//! - criterion: one claim of 1 game plus the write of its result, one client;
//! - claim and record latency p50/p99 with 4 clients claiming 1 game at a time (1,000
//!   each) from a queue of 6,000 games (the database's share of a worker's round trip);
//! - queue throughput: 4 `mjai-sim worker --jobs 1` processes (the release binary) playing a
//!   tournament of 4 `builtin:tsumogiri` without game files, games/s from the workers'
//!   start to the last one's exit (median of 3 runs; the target is 500 games/s).

#[path = "../tests/pg_support/mod.rs"]
mod pg_support;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use mjai_sim::tournament::record::{GameRecord, SeatStats};
use mjai_sim::tournament::schedule::{duplicate, ScheduledGame};
use mjai_sim::tournament::store::{BotRow, Store};
use pg_support::PgCluster;

const LEASE_MS: i64 = 30_000;

fn bots() -> Vec<BotRow> {
    (0..4)
        .map(|i| BotRow { idx: i, name: format!("b{i}"), spec: "builtin:tsumogiri".into(), sha256: String::new() })
        .collect()
}

fn record_of(g: &ScheduledGame) -> GameRecord {
    GameRecord {
        index: g.index,
        set: g.set,
        seats: g.seats.clone(),
        scores: vec![25000; 4],
        ranks: vec![1, 2, 3, 4],
        stats: vec![SeatStats::default(); 4],
    }
}

async fn queue(url: &str, tid: &str, sets: u64) -> Store {
    let db = Store::open_url(url, 8).await.unwrap();
    db.create(tid, "{}", &bots(), &duplicate(4, sets, [1, 0])).await.unwrap()
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i].as_secs_f64() * 1e3
}

/// 4 clients, each claiming 1 game and recording it, `rounds` times.
fn latencies(rt: &tokio::runtime::Runtime, url: &str) {
    let rounds = 1_000;
    let store = rt.block_on(queue(url, "latency", 1_500));
    let clients = (0..4).map(|c| {
        let store = store.clone();
        rt.spawn(async move {
            let (mut claims, mut records) = (Vec::new(), Vec::new());
            for _ in 0..rounds {
                let t = Instant::now();
                let games = store.leases().claim(&format!("w{c}"), 1, LEASE_MS).await.unwrap();
                claims.push(t.elapsed());
                let t = Instant::now();
                store.games().record(&[record_of(&games[0])], &[]).await.unwrap();
                records.push(t.elapsed());
            }
            (claims, records)
        })
    });
    let results = rt.block_on(futures_util::future::join_all(clients));
    let (mut claims, mut records) = (Vec::new(), Vec::new());
    for r in results {
        let (c, w) = r.unwrap();
        claims.extend(c);
        records.extend(w);
    }
    claims.sort();
    records.sort();
    println!(
        "queue/latency (4 clients, {} claims): claim p50 {:.2} ms p99 {:.2} ms; record p50 {:.2} ms p99 {:.2} ms",
        claims.len(),
        percentile(&claims, 0.5),
        percentile(&claims, 0.99),
        percentile(&records, 0.5),
        percentile(&records, 0.99)
    );
}

/// Sets per throughput run: 1,000 sets are 4,000 games.
const THROUGHPUT_SETS: u64 = 1_000;

/// One throughput run: a coordinator creates the tournament (`--jobs 0`), then 4 workers
/// play it; returns games/s from the workers' start to the last worker's exit.
fn throughput_run(url: &str, run: u64) -> f64 {
    let bin = env!("CARGO_BIN_EXE_mjai-sim");
    let dir = tempfile::tempdir().unwrap();
    let bots = ["builtin:tsumogiri", "b=builtin:tsumogiri", "c=builtin:tsumogiri", "d=builtin:tsumogiri"];
    let mut coordinator = Command::new(bin)
        .args(["tournament", "--db", url, "--jobs", "0", "--no-logs", "--no-html"])
        .args(["--sets", &THROUGHPUT_SETS.to_string(), "--seed", &format!("{run},7"), "--dir"])
        .arg(dir.path().join("t"))
        .args(bots)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Its first line says the tournament is in the database.
    let mut err = BufReader::new(coordinator.stderr.take().unwrap());
    let mut first = String::new();
    err.read_line(&mut first).unwrap();
    assert!(first.contains("tournament"), "coordinator: {first}");
    let drain = std::thread::spawn(move || std::io::read_to_string(err).unwrap_or_default());
    let start = Instant::now();
    let workers: Vec<_> = (0..4)
        .map(|w| {
            Command::new(bin)
                .args(["worker", "--db", url, "--jobs", "1", "--exit-when-idle", "--name", &format!("q{run}-{w}")])
                .arg("--work-dir")
                .arg(dir.path().join(format!("w{w}")))
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for w in workers {
        let out = w.wait_with_output().unwrap();
        assert!(out.status.success(), "a worker failed: {}", String::from_utf8_lossy(&out.stderr));
    }
    let secs = start.elapsed().as_secs_f64();
    let status = coordinator.wait().unwrap();
    assert!(status.success(), "the coordinator failed: {}", drain.join().unwrap());
    (THROUGHPUT_SETS * 4) as f64 / secs
}

/// Queue throughput with 4 worker processes, median of 3 runs, each in a database of its
/// own (workers take games of any tournament in their database).
fn throughput(rt: &tokio::runtime::Runtime, url: &str) {
    let admin = rt.block_on(sqlx::postgres::PgPool::connect(url)).unwrap();
    let base = url.strip_suffix("/postgres").expect("a URL of the postgres database");
    let mut runs: Vec<f64> = (0..3)
        .map(|r| {
            rt.block_on(sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE tp{r}"))).execute(&admin)).unwrap();
            throughput_run(&format!("{base}/tp{r}"), r)
        })
        .collect();
    runs.sort_by(f64::total_cmp);
    println!(
        "queue/throughput (4 workers --jobs 1, 4 builtin:tsumogiri, {} games a run): median {:.0} games/s (runs: {})",
        THROUGHPUT_SETS * 4,
        runs[1],
        runs.iter().map(|r| format!("{r:.0}")).collect::<Vec<_>>().join(", ")
    );
}

fn bench(c: &mut Criterion) {
    let pg = PgCluster::start();
    let url = pg.url();
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let store = rt.block_on(queue(&url, "criterion", 5_000));
    let mut group = c.benchmark_group("queue");
    group.sample_size(20);
    group.bench_function("claim_1_and_record", |b| {
        b.iter(|| {
            rt.block_on(async {
                let games = store.leases().claim("solo", 1, LEASE_MS).await.unwrap();
                store.games().record(&[record_of(&games[0])], &[]).await.unwrap();
            })
        })
    });
    group.finish();
    latencies(&rt, &url);
    throughput(&rt, &url);
}

criterion_group!(benches, bench);
criterion_main!(benches);
