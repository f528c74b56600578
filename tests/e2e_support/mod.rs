//! Helpers of the end-to-end tests: run the real `mjai-sim` binary on real bots and read
//! its output folder. Nothing is mocked.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use serde_json::Value;

/// The binary under test.
pub fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_mjai-sim")
}

/// A command running the binary under test.
pub fn mjai_sim() -> Command {
    Command::new(bin())
}

/// A zip (deflated) holding `files` (name, bytes), each mode 0755.
pub fn zip_of(files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, bytes) in files {
        w.start_file(*name, zip::write::SimpleFileOptions::default().unix_permissions(0o755)).unwrap();
        w.write_all(bytes).unwrap();
    }
    w.finish().unwrap().into_inner()
}

/// Serialises the tests of one binary that count every mjai-sim container on the daemon
/// (not only their own game's) against those that start containers; a test that panicked
/// holding it does not block the others.
pub fn docker_exclusive() -> std::sync::MutexGuard<'static, ()> {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

/// A path inside the repository (e.g. `examples/tsumogiri`).
pub fn repo(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path).display().to_string()
}

/// Panics (the test fails, it is never skipped) when the Docker daemon does not answer
/// `GET /_ping` on its local socket.
pub fn require_docker() {
    let sock = std::env::var("DOCKER_HOST")
        .ok()
        .and_then(|h| h.strip_prefix("unix://").map(String::from))
        .unwrap_or_else(|| "/var/run/docker.sock".into());
    let ping = || -> std::io::Result<String> {
        let mut s = std::os::unix::net::UnixStream::connect(&sock)?;
        s.set_read_timeout(Some(std::time::Duration::from_secs(10)))?;
        s.write_all(b"GET /_ping HTTP/1.0\r\n\r\n")?;
        let mut reply = String::new();
        s.read_to_string(&mut reply)?;
        Ok(reply)
    };
    match ping() {
        Ok(reply) if reply.starts_with("HTTP/1.0 200") || reply.starts_with("HTTP/1.1 200") => {}
        Ok(reply) => panic!(
            "Docker at {sock} answered `{}`; these tests need a working Docker Engine",
            reply.lines().next().unwrap_or("")
        ),
        Err(e) => panic!("Docker is unreachable at {sock} ({e}); these tests need a running Docker Engine"),
    }
}

/// Builds the bot image once per test process (`mjai-sim image build`; quick when the
/// image is already there).
pub fn require_image() {
    static BUILT: OnceLock<Result<(), String>> = OnceLock::new();
    build_once(&BUILT, &["image", "build"]);
}

/// Builds the ml image once per test process (`mjai-sim image build --ml`; scripts/test
/// builds it before the tests, so this is quick).
pub fn require_ml_image() {
    static BUILT: OnceLock<Result<(), String>> = OnceLock::new();
    build_once(&BUILT, &["image", "build", "--ml"]);
}

fn build_once(built: &OnceLock<Result<(), String>>, args: &[&str]) {
    let result = built.get_or_init(|| {
        let out = Command::new(bin()).args(args).output().map_err(|e| e.to_string())?;
        if out.status.success() {
            Ok(())
        } else {
            Err(String::from_utf8_lossy(&out.stderr).into_owned())
        }
    });
    if let Err(e) = result {
        panic!("`mjai-sim {}` failed: {e}", args.join(" "));
    }
}

/// A zip in `dir` of the files `names` of the folder `folder` (repository-relative), at
/// the zip's root, as an author would pack a submission.
pub fn zip_files(dir: &Path, folder: &str, names: &[&str]) -> String {
    let path = dir.join(format!("{}.zip", folder.replace('/', "-")));
    let files: Vec<(&str, Vec<u8>)> =
        names.iter().map(|n| (*n, std::fs::read(PathBuf::from(repo(folder)).join(n)).unwrap())).collect();
    let entries: Vec<(&str, &[u8])> = files.iter().map(|(n, b)| (*n, b.as_slice())).collect();
    std::fs::write(&path, zip_of(&entries)).unwrap();
    path.display().to_string()
}

/// Every container (any state) labelled `mjai-sim.game` on this Docker daemon, as Docker
/// lists them (names, labels, mounts).
pub fn labelled_containers() -> Vec<bollard::models::ContainerSummary> {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    rt.block_on(async {
        let docker = bollard::Docker::connect_with_defaults().unwrap();
        let filters = std::collections::HashMap::from([("label".to_string(), vec!["mjai-sim.game".to_string()])]);
        let options = bollard::query_parameters::ListContainersOptions {
            all: true,
            filters: Some(filters),
            ..Default::default()
        };
        docker.list_containers(Some(options)).await.unwrap()
    })
}

