//! The store's per-bot aggregates on SQLite (issue 21, item 6): games recorded in random
//! order and batches, some given up, one recorded late, give after every batch the
//! figures the standings compute from the rows folded so far; a database without
//! aggregates gets them on its first fold; a rebuild gives the same.

use std::collections::BTreeSet;

use crate::aggregates_support::{assert_matches, bot_rows, config, random_records};
use mjai_sim::tournament::leaderboard::shape::VersionPick;
use mjai_sim::tournament::record::GameRecord;
use mjai_sim::tournament::schedule::duplicate;
use mjai_sim::tournament::store::{Store, DB_FILE};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const LEASE: i64 = 600_000;
const BOTS: usize = 7;
const SETS: u64 = 30;

/// The records of games folded: every recorded game before the first game neither
/// recorded nor given up.
fn folded(records: &[GameRecord], recorded: &BTreeSet<u64>, given_up: &BTreeSet<u64>) -> Vec<GameRecord> {
    let stop = (0..).find(|i| !recorded.contains(i) && !given_up.contains(i)).unwrap();
    records.iter().filter(|r| r.index < stop && recorded.contains(&r.index)).cloned().collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn incremental_equals_recomputed_in_any_order() {
    for seed in [1u64, 2, 3] {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join(DB_FILE);
        let games = duplicate(BOTS, SETS, [seed, 0]);
        let store = Store::open(&path).await.unwrap();
        let store = store.create("t", &config(BOTS, SETS, seed), &bot_rows(BOTS), &games).await.unwrap();
        let records = random_records(&games, seed);
        assert_eq!(store.leases().claim("w", games.len(), LEASE).await.unwrap().len(), games.len());
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        // three games given up (failed twice), one of them early: the cursor passes them
        let mut given_up = BTreeSet::new();
        for g in [2u64, rng.random_range(10..60), rng.random_range(60..120)] {
            assert!(store.games().fail("w", g, "crashed").await.unwrap(), "retried once");
            assert_eq!(store.leases().claim("w", 1, LEASE).await.unwrap()[0].index, g);
            assert!(!store.games().fail("w", g, "crashed again").await.unwrap(), "given up");
            given_up.insert(g);
        }
        let mut order: Vec<u64> = (0..games.len() as u64).filter(|g| !given_up.contains(g)).collect();
        order.shuffle(&mut rng);
        let mut recorded = BTreeSet::new();
        let mut batches = 0;
        while !order.is_empty() {
            let n = rng.random_range(1..=6).min(order.len());
            let batch: Vec<GameRecord> = order.drain(..n).map(|g| records[g as usize].clone()).collect();
            store.games().record(&batch, &[]).await.unwrap();
            recorded.extend(batch.iter().map(|r| r.index));
            batches += 1;
            let expected = folded(&records, &recorded, &given_up);
            let agg = store.aggregates().all().await.unwrap();
            assert_eq!(agg.folded, expected.len() as u64, "seed {seed} batch {batches}");
            if batches % 8 == 0 || order.is_empty() {
                assert_matches(&agg, BOTS, &expected, seed);
            }
        }
        let agg = store.aggregates().all().await.unwrap();
        assert_eq!(agg.next, games.len() as u64, "the cursor passed every game");
        let all: Vec<GameRecord> = store.games().records().await.unwrap();
        assert_matches(&agg, BOTS, &all, seed);

        // a given-up game recorded late (a worker whose lease had expired): folded again
        // from the first game, in order
        let late = *given_up.iter().next().unwrap();
        assert_eq!(store.games().record(&[records[late as usize].clone()], &[]).await.unwrap(), vec![late]);
        let all = store.games().records().await.unwrap();
        assert_eq!(all.len(), recorded.len() + 1);
        let agg = store.aggregates().all().await.unwrap();
        assert_matches(&agg, BOTS, &all, seed);

        // rebuilt from the rows: the same aggregates
        assert_eq!(store.aggregates().rebuild().await.unwrap(), all.len() as u64);
        assert_eq!(store.aggregates().all().await.unwrap(), agg);

        // a database from before the aggregates: filled on the first fold
        store.close().await;
        let pool = sqlx::sqlite::SqlitePool::connect(&format!("sqlite:{}", path.display())).await.unwrap();
        for table in ["agg_cursor", "agg_bots", "agg_pairs"] {
            sqlx::query(sqlx::AssertSqlSafe(format!("DELETE FROM {table}"))).execute(&pool).await.unwrap();
        }
        pool.close().await;
        let store = Store::open(&path).await.unwrap();
        assert_eq!(store.aggregates().all().await.unwrap().folded, 0);
        assert_eq!(store.aggregates().catch_up().await.unwrap(), all.len() as u64);
        assert_eq!(store.aggregates().all().await.unwrap(), agg);
        assert_eq!(store.aggregates().catch_up().await.unwrap(), 0, "nothing left to fold");
        store.close().await;
    }
}

/// The leaderboard read from the aggregates: entries carry the aggregates' figures and a
/// peak once a bot is past its provisional games; a bot's latest games come newest first.
#[tokio::test]
async fn leaderboard_and_pages_come_from_the_aggregates() {
    let tmp = tempfile::tempdir().unwrap();
    let games = duplicate(4, 15, [5, 0]);
    let store = Store::open(&tmp.path().join(DB_FILE)).await.unwrap();
    let store = store.create("t", &config(4, 15, 5), &bot_rows(4), &games).await.unwrap();
    for (i, b) in bot_rows(4).iter().enumerate() {
        store.versions().add_house(&b.name, "00", i).await.unwrap();
    }
    let records = random_records(&games, 5);
    store.leases().claim("w", games.len(), LEASE).await.unwrap();
    store.games().record(&records, &[]).await.unwrap();
    let agg = store.aggregates().all().await.unwrap();
    let board = store.board().leaderboard(0.0).await.unwrap();
    assert_eq!(board.bots.len(), 4);
    for e in &board.bots {
        let idx: usize = e.name[1..].parse().unwrap();
        let a = &agg.bots[&idx];
        assert_eq!(e.games, 60);
        assert_eq!((e.rating.mu, e.rating.sigma), (a.rating.mu, a.rating.sigma));
        assert_eq!(e.avg_rank_ci, a.ci[0]);
        assert!(e.peak.is_some() && !e.provisional, "60 games: past the provisional 40");
        assert_eq!(e.last_game, Some(59));
    }
    let key = |e: &mjai_sim::tournament::leaderboard::LeaderboardEntry| e.rating.mu - 3.0 * e.rating.sigma;
    assert!(board.bots.windows(2).all(|w| key(&w[0]) >= key(&w[1])), "best first");
    let page = store.board().bot_page("b0", VersionPick::Latest, 0.0).await.unwrap().unwrap();
    assert_eq!(page.recent_games.len(), 50);
    assert_eq!(page.recent_games[0].id, 59);
    assert!(page.recent_games.windows(2).all(|w| w[0].id > w[1].id));
    assert_eq!(page.recent_games[0].ranks.to_vec(), records[59].ranks);
    assert_eq!(page.rank_counts.iter().sum::<u64>(), 60);
    assert_eq!(page.head_to_head.len(), 3);
    assert_eq!(page.rating_history.last().map(|p| p.0), Some(60));
    // each point with the end of its game (recorded now: every one has a time)
    assert_eq!(page.rating_history_at.len(), page.rating_history.len());
    let at: Vec<&str> = page.rating_history_at.iter().map(|t| t.as_deref().expect("a time")).collect();
    assert!(at.iter().all(|t| t.len() == 24 && t.ends_with('Z')), "{at:?}");
    assert!(at.windows(2).all(|w| w[0] <= w[1]), "in order: {at:?}");
    assert_eq!(store.board().games_of("b0", None, None).await.unwrap().unwrap().len(), 60);
    assert_eq!(store.board().games_of("nobody", None, None).await.unwrap(), None);
    assert_eq!(store.board().bot_page("nobody", VersionPick::Latest, 0.0).await.unwrap(), None);
}

/// Two versions of one name, each with its own league bot and games (some shared): each
/// version's page and games hold its own games, figures and opponents only; every bot is
/// named as its author wrote it with its version, never `NAME#V`; the page without a
/// version shows the active one; an unknown version is `None`.
#[tokio::test]
async fn each_version_has_its_own_page_and_games() {
    use mjai_sim::tournament::leaderboard::{BotStatus, VersionLine};
    use mjai_sim::tournament::store::{sha256_hex, Upload, UploadLimits, UploadedZip, ValidationFiles};
    let tmp = tempfile::tempdir().unwrap();
    let games = duplicate(6, 10, [7, 0]);
    // bots 4 and 5 are the league bots of versions 1 and 2 of "vb", taken over at admit
    let zips = [b"zip 1".as_slice(), b"zip 2".as_slice()];
    let mut bots = bot_rows(6);
    bots[4].name = "vb".into();
    bots[5].name = "vb#2".into();
    (bots[4].sha256, bots[5].sha256) = (sha256_hex(zips[0]), sha256_hex(zips[1]));
    let store = Store::open(&tmp.path().join(DB_FILE)).await.unwrap();
    let store = store.create("t", &config(6, 10, 7), &bots, &games).await.unwrap();
    for (i, b) in bots[..4].iter().enumerate() {
        store.versions().add_house(&b.name, "00", i).await.unwrap();
    }
    // every game claimed first: retiring version 1 cancels no game in play
    assert_eq!(store.leases().claim("w", games.len(), LEASE).await.unwrap().len(), games.len());
    let limits = UploadLimits { max_bots: 5, uploads_per_hour: 50 };
    let files = ValidationFiles { log_gz: vec![1], stderr: String::new(), summary: "{}".into(), errors: "[]".into() };
    for (v, zip) in [(1u32, zips[0]), (2, zips[1])] {
        let started = store.versions().begin_upload("alice", "vb", UploadedZip::Bytes(zip), limits).await.unwrap();
        assert_eq!(started, Upload::Started { version: v });
        store.versions().record_validation("vb", v, &files, Ok(())).await.unwrap();
        assert_eq!(store.versions().admit("vb", v).await.unwrap(), Some(3 + v as usize));
    }
    let records = random_records(&games, 7);
    store.games().record(&records, &[]).await.unwrap();

    let of = |bot: usize| records.iter().filter(|r| r.seats.contains(&bot)).map(|r| r.index).collect::<Vec<_>>();
    let (own1, own2) = (of(4), of(5));
    assert!(own1.iter().any(|g| !own2.contains(g)) && own2.iter().any(|g| !own1.contains(g)), "games apart");
    let page = |pick: VersionPick| {
        let store = store.clone();
        async move { store.board().bot_page("vb", pick, 0.0).await.unwrap() }
    };
    let (v1, v2) = (page(VersionPick::Number(1)).await.unwrap(), page(VersionPick::Number(2)).await.unwrap());
    assert_eq!(page(VersionPick::Latest).await.as_ref(), Some(&v2));
    assert_eq!(page(VersionPick::Playing).await.as_ref(), Some(&v2), "the active version");
    let lines = vec![
        VersionLine { version: 1, status: BotStatus::Retired },
        VersionLine { version: 2, status: BotStatus::Active },
    ];
    for (page, version, own, bot) in [(&v1, 1u32, &own1, 4usize), (&v2, 2, &own2, 5)] {
        assert_eq!((page.entry.name.as_str(), page.entry.version), ("vb", version));
        assert_eq!(page.versions, lines);
        assert_eq!(page.entry.games, own.len() as u64, "v{version}: its own games only");
        assert_eq!(page.rank_counts.iter().sum::<u64>(), own.len() as u64, "v{version}");
        let mut ids: Vec<u64> = page.recent_games.iter().map(|g| g.id).collect();
        ids.reverse();
        assert_eq!(ids, own[own.len().saturating_sub(50)..], "v{version}: its own latest games");
        for g in &page.recent_games {
            let r = &records[g.id as usize];
            for seat in 0..4 {
                let expected = match r.seats[seat] {
                    4 => ("vb".to_string(), 1),
                    5 => ("vb".to_string(), 2),
                    b => (format!("b{b}"), 1),
                };
                assert_eq!((g.bots[seat].clone(), g.versions[seat]), expected, "game {} seat {seat}", g.id);
            }
            assert!(r.seats.contains(&bot));
        }
        let board = store.board().leaderboard(0.0).await.unwrap();
        let line = board.bots.iter().find(|e| e.name == "vb" && e.version == version).unwrap();
        assert_eq!(&page.entry, line, "v{version}: the leaderboard's figures");
        let listed = store.board().games_of("vb", Some(version), None).await.unwrap().unwrap();
        assert_eq!(listed.len(), own.len(), "v{version}");
        for h in &page.head_to_head {
            assert!(!h.opponent.contains('#'), "{h:?}");
        }
    }
    let met = |page: &mjai_sim::tournament::leaderboard::BotPage, name: &str, version: u32| {
        page.head_to_head.iter().any(|h| h.opponent == name && h.opponent_version == version)
    };
    let shared = own1.iter().any(|g| own2.contains(g));
    assert_eq!((met(&v2, "vb", 1), met(&v1, "vb", 2)), (shared, shared), "one version meets the other");
    assert!(!met(&v2, "vb", 2) && !met(&v1, "vb", 1), "never itself");
    let all = store.board().games_of("vb", None, None).await.unwrap().unwrap();
    assert_eq!(all.len(), own1.iter().chain(&own2).collect::<BTreeSet<_>>().len(), "every version's games");
    assert_eq!(page(VersionPick::Number(3)).await, None);
    assert_eq!(store.board().games_of("vb", Some(3), None).await.unwrap(), None);
    let seats = store.games().seat_bots(own2[0]).await.unwrap().unwrap();
    let seat = seats.iter().find(|s| s.idx == 5).unwrap();
    assert_eq!((seat.name.as_str(), seat.version, seat.author.as_deref()), ("vb", 2, Some("alice")));
    store.close().await;
}
