//! Time to build one game's `game.html` (`mjai-sim view`, and after each game of the main
//! job): parse the log, replay it through the engine to score every win, serialise the
//! page. Input: self-play hanchans with calls (two `random`, two `rulebase` bots), as log
//! text. Prints the page size once. Target: ≤ 20 ms per hanchan.
//!
//! Also the grading server's pages (`pages::site`): the leaderboard of a league of 1,000 bot
//! versions and a bot page with its 50 recent games, 200 rating points and 100 opponents.
//!
//! Run: `cargo bench --bench view`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use mjai_sim::bots::{from_spec, selfplay};
use mjai_sim::pages::site::{bot_page, leaderboard_page, PageContext};
use mjai_sim::tournament::leaderboard::{
    BotKind, BotPage, BotStatus, GameLine, HeadToHead, Leaderboard, LeaderboardEntry, Rating, VersionLine,
};
use mjai_sim::viewer::game::analyse;
use mjai_sim::viewer::{render_game, GameInput};

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

/// Bot `i` of a large league: every figure present.
fn entry(i: usize) -> LeaderboardEntry {
    LeaderboardEntry {
        name: format!("bot-{i:04}"),
        author: Some(format!("author-{}", i % 300)),
        version: 1 + (i % 3) as u32,
        status: if i % 10 == 9 { BotStatus::Retired } else { BotStatus::Active },
        games: 40 + i as u64,
        avg_rank: Some(2.5),
        avg_rank_ci: Some([2.41, 2.59]),
        avg_pt: Some(-0.4),
        avg_pt_ci: Some([-3.2, 2.4]),
        rating: Rating { mu: 25.0 + (i % 7) as f64, sigma: 1.2 },
        peak: Some(22.1),
        provisional: false,
        last_game: Some(1_000_000 - i as u64),
        last_game_at: None,
        chombos_per_game: Some(0.0),
        kind: BotKind::Zip,
        online: true,
    }
}

fn site(c: &mut Criterion) {
    let board = Leaderboard { players: 4, bots: (0..1000).map(entry).collect() };
    let ctx = PageContext::default();
    println!("site: leaderboard of 1000 bots: {} bytes", leaderboard_page(&board, &ctx).len());
    c.bench_function("leaderboard_page, 1000 bots", |b| b.iter(|| black_box(leaderboard_page(&board, &ctx).len())));
    let page = BotPage {
        entry: entry(1),
        versions: vec![VersionLine { version: 1, status: BotStatus::Active }],
        reason: None,
        rank_counts: vec![300, 250, 250, 200],
        rating_history: (1..=200).map(|g| (g * 5, 25.0 + (g % 13) as f64 / 4.0)).collect(),
        rating_history_at: Vec::new(),
        head_to_head: (0..100)
            .map(|i| HeadToHead {
                opponent: format!("bot-{i:04}"),
                opponent_version: 1,
                games: 30,
                above: 14,
                rank_diff: -0.1,
            })
            .collect(),
        recent_games: (0..50)
            .map(|i| GameLine {
                id: 999_000 + i,
                bots: ["bot-0001", "bot-0002", "bot-0003", "bot-0004"].map(String::from).to_vec(),
                versions: vec![1; 4],
                ranks: vec![1, 2, 3, 4],
                scores: vec![40000, 30000, 20000, 10000],
                finished_at: None,
            })
            .collect(),
        table_time: None,
    };
    println!("site: bot page: {} bytes", bot_page(&page, None, &ctx).len());
    c.bench_function("bot_page, 50 games, 200 ratings", |b| b.iter(|| black_box(bot_page(&page, None, &ctx).len())));
}

criterion_group!(benches, bench, site);
criterion_main!(benches);
