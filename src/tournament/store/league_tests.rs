//! Leagues on SQLite: top-up, bots added and retired, concurrent top-ups.

use sqlx::Row;

use super::*;
use crate::config::TournamentConfig;
use crate::leaderboard::shape::VersionPick;
use crate::leaderboard::BotStatus;
use crate::record::GameRecord;
use crate::schedule::duplicate;

const LEASE: i64 = 60_000;

fn config(bots: usize, sets: u64, seed: [u64; 2]) -> String {
    TournamentConfig {
        bots: vec!["builtin:tsumogiri".into(); bots],
        sets,
        seed,
        runtime: mjai_sim_arena::launch::RuntimeKind::Process,
        max_submission_mb: 100,
        logs: false,
        ..TournamentConfig::default()
    }
    .to_json()
}

fn rows(n: usize) -> Vec<BotRow> {
    (0..n)
        .map(|i| BotRow { idx: i, name: format!("b{i}"), spec: "builtin:tsumogiri".into(), sha256: "00".into() })
        .collect()
}

async fn league(dir: &Path, seed: [u64; 2]) -> Store {
    let store = Store::open(&dir.join(DB_FILE)).await.unwrap();
    store.create("league", &config(4, 0, seed), &rows(4), &[]).await.unwrap()
}

/// [`league`] whose 4 bots are a grading server's house bots (versions with no author).
async fn league_of_house_bots(dir: &Path, seed: [u64; 2]) -> Store {
    let store = league(dir, seed).await;
    for b in 0..4 {
        store.versions().add_house(&format!("b{b}"), "00", b).await.unwrap();
    }
    store
}

async fn pending_with(store: &Store, bot: i64) -> i64 {
    sqlx::query(
        "SELECT COUNT(*) FROM games WHERE state = 'pending' AND (seat0 = $1 OR seat1 = $1 OR seat2 = $1 OR seat3 = $1)",
    )
    .bind(bot)
    .fetch_one(&store.pool)
    .await
    .unwrap()
    .get(0)
}

#[tokio::test]
async fn a_league_is_topped_up_with_the_sets_of_a_fixed_tournament() {
    let tmp = tempfile::tempdir().unwrap();
    let store = league(tmp.path(), [9, 1]).await;
    assert_eq!(store.games().counts().await.unwrap().total(), 0, "a league starts with no game");
    assert_eq!(store.leases().claimable_tournaments().await.unwrap(), vec![store.id()], "listed: claiming tops it up");
    assert_eq!(store.league().top_up(6).await.unwrap(), TopUp::Added { sets: 3, pending: 12 });
    assert_eq!(store.league().top_up(6).await.unwrap(), TopUp::Enough { pending: 12 });
    let mut claimed = store.leases().claim("w", 10, LEASE).await.unwrap();
    assert_eq!(store.league().top_up(6).await.unwrap(), TopUp::Added { sets: 3, pending: 14 });
    claimed.extend(store.leases().claim("w", 100, LEASE).await.unwrap());
    assert_eq!(claimed, duplicate(4, 6, [9, 1]), "the sets and walls of `--sets 6`");

    // a fixed tournament is never topped up
    let other = Store::open(&tmp.path().join("fixed.sqlite")).await.unwrap();
    let fixed = other.create("fixed", &config(4, 1, [9, 1]), &rows(4), &duplicate(4, 1, [9, 1])).await.unwrap();
    fixed.leases().claim("w", 4, LEASE).await.unwrap();
    assert_eq!(fixed.league().top_up(100).await.unwrap(), TopUp::Enough { pending: 0 });
    assert!(fixed.leases().claimable_tournaments().await.unwrap().is_empty());
}

