//! The Docker runtime against the real daemon and the bot image (no mocks). These tests
//! fail, never skip, when Docker is unreachable or the image is missing: CI builds the
//! image first (`mjai-sim image build`).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use crate::runtime_support::{assert_capped, test_submission, test_submission_with};
use bollard::query_parameters::ListContainersOptions;
use mjai_sim::runtime::docker::cleanup::ContainerGuard;
use mjai_sim::runtime::docker::container::{DockerBot, SeatStart};
use mjai_sim::runtime::docker::host_dir::{host_root, IO_DIR};
use mjai_sim::runtime::docker::image::default_image;
use mjai_sim::runtime::docker::{daemon, DockerError, DockerOptions, Transport};
use mjai_sim::runtime::launcher::{SeatSpec, SubmissionLauncher};
use mjai_sim::runtime::submission::Submission;
use mjai_sim::runtime::submission_tar::TAR_CHUNK;
use mjai_sim::runtime::{Bot, BotError};
use sha2::{Digest, Sha256};

const T: Duration = Duration::from_secs(10);

fn options(transport: Transport) -> DockerOptions {
    DockerOptions { image: default_image(), transport, ..Default::default() }
}

/// Starts one seat directly (guard, container, log folder).
async fn start(options: &DockerOptions) -> (DockerBot, ContainerGuard, tempfile::TempDir) {
    start_with(options, Arc::new(test_submission())).await
}

/// [`start`] with `submission`.
async fn start_with(
    options: &DockerOptions,
    submission: Arc<Submission>,
) -> (DockerBot, ContainerGuard, tempfile::TempDir) {
    let docker = daemon().await.expect("Docker must be reachable for these tests");
    mjai_sim::runtime::docker::require_image(&docker, &options.image).await.expect("build the image first");
    let guard = ContainerGuard::new(docker);
    let logs = tempfile::tempdir().unwrap();
    let network = match options.transport {
        Transport::Stdio => "none".to_string(),
        Transport::Http => mjai_sim::runtime::docker::http::ensure_network(guard.docker()).await.unwrap(),
    };
    let stderr_log = logs.path().join("stderr.txt");
    let seat = SeatStart { seat: 1, submission: &submission, stderr_log: &stderr_log, cpus: 1.0, network: &network };
    let bot = DockerBot::start(&guard, options, seat).await.unwrap();
    (bot, guard, logs)
}

async fn count_labelled(game: &str) -> usize {
    let docker = daemon().await.unwrap();
    let filters = HashMap::from([("label".to_string(), vec![format!("mjai-sim.game={game}")])]);
    let options = ListContainersOptions { all: true, filters: Some(filters), ..Default::default() };
    docker.list_containers(Some(options)).await.unwrap().len()
}

#[tokio::test]
async fn stdio_exchanges_lines_as_non_root_with_the_seat() {
    let (mut bot, guard, _logs) = start(&options(Transport::Stdio)).await;
    assert_eq!(bot.exchange("seat", T).await.unwrap(), "1");
    assert_eq!(bot.exchange("uid", T).await.unwrap(), "1000");
    assert_eq!(bot.exchange("echo [{\"type\":\"start_game\"}]", T).await.unwrap(), "[{\"type\":\"start_game\"}]");
    assert_eq!(bot.exchange("twice", T).await.unwrap(), "first");
    assert_eq!(bot.exchange("echo after", T).await.unwrap(), "after");
    bot.stop().await;
    assert_eq!(count_labelled(guard.game()).await, 0);
}

