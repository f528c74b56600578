//! Full hanchans per second of in-process self-play (log in memory), one core:
//! four `tsumogiri` and four `rulebase`, and three of each under `riichi-dev-3p` (sanma).
//! Goal: at least 2,000 tsumogiri hanchans/s.
//!
//! Run: `cargo bench --bench selfplay`. Criterion prints the time per hanchan; the
//! throughput line gives hanchans/s (elements/s).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use mjai_sim::bots::selfplay::{play, play_with_rules, series_config, series_config_for, IgnoreAnswers};
use mjai_sim::bots::{by_name, Agent};
use mjai_sim::engine::game::{Players, Rules};

fn hanchans(c: &mut Criterion) {
    let mut group = c.benchmark_group("selfplay");
    group.throughput(Throughput::Elements(1));
    // A hanchan takes milliseconds: ten samples keep a run short on a shared machine.
    group.sample_size(10);
    for name in ["tsumogiri", "rulebase"] {
        let mut index = 0u64;
        group.bench_function(format!("hanchan/4x{name}"), |b| {
            b.iter(|| {
                let mut agents: [Box<dyn Agent>; 4] = std::array::from_fn(|_| by_name(name).unwrap());
                index += 1;
                let game =
                    play(series_config(2024, index, [name; 4].map(String::from)), &mut agents, &mut IgnoreAnswers)
                        .expect("self-play game finishes");
                std::hint::black_box(game.scores)
            })
        });
    }
    for name in ["tsumogiri", "rulebase"] {
        let mut index = 0u64;
        group.bench_function(format!("hanchan-3p/3x{name}"), |b| {
            b.iter(|| {
                let mut agents: [Box<dyn Agent>; 4] = std::array::from_fn(|_| by_name(name).unwrap());
                index += 1;
                let config = series_config_for(2024, index, [name; 4].map(String::from), Players::Three);
                let game = play_with_rules(config, Rules::riichi_dev_3p(), &mut agents, &mut IgnoreAnswers)
                    .expect("self-play game finishes");
                std::hint::black_box(game.scores)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, hanchans);
criterion_main!(benches);