#[tokio::test]
async fn bots_added_and_retired_change_what_is_topped_up_and_claimed() {
    let tmp = tempfile::tempdir().unwrap();
    let store = league(tmp.path(), [3, 0]).await;
    assert_eq!(store.league().top_up(4).await.unwrap(), TopUp::Added { sets: 2, pending: 8 });
    let bytes = b"zip bytes".as_slice();
    let sha = blobs::sha256_hex(bytes);
    assert_eq!(store.league().add_bot("new", "new.zip", &sha, Some(bytes)).await.unwrap(), AddBot::Added { idx: 4 });
    assert_eq!(store.blobs().submission(&sha).await.unwrap().as_deref(), Some(bytes));
    assert_eq!(store.league().add_bot("new", "builtin:random", "ff", None).await.unwrap(), AddBot::NameTaken);
    assert_eq!(store.bots().await.unwrap().len(), 5);

    // a process that loaded 4 bots claims the games of those 4 only
    assert_eq!(store.leases().claim_among("old", 100, LEASE, 4).await.unwrap().len(), 8);
    assert_eq!(store.league().top_up(4).await.unwrap(), TopUp::Added { sets: 2, pending: 8 });
    assert!(
        store.leases().claim_among("old", 100, LEASE, 4).await.unwrap().is_empty(),
        "the new bot is at every table"
    );
    let fresh = store.leases().claim_among("reloaded", 4, LEASE, 5).await.unwrap();
    assert!(fresh.len() == 4 && fresh.iter().all(|g| g.seats.contains(&4)), "{fresh:?}");

    // retiring cancels the bot's pending games, and it is never scheduled again
    assert_eq!(store.league().top_up(8).await.unwrap(), TopUp::Added { sets: 3, pending: 16 });
    let theirs = pending_with(&store, 1).await;
    assert!(theirs > 0);
    assert_eq!(
        store.league().retire("b1").await.unwrap(),
        Retire::Retired { idx: 1, cancelled: theirs as u64, active: 4 }
    );
    assert_eq!(pending_with(&store, 1).await, 0);
    let c = store.games().counts().await.unwrap();
    assert_eq!((c.cancelled, c.pending), (theirs as u64, 16 - theirs as u64));
    assert_eq!(store.league().retire("b1").await.unwrap(), Retire::Already { idx: 1 });
    assert_eq!(store.league().retire("nobody").await.unwrap(), Retire::Unknown);
    assert_eq!(store.league().retired().await.unwrap(), vec![1]);
    store.leases().claim_among("reloaded", 100, LEASE, 5).await.unwrap();
    let TopUp::Added { sets, .. } = store.league().top_up(8).await.unwrap() else { panic!("4 active bots") };
    let after = store.leases().claim_among("reloaded", 100, LEASE, 5).await.unwrap();
    assert_eq!(after.len() as u64, sets * 4);
    assert!(after.iter().all(|g| !g.seats.contains(&1)), "{after:?}");
    assert_eq!(after[0].seed, [3 + after[0].set, 0], "set i plays [nonce + i, key]");

    // fewer than 4 active bots: the league idles and is not listed for workers
    assert!(matches!(store.league().retire("b2").await.unwrap(), Retire::Retired { idx: 2, active: 3, .. }));
    assert_eq!(store.league().top_up(8).await.unwrap(), TopUp::Idle { active: 3, seats: 4 });
    assert!(store.leases().claimable_tournaments().await.unwrap().is_empty());
    assert_eq!(store.league().add_bot("late", "builtin:rulebase", "ee", None).await.unwrap(), AddBot::Added { idx: 5 });
    assert_eq!(store.leases().claimable_tournaments().await.unwrap(), vec![store.id()]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_top_ups_append_each_set_once() {
    let tmp = tempfile::tempdir().unwrap();
    let store = league(tmp.path(), [7, 7]).await;
    store.close().await;
    let tasks = (0..8).map(|w| {
        let path = tmp.path().join(DB_FILE);
        tokio::spawn(async move {
            let store = Store::open(&path).await.unwrap();
            let mut claimed = 0;
            for _ in 0..30 {
                store.league().top_up(4).await.unwrap();
                claimed += store.leases().claim(&format!("w{w}"), 4, LEASE).await.unwrap().len() as u64;
            }
            claimed
        })
    });
    let tasks: Vec<_> = tasks.collect(); // spawned at once, not one after another
    let mut claimed = 0;
    for t in tasks {
        claimed += t.await.unwrap();
    }
    let store = Store::open(&tmp.path().join(DB_FILE)).await.unwrap();
    let games: Vec<ScheduledGame> =
        sqlx::query("SELECT idx, set_idx, seed_nonce, seed_key, seat0, seat1, seat2, seat3 FROM games ORDER BY idx")
            .fetch_all(&store.pool)
            .await
            .unwrap()
            .iter()
            .map(|r| rows::game(r).unwrap())
            .collect();
    let c = store.games().counts().await.unwrap();
    assert_eq!((c.running, c.pending + c.running), (claimed, games.len() as u64));
    let sets = games.len() as u64 / 4;
    assert_eq!(games, duplicate(4, sets, [7, 7]));
}

/// Plays a league of `store` until every bot has `games` games: ranks by bot index (bot 0
/// the strongest), so μ falls with the index.
async fn play_until(store: &Store, games: u64) {
    loop {
        let agg = store.aggregates().all().await.unwrap();
        let n = store.bots().await.unwrap().len();
        if (0..n).all(|b| agg.bots.get(&b).is_some_and(|a| a.games >= games)) {
            return;
        }
        store.league().top_up(8).await.unwrap();
        let claimed = store.leases().claim("w", 100, LEASE).await.unwrap();
        let records: Vec<GameRecord> = claimed
            .iter()
            .map(|g| {
                let mut by = [0usize, 1, 2, 3];
                by.sort_by_key(|&s| g.seats[s]);
                let mut ranks = [0u8; 4];
                for (k, &s) in by.iter().enumerate() {
                    ranks[s] = k as u8 + 1;
                }
                GameRecord {
                    index: g.index,
                    set: g.set,
                    seats: g.seats.clone(),
                    scores: vec![25000; 4],
                    ranks: ranks.to_vec(),
                    stats: vec![Default::default(); 4],
                }
            })
            .collect();
        store.games().record(&records, &[]).await.unwrap();
    }
}

/// `--matching rating`: once bots are past their provisional games, tables are drawn near
/// in μ (a narrower μ span than balanced matching after the same history), and two copies
/// of one database top up the same sets.
#[tokio::test]
async fn rating_aware_matching_is_near_in_mu_and_reproducible_from_the_store() {
    let tmp = tempfile::tempdir().unwrap();
    let bots = 12;
    let mut c: TournamentConfig = serde_json::from_str(&config(bots, 0, [5, 0])).unwrap();
    c.matching = crate::config::Matching::Rating;
    let store = Store::open(&tmp.path().join(DB_FILE)).await.unwrap();
    let store = store.create("league", &c.to_json(), &rows(bots), &[]).await.unwrap();
    play_until(&store, crate::leaderboard::PROVISIONAL_GAMES).await;
    let agg = store.aggregates().all().await.unwrap();
    let mu: Vec<f64> = (0..bots).map(|b| agg.bots[&b].rating.mu).collect();
    store.close().await;
    let mut tables = Vec::new();
    for (copy, matching) in [("a", "rating"), ("b", "rating"), ("c", "balanced")] {
        let path = tmp.path().join(format!("{copy}.sqlite"));
        std::fs::copy(tmp.path().join(DB_FILE), &path).unwrap();
        let s = Store::open(&path).await.unwrap();
        sqlx::query("UPDATE tournament SET config = replace(config, '\"matching\":\"rating\"', $1)")
            .bind(format!("\"matching\":\"{matching}\""))
            .execute(&s.pool)
            .await
            .unwrap();
        assert!(matches!(s.league().top_up(40).await.unwrap(), TopUp::Added { .. }));
        let games = s.leases().claim("w", 1000, LEASE).await.unwrap();
        tables.push(games.iter().filter(|g| g.index % 4 == 0).map(|g| g.seats.clone()).collect::<Vec<_>>());
        s.close().await;
    }
    assert_eq!(tables[0], tables[1], "the same stored state tops up the same sets");
    let span = |t: &Vec<usize>| {
        let m: Vec<f64> = t.iter().map(|&b| mu[b]).collect();
        m.iter().cloned().fold(f64::MIN, f64::max) - m.iter().cloned().fold(f64::MAX, f64::min)
    };
    let mean = |ts: &[Vec<usize>]| ts.iter().map(span).sum::<f64>() / ts.len() as f64;
    assert!(mean(&tables[0]) < 0.6 * mean(&tables[2]), "rating {} vs balanced {}", mean(&tables[0]), mean(&tables[2]));
}

#[tokio::test]
async fn house_bots_sit_at_every_new_table_while_ten_new_bots_catch_up() {
    let tmp = tempfile::tempdir().unwrap();
    let store = league_of_house_bots(tmp.path(), [4, 2]).await;
    store.league().top_up(40).await.unwrap(); // the house bots alone: 80 games
    let before: i64 = sqlx::query("SELECT COUNT(*) FROM games").fetch_one(&store.pool).await.unwrap().get(0);
    for i in 0..10 {
        assert!(matches!(
            store.league().add_bot(&format!("up{i}"), "builtin:tsumogiri", "00", None).await.unwrap(),
            AddBot::Added { .. }
        ));
    }
    let tables: Vec<(i64, i64, i64, i64)> = {
        // the pending games were scheduled before the uploads: play them off (cancel) first
        sqlx::query("UPDATE games SET state = 'done'").execute(&store.pool).await.unwrap();
        store.league().top_up(100).await.unwrap();
        let rows = sqlx::query("SELECT seat0, seat1, seat2, seat3 FROM games WHERE idx >= $1 AND idx % 4 = 0")
            .bind(before)
            .fetch_all(&store.pool)
            .await
            .unwrap();
        rows.iter().map(|r| (r.get(0), r.get(1), r.get(2), r.get(3))).collect()
    };
    assert!(tables.len() >= 40, "{}", tables.len());
    for t in &tables {
        assert!([t.0, t.1, t.2, t.3].iter().any(|&b| b < 4), "a table without a house bot: {t:?}");
    }
}

#[tokio::test]
async fn a_paced_league_schedules_one_set_per_interval() {
    let tmp = tempfile::tempdir().unwrap();
    let store = league(tmp.path(), [6, 1]).await;
    store.league().set_pace(Some(3600)).await.unwrap(); // one game a second: a set every 4 s
    assert_eq!(store.league().top_up(10).await.unwrap(), TopUp::Added { sets: 1, pending: 4 }, "the first set at once");
    assert_eq!(store.league().top_up(10).await.unwrap(), TopUp::Paced { pending: 4 }, "the next waits its turn");
    let next: i64 = sqlx::query("SELECT next_set_ms FROM tournament").fetch_one(&store.pool).await.unwrap().get(0);
    let now = super::league::unix_ms();
    assert!((now + 3_000..=now + 4_100).contains(&next), "next set in about 4 s: {}", next - now);
    // its time come (moved back rather than waited for): one more set, not a burst
    sqlx::query("UPDATE tournament SET next_set_ms = $1").bind(now - 1).execute(&store.pool).await.unwrap();
    assert_eq!(store.league().top_up(10).await.unwrap(), TopUp::Added { sets: 1, pending: 8 });
    // unpaced again: tops up at once
    store.league().set_pace(None).await.unwrap();
    assert_eq!(store.league().top_up(10).await.unwrap(), TopUp::Added { sets: 3, pending: 20 });
}

#[tokio::test]
async fn remote_bots_are_seated_only_while_online_and_an_authors_bots_never_meet() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let tmp = tempfile::tempdir().unwrap();
    let base = league_of_house_bots(tmp.path(), [8, 3]).await;
    let limits = UploadLimits { max_bots: 5, uploads_per_hour: 50 };
    let up = base.versions().begin_upload("alice", "alice-r", UploadedZip::Remote, limits).await.unwrap();
    assert_eq!(up, Upload::Started { version: 1 });
    let zip = b"PK not checked here";
    base.versions().begin_upload("alice", "alice-z", UploadedZip::Bytes(zip), limits).await.unwrap();
    base.versions().begin_upload("bob", "bob-z", UploadedZip::Bytes(b"PK bob"), limits).await.unwrap();
    let remote = base.versions().admit("alice-r", 1).await.unwrap().unwrap() as i64;
    let alice_z = base.versions().admit("alice-z", 1).await.unwrap().unwrap() as i64;
    base.versions().admit("bob-z", 1).await.unwrap().unwrap();
    let versions = base.versions().of("alice-r").await.unwrap();
    assert_eq!((versions[0].kind, versions[0].sha256.clone()), (BotKind::Remote, remote_sha256("alice-r")));
    let spec: String =
        sqlx::query("SELECT spec FROM bots WHERE idx = $1").bind(remote).fetch_one(&base.pool).await.unwrap().get(0);
    assert_eq!(spec, "remote:alice-r");

    let online = std::sync::Arc::new(AtomicBool::new(false));
    let flag = online.clone();
    let store = base
        .with_online(Online(std::sync::Arc::new(move |name: &str| name == "alice-r" && flag.load(Ordering::SeqCst))));
    let tables = |from: i64| {
        let pool = store.pool.clone();
        async move {
            let rows = sqlx::query("SELECT seat0, seat1, seat2, seat3 FROM games WHERE idx >= $1 AND idx % 4 = 0")
                .bind(from)
                .fetch_all(&pool)
                .await
                .unwrap();
            rows.iter().map(|r| [r.get::<i64, _>(0), r.get(1), r.get(2), r.get(3)]).collect::<Vec<_>>()
        }
    };
    // offline: never seated
    store.league().top_up(40).await.unwrap();
    let offline = tables(0).await;
    assert!(offline.len() >= 20);
    assert!(offline.iter().all(|t| !t.contains(&remote)), "an offline remote bot was seated");
    // online: seated (it has played least), never with alice's other bot
    sqlx::query("UPDATE games SET state = 'done'").execute(&store.pool).await.unwrap();
    let from: i64 = sqlx::query("SELECT COUNT(*) FROM games").fetch_one(&store.pool).await.unwrap().get(0);
    online.store(true, Ordering::SeqCst);
    store.league().top_up(40).await.unwrap();
    let on = tables(from).await;
    assert!(on.iter().any(|t| t.contains(&remote)), "an online remote bot was never seated");
    assert!(on.iter().chain(&offline).all(|t| !(t.contains(&remote) && t.contains(&alice_z))), "alice's bots met");
    // it goes offline: its pending games are cancelled, the others stay
    let pending = |pool: sqlx::AnyPool| async move {
        sqlx::query("SELECT COUNT(*) FROM games WHERE state = 'pending'")
            .fetch_one(&pool)
            .await
            .unwrap()
            .get::<i64, _>(0)
    };
    let (all_before, its_before) = (pending(store.pool.clone()).await, pending_with(&store, remote).await);
    assert!(its_before > 0 && all_before > its_before, "{all_before} {its_before}");
    assert_eq!(store.league().cancel_pending_of(remote as usize).await.unwrap(), its_before as u64);
    assert_eq!(pending_with(&store, remote).await, 0);
    assert_eq!(pending(store.pool.clone()).await, all_before - its_before, "the others' games stay");
    // without a predicate (any other process) a remote bot is seated as any bot
    sqlx::query("UPDATE games SET state = 'done' WHERE state = 'pending'").execute(&base.pool).await.unwrap();
    let from: i64 = sqlx::query("SELECT COUNT(*) FROM games").fetch_one(&base.pool).await.unwrap().get(0);
    base.league().top_up(40).await.unwrap();
    assert!(tables(from).await.iter().any(|t| t.contains(&remote)));
}

/// Suspension (issue 39): an uploaded version whose chombos in its last `window` league
/// games reach `after` is suspended with its reason and leaves the league (pending games
/// cancelled); a house bot with more chombos and a version below the threshold stay; the
/// policy off suspends nothing; the aggregates sum every seat's chombos.
#[tokio::test]
async fn a_version_over_the_chombo_threshold_is_suspended_and_leaves_the_league() {
    let tmp = tempfile::tempdir().unwrap();
    let store = league_of_house_bots(tmp.path(), [5, 2]).await;
    let limits = UploadLimits { max_bots: 5, uploads_per_hour: 50 };
    for (author, name) in [("alice", "flaky"), ("bob", "steady")] {
        store.versions().begin_upload(author, name, UploadedZip::Bytes(name.as_bytes()), limits).await.unwrap();
    }
    let flaky = store.versions().admit("flaky", 1).await.unwrap().unwrap();
    store.versions().admit("steady", 1).await.unwrap().unwrap();
    assert_eq!(store.suspensions().policy().await.unwrap(), SuspensionPolicy { after: 0, window: 10 }, "off until set");
    store.league().top_up(40).await.unwrap();
    // chombos by bot in each of its games: flaky 1 a game, steady and house bot 0 two a game
    let chombos_of = |bot: usize| match bot {
        b if b == flaky => 1,
        0 => 2,
        _ => 0,
    };
    let play = |n: usize| {
        let store = store.clone();
        async move {
            let claimed = store.leases().claim("w", n, LEASE).await.unwrap();
            let records: Vec<GameRecord> = claimed
                .iter()
                .map(|g| {
                    let mut stats: [crate::record::SeatStats; 4] = Default::default();
                    for (seat, &bot) in stats.iter_mut().zip(&g.seats) {
                        seat.chombos = chombos_of(bot);
                    }
                    GameRecord {
                        index: g.index,
                        set: g.set,
                        seats: g.seats.clone(),
                        scores: vec![25000; 4],
                        ranks: vec![1, 2, 3, 4],
                        stats: stats.to_vec(),
                    }
                })
                .collect();
            store.games().record(&records, &[]).await.unwrap();
            records
        }
    };
    // the policy off: nothing is suspended however many chombos
    let first = play(8).await;
    let status = |name: &'static str| {
        let store = store.clone();
        async move { store.versions().of(name).await.unwrap()[0].clone() }
    };
    assert_eq!(status("flaky").await.status, BotStatus::Active);
    store.suspensions().set_policy(SuspensionPolicy { after: 3, window: 10 }).await.unwrap();
    assert_eq!(store.suspensions().policy().await.unwrap(), SuspensionPolicy { after: 3, window: 10 });
    // flaky's games so far hold its chombos already: the next recorded game suspends it
    let played: u64 = first.iter().filter(|r| r.seats.contains(&flaky)).count() as u64;
    let mut more = Vec::new();
    while status("flaky").await.status == BotStatus::Active {
        store.league().top_up(40).await.unwrap();
        let batch = play(1).await;
        assert!(!batch.is_empty(), "no game left to play");
        more.extend(batch);
    }
    let v = status("flaky").await;
    assert_eq!(v.status, BotStatus::Suspended);
    let games = (played + more.iter().filter(|r| r.seats.contains(&flaky)).count() as u64).min(10);
    assert_eq!(v.reason.as_deref(), Some(super::suspension::reason(games, games).as_str()), "one chombo a game");
    assert!(games >= 3, "suspended at its 3rd chombo, not before: {games}");
    assert!(store.league().retired().await.unwrap().contains(&flaky), "out of the league");
    assert_eq!(pending_with(&store, flaky as i64).await, 0, "its pending games are cancelled");
    // the house bot (two a game) and bob's bot (none) stay
    assert_eq!(status("steady").await.status, BotStatus::Active);
    let house = store.versions().of("b0").await.unwrap();
    assert_eq!(house[0].status, BotStatus::Active, "house bots are never suspended");
    // the leaderboard's chombos per game: each seat's chombos over its games
    let board = store.board().leaderboard(0.0).await.unwrap();
    let line = |name: &str| board.bots.iter().find(|e| e.name == name).unwrap().clone();
    assert_eq!(line("flaky").chombos_per_game, Some(1.0));
    assert_eq!(line("b0").chombos_per_game, Some(2.0));
    assert_eq!(line("steady").chombos_per_game.unwrap_or(0.0), 0.0);
    // recording the same games again checks again, and suspends nothing twice
    assert!(store.suspensions().check(&more).await.unwrap().is_empty());
}

