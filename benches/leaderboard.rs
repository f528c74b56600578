//! Leaderboard latency from the store's per-bot aggregates at 1,000,000 stored games, on
//! SQLite and on PostgreSQL (a throwaway cluster, as the pg tests start it), beside today's
//! full read (every result row, then `standings::compute`) at 100,000 games, and the time
//! to void 1,000 of those 100,000 games (issue 54: every aggregate folded again).
//!
//! The games are not played: a league of 20 bots gets its schedule (`duplicate`) through
//! `Store::create` and random results by multi-row `INSERT`s, then one fold
//! (`Store::catch_up`, the backfill of a database made before the aggregates) folds them.
//! Printed per engine and size: fill and fold times, `Store::leaderboard` and
//! `Store::bot_page` latency p50/p99 over 200 calls each (uncached: the server caches the
//! leaderboard between folds). Target: p99 ≤ 50 ms at 1,000,000 games.
//!
//! Run: `cargo bench --profile test --bench leaderboard` (needs PostgreSQL's initdb and
//! pg_ctl, as the pg tests; `LEADERBOARD_GAMES=N` changes the large size).

#[path = "support/league_fill.rs"]
mod league_fill;
#[path = "../tests/pg_support/mod.rs"]
mod pg_support;

use std::time::{Duration, Instant};

use league_fill::{fill, BOTS};
use mjai_sim::tournament::config::TournamentConfig;
use mjai_sim::tournament::leaderboard::aggregate::DECAY_TAU;
use mjai_sim::tournament::leaderboard::shape::VersionPick;
use mjai_sim::tournament::standings::{compute, StandingsOptions};
use mjai_sim::tournament::store::{Store, VoidSelector, DB_FILE};
use sqlx::AnyPool;

fn percentiles(mut d: Vec<Duration>) -> (f64, f64) {
    d.sort();
    let ms = |x: Duration| x.as_secs_f64() * 1000.0;
    (ms(d[d.len() / 2]), ms(d[(d.len() * 99 / 100).min(d.len() - 1)]))
}

async fn latency(store: &Store, label: &str) {
    let mut board = Vec::new();
    for _ in 0..200 {
        let t = Instant::now();
        let b = store.board().leaderboard(DECAY_TAU).await.unwrap();
        board.push(t.elapsed());
        assert_eq!(b.bots.len(), BOTS);
    }
    let mut page = Vec::new();
    for i in 0..200 {
        let t = Instant::now();
        let p =
            store.board().bot_page(&format!("bot{}", i % BOTS), VersionPick::Latest, DECAY_TAU).await.unwrap().unwrap();
        page.push(t.elapsed());
        assert_eq!(p.recent_games.len(), 50);
    }
    let (b50, b99) = percentiles(board);
    let (p50, p99) = percentiles(page);
    println!("{label}: leaderboard p50 {b50:.2} ms p99 {b99:.2} ms; bot page p50 {p50:.2} ms p99 {p99:.2} ms");
}

/// Fills a league of `games` games, folds it and prints the figures.
async fn measure(db: &Store, pool: &AnyPool, name: &str, tid: &str, games: u64) {
    let t = Instant::now();
    let store = fill(db, pool, tid, games).await;
    let filled = t.elapsed();
    let t = Instant::now();
    let folded = store.aggregates().catch_up().await.unwrap();
    let fold = t.elapsed();
    assert_eq!(folded, games);
    println!(
        "{name}, {games} games: bulk fill {:.1} s, fold (backfill) {:.1} s ({:.1} µs per game)",
        filled.as_secs_f64(),
        fold.as_secs_f64(),
        fold.as_secs_f64() * 1e6 / games as f64
    );
    latency(&store, &format!("{name}, {games} games, aggregates")).await;
    if games <= 100_000 {
        let t = Instant::now();
        let names: Vec<String> = store.bots().await.unwrap().into_iter().map(|b| b.name).collect();
        let records = store.games().records().await.unwrap();
        let s = compute(&names, &records, &StandingsOptions::new(config_uma(), 7));
        assert_eq!(s.games, games);
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        println!("{name}, {games} games, today's full read + standings::compute: {ms:.0} ms");
        // issue 54: voiding 1,000 games folds every aggregate again without them
        let ids: Vec<u64> = (games / 2..games / 2 + 1000).collect();
        let t = Instant::now();
        let voided = store.voids().void(&VoidSelector::Games(ids), "bench").await.unwrap();
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        assert_eq!(voided.len(), 1000);
        println!("{name}, {games} games, void 1,000 games and re-rate (fold again): {ms:.0} ms");
    }
}

fn config_uma() -> Vec<f64> {
    TournamentConfig::default().uma
}

fn main() {
    let large: u64 = std::env::var("LEADERBOARD_GAMES").ok().and_then(|v| v.parse().ok()).unwrap_or(1_000_000);
    let sizes = [("small", 100_000u64), ("large", large)];
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    rt.block_on(async {
        sqlx::any::install_default_drivers();
        let dir = tempfile::tempdir().unwrap();
        // SQLite: one league per file
        for (tid, games) in sizes {
            let file = dir.path().join(format!("{tid}-{DB_FILE}"));
            let db = Store::open(&file).await.unwrap();
            let pool = AnyPool::connect(&format!("sqlite:{}", file.display())).await.unwrap();
            measure(&db, &pool, "SQLite", tid, games).await;
            pool.close().await;
            db.close().await;
        }
        let pg = pg_support::PgCluster::start();
        let db = Store::open_url(&pg.url(), 4).await.unwrap();
        let pool = AnyPool::connect(&pg.url()).await.unwrap();
        for (tid, games) in sizes {
            measure(&db, &pool, "PostgreSQL", tid, games).await;
        }
    });
}