#[tokio::test]
async fn container_is_hardened() {
    let (mut bot, guard, _logs) = start(&options(Transport::Stdio)).await;
    // No network: the only interface is the loopback one.
    assert_eq!(bot.exchange("ifaces", T).await.unwrap(), "lo");
    // Read-only root; writable working folder and /tmp.
    assert_eq!(bot.exchange("write /usr/evil", T).await.unwrap(), "fail OSError");
    assert_eq!(bot.exchange("write /workspace/notes.txt", T).await.unwrap(), "ok");
    assert_eq!(bot.exchange("write /tmp/scratch", T).await.unwrap(), "ok");
    let info = guard.docker().inspect_container(bot.id(), None).await.unwrap();
    let host = info.host_config.unwrap();
    assert_eq!(host.network_mode.as_deref(), Some("none"));
    assert_eq!(host.cap_drop, Some(vec!["ALL".to_string()]));
    assert_eq!(host.security_opt, Some(vec!["no-new-privileges".to_string()]));
    assert_eq!(host.readonly_rootfs, Some(true));
    assert_eq!(host.memory, Some(4 << 30));
    assert_eq!(host.pids_limit, Some(512));
    // Bind mounts: only the seat's own host folder, its FIFO folder read-only.
    assert!(host.binds.unwrap_or_default().is_empty());
    let folder = host_root().join(format!("mjai-sim-{}-1", guard.game()));
    let mut mounts: Vec<(String, String, bool)> = info
        .mounts
        .unwrap()
        .into_iter()
        .map(|m| (m.source.unwrap_or_default(), m.destination.unwrap_or_default(), m.rw.unwrap_or(true)))
        .collect();
    mounts.sort();
    let at = |sub: &str| folder.join(sub).display().to_string();
    assert_eq!(mounts, vec![(at("io"), IO_DIR.to_string(), false), (at("work"), "/workspace".to_string(), true)]);
    assert_eq!(bot.exchange(&format!("write {IO_DIR}/evil"), T).await.unwrap(), "fail OSError");
    assert_eq!(std::fs::read_to_string(folder.join("work/notes.txt")).unwrap(), "x");
    let labels = info.config.unwrap().labels.unwrap();
    assert_eq!(labels["mjai-sim.seat"], "1");
    assert_eq!(labels["mjai-sim.game"], guard.game());
    bot.stop().await;
    assert!(!folder.exists(), "the seat's host folder outlived its container");
}

#[tokio::test]
async fn a_remote_daemon_gets_the_files_by_upload_and_stdio_by_attach() {
    let (mut bot, guard, _logs) = start(&DockerOptions { local: false, ..options(Transport::Stdio) }).await;
    assert_eq!(bot.exchange("seat", T).await.unwrap(), "1");
    assert_eq!(bot.exchange("write /workspace/notes.txt", T).await.unwrap(), "ok");
    assert_eq!(bot.exchange("ifaces", T).await.unwrap(), "lo");
    let info = guard.docker().inspect_container(bot.id(), None).await.unwrap();
    let kinds: Vec<String> = info.mounts.unwrap().iter().map(|m| m.typ.as_ref().unwrap().to_string()).collect();
    assert_eq!(kinds, ["volume"], "no bind mount for a remote daemon");
    assert!(!host_root().join(format!("mjai-sim-{}-1", guard.game())).exists());
    assert_eq!(bot.exchange("exit 3", T).await.unwrap_err(), BotError::Crashed("exit code 3".into()));
    bot.stop().await;
    assert_eq!(count_labelled(guard.game()).await, 0);
}

#[tokio::test]
async fn a_submission_of_many_pieces_arrives_intact_by_upload_and_by_host_folder() {
    // several pieces of the streamed archive (TAR_CHUNK), and of the store's (CHUNK_BYTES)
    let len = 2 * mjai_sim::tournament::store::CHUNK_BYTES + 3 * TAR_CHUNK + 777;
    let mut x = 7u32;
    let weights: Vec<u8> = (0..len)
        .map(|_| {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            (x >> 16) as u8
        })
        .collect();
    let sha = hex::encode(Sha256::digest(&weights));
    let submission = Arc::new(test_submission_with(&[("model/weights.bin", &weights)]));
    for local in [false, true] {
        let options = DockerOptions { local, ..options(Transport::Stdio) };
        let (mut bot, guard, _logs) = start_with(&options, submission.clone()).await;
        let answer = bot.exchange("sha256 /workspace/model/weights.bin", Duration::from_secs(60)).await.unwrap();
        assert_eq!(answer, sha, "local daemon: {local}");
        bot.stop().await;
        assert_eq!(count_labelled(guard.game()).await, 0);
    }
}

#[tokio::test]
async fn stdio_timeout_crash_and_kill() {
    let (mut bot, guard, _logs) = start(&options(Transport::Stdio)).await;
    let err = bot.exchange("sleep", Duration::from_millis(300)).await.unwrap_err();
    assert_eq!(err, BotError::Timeout(0.3));
    bot.stop().await; // the bot ignores SIGTERM; stop must still remove it
    let gone = guard.docker().inspect_container(bot.id(), None).await;
    assert!(gone.is_err(), "container still exists after stop");
    assert!(guard.live().is_empty());
    bot.stop().await; // idempotent

    let (mut bot, _guard, _logs) = start(&options(Transport::Stdio)).await;
    assert_eq!(bot.exchange("exit 3", T).await.unwrap_err(), BotError::Crashed("exit code 3".into()));
    bot.stop().await;
}

