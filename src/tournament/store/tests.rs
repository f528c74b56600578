use super::*;
use crate::record::{GameRecord, SeatStats};
use crate::schedule::duplicate;

const LEASE: i64 = 60_000;

fn bots() -> Vec<BotRow> {
    (0..4)
        .map(|i| BotRow { idx: i, name: format!("b{i}"), spec: "builtin:tsumogiri".into(), sha256: "00".into() })
        .collect()
}

fn record_of(g: &ScheduledGame, score0: i32) -> GameRecord {
    let mut stats: [SeatStats; 4] = Default::default();
    stats[1].chombos = 2;
    GameRecord {
        index: g.index,
        set: g.set,
        seats: g.seats.clone(),
        scores: vec![score0, 25000, 25000, 50000 - score0],
        ranks: vec![1, 2, 3, 4],
        stats: stats.to_vec(),
    }
}

async fn fresh(dir: &Path) -> Store {
    let store = Store::open(&dir.join(DB_FILE)).await.unwrap();
    store.create("t1", "{\"x\":1}", &bots(), &duplicate(4, 2, [9, 1])).await.unwrap()
}

#[tokio::test]
async fn claims_records_once_and_lists_in_schedule_order() {
    let tmp = tempfile::tempdir().unwrap();
    let store = fresh(tmp.path()).await;
    assert_eq!(store.meta().await.unwrap(), Some(("t1".into(), "{\"x\":1}".into())));
    assert_eq!(store.bots().await.unwrap(), bots());
    let first = store.leases().claim("w", 3, LEASE).await.unwrap();
    assert_eq!(first.iter().map(|g| g.index).collect::<Vec<_>>(), vec![0, 1, 2]);
    assert_eq!(first[0].seed, [9, 1]);
    let rest = store.leases().claim("w", 10, LEASE).await.unwrap();
    assert_eq!(rest.len(), 5);
    assert!(store.leases().claim("w", 10, LEASE).await.unwrap().is_empty());
    // record game 2, then 0, then 2 again with other scores: the first result stays
    assert_eq!(store.games().record(&[record_of(&first[2], 30000)], &[]).await.unwrap(), vec![2]);
    let fresh = store.games().record(&[record_of(&first[0], 10000), record_of(&first[2], 99)], &[]).await.unwrap();
    assert_eq!(fresh, vec![0], "game 2 was recorded before");
    let records = store.games().records().await.unwrap();
    assert_eq!(records.len(), 2);
    assert_eq!(records[0], record_of(&first[0], 10000));
    assert_eq!(records[1], record_of(&first[2], 30000));
    let c = store.games().counts().await.unwrap();
    assert_eq!((c.pending, c.running, c.done, c.failed, c.total()), (0, 6, 2, 0, 8));
}

#[tokio::test]
async fn resume_requeues_running_games_and_a_failure_is_retried_once() {
    let tmp = tempfile::tempdir().unwrap();
    let store = fresh(tmp.path()).await;
    let claimed = store.leases().claim("w", 2, LEASE).await.unwrap();
    store.close().await;
    // a new process opens the same file: the two claimed games are played again
    let store = Store::open(&tmp.path().join(DB_FILE)).await.unwrap();
    assert_eq!(store.leases().requeue_running().await.unwrap(), 2);
    assert_eq!(store.games().counts().await.unwrap().pending, 8);
    assert!(!store.games().fail("w", claimed[1].index, "not claimed").await.unwrap(), "a pending game is not failed");
    let again = store.leases().claim("w", 2, LEASE).await.unwrap();
    assert_eq!(again, claimed);
    assert!(store.games().fail("w", claimed[1].index, "docker gone").await.unwrap(), "first failure retries");
    store.leases().claim("w", 2, LEASE).await.unwrap();
    assert!(!store.games().fail("w", claimed[1].index, "docker gone again").await.unwrap(), "second failure is final");
    store.leases().release("w", claimed[0].index).await.unwrap();
    store.leases().release("w", 2).await.unwrap();
    let failed = store.games().failed().await.unwrap();
    assert_eq!(failed, vec![FailedGame { index: 1, attempts: 2, error: "docker gone again".into() }]);
    let next = store.leases().claim("w", 100, LEASE).await.unwrap();
    assert_eq!(next.len(), 7, "the failed game is not claimed again");
}

#[tokio::test]
async fn a_file_that_is_not_a_database_is_a_one_line_error() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join(DB_FILE);
    std::fs::write(&path, vec![b'x'; 4096]).unwrap();
    let err = Store::open(&path).await.err().expect("not a database");
    let text = err.to_string();
    assert!(text.contains(DB_FILE) && !text.contains('\n'), "{text}");
}

