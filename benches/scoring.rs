//! Throughput of agari decomposition + yaku + fu + points (`evaluate`) on random winning
//! hands from the differential test's generator (fixed seed; open calls, chiitoitsu,
//! kokushi, flags and dora included). Prints scored wins per second per core.
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

fn scoring(c: &mut Criterion) {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let hands: Vec<_> = (0..HANDS).map(|_| gen::random_win(&mut rng)).collect();
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
