//! Time to build one game's `game.html` (`mjai-sim view`, and after each game of the main
//! job): parse the log, replay it through the engine to score every win, serialise the
//! page. Input: self-play hanchans with calls (two `random`, two `rulebase` bots), as log
//! text. Prints the page size once. Target: ≤ 20 ms per hanchan.
//!
//! Run: `cargo bench --bench view`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use mjai_sim::bots::{from_spec, selfplay};
use mjai_sim::view::game::analyse;
use mjai_sim::view::{render_game, GameInput};

fn logs() -> Vec<String> {
    let names = ["builtin:random", "builtin:rulebase", "builtin:random", "builtin:rulebase"];
    (0..8)
        .map(|i| {
            let mut agents = names.map(|n| from_spec(n).unwrap());
            let g = selfplay::play(
                selfplay::series_config(77, i, names.map(String::from)),
                &mut agents,
                &mut selfplay::IgnoreAnswers,
            )
            .unwrap();
            g.log.iter().map(|e| e.to_json() + "\n").collect()
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let logs = logs();
    let sizes: Vec<(usize, usize)> = logs
        .iter()
        .map(|l| (l.len(), render_game(&GameInput { log: l, ..Default::default() }).unwrap().len()))
        .collect();
    let (log, page) = sizes.iter().fold((0, 0), |(a, b), (x, y)| (a + x, b + y));
    println!(
        "view: {} hanchans, mean log {} bytes, mean page {} bytes (page minus log: {} bytes)",
        logs.len(),
        log / logs.len(),
        page / logs.len(),
        (page - log) / logs.len()
    );
    let mut i = 0;
    c.bench_function("render_game per hanchan", |b| {
        b.iter(|| {
            i = (i + 1) % logs.len();
            black_box(render_game(&GameInput { log: &logs[i], ..Default::default() }).unwrap().len())
        })
    });
    c.bench_function("analyse per hanchan (no page)", |b| {
        b.iter(|| {
            i = (i + 1) % logs.len();
            black_box(analyse(&GameInput { log: &logs[i], ..Default::default() }).unwrap().events.len())
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