#[tokio::test]
async fn an_expired_lease_is_claimed_again_and_a_late_result_counts_once() {
    let tmp = tempfile::tempdir().unwrap();
    let store = fresh(tmp.path()).await;
    let first = store.leases().claim("w1#a", 1, -1).await.unwrap(); // lease already expired
    assert_eq!(store.leases().heartbeat("w1#a", -1).await.unwrap(), 1);
    let second = store.leases().claim("w2#b", 1, LEASE).await.unwrap();
    assert_eq!(second, first, "the expired game is claimable again");
    assert_eq!(store.leases().heartbeat("w1#a", LEASE).await.unwrap(), 0, "the first worker's lease is gone");
    assert!(store.leases().claim("w3#c", 8, LEASE).await.unwrap().iter().all(|g| g.index != first[0].index));
    assert_eq!(store.games().record(&[record_of(&second[0], 30000)], &[]).await.unwrap(), vec![0]);
    assert!(store.games().record(&[record_of(&first[0], 1)], &[]).await.unwrap().is_empty(), "late result ignored");
    assert_eq!(store.games().records().await.unwrap(), vec![record_of(&second[0], 30000)]);
    assert_eq!(store.leases().requeue_worker("w3").await.unwrap(), 7);
}

#[tokio::test]
async fn a_schedule_of_several_insert_chunks_is_stored_whole() {
    let tmp = tempfile::tempdir().unwrap();
    let store = Store::open(&tmp.path().join(DB_FILE)).await.unwrap();
    let rows: Vec<BotRow> = (0..5)
        .map(|i| BotRow { idx: i, name: format!("b{i}"), spec: "builtin:tsumogiri".into(), sha256: "00".into() })
        .collect();
    let games = duplicate(5, 150, [u64::MAX - 3, 7]); // 600 games: chunks of 256, 256 and 88
    let store = store.create("big", "{}", &rows, &games).await.unwrap();
    assert_eq!(store.leases().claim("w", 10_000, LEASE).await.unwrap(), games);
}

#[tokio::test]
async fn a_sqlite_file_holds_one_tournament_and_refuses_another_name() {
    let tmp = tempfile::tempdir().unwrap();
    let empty = Store::open(&tmp.path().join(DB_FILE)).await.unwrap();
    assert!(matches!(empty.lookup("t1").await.unwrap(), Lookup::Missing), "an empty file: create it");
    let store = fresh(tmp.path()).await;
    assert!(matches!(store.lookup("t1").await.unwrap(), Lookup::Found(s) if s.id() == 1));
    let Lookup::Occupied { holds } = empty.lookup("t2").await.unwrap() else { panic!("t2 must be refused") };
    assert_eq!(holds, "t1");
}

#[tokio::test]
async fn a_sqlite_file_holds_further_tournaments_beside_its_first_each_with_its_own_games() {
    let tmp = tempfile::tempdir().unwrap();
    let first = fresh(tmp.path()).await;
    let claimed = first.leases().claim("w", 2, LEASE).await.unwrap();
    first.games().record(&[record_of(&claimed[0], 30000)], &[]).await.unwrap();
    assert!(matches!(first.lookup_beside("t2").await.unwrap(), Lookup::Missing));
    let mut others = bots();
    others[3].name = "other".into();
    let second = first.create("t2", "{}", &others, &duplicate(4, 1, [5, 5])).await.unwrap();
    assert_eq!(second.id(), 2);
    assert!(matches!(first.lookup_beside("t2").await.unwrap(), Lookup::Found(s) if s.id() == 2));
    assert!(matches!(first.lookup_beside("t1").await.unwrap(), Lookup::Found(s) if s.id() == 1));
    assert!(matches!(first.lookup("t2").await.unwrap(), Lookup::Occupied { .. }), "lookup keeps one per file");
    // the same game and bot indices in both, each tournament's own
    assert_eq!(second.bots().await.unwrap(), others);
    assert_eq!(first.bots().await.unwrap(), bots());
    let theirs = second.leases().claim("w", 10, LEASE).await.unwrap();
    assert_eq!(theirs.iter().map(|g| g.index).collect::<Vec<_>>(), vec![0, 1, 2, 3]);
    second.games().record(&[record_of(&theirs[0], 1000)], &[]).await.unwrap();
    assert_eq!(first.games().records().await.unwrap(), vec![record_of(&claimed[0], 30000)]);
    assert_eq!(second.games().records().await.unwrap(), vec![record_of(&theirs[0], 1000)]);
    let names: Vec<String> = first.tournaments().await.unwrap().into_iter().map(|(tid, _)| tid).collect();
    assert_eq!(names, ["t1", "t2"]);
}

