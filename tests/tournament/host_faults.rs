//! Host faults told from bot faults (issue 42): when the host cannot start the bots — no GPU
//! runtime for `--gpus`, a missing image, the Docker daemon gone mid-tournament — the game
//! stops at once with a non-zero exit and nothing is recorded as a result; a tournament's
//! game goes back to the queue and `--resume` plays it once the host is whole again.
//!
//! "The daemon gone" is a proxy of the Docker socket that the test owns and stops: every
//! connection through it is cut and the socket file removed, as a stopped daemon would; the
//! real daemon, which other tests share, is never touched.

use std::io::ErrorKind;
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Output, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::e2e_support::{docker_exclusive, labelled_containers, mjai_sim, repo, require_image, zip_files};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn tsumogiri() -> String {
    repo("examples/tsumogiri")
}

/// `mjai-sim standings DIR`'s counts line: (done, failed).
fn done_and_failed(dir: &Path) -> (u64, u64) {
    let out = mjai_sim().args(["standings", dir.to_str().unwrap(), "--json"]).output().unwrap();
    let err = text(&out.stderr);
    let number_before = |word: &str| -> u64 {
        let words: Vec<&str> = err.split_whitespace().collect();
        let i = words.iter().position(|w| w.trim_end_matches(',') == word).unwrap_or_else(|| panic!("{word}: {err}"));
        words[i - 1].parse().unwrap_or_else(|_| panic!("{word}: {err}"))
    };
    let s: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {err}"));
    let failed = if err.contains(" failed") { number_before("failed") } else { 0 };
    (s["games"].as_u64().unwrap(), failed)
}

/// Runs `mjai-sim ARGS PATH FIRST builtin:rulebase builtin:tsumogiri builtin:random`.
fn beside_built_ins(args: &[&str], path: &Path, first: &str) -> Output {
    let built_ins = ["builtin:rulebase", "builtin:tsumogiri", "builtin:random"];
    mjai_sim().args(args).arg(path).arg(first).args(built_ins).output().unwrap()
}

#[test]
fn gpus_without_a_gpu_runtime_stop_one_game_at_once_and_record_nothing() {
    require_image();
    let dir = tempfile::tempdir().unwrap();
    let logs = dir.path().join("game");
    let args = ["--gpus", "all", "--seed", "3", "--no-html", "--message-format", "json", "--logs-dir"];
    let out = beside_built_ins(&args, &logs, &tsumogiri());
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    let last = err.lines().last().unwrap_or_default();
    assert!(last.contains("the host cannot") && last.contains("GPU runtime"), "one line naming cause and fix: {err}");
    assert!(!logs.join("summary.json").exists(), "no result is written");
    let messages: Vec<Value> = text(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let error = messages.last().expect("messages");
    assert_eq!((error["reason"].as_str(), error["code"].as_str()), (Some("error"), Some("host_fault")), "{error}");
    assert!(messages.iter().all(|m| m["reason"] != "bot-error"), "no chombo charged: {messages:?}");
}

#[test]
fn gpus_without_a_gpu_runtime_leave_a_tournament_queued_not_failed() {
    require_image();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("t");
    let args = ["tournament", "--gpus", "all", "--sets", "1", "--seed", "3", "--no-html", "--dir"];
    let out = beside_built_ins(&args, &dir, &format!("t={}", tsumogiri()));
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("the host cannot") && err.contains("wait in the queue"), "{err}");
    assert_eq!(done_and_failed(&dir), (0, 0), "nothing recorded, nothing failed: {err}");
}

#[test]
fn a_missing_image_stops_a_game_and_a_tournament_before_any_result() {
    let tmp = tempfile::tempdir().unwrap();
    let image = "mjai-sim-no-such-image:0";
    let out = beside_built_ins(&["--image", image, "--no-html", "--logs-dir"], &tmp.path().join("game"), &tsumogiri());
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains(image) && err.contains("image build"), "{err}");
    assert!(!tmp.path().join("game/summary.json").exists());
    let dir = tmp.path().join("t");
    let args = ["tournament", "--image", image, "--sets", "1", "--no-html", "--dir"];
    let out = beside_built_ins(&args, &dir, &format!("t={}", tsumogiri()));
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains(image), "{err}");
    assert!(
        !dir.join("games").exists() || std::fs::read_dir(dir.join("games")).unwrap().count() == 0,
        "no game played"
    );
}

