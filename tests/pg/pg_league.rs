//! Leagues (open-ended tournaments, `--sets 0`) with real processes and built-in bots: on a
//! throwaway PostgreSQL (`tests/pg_support/`) a coordinator and two `mjai-sim worker`
//! processes play a league that gains a bot and retires one while they run; concurrent
//! top-ups on PostgreSQL append each set once; and a league in a tournament folder
//! (SQLite, no `--db`) picks up a bot added to its database.

use crate::e2e_support::{mjai_sim, zip_of};
use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Child, Output, Stdio};
use std::time::Duration;

use crate::pg_support::{poll, PgCluster};
use mjai_sim::tournament::config::TournamentConfig;
use mjai_sim::tournament::schedule::{duplicate, ScheduledGame};
use mjai_sim::tournament::store::{BotRow, Store, UploadedZip};
use sqlx::Row;

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap()
}

fn signal(child: &Child, sig: i32) {
    // SAFETY: kill with the pid of our own child.
    unsafe { libc::kill(child.id() as i32, sig) };
}

/// Child processes, SIGKILLed if the test fails before it stops them.
struct Procs(Vec<Child>);

impl Drop for Procs {
    fn drop(&mut self) {
        for c in &mut self.0 {
            if c.try_wait().ok().flatten().is_none() {
                signal(c, libc::SIGCONT);
                let _ = c.kill();
                let _ = c.wait();
            }
        }
    }
}

/// SIGTERM, then the exit status (at most `limit`).
fn terminate(child: &mut Child, limit: Duration) -> std::process::ExitStatus {
    signal(child, libc::SIGTERM);
    poll(limit, "a process to exit", || child.try_wait().unwrap())
}

fn worker(url: &str, name: &str, work: &Path) -> Child {
    mjai_sim()
        .args(["worker", "--db", url, "--name", name, "--jobs", "1", "--lease", "10", "--poll", "0.2", "--work-dir"])
        .arg(work.join(name))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start a worker")
}

fn league(url: &str, tid: &str, args: &[&str]) -> Output {
    mjai_sim().arg("league").arg(args[0]).args(["--db", url, "--tournament", tid]).args(&args[1..]).output().unwrap()
}

/// The bots' "retired" flags and games in standings JSON, by name.
fn bots_of(standings: &serde_json::Value) -> Vec<(String, bool, u64)> {
    standings["bots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (b["name"].as_str().unwrap().to_string(), b["retired"].as_bool().unwrap(), b["games"].as_u64().unwrap())
        })
        .collect()
}

