//! `mjai-sim cleanup` removes what a crashed run left behind, by label (and the seats'
//! host folders), and only when the owner process (label `mjai-sim.owner`) is gone: a live
//! owner's containers stay unless `--all`; a missing daemon is one clear line.

use std::collections::HashMap;
use std::process::Command;

use bollard::models::ContainerCreateBody;
use bollard::query_parameters::{CreateContainerOptions, ListContainersOptions, ListVolumesOptions};
use mjai_sim::runtime::docker::cleanup::ContainerGuard;
use mjai_sim::runtime::docker::container::{DockerBot, SeatStart};
use mjai_sim::runtime::docker::host_dir::host_root;
use mjai_sim::runtime::docker::owner::label_of;
use mjai_sim::runtime::docker::{daemon, DockerOptions};

use crate::runtime_support;

#[tokio::test]
async fn cleanup_removes_a_crashed_runs_containers_by_label() {
    let docker = daemon().await.unwrap();
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

    // Its owner (this process) still runs: plain cleanup keeps it.
    let out = Command::new(env!("CARGO_BIN_EXE_mjai-sim")).args(["cleanup", "--game", &game]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "removed 0 container(s), 0 volume(s), 0 network(s)");
    assert!(folder.exists(), "a live owner's seat folder stays");
    let out =
        Command::new(env!("CARGO_BIN_EXE_mjai-sim")).args(["cleanup", "--all", "--game", &game]).output().unwrap();
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

/// Containers of game `game` (any state), by id.
async fn containers_of(docker: &bollard::Docker, game: &str) -> Vec<String> {
    let filters = HashMap::from([("label".to_string(), vec![format!("mjai-sim.game={game}")])]);
    let list = ListContainersOptions { all: true, filters: Some(filters), ..Default::default() };
    docker.list_containers(Some(list)).await.unwrap().into_iter().filter_map(|c| c.id).collect()
}

/// A container (created, never started) of `game` from the bot image, owned by `owner`.
async fn owned_container(docker: &bollard::Docker, game: &str, owner: &str) -> String {
    let labels = HashMap::from([
        ("mjai-sim.game".to_string(), game.to_string()),
        ("mjai-sim.seat".to_string(), "0".to_string()),
        ("mjai-sim.owner".to_string(), owner.to_string()),
    ]);
    let body = ContainerCreateBody {
        image: Some(DockerOptions::default().image),
        cmd: Some(vec!["true".into()]),
        labels: Some(labels),
        network_disabled: Some(true),
        ..Default::default()
    };
    docker.create_container(None::<CreateContainerOptions>, body).await.unwrap().id
}

fn cleanup(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_mjai-sim")).arg("cleanup").args(args).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[tokio::test]
async fn cleanup_keeps_a_live_owners_containers_and_removes_a_dead_owners() {
    let docker = daemon().await.unwrap();
    let game = format!("owner-test-{}", std::process::id());
    let live = label_of(std::process::id()).expect("this process runs");
    let mut child = Command::new("sleep").arg("60").spawn().unwrap();
    let dead = label_of(child.id()).expect("the child runs");
    child.kill().unwrap();
    child.wait().unwrap();
    let kept = owned_container(&docker, &game, &live).await;
    let gone = owned_container(&docker, &game, &dead).await;
    assert_eq!(containers_of(&docker, &game).await.len(), 2);

    // Every game on the host, as an operator would: the live owner's container stays.
    cleanup(&[]);
    assert_eq!(containers_of(&docker, &game).await, vec![kept.clone()], "removed {gone}, kept the live one");
    assert_eq!(cleanup(&["--game", &game]).trim(), "removed 0 container(s), 0 volume(s), 0 network(s)");
    assert_eq!(containers_of(&docker, &game).await.len(), 1);

    // --all: the live owner's too (only this game's here: other tests' games run).
    assert_eq!(cleanup(&["--all", "--game", &game]).trim(), "removed 1 container(s), 0 volume(s), 0 network(s)");
    assert!(containers_of(&docker, &game).await.is_empty());
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