/// A proxy of the Docker socket at `path`: forwards every connection to the real daemon
/// until [`DockerProxy::stop`] cuts them all and removes its socket file.
struct DockerProxy {
    path: PathBuf,
    stopped: Arc<AtomicBool>,
    conns: Arc<Mutex<Vec<UnixStream>>>,
    accept: Option<std::thread::JoinHandle<()>>,
}

impl DockerProxy {
    fn start(path: &Path) -> DockerProxy {
        let listener = UnixListener::bind(path).unwrap();
        listener.set_nonblocking(true).unwrap();
        let (stopped, conns) = (Arc::new(AtomicBool::new(false)), Arc::new(Mutex::new(Vec::new())));
        let (stop, all) = (stopped.clone(), conns.clone());
        let accept = std::thread::spawn(move || {
            while !stop.load(Ordering::SeqCst) {
                match listener.accept() {
                    Ok((client, _)) => {
                        client.set_nonblocking(false).unwrap();
                        let Ok(daemon) = UnixStream::connect("/var/run/docker.sock") else { continue };
                        let mut list = all.lock().unwrap();
                        list.extend([client.try_clone().unwrap(), daemon.try_clone().unwrap()]);
                        pipe(client.try_clone().unwrap(), daemon.try_clone().unwrap());
                        pipe(daemon, client);
                    }
                    Err(e) if e.kind() == ErrorKind::WouldBlock => std::thread::sleep(Duration::from_millis(5)),
                    Err(_) => break,
                }
            }
        });
        DockerProxy { path: path.to_path_buf(), stopped, conns, accept: Some(accept) }
    }

    fn url(&self) -> String {
        format!("unix://{}", self.path.display())
    }

    /// Cuts every connection and removes the socket: the daemon is gone for its clients.
    fn stop(&mut self) {
        self.stopped.store(true, Ordering::SeqCst);
        if let Some(t) = self.accept.take() {
            t.join().unwrap();
        }
        let _ = std::fs::remove_file(&self.path);
        for c in self.conns.lock().unwrap().drain(..) {
            let _ = c.shutdown(std::net::Shutdown::Both);
        }
    }
}

impl Drop for DockerProxy {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Copies `from` into `to` until either ends, then closes `to`'s writing half.
fn pipe(mut from: UnixStream, mut to: UnixStream) {
    std::thread::spawn(move || {
        let _ = std::io::copy(&mut from, &mut to);
        let _ = to.shutdown(std::net::Shutdown::Write);
    });
}

/// Games of a tournament folder whose `summary.json` is written.
fn finished_games(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir.join("games")) else { return 0 };
    entries.filter_map(Result::ok).filter(|e| e.path().join("summary.json").exists()).count()
}

fn wait_with_timeout(child: &mut Child, limit: Duration) -> std::process::ExitStatus {
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            panic!("the tournament did not stop within {limit:?} of the daemon going away");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn output_of(mut child: Child, limit: Duration) -> Output {
    let status = wait_with_timeout(&mut child, limit);
    let mut stderr = Vec::new();
    std::io::Read::read_to_end(child.stderr.as_mut().unwrap(), &mut stderr).unwrap();
    Output { status, stdout: Vec::new(), stderr }
}

/// Chombos by bot in the recorded games (`mjai-sim standings DIR --json`).
fn chombos(dir: &Path) -> Vec<u64> {
    let out = mjai_sim().args(["standings", dir.to_str().unwrap(), "--json"]).output().unwrap();
    let s: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(&out.stderr)));
    s["bots"].as_array().unwrap().iter().map(|b| b["chombos"].as_u64().unwrap()).collect()
}

