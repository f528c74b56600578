//! Full hanchans per second of in-process self-play (log in memory), one core:
//! four `tsumogiri` and four `rulebase`, and three of each under `riichi-dev-3p` (sanma).
//! Goal: at least 2,000 tsumogiri hanchans/s.
//!
//! Run: `cargo bench --bench selfplay`. Criterion prints the time per hanchan; the
//! throughput line gives hanchans/s (elements/s).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use mjai_sim::bots::selfplay::{play_with_rules, series_config_for, IgnoreAnswers};
use mjai_sim::bots::{by_name, Agent};
use mjai_sim::engine::game::Rules;

fn hanchans(c: &mut Criterion) {
    let mut group = c.benchmark_group("selfplay");
    group.throughput(Throughput::Elements(1));
    // A hanchan takes milliseconds: ten samples keep a run short on a shared machine.
    group.sample_size(10);
    // Tenhou's four-player rules (what `play` plays) and riichi.dev's three-player ones.
    let tables = [("hanchan", "4x", Rules::tenhou()), ("hanchan-3p", "3x", Rules::riichi_dev_3p())];
    for (group_name, seats, rules) in tables {
        for name in ["tsumogiri", "rulebase"] {
            let mut index = 0u64;
            group.bench_function(format!("{group_name}/{seats}{name}"), |b| {
                b.iter(|| {
                    let mut agents: [Box<dyn Agent>; 4] = std::array::from_fn(|_| by_name(name).unwrap());
                    index += 1;
                    let config = series_config_for(2024, index, [name; 4].map(String::from), rules.players);
                    let game = play_with_rules(config, rules, &mut agents, &mut IgnoreAnswers)
                        .expect("self-play game finishes");
                    std::hint::black_box(game.scores)
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, hanchans);
criterion_main!(benches);
