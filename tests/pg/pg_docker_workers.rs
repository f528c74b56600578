//! A Docker worker on a real PostgreSQL: SIGKILLed in the middle of a Docker game, then
//! started again under the same name. Its next life removes the containers the first left
//! and puts back the games it held; the tournament completes with one result per game and
//! no container of the worker is left. Only this worker's containers (label
//! `mjai-sim.game=worker-dkw-...`) are counted.
//!
//! "In the middle of a game" is made certain, not hoped for: the bot writes `waiting` to
//! stderr when it gets `start_game` and then waits 1 s before it answers, and the worker is
//! killed once all four stderr logs of one game say so. Its four containers are then alive
//! (a game of plain tsumogiri bots lasts well under a second, so watching the container
//! count alone sometimes caught a finished game's containers while they were removed).

use crate::e2e_support;
use crate::e2e_support::{mjai_sim, zip_of};

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::pg_support::PgCluster;
use sqlx::Row;

/// Containers (any state) labelled by the worker `dkw`.
fn worker_containers() -> usize {
    let of_dkw = |c: &bollard::models::ContainerSummary| {
        c.labels.as_ref().and_then(|l| l.get("mjai-sim.game")).is_some_and(|g| g.starts_with("worker-dkw-"))
    };
    e2e_support::labelled_containers().iter().filter(|c| of_dkw(c)).count()
}

/// `examples/tsumogiri`, but on `start_game` it says `waiting` on stderr and waits 1 s.
fn waiting_bot() -> Vec<u8> {
    let source =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/tsumogiri/bot.py")).unwrap();
    let hook = "def decide(seat, events):\n";
    assert!(source.contains(hook), "examples/tsumogiri/bot.py changed shape");
    let wait = "    if events[0].get(\"type\") == \"start_game\":\n        \
                import time\n        print(\"waiting\", file=sys.stderr, flush=True)\n        time.sleep(1)\n";
    source.replacen(hook, &format!("{hook}{wait}"), 1).into_bytes()
}

/// Whether some game folder under `work` has four stderr logs that say `waiting`: its four
/// bots are up and inside their 1 s wait.
fn four_bots_waiting(work: &Path) -> bool {
    fn dirs(p: &Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(p).into_iter().flatten().flatten() {
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                out.push(e.path());
                dirs(&e.path(), out);
            }
        }
    }
    let mut all = Vec::new();
    dirs(work, &mut all);
    all.iter().any(|d| {
        (0..4).all(|s| {
            std::fs::read_to_string(d.join(format!("player_logs.{s}.stderr.txt"))).is_ok_and(|t| t.contains("waiting"))
        })
    })
}

#[test]
fn a_sigkilled_docker_worker_is_cleaned_up_by_its_next_life_and_the_tournament_completes() {
    let pg = PgCluster::start();
    let url = pg.url();
    let tmp = tempfile::tempdir().unwrap();
    let bot = waiting_bot();
    let zip = tmp.path().join("tz.zip");
    std::fs::write(&zip, zip_of(&[("bot.py", &bot)])).unwrap();
    let z = zip.display().to_string();
    let mut coordinator = mjai_sim()
        .args(["tournament", "--db", &url, "--sets", "2", "--seed", "5,1", "--jobs", "0", "--dir"])
        .arg(tmp.path().join("coord"))
        .args([format!("a={z}"), format!("b={z}"), format!("c={z}"), format!("d={z}")])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let worker = |extra: &[&str]| {
        mjai_sim()
            .args(["worker", "--db", &url, "--name", "dkw", "--jobs", "1", "--lease", "3", "--poll", "0.2"])
            .args(extra)
            .arg("--work-dir")
            .arg(tmp.path().join("work"))
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let mut first = worker(&[]);
    let rt = tokio::runtime::Runtime::new().unwrap();
    let pool = rt.block_on(sqlx::postgres::PgPool::connect(&url)).unwrap();
    let count = |sql: &'static str| -> i64 { rt.block_on(sqlx::query(sql).fetch_one(&pool)).unwrap().get(0) };
    // a Docker game in play: its four bots wait inside their start_game answer
    let deadline = Instant::now() + Duration::from_secs(300);
    loop {
        if four_bots_waiting(&tmp.path().join("work")) {
            break;
        }
        assert!(first.try_wait().unwrap().is_none(), "the worker ended early");
        assert!(Instant::now() < deadline, "no Docker game started in 300 s");
        std::thread::sleep(Duration::from_millis(50));
    }
    first.kill().unwrap(); // SIGKILL: no cleanup in this life
    first.wait().unwrap();
    let left = worker_containers();
    assert!(left >= 4, "the killed worker left its game's containers ({left})");
    let mut second = worker(&["--exit-when-idle"]);
    let deadline = Instant::now() + Duration::from_secs(600);
    let status = loop {
        if let Some(s) = second.try_wait().unwrap() {
            break s;
        }
        assert!(Instant::now() < deadline, "the second life did not finish in 600 s");
        std::thread::sleep(Duration::from_millis(100));
    };
    let mut err = String::new();
    std::io::Read::read_to_string(second.stderr.as_mut().unwrap(), &mut err).unwrap();
    assert!(status.success(), "second life: {status:?} {err}");
    assert!(err.contains("of a previous life go back to the queue"), "{err}");
    assert!(err.contains("container(s) left by a previous life of worker-dkw"), "{err}");
    let coordinator_status = coordinator.wait().unwrap();
    assert!(coordinator_status.success(), "coordinator: {coordinator_status:?}");
    assert_eq!(count("SELECT COUNT(*) FROM games WHERE state = 'done'"), 8);
    assert_eq!(count("SELECT COUNT(*) FROM results"), 32);
    assert_eq!(count("SELECT COUNT(*) FROM game_files"), 8);
    assert_eq!(worker_containers(), 0, "no container of the worker is left");
}
