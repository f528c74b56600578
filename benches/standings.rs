//! Standings of a long tournament: `standings::compute` over 100,000 game records (25,000
//! duplicate sets; 4 bots, and 9 bots), 1,000 bootstrap resamples; and reading one game's
//! statistics off its log (`SeatStats::from_log`, a self-play game of four `random` bots).
//! Goal: `compute` well under a second or two. Also prints the size of the records
//! (memory and JSON text of `stats`, what the results store keeps per game).
//!
//! Run: `cargo bench --bench standings`.

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use mjai_sim::bots::by_name;
use mjai_sim::bots::selfplay::{play, series_config, IgnoreAnswers};
use mjai_sim::stats::timing::TimeHistogram;
use mjai_sim::tournament::record::{GameRecord, SeatStats};
use mjai_sim::tournament::standings::{compute, StandingsOptions, MORTAL_UMA};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// `games` records in sets of 4; each set seats 4 of `bots` bots (rotated), ranks random,
/// stats of a typical hanchan with ~60 decision times per seat.
fn records(games: u64, bots: usize) -> Vec<GameRecord> {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut out = Vec::with_capacity(games as usize);
    let mut table = [0usize, 1, 2, 3];
    for index in 0..games {
        let set = index / 4;
        if index % 4 == 0 {
            let first = (set as usize * 4) % bots;
            table = std::array::from_fn(|k| (first + k) % bots);
        }
        let g = (index % 4) as usize;
        let seats: [usize; 4] = std::array::from_fn(|s| table[(s + g) % 4]);
        let mut ranks = [1u8, 2, 3, 4];
        for i in (1..4).rev() {
            ranks.swap(i, rng.random_range(0..=i));
        }
        let scores = ranks.map(|r| 50000 - 10000 * i32::from(r));
        let stats: [SeatStats; 4] = std::array::from_fn(|_| {
            let times: Vec<Duration> = (0..60).map(|_| Duration::from_micros(rng.random_range(200..5000))).collect();
            SeatStats {
                kyokus: 11,
                horas: rng.random_range(0..4),
                tsumos: rng.random_range(0..2),
                hora_points: 7700,
                deal_ins: rng.random_range(0..3),
                deal_in_points: 3900,
                reaches: rng.random_range(0..3),
                calls: rng.random_range(0..4),
                draws: 2,
                tenpai_draws: rng.random_range(0..2),
                chombos: 0,
                times: TimeHistogram::of(&times),
            }
        });
        out.push(GameRecord {
            index,
            set,
            seats: seats.to_vec(),
            scores: scores.to_vec(),
            ranks: ranks.to_vec(),
            stats: stats.to_vec(),
        });
    }
    out
}

fn report_sizes(recs: &[GameRecord]) {
    let heap: usize = recs.iter().flat_map(|r| r.stats.iter()).map(|s| s.times.buckets().len() * 8).sum();
    let inline = std::mem::size_of_val(recs);
    let json: usize = recs.iter().map(|r| serde_json::to_string(&r.stats).unwrap().len()).sum();
    println!(
        "{} records: {:.1} MiB in memory ({} B inline each + histograms), stats JSON {:.0} B per game",
        recs.len(),
        (heap + inline) as f64 / (1 << 20) as f64,
        std::mem::size_of::<GameRecord>(),
        json as f64 / recs.len() as f64
    );
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("standings");
    group.sample_size(10);
    for bots in [4usize, 9] {
        let recs = records(100_000, bots);
        report_sizes(&recs);
        let names: Vec<String> = (0..bots).map(|b| format!("bot{b}")).collect();
        let options = StandingsOptions::new(MORTAL_UMA.to_vec(), 7);
        group.bench_function(format!("compute/100k-games/{bots}-bots"), |b| {
            b.iter(|| std::hint::black_box(compute(&names, &recs, &options)))
        });
    }
    let mut agents = ["random"; 4].map(|n| by_name(n).unwrap());
    let game = play(series_config(5, 0, ["random"; 4].map(String::from)), &mut agents, &mut IgnoreAnswers).unwrap();
    group.throughput(Throughput::Elements(1));
    group
        .bench_function("from_log/random-hanchan", |b| b.iter(|| std::hint::black_box(SeatStats::from_log(&game.log))));
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