#[tokio::test]
async fn stdio_oversized_line_and_capped_stderr() {
    let opts = DockerOptions { stderr_cap: 100_000, line_limit: 1000, ..options(Transport::Stdio) };
    let (mut bot, _guard, logs) = start(&opts).await;
    assert_eq!(bot.exchange("err 2000000", T).await.unwrap(), "done");
    assert_eq!(bot.exchange("big 1000", T).await.unwrap().len(), 1000);
    assert_eq!(bot.exchange("big 5000", T).await.unwrap_err(), BotError::Oversized(1000));
    bot.stop().await;
    assert_capped(&logs.path().join("stderr.txt"), 100_000);
}

#[tokio::test]
async fn http_transport_exchanges_through_loopback() {
    let (mut bot, guard, _logs) = start(&options(Transport::Http)).await;
    assert_eq!(bot.exchange("seat", T).await.unwrap(), "1");
    assert_eq!(bot.exchange("echo [{\"type\":\"none\"}]", T).await.unwrap(), "[{\"type\":\"none\"}]");
    let info = guard.docker().inspect_container(bot.id(), None).await.unwrap();
    let ports = info.network_settings.unwrap().ports.unwrap();
    let binding = &ports["3000/tcp"].as_ref().unwrap()[0];
    assert_eq!(binding.host_ip.as_deref(), Some("127.0.0.1"));
    assert_eq!(bot.exchange("sleep", Duration::from_millis(300)).await.unwrap_err(), BotError::Timeout(0.3));
    bot.stop().await;

    let (mut bot, _guard, _logs) = start(&options(Transport::Http)).await;
    assert_eq!(bot.exchange("exit 4", T).await.unwrap_err(), BotError::Crashed("exit code 4".into()));
    bot.stop().await;
}

/// riichi.dev's clock keeps a bot that timed out running: its late answer must not be
/// taken as the answer to the next line, over either transport (stdio: the line buffer
/// skips the answers owed; http: the relay's abandoned request reads it).
#[tokio::test]
async fn a_late_answer_is_skipped_over_both_transports() {
    for transport in [Transport::Stdio, Transport::Http] {
        let (mut bot, _guard, _logs) = start(&options(transport)).await;
        let err = bot.exchange("late 0.5 stale", Duration::from_millis(100)).await.unwrap_err();
        assert_eq!(err, BotError::Timeout(0.1), "{transport:?}");
        assert_eq!(bot.exchange("echo fresh", T).await.unwrap(), "fresh", "{transport:?}");
        bot.stop().await;
    }
}

#[tokio::test]
async fn two_launchers_start_four_seats_each_without_colliding() {
    let sub = Arc::new(test_submission());
    let logs = tempfile::tempdir().unwrap();
    let seats = |tag: &str| {
        std::array::from_fn(|n| SeatSpec {
            submission: sub.clone(),
            stderr_log: logs.path().join(format!("{tag}.{n}.stderr.txt")),
        })
    };
    let (a, b) = tokio::join!(
        SubmissionLauncher::docker(options(Transport::Stdio)),
        SubmissionLauncher::docker(options(Transport::Http))
    );
    let (a, b) = (a.unwrap(), b.unwrap());
    assert_ne!(a.guard().unwrap().game(), b.guard().unwrap().game());
    let (bots_a, bots_b) = tokio::join!(a.launch(seats("a")), b.launch(seats("b")));
    for mut bots in [bots_a.unwrap(), bots_b.unwrap()] {
        for (n, bot) in bots.iter_mut().enumerate() {
            assert_eq!(bot.exchange("seat", T).await.unwrap(), n.to_string());
        }
        futures_util::future::join_all(bots.iter_mut().map(|b| b.stop())).await;
    }
    for launcher in [a, b] {
        assert_eq!(count_labelled(launcher.guard().unwrap().game()).await, 0);
    }
}

#[tokio::test]
async fn guard_shutdown_and_drop_remove_every_container() {
    let (bot, guard, _logs) = start(&options(Transport::Stdio)).await;
    let game = guard.game().to_string();
    assert_eq!(count_labelled(&game).await, 1);
    guard.shutdown().await;
    assert_eq!(count_labelled(&game).await, 0);
    drop(bot);

    // Dropping every handle without shutdown also removes the container.
    let (bot, guard, _logs) = start(&options(Transport::Stdio)).await;
    let game = guard.game().to_string();
    drop(bot);
    drop(guard);
    assert_eq!(count_labelled(&game).await, 0);
}

#[tokio::test]
async fn missing_image_says_how_to_build_it() {
    let opts = DockerOptions { image: "mjai-sim-bot:no-such-tag".into(), ..Default::default() };
    let err = SubmissionLauncher::docker(opts).await.err().expect("must fail");
    assert!(matches!(err, DockerError::ImageMissing(_)), "{err}");
    assert!(err.to_string().contains("mjai-sim image build"), "{err}");
}
