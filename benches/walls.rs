//! Cost of dealing one seeded wall (mjai.app's scheme: SHA3-256, ChaCha12, rand 0.8 shuffle
//! of 136 tiles, split into haipai, live wall and dead wall). A hanchan deals 8-15 walls.
//!
//! Run: `cargo bench --bench walls`. Criterion prints the time per wall.

use criterion::{criterion_group, criterion_main, Criterion};
use mjai_sim::engine::game::wall::Wall;

fn walls(c: &mut Criterion) {
    let mut honba = 0u8;
    c.bench_function("wall/seeded", |b| {
        b.iter(|| {
            honba = honba.wrapping_add(1);
            std::hint::black_box(Wall::seeded(std::hint::black_box([7, 3]), 5, honba))
        })
    });
}

criterion_group!(benches, walls);
criterion_main!(benches);
