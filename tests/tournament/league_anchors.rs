//! Issue 30: a grading server's house bots keep their anchors while uploads catch up. A
//! league of 4 house bots plays 50 sets; then 10 bots arrive and 100 more sets are played
//! (results drawn at random, recorded through the store as workers do). Every new table
//! holds a house bot, the house bots keep at least a quarter of the seats, and their σ as
//! the leaderboard shows it (decayed by the games they sat out) stays where it was, where
//! before the rule they sat out every table until the uploads caught up.

use crate::aggregates_support::{bot_rows, config, random_records};
use mjai_sim::tournament::leaderboard::aggregate::{decayed_sigma, DECAY_TAU};
use mjai_sim::tournament::store::{AddBot, Store, DB_FILE};

const LEASE: i64 = 600_000;

/// Tops up, claims and records `sets` sets at random: the tables played.
async fn play_sets(store: &Store, sets: u64, seed: u64) -> Vec<Vec<usize>> {
    let mut tables = Vec::new();
    let mut played = 0;
    while played < sets * 4 {
        store.league().top_up(4).await.unwrap();
        let games = store.leases().claim("w", 8, LEASE).await.unwrap();
        assert!(!games.is_empty(), "nothing to play");
        played += games.len() as u64;
        tables.extend(games.iter().filter(|g| g.index % 4 == 0).map(|g| g.seats.clone()));
        store.games().record(&random_records(&games, seed + played), &[]).await.unwrap();
    }
    tables
}

/// The house bots' (0..4) σ as the leaderboard shows it, decayed.
async fn house_sigmas(store: &Store) -> Vec<f64> {
    let agg = store.aggregates().all().await.unwrap();
    (0..4)
        .map(|b| {
            let a = &agg.bots[&b];
            decayed_sigma(a.rating.sigma, agg.folded.saturating_sub(a.last_seq), DECAY_TAU)
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn house_bots_keep_their_seats_and_sigma_while_ten_uploads_play() {
    let tmp = tempfile::tempdir().unwrap();
    let store = Store::open(&tmp.path().join(DB_FILE)).await.unwrap();
    let store = store.create("league", &config(4, 0, 7), &bot_rows(4), &[]).await.unwrap();
    for b in 0..4 {
        store.versions().add_house(&format!("b{b}"), "00", b).await.unwrap();
    }
    play_sets(&store, 50, 1).await;
    let before = house_sigmas(&store).await;
    for i in 0..10 {
        let added = store.league().add_bot(&format!("up{i}"), "builtin:tsumogiri", "00", None).await.unwrap();
        assert!(matches!(added, AddBot::Added { .. }));
    }
    let tables = play_sets(&store, 100, 2).await;
    let house = |t: &Vec<usize>| t.iter().filter(|&&b| b < 4).count();
    assert!(tables.iter().all(|t| house(t) >= 1), "a table without a house bot");
    let seats: usize = tables.iter().map(house).sum();
    let share = seats as f64 / (tables.len() * 4) as f64;
    assert!(share >= 0.25, "house seat share {share:.2}");
    assert!(share < 0.6, "the uploads still get most seats while they catch up: {share:.2}");
    let after = house_sigmas(&store).await;
    for (b, (s0, s1)) in before.iter().zip(&after).enumerate() {
        assert!(*s1 <= s0 + 0.05, "house bot {b}: σ {s0:.3} -> {s1:.3}");
    }
    println!("house seat share {share:.2}; house σ {before:.3?} -> {after:.3?}");
}
