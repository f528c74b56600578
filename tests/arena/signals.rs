//! One shutdown path: SIGTERM and SIGINT, sent with kill(2) to the real `mjai-sim` binary,
//! stop a game or a `check` the same way: exit 128 + the signal (143, 130), the logs so far
//! kept, no container of the run left. Waits are on observable conditions (a line on
//! stderr or stdout, the log reaching a point), never on sleeps.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::e2e_support::{bin, repo, require_docker, require_image};

/// Forwards the lines of a child's stream to a channel (from a thread).
fn lines_of(stream: impl Read + Send + 'static) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stream).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

/// Waits (at most 120 s) for a line containing `needle`; returns it and every line before.
fn wait_for_line(lines: &mpsc::Receiver<String>, needle: &str, seen: &mut Vec<String>) -> String {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match lines.recv_timeout(left) {
            Ok(line) if line.contains(needle) => return line,
            Ok(line) => seen.push(line),
            Err(e) => panic!("no line with `{needle}` ({e}); seen: {seen:#?}"),
        }
    }
}

/// Polls the game log until seat 1 has drawn three times (the timeout bot then goes
/// silent, so the game waits there).
fn wait_for_third_draw_of_seat_1(log: &Path) {
    let deadline = Instant::now() + Duration::from_secs(120);
    while std::fs::read_to_string(log).unwrap_or_default().matches(r#""type":"tsumo","actor":1"#).count() < 3 {
        assert!(Instant::now() < deadline, "the game never reached seat 1's third draw");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn kill(child: &Child, signal: i32) {
    // SAFETY: kill(2) on our own child's pid.
    assert_eq!(unsafe { libc::kill(child.id() as i32, signal) }, 0);
}

/// Containers (any state) labelled with the game id.
fn containers_of(game: &str) -> usize {
    tokio::runtime::Runtime::new().unwrap().block_on(async {
        let docker = bollard::Docker::connect_with_defaults().unwrap();
        let filters = std::collections::HashMap::from([("label".to_string(), vec![format!("mjai-sim.game={game}")])]);
        let options = bollard::query_parameters::ListContainersOptions {
            all: true,
            filters: Some(filters),
            ..Default::default()
        };
        docker.list_containers(Some(options)).await.unwrap().len()
    })
}

/// A game held up by the timeout bot (60 s per decision), in `runtime`.
fn start_game(dir: &Path, runtime: &str) -> Child {
    let t = repo("examples/tsumogiri");
    Command::new(bin())
        .args(["--seed", "6", "--timeout", "60", "--runtime", runtime, "--logs-dir"])
        .arg(dir)
        .args([t.as_str(), repo("examples/timeout").as_str(), t.as_str(), t.as_str()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn assert_interrupted_logs_kept(dir: &Path) {
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["ending"], "interrupted");
    let kept = std::fs::read_to_string(dir.join("mjai_log.json")).unwrap();
    assert!(kept.starts_with(r#"{"type":"start_game""#) && kept.lines().count() > 10, "{kept}");
    for seat in 0..4 {
        assert!(dir.join(format!("player_logs.{seat}.stdout.txt")).exists());
    }
}

#[test]
fn sigterm_stops_a_docker_game_like_ctrl_c_and_leaves_no_container() {
    require_docker();
    require_image();
    let dir = tempfile::tempdir().unwrap();
    let mut child = start_game(dir.path(), "docker");
    let stderr = lines_of(child.stderr.take().unwrap());
    let label = wait_for_line(&stderr, "mjai-sim.game=", &mut Vec::new());
    let game = label.split("mjai-sim.game=").nth(1).unwrap().trim().to_string();
    wait_for_third_draw_of_seat_1(&dir.path().join("mjai_log.json"));
    assert_eq!(containers_of(&game), 4, "four containers while the game runs");
    kill(&child, libc::SIGTERM);
    let status = child.wait().unwrap();
    let rest: Vec<String> = stderr.iter().collect();
    assert_eq!(status.code(), Some(143), "{rest:#?}");
    assert!(rest.iter().any(|l| l.contains("SIGTERM")), "{rest:#?}");
    assert_interrupted_logs_kept(dir.path());
    assert_eq!(containers_of(&game), 0, "containers left behind after SIGTERM");
}

#[test]
fn sigterm_stops_a_process_game_and_keeps_its_logs() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = start_game(dir.path(), "process");
    let stderr = lines_of(child.stderr.take().unwrap());
    wait_for_third_draw_of_seat_1(&dir.path().join("mjai_log.json"));
    kill(&child, libc::SIGTERM);
    let status = child.wait().unwrap();
    let rest: Vec<String> = stderr.iter().collect();
    assert_eq!(status.code(), Some(143), "{rest:#?}");
    assert_interrupted_logs_kept(dir.path());
}

#[test]
fn sigterm_is_heard_when_nobody_reads_stderr_any_more() {
    // A parent that died closes the pipes: the first signal's line cannot be written, and
    // used to panic the signal task before it stopped anything (a tournament then ran on,
    // deaf to SIGTERM).
    let dir = tempfile::tempdir().unwrap();
    let (silent, t) = (repo("examples/timeout"), repo("examples/tsumogiri"));
    let mut child = Command::new(bin())
        .args(["tournament", "--format", "1v3", &silent, &t, "--runtime", "process", "--timeout", "60"])
        .args(["--json", "--sets", "1", "--jobs", "1", "--dir"])
        .arg(dir.path().join("t"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pipes = (child.stdout.take(), child.stderr.take());
    // game 0 seats the challenger (the bot that goes silent on its third draw) in seat 0
    let log = dir.path().join("t/games/000000/mjai_log.json");
    let deadline = Instant::now() + Duration::from_secs(120);
    while std::fs::read_to_string(&log).unwrap_or_default().matches(r#""type":"tsumo","actor":0"#).count() < 3 {
        assert!(Instant::now() < deadline, "the game never reached seat 0's third draw");
        std::thread::sleep(Duration::from_millis(50));
    }
    drop(pipes); // the parent is gone: nobody reads its stdout or stderr any more
    kill(&child, libc::SIGTERM);
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("SIGTERM unheard: the tournament still runs 60 s later");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    // it stopped; what it says on the way out (to a closed stderr) decides the code
    assert!(status.code().is_some(), "ended by itself, not by a signal: {status:?}");
}

/// A submission that reads its lines and never answers.
fn silent_bot() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bot.py"), "import sys, time\nfor line in sys.stdin:\n    time.sleep(3600)\n")
        .unwrap();
    dir
}

#[test]
fn sigterm_and_sigint_stop_check_and_remove_its_container() {
    require_docker();
    require_image();
    let bot = silent_bot();
    for (signal, code) in [(libc::SIGTERM, 143), (libc::SIGINT, 130)] {
        let mut child = Command::new(bin())
            .args(["check", "--start-timeout", "600"])
            .arg(bot.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = lines_of(child.stdout.take().unwrap());
        let stderr = lines_of(child.stderr.take().unwrap());
        let label = wait_for_line(&stderr, "mjai-sim.game=", &mut Vec::new());
        let game = label.split("mjai-sim.game=").nth(1).unwrap().trim().to_string();
        // The bot runs and holds `start_game` unanswered.
        wait_for_line(&stdout, "start the bot", &mut Vec::new());
        assert_eq!(containers_of(&game), 1);
        kill(&child, signal);
        let status = child.wait().unwrap();
        let rest: Vec<String> = stderr.iter().collect();
        assert_eq!(status.code(), Some(code), "signal {signal}: {rest:#?}");
        assert!(rest.iter().any(|l| l.contains("interrupted")), "{rest:#?}");
        assert_eq!(containers_of(&game), 0, "container left behind after signal {signal}");
    }
}
