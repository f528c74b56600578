//! End-to-end: real games in real Docker containers, through the `mjai-sim` binary, with
//! the example bots. Fail (never skip) when Docker is unreachable.
//! Every log, chombos included, is replayed through the engine (`mjai-sim verify`).

use crate::e2e_support;
use crate::e2e_support::{
    chombo_deltas, chombos, play, play_seats, repo, require_docker, require_image, require_ml_image, zip_files, Run,
};

fn setup() {
    require_docker();
    require_image();
}

/// Every chombo in the log is `seat`'s, with a lone offender's mangan deltas; returns
/// how many there were.
fn assert_chombos_are(run: &Run, seat: u64) -> usize {
    let found = chombos(&run.log());
    for (oya, e) in &found {
        assert_eq!(e["actor"], seat, "{e}");
        let deltas: Vec<i64> = e["deltas"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect();
        assert_eq!(deltas, chombo_deltas(seat, *oya), "{e}");
    }
    let s = run.summary();
    assert_eq!(s["chombos"][seat as usize].as_u64().unwrap() as usize, found.len());
    found.len()
}

/// The seat's errors are all of `kinds`, and there is at least one.
fn assert_errors_of(run: &Run, seat: u64, kinds: &[&str]) {
    let errors = run.errors();
    assert!(!errors.is_empty(), "expected errors for seat {seat}\n{}", run.stderr());
    for e in &errors {
        assert_eq!(e["player_id"], seat, "{e}");
        assert!(kinds.contains(&e["error_type"].as_str().unwrap()), "{e}");
    }
}

#[test]
fn four_example_bots_play_a_full_hanchan() {
    setup();
    let run = play(
        [
            &repo("examples/tsumogiri"),
            &repo("examples/shanten"),
            &repo("examples/mjaibot"),
            &repo("examples/tsumogiri"),
        ],
        &["--seed", "1"],
    );
    run.assert_complete_and_verified();
    assert_eq!(run.errors(), Vec::<serde_json::Value>::new(), "{}", run.stderr());
    let s = run.summary();
    assert_eq!(s["restarts"], 0);
    assert!(s["kyoku_count"].as_u64().unwrap() >= 8, "a hanchan has at least 8 hands: {s}");
    for seat in 0..4 {
        assert!(s["decision_times"][seat]["count"].as_u64().unwrap() > 0, "seat {seat} decided nothing");
    }
    // Each seat's answers are logged.
    assert!(!run.read("player_logs.1.stdout.txt").is_empty());
}

#[test]
fn three_example_bots_play_a_three_player_hanchan_in_three_containers() {
    setup();
    let (t, s) = (repo("examples/tsumogiri"), repo("examples/shanten"));
    let run = play_seats(&[&s, &t, &s], &["--seed", "2", "--rules", "riichi-dev-3p"]);
    run.assert_complete_and_verified_under("riichi-dev-3p");
    assert_eq!(run.errors(), Vec::<serde_json::Value>::new(), "{}", run.stderr());
    let summary = run.summary();
    assert_eq!(summary["bots"].as_array().map(Vec::len), Some(3));
    for seat in 0..3 {
        assert!(summary["decision_times"][seat]["count"].as_u64().unwrap() > 0, "seat {seat} decided nothing");
        assert!(!run.read(&format!("player_logs.{seat}.stdout.txt")).is_empty());
    }
    assert!(!run.dir.path().join("player_logs.3.stdout.txt").exists(), "no fourth container");
    let first = &run.log()[1];
    assert_eq!(first["scores"], serde_json::json!([35000, 35000, 35000]), "{first}");
}

#[test]
fn an_invalid_bot_pays_chombo_and_the_game_completes_after_restart() {
    setup();
    let t = repo("examples/tsumogiri");
    let run = play([&t, &t, &repo("examples/invalid"), &t], &["--seed", "2"]);
    run.assert_complete_and_verified();
    assert_errors_of(&run, 2, &["invalid"]);
    assert!(assert_chombos_are(&run, 2) >= 1);
    assert!(run.summary()["restarts"].as_u64().unwrap() >= 1);
    assert!(run.errors()[0]["line"].is_string(), "the offending answer is kept");
}

#[test]
fn a_slow_bot_times_out_and_pays() {
    setup();
    let t = repo("examples/tsumogiri");
    let run =
        play([&t, &repo("examples/timeout"), &t, &t], &["--seed", "3", "--timeout", "0.5", "--start-timeout", "5"]);
    run.assert_complete_and_verified();
    assert_errors_of(&run, 1, &["timeout"]);
    assert!(assert_chombos_are(&run, 1) >= 1);
}

#[test]
fn a_crashing_bot_pays_and_is_restarted() {
    setup();
    let t = repo("examples/tsumogiri");
    let run = play([&t, &t, &t, &repo("examples/crash")], &["--seed", "4"]);
    run.assert_complete_and_verified();
    assert_errors_of(&run, 3, &["crashed", "closed", "runtime"]);
    assert!(run.read("player_logs.3.stderr.txt").contains("exiting on purpose"), "the bot's stderr is kept");
    assert!(assert_chombos_are(&run, 3) >= 1);
    assert!(run.summary()["restarts"].as_u64().unwrap() >= 1);
}

#[test]
fn the_http_transport_plays_a_full_hanchan() {
    setup();
    let t = repo("examples/tsumogiri");
    let run = play([&t, &t, &t, &t], &["--seed", "5", "--transport", "http"]);
    run.assert_complete_and_verified();
    assert_eq!(run.errors(), Vec::<serde_json::Value>::new());
}

/// Ctrl-C while a bot holds the game up: exit 130 at once, the logs so far kept, the
/// summary marked interrupted, and no container of the game left.
#[test]
fn ctrl_c_stops_the_game_removes_containers_and_keeps_logs() {
    setup();
    let t = repo("examples/tsumogiri");
    let dir = tempfile::tempdir().unwrap();
    // The timeout bot goes silent at its 3rd draw; with a 60 s timeout the game waits there.
    let child = std::process::Command::new(e2e_support::bin())
        .args(["--seed", "6", "--timeout", "60", "--logs-dir"])
        .arg(dir.path())
        .args([t.as_str(), repo("examples/timeout").as_str(), t.as_str(), t.as_str()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait (up to 60 s) until the log shows seat 1's third draw: the referee now waits for it.
    let log = dir.path().join("mjai_log.json");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while std::fs::read_to_string(&log).unwrap_or_default().matches(r#""type":"tsumo","actor":1"#).count() < 3 {
        assert!(std::time::Instant::now() < deadline, "the game never reached seat 1's third draw");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let kill = std::process::Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(kill.success());
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("interrupted"), "{stderr}");
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["ending"], "interrupted");
    let kept = std::fs::read_to_string(&log).unwrap();
    assert!(kept.starts_with(r#"{"type":"start_game""#) && kept.lines().count() > 10);

    let game = stderr
        .split("mjai-sim.game=")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .expect("the game's container label is printed");
    let left = tokio::runtime::Runtime::new().unwrap().block_on(async {
        let docker = bollard::Docker::connect_with_defaults().unwrap();
        let filters = std::collections::HashMap::from([("label".to_string(), vec![format!("mjai-sim.game={game}")])]);
        let options = bollard::query_parameters::ListContainersOptions {
            all: true,
            filters: Some(filters),
            ..Default::default()
        };
        docker.list_containers(Some(options)).await.unwrap()
    });
    assert!(left.is_empty(), "containers left behind: {left:?}");
}

/// mjai-sim in a container with the Docker socket mounted: the daemon does not see the
/// seats' host folders. Simulated by running mjai-sim in a mount namespace of its own whose
/// temporary folder is a tmpfs the daemon cannot see (needs root, as CI runs). The first
/// create is refused; every seat is then uploaded instead and the game completes.
#[test]
fn a_daemon_that_cannot_see_the_host_folders_gets_the_bots_uploaded() {
    setup();
    // SAFETY: geteuid has no preconditions.
    assert_eq!(unsafe { libc::geteuid() }, 0, "this test makes a mount namespace: run it as root (CI does)");
    let hidden = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let bot = repo("examples/tsumogiri");
    let output = std::process::Command::new("unshare")
        .args(["--mount", "--propagation", "private", "sh", "-c", r#"mount -t tmpfs tmpfs "$0" && exec "$@""#])
        .arg(hidden.path())
        .arg(e2e_support::bin())
        .args(["--seed", "3", "--logs-dir"])
        .arg(dir.path())
        .args([&bot, &bot, &bot, &bot])
        .env("TMPDIR", hidden.path())
        .output()
        .unwrap();
    let run = Run { output, dir };
    run.assert_complete_and_verified();
    assert!(run.stderr().contains("bot files are uploaded instead"), "{}", run.stderr());
    assert_eq!(run.errors(), Vec::<serde_json::Value>::new(), "{}", run.stderr());
}

/// examples/mlbot packed as an author would: bot.py, features.py and the weights, model.pt.
fn mlbot_zip(dir: &std::path::Path) -> String {
    zip_files(dir, "examples/mlbot", &["bot.py", "features.py", "model.pt"])
}

/// examples/mlbot as a batched submission: its files and `batch = true` (its `Batched`, the
/// object `mjai_sim.evaluate` plays in process, behind `bot.py --batch`).
fn mlbot_batched_zip(dir: &std::path::Path) -> String {
    let path = dir.join("mlbot-batched.zip");
    let files: Vec<(&str, Vec<u8>)> = ["bot.py", "features.py", "model.pt"]
        .iter()
        .map(|n| (*n, std::fs::read(std::path::Path::new(&repo("examples/mlbot")).join(n)).unwrap()))
        .chain([("mjai-sim.toml", b"batch = true\n".to_vec())])
        .collect();
    let entries: Vec<(&str, &[u8])> = files.iter().map(|(n, b)| (*n, b.as_slice())).collect();
    std::fs::write(&path, e2e_support::zip_of(&entries)).unwrap();
    path.display().to_string()
}

#[test]
fn the_ml_example_bot_plays_the_same_hanchan_batched_and_one_process_per_seat_in_the_ml_image() {
    setup();
    require_ml_image();
    let dir = tempfile::tempdir().unwrap();
    let ml = mlbot_batched_zip(dir.path());
    let t = repo("examples/tsumogiri");
    let batched = play([&ml, &t, &ml, &t], &["--seed", "5", "--image", "ml"]);
    let separate = play([&ml, &t, &ml, &t], &["--seed", "5", "--image", "ml", "--no-batch"]);
    for run in [&batched, &separate] {
        run.assert_complete_and_verified();
        assert!(run.errors().is_empty(), "{:#?}\n{}", run.errors(), run.stderr());
        assert_eq!(run.summary()["chombos"], serde_json::json!([0, 0, 0, 0]), "{}", run.stderr());
    }
    // the torch bots played: their seats discarded by the policy and won hands
    let log = batched.log();
    let wins = log.iter().filter(|e| e["type"] == "hora" && (e["actor"] == 0 || e["actor"] == 2)).count();
    assert!(wins > 0, "the ml bots won no hand");
    assert_eq!(batched.read("mjai_log.json"), separate.read("mjai_log.json"), "one forward pass per cycle or per seat");
}

#[test]
fn a_torch_bot_in_the_default_image_is_told_to_use_the_ml_image() {
    setup();
    let dir = tempfile::tempdir().unwrap();
    let ml = mlbot_zip(dir.path());
    let t = repo("examples/tsumogiri");
    let run = play([&t, &ml, &t, &t], &["--seed", "6", "--max-restarts", "0"]);
    let errors = run.errors();
    assert!(!errors.is_empty(), "{}", run.stderr());
    for e in &errors {
        assert_eq!(e["player_id"], 1, "{e}");
        let exception = e["exception"].as_str().unwrap();
        assert!(exception.contains("`torch`") && exception.contains("--image ml"), "{e}");
    }
    // the same line on the terminal
    assert!(run.stderr().contains("--image ml"), "{}", run.stderr());
}
