//! Scale-out on a real PostgreSQL (a throwaway cluster per test, `tests/pg_support/`):
//! the store's leases and claims, and `mjai-sim tournament --db` with three `mjai-sim
//! worker` processes, one of them SIGKILLed mid-run.

use crate::e2e_support::{mjai_sim, zip_of};
use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Child, Output, Stdio};
use std::time::Duration;

use crate::pg_support::{poll, PgCluster};
use mjai_sim::tournament::record::{GameRecord, SeatStats};
use mjai_sim::tournament::schedule::{duplicate, ScheduledGame};
use mjai_sim::tournament::store::{BotRow, Lookup, Store, StoreError};
use sqlx::Row;

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap()
}

fn bots() -> Vec<BotRow> {
    (0..4)
        .map(|i| BotRow { idx: i, name: format!("b{i}"), spec: "builtin:tsumogiri".into(), sha256: "00".into() })
        .collect()
}

fn record_of(g: &ScheduledGame, score0: i32) -> GameRecord {
    GameRecord {
        index: g.index,
        set: g.set,
        seats: g.seats.clone(),
        scores: vec![score0, 25000, 25000, 50000 - score0],
        ranks: vec![1, 2, 3, 4],
        stats: vec![SeatStats::default(); 4],
    }
}

#[test]
fn an_expired_lease_is_reclaimed_and_a_late_result_counts_once() {
    let pg = PgCluster::start();
    rt().block_on(async {
        let db = Store::open_url(&pg.url(), 8).await.unwrap();
        let a = db.create("ta", "{}", &bots(), &duplicate(4, 2, [9, 1])).await.unwrap();
        let b = db.create("tb", "{}", &bots(), &duplicate(4, 1, [5, 1])).await.unwrap();
        assert_ne!(a.id(), b.id());
        assert_eq!(db.tournament("tb").await.unwrap().map(|s| s.id()), Some(b.id()));
        assert!(matches!(db.lookup("tb").await.unwrap(), Lookup::Found(s) if s.id() == b.id()));
        assert!(matches!(db.lookup("tc").await.unwrap(), Lookup::Missing), "many tournaments in one database");
        assert_eq!(db.leases().claimable_tournaments().await.unwrap(), vec![a.id(), b.id()]);
        // w1 claims game 0 with a lease that has already expired: w2 takes it over
        let first = a.leases().claim("w1#1", 1, -1).await.unwrap();
        let second = a.leases().claim("w2#1", 1, 60_000).await.unwrap();
        assert_eq!(second, first);
        assert_eq!(a.leases().heartbeat("w1#1", 60_000).await.unwrap(), 0, "w1 holds nothing any more");
        assert_eq!(a.leases().heartbeat("w2#1", 60_000).await.unwrap(), 1);
        assert_eq!(a.games().record(&[record_of(&second[0], 30000)], &[]).await.unwrap(), vec![0]);
        // w1 comes back late with its own result of the same game: ignored
        assert!(a.games().record(&[record_of(&first[0], 1000)], &[]).await.unwrap().is_empty());
        assert_eq!(a.games().records().await.unwrap(), vec![record_of(&second[0], 30000)]);
        assert!(!a.games().fail("w1#1", 0, "late failure").await.unwrap());
        assert_eq!(a.games().counts().await.unwrap().done, 1);
        // eight workers claiming at once never take the same game (FOR UPDATE SKIP LOCKED)
        let claims = (0..8).map(|w| {
            let a = a.clone();
            tokio::spawn(async move {
                let mut mine = Vec::new();
                loop {
                    let got = a.leases().claim(&format!("c{w}#1"), 1, 60_000).await.unwrap();
                    if got.is_empty() {
                        return (w, mine);
                    }
                    assert_eq!(got.len(), 1, "a claim of 1 took {got:?}");
                    mine.extend(got.iter().map(|g| g.index));
                }
            })
        });
        let (mut all, mut by_c3) = (Vec::new(), 0);
        for c in claims {
            let (w, mine) = c.await.unwrap();
            by_c3 += if w == 3 { mine.len() } else { 0 };
            all.extend(mine);
        }
        let unique: BTreeSet<u64> = all.iter().copied().collect();
        assert_eq!(all.len(), unique.len(), "a game was claimed twice: {all:?}");
        assert_eq!(unique, (1..8).collect::<BTreeSet<u64>>());
        assert_eq!(b.games().counts().await.unwrap().pending, 4, "another tournament's games are untouched");
        // a restarted worker puts back what its previous life held
        assert_eq!(a.leases().requeue_worker("c3").await.unwrap() as usize, by_c3);
    });
}