#[test]
fn the_daemon_gone_mid_tournament_records_nothing_and_resume_finishes_clean() {
    require_image();
    let _exclusive = docker_exclusive(); // its containers outlive the run until `cleanup`
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("t");
    let mut proxy = DockerProxy::start(&tmp.path().join("docker.sock"));
    let bots = [
        format!("a={}", tsumogiri()),
        format!("b={}", tsumogiri()),
        "builtin:rulebase".into(),
        "builtin:tsumogiri".into(),
    ];
    let child = mjai_sim()
        .args(["tournament", "--sets", "3", "--seed", "8", "--jobs", "1", "--no-html", "--dir"])
        .arg(&dir)
        .args(&bots)
        .env("DOCKER_HOST", proxy.url())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let started = Instant::now();
    while finished_games(&dir) < 2 {
        assert!(started.elapsed() < Duration::from_secs(240), "two games within 4 minutes");
        std::thread::sleep(Duration::from_millis(20));
    }
    proxy.stop();
    let out = output_of(child, Duration::from_secs(120));
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("the host cannot") && err.contains("wait in the queue"), "{err}");
    let (done, failed) = done_and_failed(&dir);
    assert!((2..12).contains(&done) && failed == 0, "{done} done, {failed} failed: {err}");
    assert!(chombos(&dir).iter().all(|&c| c == 0), "the outage left no chombo in a result: {:?}", chombos(&dir));

    // The daemon back: the queue is played to its end, and no result carries the outage.
    let mut proxy = DockerProxy::start(&tmp.path().join("docker.sock"));
    let out = mjai_sim().args(["tournament", "--resume"]).arg(&dir).env("DOCKER_HOST", proxy.url()).output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(done_and_failed(&dir), (12, 0));
    assert_eq!(chombos(&dir), vec![0; 4]);
    proxy.stop();

    // What the run could not remove while the daemon was gone, `cleanup` removes.
    let out = mjai_sim().arg("cleanup").output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let left: Vec<_> = labelled_containers()
        .into_iter()
        .filter(|c| {
            c.labels.as_ref().and_then(|l| l.get("mjai-sim.owner")).is_some_and(|o| o.contains(&format!("/{pid}/")))
        })
        .collect();
    assert!(left.is_empty(), "containers of the stopped run are left: {left:?}");
}

/// Lines of `child`'s stderr, as they come, on a channel.
fn stderr_lines(child: &mut Child) -> std::sync::mpsc::Receiver<String> {
    let (tx, rx) = std::sync::mpsc::channel();
    let stderr = child.stderr.take().unwrap();
    std::thread::spawn(move || {
        for line in std::io::BufRead::lines(std::io::BufReader::new(stderr)).map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

/// Waits for a line containing `needle` (at most `limit`); returns it and what came before.
fn wait_for_line(lines: &std::sync::mpsc::Receiver<String>, needle: &str, limit: Duration) -> (String, Vec<String>) {
    let deadline = Instant::now() + limit;
    let mut seen = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match lines.recv_timeout(left) {
            Ok(line) if line.contains(needle) => return (line, seen),
            Ok(line) => seen.push(line),
            Err(_) => panic!("no line with `{needle}` within {limit:?}: {seen:?}"),
        }
    }
}

fn sigterm(child: &mut Child) -> std::process::ExitStatus {
    // SAFETY: signals a child process this test started; touches no memory.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGTERM) }, 0);
    wait_with_timeout(child, Duration::from_secs(60))
}

#[test]
fn a_worker_backs_off_while_the_host_cannot_run_bots_and_fails_no_game() {
    require_image();
    let tmp = tempfile::tempdir().unwrap();
    let db = format!("sqlite:{}", tmp.path().join("t.sqlite").display());
    let zip = zip_files(tmp.path(), "examples/tsumogiri", &["bot.py"]);
    // The coordinator only creates and watches (--jobs 0); the worker plays.
    let mut coordinator = mjai_sim()
        .args(["tournament", "--db", &db, "--jobs", "0", "--gpus", "all", "--sets", "1", "--dir"])
        .arg(tmp.path().join("t"))
        .args([format!("t={zip}").as_str(), "builtin:rulebase", "builtin:tsumogiri", "builtin:random"])
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let watched = stderr_lines(&mut coordinator);
    wait_for_line(&watched, "4 games", Duration::from_secs(60));
    let mut worker = mjai_sim()
        .args(["worker", "--db", &db, "--name", "w1", "--poll", "1", "--jobs", "1"])
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let lines = stderr_lines(&mut worker);
    let (first, _) = wait_for_line(&lines, "trying again in 5 s", Duration::from_secs(120));
    assert!(first.contains("GPU runtime"), "the cause is named: {first}");
    let (second, _) = wait_for_line(&lines, "trying again in 10 s", Duration::from_secs(120));
    assert!(second.contains("the host cannot"), "{second}");
    assert_eq!(worker.try_wait().unwrap(), None, "the worker waits for the host, it does not exit");
    assert_eq!(sigterm(&mut worker).code(), Some(143));
    assert_eq!(sigterm(&mut coordinator).code(), Some(143));
    let counts: Vec<String> = watched.try_iter().filter(|l| l.contains("games done")).collect();
    let last = counts.last().cloned().unwrap_or_default();
    assert!(last.contains("0 of 4 games done") && last.contains("0 failed"), "no game recorded or failed: {counts:?}");
}