#[tokio::test]
async fn a_file_written_before_many_tournaments_keeps_every_row_once_upgraded() {
    use sqlx::any::AnyPoolOptions;
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join(DB_FILE);
    sqlx::any::install_default_drivers();
    let url = format!("sqlite:{}?mode=rwc", path.display());
    let pool = AnyPoolOptions::new().max_connections(1).connect(&url).await.unwrap();
    // the schema as the migration before 20261206000020 left it, rows as it stored them
    sqlx::migrate!("../../migrations").run_to(20261206000010, &pool).await.unwrap();
    for sql in [
        "INSERT INTO tournament (id, tid, config, created_at) VALUES (1, 'old', '{}', '2026-12-01 00:00:00')",
        "INSERT INTO bots (idx, name, spec, sha256, retired) VALUES (0, 'a', 'builtin:random', 'x', 0), (1, 'b', 'builtin:random', 'y', 1)",
        "INSERT INTO games (idx, set_idx, seed_nonce, seed_key, seat0, seat1, seat2, seat3, state, attempts, finished_ms, engine_version) \
         VALUES (0, 0, 7, 8, 0, 1, 0, 1, 'done', 0, 1234, '0.1.0'), (1, 0, 7, 8, 1, 0, 1, 0, 'pending', 0, NULL, NULL)",
        "INSERT INTO results (game_idx, seat, bot, score, rank, stats, think_ms) VALUES \
         (0, 0, 0, 40000, 1, '{}', 5), (0, 1, 1, 30000, 2, '{}', 6), (0, 2, 0, 20000, 3, '{}', NULL), (0, 3, 1, 10000, 4, '{}', 7)",
    ] {
        sqlx::query(sqlx::AssertSqlSafe(sql)).execute(&pool).await.unwrap();
    }
    pool.close().await;
    let store = Store::open(&path).await.unwrap();
    assert_eq!(store.meta().await.unwrap(), Some(("old".into(), "{}".into())));
    let names: Vec<&str> = ["a", "b"].into();
    assert_eq!(store.bots().await.unwrap().iter().map(|b| b.name.as_str()).collect::<Vec<_>>(), names);
    let records = store.games().records().await.unwrap();
    assert_eq!(records.len(), 1);
    assert_eq!(
        (records[0].scores.clone(), records[0].ranks.clone()),
        (vec![40000, 30000, 20000, 10000], vec![1, 2, 3, 4])
    );
    let c = store.games().counts().await.unwrap();
    assert_eq!((c.pending, c.done), (1, 1));
    let row =
        sqlx::query("SELECT COUNT(*), SUM(think_ms), MAX(retired) FROM results, bots WHERE results.bot = bots.idx")
            .fetch_one(&store.pool)
            .await
            .unwrap();
    let (n, think, retired): (i64, i64, i64) =
        (row.try_get(0).unwrap(), row.try_get(1).unwrap(), row.try_get(2).unwrap());
    assert_eq!((n, think, retired), (4, 18, 1), "every column copied");
    // and a further tournament is now possible beside it
    let next = store.create("new", "{}", &bots(), &[]).await.unwrap();
    assert_eq!(next.id(), 2);
}

#[tokio::test]
async fn games_are_listed_newest_first_with_their_times_and_none_invented() {
    use crate::leaderboard::game_list::{GameQuery, GameStatus};
    let tmp = tempfile::tempdir().unwrap();
    let store = fresh(tmp.path()).await;
    let claimed = store.leases().claim("w", 3, LEASE).await.unwrap();
    store.games().record(&[record_of(&claimed[0], 30000), record_of(&claimed[1], 20000)], &[]).await.unwrap();
    // game 1 as a game stored before times were kept
    sqlx::query("UPDATE games SET started_ms = NULL, finished_ms = NULL WHERE idx = 1")
        .execute(&store.pool)
        .await
        .unwrap();
    let page = store.game_list().list(&GameQuery { limit: 2, ..GameQuery::default() }).await.unwrap();
    assert_eq!(page.games.iter().map(|g| g.id).collect::<Vec<_>>(), vec![2, 1]);
    let (running, old) = (&page.games[0], &page.games[1]);
    assert_eq!((running.status, running.finished_at.as_deref()), (GameStatus::Running, None));
    assert!(running.started_at.is_some() && running.seats.iter().all(|s| s.score.is_none() && s.rank.is_none()));
    assert_eq!((old.status, old.started_at.as_deref(), old.finished_at.as_deref()), (GameStatus::Finished, None, None));
    assert_eq!(old.seats[3].score, Some(30000));
    assert_eq!((old.seats[0].rank, old.seats[0].bot.clone()), (Some(1), format!("b{}", claimed[1].seats[0])));
    assert_eq!(page.next_cursor.as_deref(), Some("g1"));
    let rest = store.game_list().list(&GameQuery { limit: 2, before: Some(1), ..GameQuery::default() }).await.unwrap();
    assert_eq!((rest.games.len(), rest.next_cursor.as_deref()), (1, None));
    let (start, end) = (rest.games[0].started_at.clone().unwrap(), rest.games[0].finished_at.clone().unwrap());
    assert!(start <= end, "{start} {end}");
    // filters: a league bot by its name (no versions here), one no game has
    let of = |bot: &str, status| GameQuery { bot: Some(bot.into()), status, limit: 50, ..GameQuery::default() };
    assert_eq!(store.game_list().list(&of("b0", None)).await.unwrap().games.len(), 3);
    assert_eq!(store.game_list().list(&of("b0", Some(GameStatus::Running))).await.unwrap().games.len(), 1);
    assert!(store.game_list().list(&of("nobody", None)).await.unwrap().games.is_empty());
    let dated = GameQuery { from_ms: Some(0), limit: 50, ..GameQuery::default() };
    let ids: Vec<u64> = store.game_list().list(&dated).await.unwrap().games.iter().map(|g| g.id).collect();
    assert_eq!(ids, vec![0], "a date filter lists finished games with an end time only");
}
