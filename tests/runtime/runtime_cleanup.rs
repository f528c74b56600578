//! `mjai-sim cleanup` removes what a crashed run left behind, by label (and the seats'
//! host folders); a missing daemon is one clear line.

use std::collections::HashMap;
use std::process::Command;

use bollard::query_parameters::{ListContainersOptions, ListVolumesOptions};
use mjai_sim::runtime::docker::cleanup::ContainerGuard;
use mjai_sim::runtime::docker::container::{DockerBot, SeatStart};
use mjai_sim::runtime::docker::host_dir::host_root;
use mjai_sim::runtime::docker::{connect, DockerOptions};

use crate::runtime_support;

#[tokio::test]
async fn cleanup_removes_a_crashed_runs_containers_by_label() {
    let docker = connect().await.unwrap();
    let guard = ContainerGuard::new(docker.clone());
    let game = guard.game().to_string();
    let logs = tempfile::tempdir().unwrap();
    let options = DockerOptions::default();
    let submission = std::sync::Arc::new(runtime_support::test_submission());
    let stderr_log = logs.path().join("e.txt");
    let seat = SeatStart { seat: 0, submission: &submission, stderr_log: &stderr_log, cpus: 1.0, network: "none" };
    let bot = DockerBot::start(&guard, &options, seat).await.unwrap();
    let folder = host_root().join(format!("mjai-sim-{game}-0"));
    assert!(folder.join("work/bot.py").exists(), "the seat's host folder holds the bot");
    // A crashed referee runs no destructors.
    std::mem::forget(bot);
    std::mem::forget(guard);

    let out = Command::new(env!("CARGO_BIN_EXE_mjai-sim")).args(["cleanup", "--game", &game]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // The anonymous volume goes with its container.
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "removed 1 container(s), 0 volume(s), 0 network(s)");
    let filters = HashMap::from([("label".to_string(), vec![format!("mjai-sim.game={game}")])]);
    let list = ListContainersOptions { all: true, filters: Some(filters.clone()), ..Default::default() };
    assert!(docker.list_containers(Some(list)).await.unwrap().is_empty());
    let volumes = docker.list_volumes(Some(ListVolumesOptions { filters: Some(filters) })).await.unwrap();
    assert!(volumes.volumes.unwrap_or_default().is_empty());
    assert!(!folder.exists(), "cleanup left the seat's host folder");
}

#[test]
fn unreachable_daemon_is_one_clear_line() {
    let out = Command::new(env!("CARGO_BIN_EXE_mjai-sim"))
        .args(["cleanup", "--game", "none"])
        .env("DOCKER_HOST", "unix:///nonexistent/docker.sock")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("cannot reach the Docker daemon") && stderr.contains("start Docker"), "{stderr}");
}