/// A finished run of `mjai-sim` and its output folder.
pub struct Run {
    pub output: Output,
    pub dir: tempfile::TempDir,
}

impl Run {
    pub fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.output.stderr).into_owned()
    }
    pub fn read(&self, name: &str) -> String {
        std::fs::read_to_string(self.dir.path().join(name)).unwrap_or_else(|e| panic!("{name}: {e}\n{}", self.stderr()))
    }
    pub fn json(&self, name: &str) -> Value {
        serde_json::from_str(&self.read(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
    }
    pub fn summary(&self) -> Value {
        self.json("summary.json")
    }
    pub fn errors(&self) -> Vec<Value> {
        self.json("errors.json").as_array().cloned().expect("errors.json is an array")
    }
    /// `mjai_log.json` as events.
    pub fn log(&self) -> Vec<Value> {
        self.read("mjai_log.json").lines().map(|l| serde_json::from_str(l).expect("JSON lines")).collect()
    }
    pub fn log_path(&self) -> PathBuf {
        self.dir.path().join("mjai_log.json")
    }
    /// Asserts [`Run::assert_complete`] and a log that replays through the engine
    /// (`mjai-sim verify`).
    pub fn assert_complete_and_verified(&self) {
        self.assert_complete_and_verified_under("tenhou");
    }

    /// [`Run::assert_complete_and_verified`] for a game played under `--rules RULES` (a
    /// three-player preset: three seats, 105000 points).
    pub fn assert_complete_and_verified_under(&self, rules: &str) {
        self.assert_complete();
        let verify = Command::new(bin()).arg("verify").arg(self.log_path()).args(["--rules", rules]).output().unwrap();
        assert!(
            verify.status.success(),
            "mjai-sim verify refused the log: {}{}",
            String::from_utf8_lossy(&verify.stdout),
            String::from_utf8_lossy(&verify.stderr)
        );
    }

    /// Asserts exit 0, a completed game, scores summing to 100000 (105000 at three seats), a
    /// log from start_game to end_game.
    pub fn assert_complete(&self) {
        assert!(self.output.status.success(), "exit {:?}\n{}", self.output.status, self.stderr());
        let s = self.summary();
        assert_eq!(s["completed"], true, "{s}");
        let scores: Vec<i64> = s["scores"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect();
        let total = if scores.len() == 3 { 105_000 } else { 100_000 };
        assert_eq!(scores.iter().sum::<i64>(), total, "scores {scores:?}");
        let log = self.log();
        assert_eq!(log.first().unwrap()["type"], "start_game");
        assert_eq!(log.last().unwrap()["type"], "end_game");
    }
}

/// Plays one game with `bots` and extra options; the output folder is a fresh temp dir.
pub fn play(bots: [&str; 4], options: &[&str]) -> Run {
    play_seats(&bots, options)
}

/// [`play`] with any number of bots (three for a three-player preset in `options`).
pub fn play_seats(bots: &[&str], options: &[&str]) -> Run {
    let dir = tempfile::tempdir().unwrap();
    let output = Command::new(bin())
        .args(options)
        .arg("--logs-dir")
        .arg(dir.path())
        .args(bots)
        .output()
        .expect("the binary runs");
    Run { output, dir }
}

/// The `ryukyoku` events with `"reason":"error"` in a log, with the dealer of their hand.
pub fn chombos(log: &[Value]) -> Vec<(u64, Value)> {
    let mut oya = 0;
    let mut found = Vec::new();
    for e in log {
        match e["type"].as_str() {
            Some("start_kyoku") => oya = e["oya"].as_u64().unwrap(),
            Some("ryukyoku") if e["reason"] == "error" => found.push((oya, e.clone())),
            _ => {}
        }
    }
    found
}

/// The mangan a lone offender pays (Tenhou chombo): dealer 4000 to each, otherwise 4000 to
/// the dealer and 2000 to the others.
pub fn chombo_deltas(offender: u64, oya: u64) -> [i64; 4] {
    let mut d = [0i64; 4];
    for s in 0..4u64 {
        if s != offender {
            let pay = if offender == oya || s == oya { 4000 } else { 2000 };
            d[s as usize] += pay;
            d[offender as usize] -= pay;
        }
    }
    d
}
