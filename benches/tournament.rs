//! Throughput of the tournament path with four `builtin:tsumogiri`: schedule, claim, play,
//! record in SQLite (one transaction per batch). `cargo bench --bench tournament` prints the
//! time per batch of 400 hanchans; games/s = 400 / time. Two cases: game folders off
//! (`--no-logs`) and on (the default: mjai_log.json, summary.json, ... per game); and, as a
//! league's games are, stored in the database without and with each game's trace for
//! disputes (issue 54: the trace's cost on games/s).

use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use mjai_sim::arena::launch::{LaunchSettings, RuntimeKind, Transport};
use mjai_sim::arena::MatchOptions;
use mjai_sim::engine::game::Rules;
use mjai_sim::tournament::observer::Quiet;
use mjai_sim::tournament::pool::{BotFactory, LoadedBot, Pool};
use mjai_sim::tournament::runner::{run, RunOptions};
use mjai_sim::tournament::schedule::duplicate;
use mjai_sim::tournament::store::retry::Patience;
use mjai_sim::tournament::store::{BotRow, Store, DB_FILE};

const SETS: u64 = 100;

fn play_batch(rt: &tokio::runtime::Runtime, logs: bool, jobs: usize) {
    play_stored(rt, logs, false, false, jobs)
}

/// [`play_batch`] with each game's files stored in the database (as a league's are), with
/// or without its trace for disputes.
fn play_stored(rt: &tokio::runtime::Runtime, logs: bool, stored: bool, traces: bool, jobs: usize) {
    let tmp = tempfile::tempdir().unwrap();
    rt.block_on(async {
        let store = Store::open(&tmp.path().join(DB_FILE)).await.unwrap();
        let rows: Vec<BotRow> = (0..4)
            .map(|i| BotRow { idx: i, name: format!("t{i}"), spec: "builtin:tsumogiri".into(), sha256: String::new() })
            .collect();
        store.create("bench", "{}", &rows, &duplicate(4, SETS, [1, 0])).await.unwrap();
        let settings = LaunchSettings {
            runtime: RuntimeKind::Process,
            transport: Transport::Stdio,
            image: None,
            max_submission_bytes: 0,
            stderr_paths: std::array::from_fn(|_| "/dev/null".into()),
            resources: Default::default(),
            batch: None,
        };
        let bots = vec![LoadedBot::Builtin("tsumogiri".into()); 4];
        let factory = Arc::new(BotFactory::new(bots, &settings).await.unwrap());
        let pool = Arc::new(Pool::new(factory, false, jobs, tmp.path().join("bot_logs")));
        let options = RunOptions {
            jobs,
            logs,
            html: false,
            dir: tmp.path().to_path_buf(),
            match_options: MatchOptions::default(),
            rules: Rules::default(),
            names: rows.iter().map(|r| r.name.clone()).collect(),
            worker: "bench".into(),
            lease: std::time::Duration::from_secs(30),
            store_files: stored,
            patience: Patience::none(),
            open_ended: false,
            live_hands: false,
            traces,
        };
        let stop = mjai_sim::arena::cancel::CancelToken::new();
        run(&store, pool, &options, stop, &Quiet).await.unwrap();
        assert_eq!(store.games().counts().await.unwrap().done, SETS * 4);
        store.close().await;
    });
}

fn tournament(c: &mut Criterion) {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let jobs = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let mut group = c.benchmark_group("tournament");
    group.sample_size(10);
    group.throughput(Throughput::Elements(SETS * 4));
    group.bench_function("tsumogiri_x4_no_logs", |b| b.iter(|| play_batch(&rt, false, jobs)));
    group.bench_function("tsumogiri_x4_logs", |b| b.iter(|| play_batch(&rt, true, jobs)));
    // a league's games: files stored in the database, without and with their traces
    group.bench_function("tsumogiri_x4_stored", |b| b.iter(|| play_stored(&rt, true, true, false, jobs)));
    group.bench_function("tsumogiri_x4_stored_traced", |b| b.iter(|| play_stored(&rt, true, true, true, jobs)));
    group.finish();
}

criterion_group!(benches, tournament);
criterion_main!(benches);