/// An operator's suspension (`serve suspend`, issue 54): the version leaves the league with
/// the reason its author reads; `unsuspend` brings it back into the schedule, but not over
/// a newer version, and not a version that is not suspended.
#[tokio::test]
async fn an_operator_suspends_and_unsuspends_a_version_with_a_reason() {
    use super::versions::Unsuspend;
    let tmp = tempfile::tempdir().unwrap();
    let store = league_of_house_bots(tmp.path(), [5, 3]).await;
    let limits = UploadLimits { max_bots: 5, uploads_per_hour: 50 };
    store.versions().begin_upload("alice", "slow", UploadedZip::Bytes(b"slow"), limits).await.unwrap();
    let idx = store.versions().admit("slow", 1).await.unwrap().unwrap();
    let row = store.versions().of("slow").await.unwrap()[0].clone();
    assert!(store.versions().suspend(&row, "suspended by the operator: 0.25 s a discard").await.unwrap());
    let now = store.versions().of("slow").await.unwrap()[0].clone();
    assert_eq!(now.status, BotStatus::Suspended);
    assert_eq!(now.reason.as_deref(), Some("suspended by the operator: 0.25 s a discard"));
    assert!(store.league().retired().await.unwrap().contains(&idx), "out of the schedule");
    assert!(!store.versions().suspend(&row, "again").await.unwrap(), "a suspended version is not suspended twice");

    assert_eq!(store.versions().unsuspend("slow", 1).await.unwrap(), Unsuspend::Done);
    let back = store.versions().of("slow").await.unwrap()[0].clone();
    assert_eq!((back.status, back.reason.clone()), (BotStatus::Active, None));
    assert!(!store.league().retired().await.unwrap().contains(&idx), "scheduled again");
    assert_eq!(store.versions().unsuspend("slow", 1).await.unwrap(), Unsuspend::NotSuspended(BotStatus::Active));
    assert_eq!(store.versions().unsuspend("slow", 9).await.unwrap(), Unsuspend::Unknown);
    // a newer version stands: the old one stays suspended
    assert!(store.versions().suspend(&back, "again").await.unwrap());
    store.versions().begin_upload("alice", "slow", UploadedZip::Bytes(b"slow2"), limits).await.unwrap();
    assert_eq!(store.versions().unsuspend("slow", 1).await.unwrap(), Unsuspend::Newer(2));
}

