//! Shanten speed: random 14-tile and 13-tile hands (fixed seed), waits of tenpai hands,
//! and the rulebase bot's per-discard evaluation. Prints the one-time table build first.
//!
//! Run: `cargo bench --bench shanten`. Throughput figures are hands per second on one core.

use std::hint::black_box;
use std::time::Instant;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use mjai_sim::engine::hand::{discard_choices, shanten, waits};
use mjai_sim::engine::tile::KINDS;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

const HANDS: usize = 4096;

/// `HANDS` hands of `n` tiles, each drawn from a freshly shuffled 136-tile set.
fn random_hands(n: usize, seed: u64) -> Vec<[u8; KINDS]> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut wall: Vec<usize> = (0..136).collect();
    (0..HANDS)
        .map(|_| {
            wall.shuffle(&mut rng);
            let mut c = [0u8; KINDS];
            wall[..n].iter().for_each(|&t| c[t / 4] += 1);
            c
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let start = Instant::now();
    let mut first = [0u8; KINDS];
    first[..13].fill(1);
    black_box(shanten(&first, 0));
    println!("table build (first call): {:.1} ms", start.elapsed().as_secs_f64() * 1e3);

    let fourteen = random_hands(14, 1);
    let thirteen = random_hands(13, 2);
    let tenpai: Vec<[u8; KINDS]> = {
        let mut out = Vec::new();
        let mut seed = 3;
        while out.len() < 256 {
            out.extend(random_hands(13, seed).into_iter().filter(|h| shanten(h, 0) == 0));
            seed += 1;
        }
        out
    };

    let mut g = c.benchmark_group("shanten");
    g.throughput(Throughput::Elements(HANDS as u64));
    g.bench_function("random 14-tile hands", |b| {
        b.iter(|| fourteen.iter().map(|h| shanten(black_box(h), 0) as i32).sum::<i32>())
    });
    g.bench_function("random 13-tile hands", |b| {
        b.iter(|| thirteen.iter().map(|h| shanten(black_box(h), 0) as i32).sum::<i32>())
    });
    g.throughput(Throughput::Elements(tenpai.len() as u64));
    g.bench_function("waits of tenpai 13-tile hands", |b| {
        b.iter(|| tenpai.iter().map(|h| waits(black_box(h), 0)).fold(0, |a, w| a ^ w))
    });
    g.throughput(Throughput::Elements(256));
    g.bench_function("discard choices of random 14-tile hands", |b| {
        b.iter(|| fourteen[..256].iter().map(|h| discard_choices(black_box(h), 0, h).len()).sum::<usize>())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
