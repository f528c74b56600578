//! Engine-only speed: one seeded hanchan driven through `pending`/`validate`/`apply`
//! (tsumogiri answers, passes on claims, every answer parsed from JSON), and the replay
//! of such a game's log.
//!
//! Run: `cargo bench --bench game`. Criterion prints the time per hanchan; the throughput
//! line gives hanchans/s (elements/s).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use mjai_sim::engine::event::Event;
use mjai_sim::engine::game::replay::replay;
use mjai_sim::engine::game::{Game, GameConfig, StartState};

fn play(seed: u64) -> Game {
    let names = ["a", "b", "c", "d"].map(String::from);
    let mut g = Game::new(GameConfig { seed: [seed, 1], names, start: StartState::default() });
    while !g.is_over() {
        let mut answers = Vec::with_capacity(4);
        for d in g.pending() {
            let pick = d
                .legal
                .iter()
                .find(|e| matches!(e, Event::Dahai { tsumogiri: true, .. } | Event::None))
                .or_else(|| d.legal.first())
                .expect("a legal answer");
            let checked = g.validate(d.seat, &pick.to_json()).expect("legal answers validate");
            answers.push((d.seat, checked));
        }
        g.apply(&answers).expect("validated answers apply");
    }
    g
}

fn game(c: &mut Criterion) {
    let mut group = c.benchmark_group("game");
    group.throughput(Throughput::Elements(1));
    let mut seed = 0u64;
    group.bench_function("hanchan/tsumogiri+validate", |b| {
        b.iter(|| {
            seed += 1;
            std::hint::black_box(play(seed).scores())
        })
    });
    let log = play(7).log().to_vec();
    group.bench_function("replay/tsumogiri-hanchan", |b| {
        b.iter(|| replay(std::hint::black_box(&log)).expect("replays"))
    });
    group.finish();
}

criterion_group!(benches, game);
criterion_main!(benches);