/// A three-player league: sets of three games at tables of three, stored with an empty
/// `seat3`, claimed, recorded, read back and folded at three seats, and topped up after a
/// reopen exactly as `duplicate_for` schedules them.
#[tokio::test]
async fn a_three_player_league_rotates_three_seats_through_the_store() {
    use crate::schedule::duplicate_for;
    use mjai_sim_engine::game::{Players, Rules};
    let tmp = tempfile::tempdir().unwrap();
    let mut c = TournamentConfig::parse(&config(4, 0, [3, 8])).unwrap();
    (c.rules, c.uma) = (Rules::preset_3p("riichi-dev-3p").unwrap(), vec![90.0, 0.0, -90.0]);
    let text = c.to_json();
    assert_eq!(TournamentConfig::parse(&text).unwrap(), c, "a three-player preset and uma are stored as given");
    let store = Store::open(&tmp.path().join(DB_FILE)).await.unwrap();
    let store = store.create("sanma", &text, &rows(4), &[]).await.unwrap();
    assert_eq!(store.league().top_up(3).await.unwrap(), TopUp::Added { sets: 2, pending: 6 });
    let seat3: Vec<i64> = sqlx::query("SELECT seat3 FROM games ORDER BY idx")
        .fetch_all(&store.pool)
        .await
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert_eq!(seat3, vec![-1; 6], "no bot in seat 3");
    let claimed = store.leases().claim("w", 100, LEASE).await.unwrap();
    assert_eq!(claimed, duplicate_for(Players::Three, 4, 2, [3, 8]));
    let records: Vec<GameRecord> = claimed
        .iter()
        .map(|g| GameRecord {
            index: g.index,
            set: g.set,
            seats: g.seats.clone(),
            scores: vec![50000, 35000, 20000],
            ranks: vec![1, 2, 3],
            stats: vec![Default::default(); 3],
        })
        .collect();
    store.games().record(&records, &[]).await.unwrap();
    assert_eq!(store.games().records().await.unwrap(), records, "three seats read back");
    assert_eq!(store.games().seats(4).await.unwrap(), Some(claimed[4].seats.clone()));
    let agg = store.aggregates().all().await.unwrap();
    assert_eq!(agg.folded, 6);
    let firsts: u64 = agg.bots.values().map(|a| a.rank_counts[0]).sum();
    let fourths: u64 = agg.bots.values().map(|a| a.rank_counts[3]).sum();
    let pt: f64 = agg.bots.values().map(|a| a.pt_sum).sum();
    assert_eq!((firsts, fourths, pt), (6, 0, 0.0), "three places, pt of 90/0/-90");
    store.close().await;
    // another process rebuilds the scheduler from the stored sets of three
    let store = Store::open(&tmp.path().join(DB_FILE)).await.unwrap();
    assert_eq!(store.league().top_up(3).await.unwrap(), TopUp::Added { sets: 2, pending: 6 });
    let next = store.leases().claim("w", 100, LEASE).await.unwrap();
    assert_eq!(next, duplicate_for(Players::Three, 4, 4, [3, 8])[6..]);
    // three active bots fill a table of three; two do not
    store.league().retire("b3").await.unwrap();
    assert_eq!(store.leases().claimable_tournaments().await.unwrap(), vec![store.id()], "3 bots, 3 seats");
    assert!(matches!(store.league().top_up(3).await.unwrap(), TopUp::Added { .. }));
    store.league().retire("b2").await.unwrap();
    assert!(store.leases().claimable_tournaments().await.unwrap().is_empty(), "2 bots, 3 seats");
    assert_eq!(store.league().top_up(3).await.unwrap(), TopUp::Idle { active: 2, seats: 3 });
}

