//! A league filled without playing (the leaderboard and serve benches): [`BOTS`] house bots
//! of `builtin:tsumogiri`, a duplicate schedule through `Store::create`, random results by
//! multi-row `INSERT`s, every game `done`. The aggregates are not folded here: the caller
//! folds (`Store::catch_up`) and times it.
#![allow(dead_code)]

use mjai_sim::tournament::config::TournamentConfig;
use mjai_sim::tournament::schedule::{duplicate, ScheduledGame};
use mjai_sim::tournament::store::{BotRow, Store};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sqlx::AnyPool;

pub const BOTS: usize = 20;
/// Result rows per `INSERT` (6 parameters each).
const ROWS_PER_INSERT: usize = 2000;

/// The league's stored options (a league: `sets` 0).
pub fn config() -> String {
    TournamentConfig {
        bots: vec!["builtin:tsumogiri".into(); BOTS],
        sets: 0,
        seed: [7, 0],
        runtime: mjai_sim::arena::launch::RuntimeKind::Process,
        ..TournamentConfig::default()
    }
    .to_json()
}

/// A league of [`BOTS`] house bots with `games` finished games (bulk inserts).
pub async fn fill(db: &Store, pool: &AnyPool, tid: &str, games: u64) -> Store {
    let rows: Vec<BotRow> = (0..BOTS)
        .map(|i| BotRow { idx: i, name: format!("bot{i}"), spec: "builtin:tsumogiri".into(), sha256: "00".into() })
        .collect();
    let schedule = duplicate(BOTS, games / 4, [7, 0]);
    let store = db.create(tid, &config(), &rows, &schedule).await.unwrap();
    for r in &rows {
        store.versions().add_house(&r.name, "00", r.idx).await.unwrap();
    }
    insert_results(pool, store.id(), &schedule).await;
    store
}

/// Random results of every scheduled game, [`ROWS_PER_INSERT`] rows per statement, then
/// every game `done`.
async fn insert_results(pool: &AnyPool, t: i64, schedule: &[ScheduledGame]) {
    let mut rng = ChaCha8Rng::seed_from_u64(t as u64);
    let seats: Vec<(i64, i64, i64, i64)> = schedule
        .iter()
        .flat_map(|g| {
            let mut ranks = [1i64, 2, 3, 4];
            ranks.shuffle(&mut rng);
            (0..4).map(move |s| (g.index as i64, s as i64, g.seats[s] as i64, ranks[s]))
        })
        .collect();
    for chunk in seats.chunks(ROWS_PER_INSERT) {
        let values: Vec<String> = (0..chunk.len())
            .map(|i| {
                let p = 6 * i;
                format!("(${}, ${}, ${}, ${}, ${}, ${}, '{{}}')", p + 1, p + 2, p + 3, p + 4, p + 5, p + 6)
            })
            .collect();
        let sql =
            format!("INSERT INTO results (t, game_idx, seat, bot, score, rank, stats) VALUES {}", values.join(", "));
        let mut q = sqlx::query(sqlx::AssertSqlSafe(sql));
        for &(g, s, b, k) in chunk {
            q = q.bind(t).bind(g).bind(s).bind(b).bind(60_000 - 15_000 * k).bind(k);
        }
        q.execute(pool).await.unwrap();
    }
    sqlx::query("UPDATE games SET state = 'done' WHERE t = $1").bind(t).execute(pool).await.unwrap();
}