#[test]
fn a_league_gains_a_bot_while_workers_run_and_a_retired_bot_is_never_claimed_again() {
    let pg = PgCluster::start();
    let url = pg.url();
    let tmp = tempfile::tempdir().unwrap();
    let rt = rt();
    let pool = rt.block_on(sqlx::postgres::PgPool::connect(&url)).unwrap();
    let count = |sql: &str| -> i64 {
        rt.block_on(sqlx::query(sqlx::AssertSqlSafe(sql.to_string())).fetch_one(&pool)).unwrap().get(0)
    };
    let ids = |sql: &str| -> BTreeSet<i64> {
        let rows = rt.block_on(sqlx::query(sqlx::AssertSqlSafe(sql.to_string())).fetch_all(&pool)).unwrap();
        rows.iter().map(|r| r.get::<i64, _>(0)).collect()
    };
    let with_b = "(seat0 = 1 OR seat1 = 1 OR seat2 = 1 OR seat3 = 1)";

    let mut procs = Procs(Vec::new());
    let coordinator = mjai_sim()
        .args(["tournament", "--db", &url, "--sets", "0", "--jobs", "0", "--seed", "5,1", "--no-logs", "--json"])
        .args(["a=builtin:rulebase", "b=builtin:tsumogiri", "c=builtin:random", "d=builtin:tsumogiri", "--dir"])
        .arg(tmp.path().join("coord"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    procs.0.push(coordinator);
    let tid: String = poll(Duration::from_secs(60), "the league to be created", || {
        let row = rt.block_on(sqlx::query("SELECT tid FROM tournament").fetch_optional(&pool)).ok()??;
        Some(row.get(0))
    });
    let work = tmp.path().join("work");
    procs.0.push(worker(&url, "w1", &work));
    procs.0.push(worker(&url, "w2", &work));
    poll(Duration::from_secs(120), "games to be recorded", || {
        (count("SELECT COUNT(*) FROM games WHERE state = 'done'") >= 8).then_some(())
    });

    // refused submissions change nothing
    let no_bot_py = tmp.path().join("nobot.zip");
    std::fs::write(&no_bot_py, zip_of(&[("main.py", b"print(1)\n")])).unwrap();
    for (name, bot, why) in [
        ("z", no_bot_py.to_str().unwrap(), "bot.py"),
        ("z", "builtin:nope", "unknown built-in"),
        ("a", "builtin:random", "already has a bot named a"),
    ] {
        let out = league(&url, &tid, &["add", name, bot]);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{name} {bot}: {err}");
        assert!(err.contains(why) && err.trim_end().lines().count() == 1, "{name} {bot}: {err}");
    }
    assert_eq!(count("SELECT COUNT(*) FROM bots"), 4);
    assert_eq!(count("SELECT COUNT(*) FROM submissions"), 0);

    // a bot added while the workers run gets games
    let out = league(&url, &tid, &["add", "e", "builtin:rulebase"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("as bot 4") && text(&out.stdout).lines().count() == 1, "{}", text(&out.stdout));
    poll(Duration::from_secs(120), "the new bot's results", || {
        (count("SELECT COUNT(*) FROM results WHERE bot = 4") >= 8).then_some(())
    });
    // played by workers that loaded it: a seat whose bot cannot start pays chombos
    assert_eq!(count("SELECT COUNT(*) FROM results WHERE stats LIKE '%chombos%'"), 0);

    // retire b while the workers are frozen (SIGSTOP) outside any transaction and some of
    // its games are pending, so that what is pending and in play then is known exactly
    let workers = &procs.0[1..];
    let (pending_b, in_play) = poll(Duration::from_secs(60), "a moment with b's games pending", || {
        workers.iter().for_each(|w| signal(w, libc::SIGSTOP));
        let busy = count(
            "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database() \
             AND pid <> pg_backend_pid() AND (state = 'active' OR state LIKE 'idle in transaction%')",
        );
        let pending = count(&format!("SELECT COUNT(*) FROM games WHERE state = 'pending' AND {with_b}"));
        if pending == 0 || busy > 0 {
            workers.iter().for_each(|w| signal(w, libc::SIGCONT));
            return None;
        }
        Some((pending, ids(&format!("SELECT idx FROM games WHERE state = 'running' AND {with_b}"))))
    });
    let out = league(&url, &tid, &["retire", "b"]);
    workers.iter().for_each(|w| signal(w, libc::SIGCONT));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    assert!(said.contains(&format!("{pending_b} pending game(s) cancelled")), "{said}");
    assert_eq!(count(&format!("SELECT COUNT(*) FROM games WHERE state = 'pending' AND {with_b}")), 0);
    assert_eq!(count("SELECT COUNT(*) FROM games WHERE state = 'cancelled'"), pending_b);
    assert_eq!(count(&format!("SELECT COUNT(*) FROM games WHERE state = 'cancelled' AND NOT {with_b}")), 0);

    // the games b had in play finish and count; after them b is never claimed again
    poll(Duration::from_secs(120), "b's games in play to finish", || {
        (count(&format!("SELECT COUNT(*) FROM games WHERE state = 'running' AND {with_b}")) == 0).then_some(())
    });
    let done_in_play = ids(&format!("SELECT idx FROM games WHERE state = 'done' AND {with_b}"));
    assert!(in_play.is_subset(&done_in_play), "in play {in_play:?}, done {done_in_play:?}");
    let b_results = count("SELECT COUNT(*) FROM results WHERE bot = 1");
    let done = count("SELECT COUNT(*) FROM games WHERE state = 'done'");
    poll(Duration::from_secs(120), "40 more games", || {
        (count("SELECT COUNT(*) FROM games WHERE state = 'done'") >= done + 40).then_some(())
    });
    assert_eq!(ids(&format!("SELECT idx FROM games WHERE state <> 'cancelled' AND {with_b}")), done_in_play);
    assert_eq!(count("SELECT COUNT(*) FROM results WHERE bot = 1"), b_results);

    // SIGTERM: exit 143, games in play given back, every result recorded exactly once
    for w in &mut procs.0[1..] {
        assert_eq!(terminate(w, Duration::from_secs(60)).code(), Some(143), "worker exit");
    }
    let coordinator = &mut procs.0[0];
    assert_eq!(terminate(coordinator, Duration::from_secs(60)).code(), Some(143), "coordinator exit");
    let mut stdout = String::new();
    std::io::Read::read_to_string(coordinator.stdout.as_mut().unwrap(), &mut stdout).unwrap();
    assert_eq!(count("SELECT COUNT(*) FROM games WHERE state = 'running'"), 0, "games in play were given back");
    assert_eq!(
        count("SELECT COUNT(*) FROM (SELECT game_idx FROM results GROUP BY t, game_idx HAVING COUNT(*) <> 4) x"),
        0
    );
    let done = count("SELECT COUNT(*) FROM games WHERE state = 'done'");
    assert_eq!(count("SELECT COUNT(DISTINCT game_idx) FROM results"), done);
    let standings: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let bots = bots_of(&standings);
    let names: Vec<&str> = bots.iter().map(|(n, _, _)| n.as_str()).collect();
    assert_eq!(names, ["a", "b", "c", "d", "e"]);
    assert_eq!(bots.iter().map(|(_, r, _)| *r).collect::<Vec<_>>(), [false, true, false, false, false]);
    assert_eq!(standings["games"].as_i64(), Some(done));
    assert!(standings["bots"].as_array().unwrap().iter().all(|b| b["chombos"] == 0), "{standings}");
    assert!(bots[4].2 >= 8 && bots[1].2 as i64 == b_results);
    let out = mjai_sim().args(["standings", "--db", &url, "--tournament", &tid, "--json"]).output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(bots_of(&serde_json::from_slice(&out.stdout).unwrap()), bots);
}

fn config(bots: usize, seed: [u64; 2]) -> String {
    TournamentConfig {
        bots: vec!["builtin:tsumogiri".into(); bots],
        sets: 0,
        seed,
        runtime: mjai_sim::arena::launch::RuntimeKind::Process,
        max_submission_mb: 100,
        logs: false,
        ..TournamentConfig::default()
    }
    .to_json()
}

#[test]
fn concurrent_top_ups_on_postgres_append_each_set_once() {
    let pg = PgCluster::start();
    rt().block_on(async {
        let db = Store::open_url(&pg.url(), 16).await.unwrap();
        let bots: Vec<BotRow> = (0..6)
            .map(|i| BotRow { idx: i, name: format!("b{i}"), spec: "builtin:tsumogiri".into(), sha256: "00".into() })
            .collect();
        let store = db.create("league", &config(6, [4, 2]), &bots, &[]).await.unwrap();
        let tasks = (0..8).map(|w| {
            let store = store.clone();
            tokio::spawn(async move {
                let mut claimed = 0;
                for _ in 0..25 {
                    store.league().top_up(4).await.unwrap();
                    claimed += store.leases().claim(&format!("w{w}#1"), 4, 60_000).await.unwrap().len();
                }
                claimed
            })
        });
        let tasks: Vec<_> = tasks.collect(); // spawned at once, not one after another
        let mut claimed = 0;
        for t in tasks {
            claimed += t.await.unwrap();
        }
        let pool = sqlx::postgres::PgPool::connect(&pg.url()).await.unwrap();
        let rows = sqlx::query(
            "SELECT idx, set_idx, seed_nonce, seed_key, seat0, seat1, seat2, seat3 FROM games ORDER BY idx",
        )
        .fetch_all(&pool)
        .await
        .unwrap();
        let games: Vec<ScheduledGame> = rows
            .iter()
            .map(|r| {
                let int = |i: usize| r.get::<i64, _>(i);
                ScheduledGame {
                    index: int(0) as u64,
                    set: int(1) as u64,
                    seed: [int(2) as u64, int(3) as u64],
                    seats: vec![int(4) as usize, int(5) as usize, int(6) as usize, int(7) as usize],
                }
            })
            .collect();
        let c = store.games().counts().await.unwrap();
        assert_eq!((c.running, c.pending + c.running), (claimed as u64, games.len() as u64));
        assert_eq!(games, duplicate(6, games.len() as u64 / 4, [4, 2]), "each set once, as --sets N schedules");
    });
}

#[test]
fn a_league_in_a_folder_picks_up_a_bot_added_to_its_database() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("league");
    let refused = mjai_sim()
        .args(["tournament", "--sets", "0", "--format", "1v3", "builtin:rulebase", "builtin:random", "--dir"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(1));
    assert!(text(&refused.stderr).contains("--sets 0 (an open-ended league) needs --format duplicate"));
    assert!(!dir.exists(), "nothing written");

    let mut procs = Procs(Vec::new());
    procs.0.push(
        mjai_sim()
            .args(["tournament", "--sets", "0", "--jobs", "1", "--no-logs", "--seed", "8,0", "--dir"])
            .arg(&dir)
            .args(["builtin:rulebase", "builtin:tsumogiri", "builtin:random", "t2=builtin:tsumogiri"])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let db = dir.join("tournament.sqlite");
    let rt = rt();
    let count = |sql: &str| -> Option<i64> {
        rt.block_on(async {
            let pool = sqlx::sqlite::SqlitePool::connect(&format!("sqlite:{}", db.display())).await.ok()?;
            let n = sqlx::query(sqlx::AssertSqlSafe(sql.to_string())).fetch_one(&pool).await.ok()?.get(0);
            pool.close().await;
            Some(n)
        })
    };
    poll(Duration::from_secs(120), "games in the folder's database", || {
        (count("SELECT COUNT(*) FROM games WHERE state = 'done'")? >= 8).then_some(())
    });
    let tid: String = rt.block_on(async {
        let pool = sqlx::sqlite::SqlitePool::connect(&format!("sqlite:{}", db.display())).await.unwrap();
        sqlx::query("SELECT tid FROM tournament").fetch_one(&pool).await.unwrap().get(0)
    });
    let out = league(&format!("sqlite:{}", db.display()), &tid, &["add", "late", "builtin:rulebase"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    poll(Duration::from_secs(120), "the added bot's results", || {
        (count("SELECT COUNT(*) FROM results WHERE bot = 4")? >= 4).then_some(())
    });
    assert_eq!(count("SELECT COUNT(*) FROM results WHERE stats LIKE '%chombos%'"), Some(0), "every seat's bot ran");
    let status = terminate(&mut procs.0[0], Duration::from_secs(60));
    let mut stderr = String::new();
    std::io::Read::read_to_string(procs.0[0].stderr.as_mut().unwrap(), &mut stderr).unwrap();
    assert_eq!(status.code(), Some(143), "{stderr}");
    assert!(stderr.contains("a league: open-ended, runs until stopped"), "{stderr}");
    let standings: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("standings.json")).unwrap()).unwrap();
    let bots = bots_of(&standings);
    assert_eq!(bots.len(), 5);
    assert!(bots[4].0 == "late" && bots[4].2 >= 4, "{bots:?}");
}

/// SQL run beside the store, on the same database.
enum Raw {
    Pg(sqlx::postgres::PgPool),
    Lite(sqlx::sqlite::SqlitePool),
}

impl Raw {
    async fn run(&self, sql: &str) {
        match self {
            Raw::Pg(p) => sqlx::raw_sql(sqlx::AssertSqlSafe(sql)).execute(p).await.map(drop),
            Raw::Lite(p) => sqlx::raw_sql(sqlx::AssertSqlSafe(sql)).execute(p).await.map(drop),
        }
        .unwrap_or_else(|e| panic!("{sql}: {e}"));
    }

    /// `retired` of the league bot named `name`, `None` when there is none.
    async fn retired(&self, name: &str) -> Option<i64> {
        let sql = "SELECT retired FROM bots WHERE name = $1";
        match self {
            Raw::Pg(p) => sqlx::query(sql).bind(name).fetch_optional(p).await.unwrap().map(|r| r.get(0)),
            Raw::Lite(p) => sqlx::query(sql).bind(name).fetch_optional(p).await.unwrap().map(|r| r.get(0)),
        }
    }

    /// A trigger that fails every update making a version active: the process "stops"
    /// after the league bot was added and before the version's status is set.
    async fn stop_before_active(&self, on: bool) {
        let sql = match (self, on) {
            (Raw::Pg(_), true) => {
                "CREATE FUNCTION stop() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'stopped'; END $$ LANGUAGE plpgsql; \
                 CREATE TRIGGER stop BEFORE UPDATE ON bot_versions FOR EACH ROW \
                 WHEN (NEW.status = 'active') EXECUTE FUNCTION stop();"
            }
            (Raw::Pg(_), false) => "DROP TRIGGER stop ON bot_versions; DROP FUNCTION stop();",
            (Raw::Lite(_), true) => {
                "CREATE TRIGGER stop BEFORE UPDATE ON bot_versions WHEN NEW.status = 'active' \
                 BEGIN SELECT RAISE(ABORT, 'stopped'); END;"
            }
            (Raw::Lite(_), false) => "DROP TRIGGER stop;",
        };
        self.run(sql).await;
    }
}

/// Admitting a version stopped where the league bot is added and the version not yet
/// active leaves nothing behind (before issue 28: the bot stayed, and the version hit its
/// own name for ever); a store damaged that way by an older build is repaired by the next
/// admit; a league name held by another submission is still refused.
async fn admit_is_one_transaction(db: &Store, raw: &Raw) {
    use mjai_sim::tournament::leaderboard::BotStatus;
    use mjai_sim::tournament::store::{sha256_hex, StoreError, Upload, UploadLimits, ValidationFiles};
    let bots: Vec<BotRow> = (0..4)
        .map(|i| BotRow { idx: i, name: format!("b{i}"), spec: "builtin:tsumogiri".into(), sha256: "00".into() })
        .collect();
    let store = db.create("league", &config(4, [5, 5]), &bots, &[]).await.unwrap();
    let limits = UploadLimits { max_bots: 5, uploads_per_hour: 50 };
    let files = ValidationFiles { log_gz: vec![1], stderr: String::new(), summary: "{}".into(), errors: "[]".into() };
    let status = |v: u32| {
        let store = store.clone();
        async move {
            let rows = store.versions().of("mine").await.unwrap();
            let row = rows.into_iter().find(|r| r.version == v).unwrap();
            (row.status, row.bot_idx)
        }
    };
    for v in 1..=4u32 {
        let zip = format!("zip {v}");
        assert_eq!(
            store.versions().begin_upload("alice", "mine", UploadedZip::Bytes(zip.as_bytes()), limits).await.unwrap(),
            Upload::Started { version: v }
        );
        store.versions().record_validation("mine", v, &files, Ok(())).await.unwrap();
    }
    assert_eq!(store.versions().admit("mine", 1).await.unwrap(), Some(4));

    raw.stop_before_active(true).await;
    assert!(store.versions().admit("mine", 2).await.is_err(), "the trigger stops the admit");
    raw.stop_before_active(false).await;
    assert_eq!(raw.retired("mine#2").await, None, "the league bot's insert rolled back");
    assert_eq!(status(2).await, (BotStatus::Validating, None), "validating: validated again at the next start");
    assert_eq!((status(1).await, raw.retired("mine").await), ((BotStatus::Active, Some(4)), Some(0)));
    assert_eq!(store.versions().admit("mine", 2).await.unwrap(), Some(5), "admitted cleanly the second time");
    assert_eq!(status(2).await, (BotStatus::Active, Some(5)));
    assert_eq!((status(1).await, raw.retired("mine").await), ((BotStatus::Retired, Some(4)), Some(1)));

    // what an older build's crash left: the league bot, the version still validating
    let sha3 = sha256_hex(b"zip 3");
    store.league().add_bot("mine#3", "mine#3.zip", &sha3, None).await.unwrap();
    assert_eq!(store.versions().admit("mine", 3).await.unwrap(), Some(6), "the unclaimed league bot is taken over");
    assert_eq!((status(3).await, raw.retired("mine#2").await), ((BotStatus::Active, Some(6)), Some(1)));

    // a league bot of that name with another submission is not taken over
    store.league().add_bot("mine#4", "mine#4.zip", &sha256_hex(b"another zip"), None).await.unwrap();
    let err = store.versions().admit("mine", 4).await.unwrap_err();
    assert!(matches!(err, StoreError::Corrupt { .. }), "{err}");
    assert!(err.to_string().contains("the league already has a bot named mine#4"), "{err}");
    assert_eq!((status(4).await, status(3).await.0), ((BotStatus::Validating, None), BotStatus::Active));
}

#[test]
fn admitting_a_version_is_one_transaction_on_postgres_and_sqlite() {
    let pg = PgCluster::start();
    let tmp = tempfile::tempdir().unwrap();
    rt().block_on(async {
        let db = Store::open_url(&pg.url(), 4).await.unwrap();
        let raw = Raw::Pg(sqlx::postgres::PgPool::connect(&pg.url()).await.unwrap());
        admit_is_one_transaction(&db, &raw).await;

        let path = tmp.path().join("league.sqlite");
        let db = Store::open(&path).await.unwrap();
        let raw = Raw::Lite(sqlx::sqlite::SqlitePool::connect(&format!("sqlite:{}", path.display())).await.unwrap());
        admit_is_one_transaction(&db, &raw).await;
    });
}

/// Suspension on PostgreSQL (issue 39): the threshold is stored with the league, so the
/// process recording the games (here the store itself, as a worker records) suspends an
/// uploaded version whose chombos reach it; a house bot with as many stays; the suspended
/// version leaves the league and its aggregate counts its chombos.
#[test]
fn a_version_over_the_chombo_threshold_is_suspended_on_postgres() {
    use mjai_sim::tournament::leaderboard::BotStatus;
    use mjai_sim::tournament::record::{GameRecord, SeatStats};
    use mjai_sim::tournament::store::{SuspensionPolicy, UploadLimits};
    let pg = PgCluster::start();
    rt().block_on(async {
        let db = Store::open_url(&pg.url(), 4).await.unwrap();
        let bots: Vec<BotRow> = (0..4)
            .map(|i| BotRow { idx: i, name: format!("b{i}"), spec: "builtin:tsumogiri".into(), sha256: "00".into() })
            .collect();
        let store = db.create("league", &config(4, [6, 1]), &bots, &[]).await.unwrap();
        for b in 0..4 {
            store.versions().add_house(&format!("b{b}"), "00", b).await.unwrap();
        }
        let limits = UploadLimits { max_bots: 5, uploads_per_hour: 50 };
        store.versions().begin_upload("alice", "flaky", UploadedZip::Bytes(b"flaky"), limits).await.unwrap();
        let flaky = store.versions().admit("flaky", 1).await.unwrap().unwrap();
        store.suspensions().set_policy(SuspensionPolicy { after: 2, window: 5 }).await.unwrap();
        let status = || async { store.versions().of("flaky").await.unwrap()[0].clone() };
        let mut rounds = 0;
        while status().await.status == BotStatus::Active {
            rounds += 1;
            assert!(rounds < 50, "never suspended");
            store.league().top_up(8).await.unwrap();
            let claimed = store.leases().claim("w#1", 1, 60_000).await.unwrap();
            let records: Vec<GameRecord> = claimed
                .iter()
                .map(|g| {
                    let mut stats: [SeatStats; 4] = Default::default();
                    for (seat, &bot) in stats.iter_mut().zip(&g.seats) {
                        seat.chombos = u32::from(bot == flaky || bot == 0);
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
        }
        let v = status().await;
        assert_eq!(
            (v.status, v.reason.as_deref()),
            (BotStatus::Suspended, Some("suspended: 2 chombos in its last 2 league games"))
        );
        assert!(store.league().retired().await.unwrap().contains(&flaky));
        assert_eq!(store.versions().of("b0").await.unwrap()[0].status, BotStatus::Active, "a house bot stays");
        let board = store.board().leaderboard(0.0).await.unwrap();
        let line = board.bots.iter().find(|e| e.name == "flaky").unwrap();
        assert_eq!(line.chombos_per_game, Some(1.0));
    });
}
