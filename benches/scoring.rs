//! Throughput of agari decomposition + yaku + fu + points (`evaluate`) on random winning
//! hands from the differential test's generator (fixed seed; open calls, chiitoitsu,
//! kokushi, flags and dora included). Prints scored wins per second: criterion's wall-clock
//! figure, and one per CPU-second of this thread (from `/proc/thread-self/schedstat`, Linux),
//! which stays meaningful on a machine shared with other jobs.
//!
//! Run: `cargo bench --bench scoring`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use mjai_sim::engine::hand::evaluate;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;

#[path = "../tests/common/gen.rs"]
mod gen;

const HANDS: usize = 10_000;

/// Nanoseconds this thread has spent on a CPU (Linux schedstat), if readable.
fn thread_cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// Scores the hands repeatedly for about two CPU-seconds and prints wins per CPU-second.
fn per_cpu_second(hands: &[mjai_sim::engine::hand::WinContext]) {
    let Some(start) = thread_cpu_ns() else {
        println!("evaluate: no /proc/thread-self/schedstat, CPU-time figure skipped");
        return;
    };
    let mut rounds = 0u64;
    let mut now = start;
    while now - start < 2_000_000_000 {
        for h in hands {
            black_box(evaluate(black_box(h)).is_ok());
        }
        rounds += 1;
        now = thread_cpu_ns().unwrap_or(u64::MAX);
    }
    let per_s = (rounds * hands.len() as u64) as f64 / ((now - start) as f64 / 1e9);
    println!("evaluate: {:.2} million hands per CPU-second ({} rounds of {})", per_s / 1e6, rounds, hands.len());
}

fn scoring(c: &mut Criterion) {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let hands: Vec<_> = (0..HANDS).map(|_| gen::random_win(&mut rng)).collect();
    per_cpu_second(&hands);
    let mut group = c.benchmark_group("evaluate");
    group.throughput(Throughput::Elements(HANDS as u64));
    group.bench_function("random_wins", |b| {
        b.iter(|| {
            let mut scored = 0u32;
            for h in &hands {
                scored += u32::from(evaluate(black_box(h)).is_ok());
            }
            scored
        })
    });
    group.finish();
}

criterion_group!(benches, scoring);
criterion_main!(benches);