#[test]
fn submissions_are_stored_by_hash_and_damage_is_a_one_line_error() {
    let pg = PgCluster::start();
    rt().block_on(async {
        let db = Store::open_url(&pg.url(), 4).await.unwrap();
        let sha = db.blobs().put_submission(b"zip bytes").await.unwrap();
        assert_eq!(db.blobs().put_submission(b"zip bytes").await.unwrap(), sha, "stored once");
        assert_eq!(db.blobs().submission(&sha).await.unwrap().as_deref(), Some(&b"zip bytes"[..]));
        let pool = sqlx::postgres::PgPool::connect(&pg.url()).await.unwrap();
        sqlx::query("UPDATE submissions SET bytes = $1").bind(b"tampered".to_vec()).execute(&pool).await.unwrap();
        let err = db.blobs().submission(&sha).await.unwrap_err();
        assert!(matches!(err, StoreError::Mismatch { .. }), "{err}");
        let text = err.to_string();
        assert!(!text.contains('\n') && text.contains(&sha) && text.contains("add the submission again"), "{text}");
        // a wrong port is one line naming the fix
        let bad = format!("postgres://mjai:secret@127.0.0.1:{}/postgres", free_port());
        let err = Store::open_url(&bad, 2).await.err().unwrap().to_string();
        assert!(!err.contains('\n') && !err.contains("secret") && err.contains("PostgreSQL runs"), "{err}");
    });
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Standings JSON without the decision-time fields (wall-clock measures differ per run).
fn but_timing(mut s: serde_json::Value) -> serde_json::Value {
    for bot in s["bots"].as_array_mut().unwrap() {
        let bot = bot.as_object_mut().unwrap();
        for field in ["decision_median_ms", "decision_p99_ms", "decisions"] {
            bot.remove(field);
        }
    }
    s
}

const BOTS: [&str; 5] =
    ["builtin:rulebase", "builtin:random", "tsumo=builtin:tsumogiri", "builtin:rulebase", "builtin:tsumogiri"];
const SETS: &str = "60";
const SEED: &str = "77,3";

fn worker(url: &str, name: &str, work: &Path) -> Child {
    mjai_sim()
        .args(["worker", "--db", url, "--name", name, "--jobs", "1", "--lease", "2", "--poll", "0.2", "--work-dir"])
        .arg(work.join(name))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start a worker")
}

fn wait_exit(child: &mut Child, limit: Duration) -> std::process::ExitStatus {
    poll(limit, "a process to exit", || child.try_wait().unwrap())
}

#[test]
fn three_workers_and_a_coordinator_finish_a_tournament_despite_a_sigkill() {
    let pg = PgCluster::start();
    let url = pg.url();
    let tmp = tempfile::tempdir().unwrap();
    // the single-host SQLite run with the same seed
    let mut local: Vec<String> = BOTS.iter().map(|s| s.to_string()).collect();
    local.extend(["--sets", SETS, "--seed", SEED, "--jobs", "2", "--json", "--dir"].map(String::from));
    local.push(tmp.path().join("local").display().to_string());
    let out: Output = mjai_sim().arg("tournament").args(&local).output().unwrap();
    assert!(out.status.success(), "local run: {}", text(&out.stderr));
    let expected = but_timing(serde_json::from_slice(&out.stdout).unwrap());

    let mut coordinator = mjai_sim()
        .arg("tournament")
        .args(BOTS)
        .args(["--sets", SETS, "--seed", SEED, "--jobs", "0", "--json", "--db", &url, "--dir"])
        .arg(tmp.path().join("coord"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let work = tmp.path().join("work");
    let mut victim = worker(&url, "w1", &work);
    let rt = rt();
    let store = rt.block_on(Store::open_url(&url, 2)).unwrap();
    let pool = rt.block_on(sqlx::postgres::PgPool::connect(&url)).unwrap();
    let count = |sql: &str| -> i64 {
        rt.block_on(sqlx::query(sqlx::AssertSqlSafe(sql.to_string())).fetch_one(&pool)).unwrap().get(0)
    };
    // the victim holds games and has recorded some: SIGKILL it in the middle of the run
    let running_of_w1 = || -> Vec<i64> {
        rt.block_on(
            sqlx::query("SELECT idx FROM games WHERE state = 'running' AND claimed_by LIKE 'w1#%' ORDER BY idx")
                .fetch_all(&pool),
        )
        .map(|rows| rows.iter().map(|r| r.get::<i64, _>(0)).collect())
        .unwrap_or_default()
    };
    poll(Duration::from_secs(120), "w1 to play", || {
        let done = count("SELECT COUNT(*) FROM games WHERE state = 'done'");
        (done > 0 && !running_of_w1().is_empty()).then_some(())
    });
    victim.kill().unwrap(); // SIGKILL
    victim.wait().unwrap();
    // What it held when it died (read after the kill: it may have recorded a game between a
    // look and the kill, and such a game is not replayed).
    let held = running_of_w1();
    assert!(!held.is_empty(), "the victim died holding games");
    let mut others = vec![worker(&url, "w2", &work), worker(&url, "w3", &work), worker(&url, "w4", &work)];
    let status = wait_exit(&mut coordinator, Duration::from_secs(300));
    let mut stdout = String::new();
    std::io::Read::read_to_string(coordinator.stdout.as_mut().unwrap(), &mut stdout).unwrap();
    let mut stderr = String::new();
    std::io::Read::read_to_string(coordinator.stderr.as_mut().unwrap(), &mut stderr).unwrap();
    assert!(status.success(), "coordinator: {status:?} {stderr}");
    assert_eq!(but_timing(serde_json::from_str(&stdout).unwrap()), expected, "standings as on one host");

    // every scheduled game has exactly one result and its files; the victim's games were replayed
    let total = count("SELECT COUNT(*) FROM games");
    assert_eq!(total, 240);
    assert_eq!(count("SELECT COUNT(*) FROM games WHERE state = 'done'"), total);
    assert_eq!(count("SELECT COUNT(*) FROM results"), total * 4);
    assert_eq!(
        count("SELECT COUNT(*) FROM (SELECT t, game_idx FROM results GROUP BY t, game_idx HAVING COUNT(*) = 4) x"),
        total
    );
    assert_eq!(count("SELECT COUNT(*) FROM game_files"), total);
    let replayed = count(&format!(
        "SELECT COUNT(*) FROM games WHERE idx IN ({}) AND claimed_by NOT LIKE 'w1#%'",
        held.iter().map(i64::to_string).collect::<Vec<_>>().join(",")
    ));
    assert_eq!(replayed as usize, held.len(), "every game the victim held was played by another worker");
    // a stored log is a whole game
    let tid = stderr.split("tournament ").nth(1).and_then(|s| s.split_whitespace().next()).unwrap().to_string();
    let scoped = rt.block_on(store.tournament(&tid)).unwrap().unwrap();
    let files = rt.block_on(scoped.blobs().game_files(held[0] as u64)).unwrap().unwrap();
    let log = String::from_utf8(files.log().unwrap()).unwrap();
    assert!(log.lines().next().unwrap().contains("start_game"), "{log}");
    assert!(log.lines().last().unwrap().contains("end_game"), "{log}");
    // standings from any host, while or after games run
    let out = mjai_sim().args(["standings", "--db", &url, "--tournament", &tid, "--json"]).output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(but_timing(serde_json::from_slice(&out.stdout).unwrap()), expected);
    // the remaining workers stop on SIGTERM with 143 and hold nothing
    for w in &mut others {
        // SAFETY: kill with a valid pid of our own child.
        unsafe { libc::kill(w.id() as i32, libc::SIGTERM) };
    }
    for w in &mut others {
        let status = wait_exit(w, Duration::from_secs(60));
        assert_eq!(status.code(), Some(143), "worker exit");
    }
    assert_eq!(count("SELECT COUNT(*) FROM games WHERE state <> 'done'"), 0);
}

#[test]
fn a_worker_plays_a_submission_it_reads_from_the_database_alone() {
    let pg = PgCluster::start();
    let url = pg.url();
    let tmp = tempfile::tempdir().unwrap();
    let bot = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/tsumogiri/bot.py")).unwrap();
    let zip = tmp.path().join("tz.zip");
    std::fs::write(&zip, zip_of(&[("bot.py", &bot)])).unwrap();
    let mut coordinator = mjai_sim()
        .args(["tournament", "--db", &url, "--runtime", "process", "--sets", "1", "--seed", "5,1", "--jobs", "0"])
        .arg(format!("tz={}", zip.display()))
        .args(["builtin:tsumogiri", "builtin:rulebase", "builtin:tsumogiri", "--json", "--dir"])
        .arg(tmp.path().join("coord"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let rt = rt();
    let store = rt.block_on(Store::open_url(&url, 2)).unwrap();
    poll(Duration::from_secs(60), "the tournament to be created", || {
        (!rt.block_on(store.leases().claimable_tournaments()).unwrap().is_empty()).then_some(())
    });
    std::fs::remove_file(&zip).unwrap(); // the worker has no access to the creator's files
    let out = mjai_sim()
        .args(["worker", "--db", &url, "--name", "solo", "--jobs", "2", "--exit-when-idle", "--work-dir"])
        .arg(tmp.path().join("work"))
        .output()
        .unwrap();
    assert!(out.status.success(), "worker: {}", text(&out.stderr));
    let status = wait_exit(&mut coordinator, Duration::from_secs(120));
    let mut stdout = String::new();
    std::io::Read::read_to_string(coordinator.stdout.as_mut().unwrap(), &mut stdout).unwrap();
    assert!(status.success(), "coordinator: {status:?}");
    let standings: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let tz = &standings["bots"][0];
    assert_eq!((tz["name"].as_str(), tz["games"].as_u64()), (Some("tz"), Some(4)), "{standings}");
    assert!(!tmp.path().join("work").exists(), "the worker leaves no work folder behind");
}

/// Lines of a worker's stderr (its cache logging at info) saying it fetched a submission.
fn fetches_in(stderr: &[u8]) -> usize {
    text(stderr).matches("fetched into the cache").count()
}

#[test]
fn workers_on_one_host_fetch_a_submission_once_into_their_cache() {
    let pg = PgCluster::start();
    let url = pg.url();
    let tmp = tempfile::tempdir().unwrap();
    // bot.py and incompressible weights over the store's piece size: several pieces
    let bot = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/tsumogiri/bot.py")).unwrap();
    let mut x = 11u32;
    let weights: Vec<u8> = (0..mjai_sim::tournament::store::CHUNK_BYTES + 4096)
        .map(|_| {
            x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (x >> 24) as u8
        })
        .collect();
    let zip_bytes = zip_of(&[("bot.py", &bot), ("weights.bin", &weights)]);
    let sha = mjai_sim::tournament::store::sha256_hex(&zip_bytes);
    let zip = tmp.path().join("tz.zip");
    std::fs::write(&zip, &zip_bytes).unwrap();
    let cache = tmp.path().join("cache");
    let rt = rt();
    let store = rt.block_on(Store::open_url(&url, 2)).unwrap();
    // two tournaments with the same submission, one after the other, each played by a new
    // worker process on this host (one cache folder), then by one on "another host"
    for (round, cache_dir, fetches) in [(0, &cache, 1), (1, &cache, 0), (2, &tmp.path().join("other-host"), 1)] {
        let mut coordinator = mjai_sim()
            .args(["tournament", "--db", &url, "--runtime", "process", "--sets", "1", "--jobs", "0", "--json"])
            .args(["--seed", &format!("{},1", 5 + round)])
            .arg(format!("tz={}", zip.display()))
            .args(["builtin:tsumogiri", "builtin:rulebase", "builtin:tsumogiri", "--dir"])
            .arg(tmp.path().join(format!("coord{round}")))
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        poll(Duration::from_secs(60), "the tournament to be created", || {
            (rt.block_on(store.leases().claimable_tournaments()).unwrap().len() == 1).then_some(())
        });
        let out = mjai_sim()
            .env("RUST_LOG", "mjai_sim_tournament::submission_cache=info")
            .args(["worker", "--db", &url, "--name", "cached", "--jobs", "2", "--exit-when-idle", "--cache-dir"])
            .arg(cache_dir)
            .args(["--work-dir"])
            .arg(tmp.path().join("work"))
            .output()
            .unwrap();
        assert!(out.status.success(), "worker: {}", text(&out.stderr));
        assert_eq!(fetches_in(&out.stderr), fetches, "round {round}: {}", text(&out.stderr));
        assert!(wait_exit(&mut coordinator, Duration::from_secs(120)).success(), "coordinator {round}");
        let cached = cache_dir.join(format!("{sha}.zip"));
        assert_eq!(std::fs::read(&cached).unwrap(), zip_bytes, "round {round}: the cached zip is the submission");
    }
}

#[test]
fn the_coordinator_plays_alone_with_its_own_jobs_and_a_sqlite_url_works_too() {
    let tmp = tempfile::tempdir().unwrap();
    let pg = PgCluster::start();
    let mut outputs = Vec::new();
    for db in [pg.url(), format!("sqlite:{}", tmp.path().join("t.sqlite").display())] {
        let out = mjai_sim()
            .arg("tournament")
            .args(BOTS)
            .args(["--sets", "3", "--seed", SEED, "--jobs", "2", "--json", "--db", &db, "--dir"])
            .arg(tmp.path().join(outputs.len().to_string()))
            .output()
            .unwrap();
        assert!(out.status.success(), "{db}: {}", text(&out.stderr));
        outputs.push(but_timing(serde_json::from_slice(&out.stdout).unwrap()));
    }
    assert_eq!(outputs[0], outputs[1]);
    // export-games writes every game as the main job does; `verify` replays each log
    let tid = tournament_id(&pg.url());
    let export = tmp.path().join("export");
    let out = mjai_sim().args(["export-games", "--db", &pg.url(), "--tournament", &tid]).arg(&export).output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let games: Vec<_> = std::fs::read_dir(export.join("games")).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(games.len(), 12);
    for g in &games {
        for f in ["mjai_log.json", "summary.json", "errors.json", "game.html"] {
            assert!(g.join(f).exists(), "{} has {f}", g.display());
        }
    }
    let out = mjai_sim().arg("verify").arg(games[0].join("mjai_log.json")).output().unwrap();
    assert!(out.status.success(), "verify: {}", text(&out.stderr));
    let bad =
        mjai_sim().args(["export-games", "--db", &pg.url(), "--tournament", "nope"]).arg(&export).output().unwrap();
    assert_eq!(bad.status.code(), Some(1));
    assert!(text(&bad.stderr).contains("no tournament nope"), "{}", text(&bad.stderr));
    assert_eq!(outputs[0]["bots"].as_array().unwrap().iter().map(|b| b["games"].as_u64().unwrap()).sum::<u64>(), 48);
}

/// The id of the only tournament in the database at `url`.
fn tournament_id(url: &str) -> String {
    rt().block_on(async {
        let pool = sqlx::postgres::PgPool::connect(url).await.unwrap();
        sqlx::query("SELECT tid FROM tournament").fetch_one(&pool).await.unwrap().get::<String, _>(0)
    })
}
