//! SIGTERM stops a Docker tournament the way it stops one game (the shared shutdown path of
//! `arena::shutdown`): exit 143, no container left, finished games kept, and `--resume`
//! completes the rest. It counts every mjai-sim container on the daemon, so it holds
//! [`crate::e2e_support::docker_exclusive`] against this binary's other Docker tournaments.

use crate::e2e_support;
use crate::e2e_support::mjai_sim;

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

/// Containers (any state) of any mjai-sim game on this Docker daemon.
fn mjai_sim_containers() -> usize {
    e2e_support::labelled_containers().len()
}

/// Games whose `summary.json` is written.
fn finished_games(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir.join("games")) else { return 0 };
    entries.filter_map(Result::ok).filter(|e| e.path().join("summary.json").exists()).count()
}

#[test]
fn sigterm_stops_a_docker_tournament_leaves_no_container_and_resume_completes_it() {
    let _alone = e2e_support::docker_exclusive();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("t");
    let bot = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/tsumogiri").display().to_string();
    let mut child = mjai_sim()
        .args(["tournament", &bot, &bot, &bot, &bot, "--sets", "3", "--jobs", "1", "--seed", "5"])
        .arg("--dir")
        .arg(&dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Poll an observable condition: the first game's summary.json.
    let deadline = Instant::now() + Duration::from_secs(300);
    while finished_games(&dir) == 0 {
        assert!(child.try_wait().unwrap().is_none(), "the tournament ended before the signal");
        assert!(Instant::now() < deadline, "no game finished in 300 s");
        std::thread::sleep(Duration::from_millis(50));
    }
    // SAFETY: kill(2) on our own child's pid.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGTERM) }, 0);
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(143), "SIGTERM exits 128 + 15");
    assert_eq!(mjai_sim_containers(), 0, "every container removed");
    let kept = finished_games(&dir);
    assert!((1..12).contains(&kept), "{kept} finished games kept");

    let out = mjai_sim().args(["tournament", "--resume"]).arg(&dir).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(finished_games(&dir), 12, "3 sets of 4 games after the resume");
    let standings: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("standings.json")).unwrap()).unwrap();
    let games: u64 = standings["bots"].as_array().unwrap().iter().map(|b| b["games"].as_u64().unwrap()).sum();
    assert_eq!(games, 12 * 4, "every game counted once, four seats each");
    assert_eq!(mjai_sim_containers(), 0);
}
