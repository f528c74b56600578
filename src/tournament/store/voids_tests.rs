//! Voiding games: the ratings and standings after voiding equal those of a league that
//! never counted those games (the same schedule, those games failed for good instead);
//! marks read back; voiding again or a game not recorded voids nothing.

use sqlx::Row;

use super::*;
use crate::config::TournamentConfig;
use crate::record::GameRecord;

const LEASE: i64 = 60_000;
const BOTS: usize = 6;

async fn league(dir: &Path) -> Store {
    let config = TournamentConfig {
        bots: vec!["builtin:tsumogiri".into(); BOTS],
        sets: 0,
        seed: [11, 3],
        runtime: mjai_sim_arena::launch::RuntimeKind::Process,
        logs: false,
        ..TournamentConfig::default()
    }
    .to_json();
    let rows: Vec<BotRow> = (0..BOTS)
        .map(|i| BotRow { idx: i, name: format!("b{i}"), spec: "builtin:tsumogiri".into(), sha256: "00".into() })
        .collect();
    let store = Store::open(&dir.join(DB_FILE)).await.unwrap();
    store.create("league", &config, &rows, &[]).await.unwrap()
}

/// A result for `game` that varies with the game and the seats (so that ratings move).
fn record_of(index: u64, set: u64, seats: &[usize]) -> GameRecord {
    let key = |s: usize| (seats[s] as u64 * 7 + index * 13 + s as u64 * 5) % 17;
    let mut order: Vec<usize> = (0..seats.len()).collect();
    order.sort_by_key(|&s| (key(s), s));
    let mut ranks = vec![0u8; seats.len()];
    for (k, &s) in order.iter().enumerate() {
        ranks[s] = k as u8 + 1;
    }
    let scores = ranks.iter().map(|&r| 45000 - 10000 * i32::from(r)).collect();
    GameRecord { index, set, seats: seats.to_vec(), scores, ranks, stats: vec![Default::default(); seats.len()] }
}

/// Plays (records) every game of 6 top-ups in both stores, in the same order; a game that
/// `skipped` names is failed for good in `twin` instead of recorded.
async fn play_both(store: &Store, twin: &Store, skipped: impl Fn(&GameRecord) -> bool) {
    for _ in 0..6 {
        store.league().top_up(12).await.unwrap();
        twin.league().top_up(12).await.unwrap();
        let claimed = store.leases().claim("w", 100, LEASE).await.unwrap();
        let twins = twin.leases().claim("w", 100, LEASE).await.unwrap();
        assert_eq!(claimed, twins, "the same schedule");
        for g in &claimed {
            let r = record_of(g.index, g.set, &g.seats);
            store.games().record(std::slice::from_ref(&r), &[]).await.unwrap();
            match skipped(&r) {
                true => twin.games().fail_for_good("w", g.index, "not counted").await.unwrap(),
                false => {
                    twin.games().record(std::slice::from_ref(&r), &[]).await.unwrap();
                }
            }
        }
    }
}

/// Gives `twin`'s games the end times `store`'s have (the rating history is by time), then
/// folds `twin` again.
async fn same_times(store: &Store, twin: &Store) {
    let rows = sqlx::query("SELECT idx, finished_ms FROM games WHERE finished_ms IS NOT NULL")
        .fetch_all(&store.pool)
        .await
        .unwrap();
    for r in rows {
        let (idx, ms): (i64, i64) = (r.get(0), r.get(1));
        sqlx::query("UPDATE games SET finished_ms = $1 WHERE idx = $2")
            .bind(ms)
            .bind(idx)
            .execute(&twin.pool)
            .await
            .unwrap();
    }
    twin.aggregates().rebuild().await.unwrap();
}

#[tokio::test]
async fn ratings_after_voiding_equal_a_league_that_never_counted_those_games() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (store, twin) = (league(a.path()).await, league(b.path()).await);
    // voided: game 5 by id, and every game of bot 3
    let skipped = |r: &GameRecord| r.index == 5 || r.seats.contains(&3);
    play_both(&store, &twin, skipped).await;
    same_times(&store, &twin).await;
    let before = store.aggregates().all().await.unwrap();
    assert_ne!(before, twin.aggregates().all().await.unwrap(), "the twin differs before the voids");

    let first = store.voids().void(&VoidSelector::Games(vec![5]), "a crashing bot spoiled it").await.unwrap();
    assert_eq!(first, vec![5]);
    let by_bot = store.voids().void(&VoidSelector::Bot(3), "bot 3 ran a broken build").await.unwrap();
    assert!(by_bot.len() > 4 && !by_bot.contains(&5), "{by_bot:?}");
    assert_eq!(store.aggregates().all().await.unwrap(), twin.aggregates().all().await.unwrap());
    assert_eq!(store.games().records().await.unwrap(), twin.games().records().await.unwrap());

    let mark = store.voids().of(5).await.unwrap().unwrap();
    assert_eq!(mark.reason, "a crashing bot spoiled it");
    assert!(mark.at_ms > 1_700_000_000_000, "{mark:?}");
    let kept = (0..).find(|g| *g != 5 && !by_bot.contains(g)).unwrap();
    assert_eq!(store.voids().of(kept).await.unwrap(), None, "game {kept} counts");
    assert_eq!(store.voids().count().await.unwrap(), by_bot.len() as u64 + 1);
    // voided once only; a game not recorded (pending or never scheduled) is not voided
    assert!(store.voids().void(&VoidSelector::Games(vec![5]), "again").await.unwrap().is_empty());
    assert_eq!(store.voids().of(5).await.unwrap().unwrap().reason, "a crashing bot spoiled it");
    assert!(store.voids().void(&VoidSelector::Games(vec![100_000]), "none").await.unwrap().is_empty());
    // by time: every game finished in the range
    let all = store.voids().void(&VoidSelector::Finished { from_ms: 0, to_ms: i64::MAX }, "all").await.unwrap();
    assert!(!all.is_empty() && all.iter().all(|g| !by_bot.contains(g) && *g != 5));
    assert_eq!(store.aggregates().all().await.unwrap().bots.len(), 0, "nothing counts once all are voided");
}

#[tokio::test]
async fn games_are_voided_by_the_engine_version_that_recorded_them() {
    let dir = tempfile::tempdir().unwrap();
    let store = league(dir.path()).await;
    store.league().top_up(8).await.unwrap();
    let claimed = store.leases().claim("w", 8, LEASE).await.unwrap();
    let stamp = |version: &str| mjai_sim_arena::engine_stamp::EngineStamp {
        version: version.into(),
        commit: "abc".into(),
        rules: "tenhou".into(),
        clock: "mjai-app 2s+0s".into(),
        runtime: "none".into(),
    };
    for (i, g) in claimed.iter().enumerate() {
        let version = if i % 2 == 0 { "0.1.0" } else { "0.2.0" };
        let r = record_of(g.index, g.set, &g.seats);
        store.games().record_with(&[r], &[], Some(&stamp(version))).await.unwrap();
    }
    let voided = store.voids().void(&VoidSelector::Engine("0.2.0".into()), "erratum 3").await.unwrap();
    let expected: Vec<u64> = claimed.iter().skip(1).step_by(2).map(|g| g.index).collect();
    assert_eq!(voided, expected);
    assert!(store.voids().void(&VoidSelector::Engine("9.9.9".into()), "none").await.unwrap().is_empty());
}