/// Plays (records) every pending game of a league, bot `b` thinking `ms_of(b)` in each.
async fn play_timed(store: &Store, ms_of: impl Fn(usize) -> i64) {
    let claimed = store.leases().claim("w", 1000, LEASE).await.unwrap();
    for g in &claimed {
        let r = GameRecord {
            index: g.index,
            set: g.set,
            seats: g.seats.clone(),
            scores: vec![25000; 4],
            ranks: vec![1, 2, 3, 4],
            stats: vec![Default::default(); 4],
        };
        store.games().record(&[r], &[]).await.unwrap();
        for &b in &g.seats {
            sqlx::query("UPDATE results SET think_ms = $1 WHERE game_idx = $2 AND bot = $3")
                .bind(ms_of(b))
                .bind(g.index as i64)
                .bind(b as i64)
                .execute(&store.pool)
                .await
                .unwrap();
        }
    }
}

/// A slow upload (thinking 12 times as long as the others, 32 minutes of the hour) sits
/// out the next top-up; at the others' pace it does not.
#[tokio::test]
async fn a_bot_over_its_share_of_table_time_sits_out_the_next_top_up() {
    for slow in [true, false] {
        let tmp = tempfile::tempdir().unwrap();
        let store = Store::open(&tmp.path().join(DB_FILE)).await.unwrap();
        // uploads (a built-in never sits out)
        let uploads: Vec<BotRow> =
            rows(5).into_iter().map(|r| BotRow { spec: format!("{}.zip", r.name), ..r }).collect();
        let store = store.create("league", &config(5, 0, [3, 0]), &uploads, &[]).await.unwrap();
        store.league().top_up(10).await.unwrap();
        let ms = |bot: usize| if slow && bot == 0 { 120_000 } else { 10_000 };
        play_timed(&store, ms).await;
        assert!(matches!(store.league().top_up(10).await.unwrap(), TopUp::Added { .. }));
        let next = store.leases().claim("w", 1000, LEASE).await.unwrap();
        assert!(!next.is_empty());
        let with_0 = next.iter().filter(|g| g.seats.contains(&0)).count();
        match slow {
            true => assert_eq!(with_0, 0, "the slow bot sits out: {next:?}"),
            false => assert!(with_0 > 0, "at the same pace it plays: {next:?}"),
        }
        // its page says so: its share of the hour's decision time, and whether it sits out
        store.versions().add_house("b0", "00", 0).await.unwrap();
        let page = store.board().bot_page("b0", VersionPick::Latest, 1.0).await.unwrap().unwrap();
        let share = page.table_time.unwrap();
        assert_eq!((share.sits_out, share.fair_share), (slow, 0.2), "{share:?}");
        assert!(if slow { share.share > 0.5 } else { (share.share - 0.2).abs() < 0.01 }, "{share:?}");
    }
}
