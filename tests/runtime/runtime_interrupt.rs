//! Ctrl-C during a game removes every container of that game before the process exits.
//! The child is this test binary re-run on the ignored `child_game` helper.

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::Arc;

use bollard::query_parameters::{ListContainersOptions, ListVolumesOptions};
use mjai_sim::runtime::docker::cleanup::ContainerGuard;
use mjai_sim::runtime::docker::host_dir::host_root;
use mjai_sim::runtime::docker::{daemon, DockerOptions};
use mjai_sim::runtime::launcher::{SeatSpec, SubmissionLauncher};

use crate::runtime_support;

const CHILD_ENV: &str = "MJAI_SIM_TEST_CHILD_GAME";

/// Helper run by `sigint_removes_every_container_of_the_game`: starts four seats, prints
/// `ready <game>` (the harness may print it after its own "test child_game ... "), waits
/// for Ctrl-C.
#[tokio::test]
#[ignore = "helper process for sigint_removes_every_container_of_the_game"]
async fn child_game() {
    let Ok(logs) = std::env::var(CHILD_ENV) else { return };
    let guard = ContainerGuard::new(daemon().await.unwrap());
    let game = guard.game().to_string();
    // what the binary's signal handling does: SIGINT fires the cancellation token
    let cancel = mjai_sim::arena::cancel::Cancel::new();
    let mut sigint = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::interrupt()).unwrap();
    let fire = cancel.clone();
    tokio::spawn(async move {
        sigint.recv().await;
        fire.cancel();
    });
    let outcome = guard
        .run_until_cancelled(cancel.token(), async {
            let launcher =
                SubmissionLauncher::docker_with_guard(DockerOptions::default(), guard.clone()).await.unwrap();
            let sub = Arc::new(runtime_support::test_submission());
            let seats = std::array::from_fn(|n| SeatSpec {
                submission: sub.clone(),
                stderr_log: format!("{logs}/{n}.txt").into(),
            });
            let _bots = launcher.launch(seats).await.unwrap();
            println!("ready {game}");
            std::future::pending::<()>().await
        })
        .await;
    assert!(outcome.is_err());
    std::process::exit(130);
}

async fn count(game: &str) -> (usize, usize) {
    let docker = daemon().await.unwrap();
    let filters = HashMap::from([("label".to_string(), vec![format!("mjai-sim.game={game}")])]);
    let list = ListContainersOptions { all: true, filters: Some(filters.clone()), ..Default::default() };
    let containers = docker.list_containers(Some(list)).await.unwrap().len();
    let volumes = docker.list_volumes(Some(ListVolumesOptions { filters: Some(filters) })).await.unwrap();
    (containers, volumes.volumes.unwrap_or_default().len())
}

#[tokio::test]
async fn sigint_removes_every_container_of_the_game() {
    let logs = tempfile::tempdir().unwrap();
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "runtime_interrupt::child_game", "--ignored", "--nocapture", "--test-threads=1"])
        .env(CHILD_ENV, logs.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let game = stdout
        .lines()
        .map_while(Result::ok)
        .find_map(|l| l.split_once("ready ").map(|(_, game)| game.trim().to_string()))
        .expect("child never got ready");
    // A local daemon: no volumes, each seat's files in its host folder instead.
    assert_eq!(count(&game).await, (4, 0), "four containers while running");
    let folders = || (0..4).filter(|n| host_root().join(format!("mjai-sim-{game}-{n}")).exists()).count();
    assert_eq!(folders(), 4, "four seat folders while running");
    // SAFETY: kill(2) on our own child's pid.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGINT);
    }
    let status = tokio::task::spawn_blocking(move || child.wait()).await.unwrap().unwrap();
    assert_eq!(status.code(), Some(130));
    assert_eq!(count(&game).await, (0, 0), "leftovers after Ctrl-C");
    assert_eq!(folders(), 0, "seat folders left after Ctrl-C");
}
