//! `--memory`, `--cpus`, `--pids` and `--gpus` reach the container: shown by inspecting
//! real containers (Docker Engine and the bot image needed; the tests fail, never skip).
//! This host has no GPU runtime: a `--gpus` container is created (its device request is
//! inspected) but cannot start, and the seat fails with one line saying what to install.

use crate::runtime_support;

use std::collections::HashMap;

use bollard::query_parameters::{CreateContainerOptions, ListContainersOptions};
use mjai_sim::arena::launch::{build_launcher, BotSpec, LaunchSettings, RuntimeKind, Transport};
use mjai_sim::arena::Launcher;
use mjai_sim::runtime::docker::cleanup::remove_container;
use mjai_sim::runtime::docker::hardening::container_body;
use mjai_sim::runtime::docker::image::default_image;
use mjai_sim::runtime::docker::resources::{Gpus, Resources};
use mjai_sim::runtime::docker::{daemon, require_image, DockerOptions};

fn settings(dir: &std::path::Path, resources: Resources) -> LaunchSettings {
    LaunchSettings {
        runtime: RuntimeKind::Docker,
        transport: Transport::Stdio,
        image: Some(default_image()),
        max_submission_bytes: 1 << 20,
        stderr_paths: std::array::from_fn(|seat| dir.join(format!("player_logs.{seat}.stderr.txt"))),
        resources,
        batch: None,
    }
}

fn submission() -> (tempfile::TempDir, [BotSpec; 4]) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bot.py"), runtime_support::TEST_BOT).unwrap();
    let spec = BotSpec::Submission(dir.path().to_path_buf());
    (dir, [spec.clone(), spec.clone(), spec.clone(), spec])
}

async fn containers_of(game: &str) -> usize {
    let docker = daemon().await.unwrap();
    let filters = HashMap::from([("label".to_string(), vec![format!("mjai-sim.game={game}")])]);
    let options = ListContainersOptions { all: true, filters: Some(filters), ..Default::default() };
    docker.list_containers(Some(options)).await.unwrap().len()
}

#[tokio::test]
async fn memory_cpus_and_pids_options_reach_the_host_config() {
    let docker = daemon().await.expect("Docker must be reachable");
    require_image(&docker, &default_image()).await.expect("build the image first: mjai-sim image build");
    let (_bot, specs) = submission();
    let logs = tempfile::tempdir().unwrap();
    let resources =
        Resources { memory_bytes: Some(256 << 20), nano_cpus: Some(500_000_000), pids_limit: Some(64), gpus: None };
    let launcher = build_launcher(&specs, &settings(logs.path(), resources), None).await.unwrap();
    let game = launcher.guard().unwrap().game().to_string();
    let mut bot = launcher.launch(1).await.unwrap();
    let info = docker.inspect_container(&format!("mjai-sim-{game}-1"), None).await.unwrap();
    let host = info.host_config.unwrap();
    assert_eq!(host.memory, Some(256 << 20));
    assert_eq!(host.memory_swap, Some(256 << 20), "no extra swap");
    assert_eq!(host.nano_cpus, Some(500_000_000));
    assert_eq!(host.pids_limit, Some(64));
    assert!(host.device_requests.unwrap_or_default().is_empty(), "no GPU unless asked");
    assert_eq!(bot.exchange("seat", std::time::Duration::from_secs(20)).await.unwrap(), "1");
    bot.stop().await;
    launcher.guard().unwrap().shutdown().await;
    assert_eq!(containers_of(&game).await, 0);
}

#[tokio::test]
async fn gpus_all_is_a_device_request_on_the_created_container() {
    let docker = daemon().await.expect("Docker must be reachable");
    require_image(&docker, &default_image()).await.expect("build the image first: mjai-sim image build");
    let mut options = DockerOptions { image: default_image(), ..Default::default() };
    Resources { gpus: Some(Gpus::All), ..Default::default() }.apply(&mut options);
    let game = format!("gpu-test-{}", std::process::id());
    let body = container_body(&options, &game, 0, 1.0, "none", None);
    let create =
        CreateContainerOptions { name: Some(format!("mjai-sim-{game}-0")), platform: options.platform.clone() };
    let id = docker.create_container(Some(create), body).await.unwrap().id;
    let inspected = docker.inspect_container(&id, None).await;
    remove_container(&docker, &id).await;
    let requests = inspected.unwrap().host_config.unwrap().device_requests.unwrap();
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0].count, Some(-1));
    assert_eq!(requests[0].capabilities, Some(vec![vec!["gpu".to_string()]]));
    assert_eq!(containers_of(&game).await, 0);
}

#[tokio::test]
async fn a_gpu_seat_on_a_host_without_gpu_runtime_fails_with_one_clear_line() {
    let docker = daemon().await.expect("Docker must be reachable");
    require_image(&docker, &default_image()).await.expect("build the image first: mjai-sim image build");
    let (_bot, specs) = submission();
    let logs = tempfile::tempdir().unwrap();
    let resources = Resources { gpus: Some(Gpus::Ids(vec!["0".into()])), ..Default::default() };
    let launcher = build_launcher(&specs, &settings(logs.path(), resources), None).await.unwrap();
    let game = launcher.guard().unwrap().game().to_string();
    let error = launcher.launch(0).await.err().expect("no GPU runtime on this host").to_string();
    assert!(error.contains("no GPU runtime") && error.contains("--gpus"), "{error}");
    assert_eq!(error.lines().count(), 1, "{error}");
    launcher.guard().unwrap().shutdown().await;
    assert_eq!(containers_of(&game).await, 0, "the container that could not start is removed");
}
