//! What every hostile test does: run `mjai-sim` with a hard bound on its wall time, in a
//! sandbox of its own (its `TMPDIR`, where the seats' bind-mounted folders live, so that
//! containers left by this run and no other are found), then check who paid.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::catalogue::{write_folder, Expect, Hostile};

/// The three other seats of every hostile game: built-in tsumogiri bots (in process: no
/// container of theirs to start or to leave behind).
pub const OPPONENTS: [&str; 3] = ["t1=builtin:tsumogiri", "t2=builtin:tsumogiri", "t3=builtin:tsumogiri"];

/// The four seats of a hostile main-job game: `bot` in seat 1, built-in tsumogiri bots
/// elsewhere.
pub fn seats_with(bot: &str) -> [&str; 4] {
    ["builtin:tsumogiri", bot, "builtin:tsumogiri", "builtin:tsumogiri"]
}

pub use super::e2e_support::mjai_sim;

/// A run's own temporary folder (given to `mjai-sim` as `TMPDIR`) and scratch space.
pub struct Sandbox {
    dir: tempfile::TempDir,
}

impl Sandbox {
    /// A fresh sandbox.
    pub fn new() -> Sandbox {
        Sandbox { dir: tempfile::tempdir().unwrap() }
    }

    /// A path inside the sandbox.
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// The hostile bot written as a folder submission in the sandbox.
    pub fn bot(&self, h: &Hostile) -> String {
        let dir = self.path(h.name);
        write_folder(h, &dir);
        dir.display().to_string()
    }

    /// The hostile bot as a zip submission (`bot.py` at its root: a database keeps zips).
    pub fn bot_zip(&self, h: &Hostile) -> String {
        use std::io::Write;
        let path = self.path(&format!("{}.zip", h.name));
        let mut zip = zip::ZipWriter::new(std::fs::File::create(&path).unwrap());
        zip.start_file("bot.py", zip::write::SimpleFileOptions::default()).unwrap();
        zip.write_all(super::catalogue::source(h).as_bytes()).unwrap();
        zip.finish().unwrap();
        path.display().to_string()
    }

    /// `mjai-sim ARGS` with this sandbox as its temporary folder.
    pub fn command(&self, args: &[&str]) -> Command {
        let tmp = self.path("tmp");
        std::fs::create_dir_all(&tmp).unwrap();
        let mut c = mjai_sim();
        c.env("TMPDIR", tmp).args(args);
        c
    }

    /// Containers (any state) whose bind mounts come from this sandbox: left behind by it.
    pub fn leftover_containers(&self) -> Vec<String> {
        let root = self.path("tmp").canonicalize().unwrap_or_else(|_| self.path("tmp"));
        let from_here =
            |m: &bollard::models::MountPoint| m.source.as_deref().is_some_and(|s| Path::new(s).starts_with(&root));
        super::e2e_support::labelled_containers()
            .into_iter()
            .filter(|c| c.mounts.iter().flatten().any(from_here))
            .map(|c| c.names.unwrap_or_default().join(","))
            .collect()
    }

    /// Asserts that the run left no container.
    pub fn assert_no_container_left(&self, what: &str) {
        let left = self.leftover_containers();
        assert!(left.is_empty(), "{what}: containers left behind: {left:?}");
    }
}

/// Runs `command` to its end, at most `bound`: past it the process is killed (SIGKILL)
/// and the test fails, so a hang costs the bound, never the whole CI run.
pub fn run_bounded(mut command: Command, bound: Duration, what: &str) -> (Output, Duration) {
    let child = command.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("mjai-sim starts");
    wait_bounded(child, bound, what)
}

/// Spawns `command` with stderr piped (for signal tests, which wait on it themselves).
pub fn spawn(mut command: Command) -> Child {
    command.stdout(Stdio::null()).stderr(Stdio::piped()).spawn().expect("mjai-sim starts")
}

/// Reads a JSON file.
pub fn json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Checks one finished game of a hostile bot in `seat` from its `summary.json` and
/// `errors.json` texts: completed, and the chombos `expect`ed, all of them `seat`'s.
pub fn check_game(summary: &Value, errors: &Value, seat: usize, h: &Hostile, what: &str) {
    assert_eq!(summary["completed"], true, "{what}: the game did not complete: {summary}");
    let chombos: Vec<u64> = summary["chombos"].as_array().unwrap().iter().map(|c| c.as_u64().unwrap()).collect();
    let mine = chombos[seat];
    for (s, c) in chombos.iter().enumerate() {
        if s != seat {
            assert_eq!(*c, 0, "{what}: seat {s} paid a chombo; only the hostile seat {seat} may: {chombos:?} {errors}");
        }
    }
    match h.expect {
        Expect::Chombos(n) => assert_eq!(mine, u64::from(n), "{what}: chombos of seat {seat}: {chombos:?} {errors}"),
        Expect::EveryHand => assert!(mine >= 1, "{what}: seat {seat} paid no chombo"),
    }
    let entries = errors.as_array().cloned().unwrap_or_default();
    let blamed: Vec<u64> = entries.iter().filter_map(|e| e["player_id"].as_u64()).collect();
    assert!(blamed.iter().all(|&p| p == seat as u64), "{what}: errors.json blames {blamed:?}, not only seat {seat}");
    assert_eq!(blamed.len() as u64, mine, "{what}: one errors.json entry per chombo: {errors}");
}

/// Waits for `child` at most `bound` (SIGKILL and a failed test, with its stderr, past
/// it); its output and the time it took.
pub fn wait_bounded(child: Child, bound: Duration, what: &str) -> (Output, Duration) {
    let started = Instant::now();
    let pid = child.id() as i32;
    let (done, wait) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = done.send(child.wait_with_output());
    });
    match wait.recv_timeout(bound) {
        Ok(output) => (output.expect("mjai-sim is waited for"), started.elapsed()),
        Err(_) => {
            // SAFETY: kill(2) on the child we spawned; no memory is touched.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
            }
            let output = wait.recv().ok().and_then(Result::ok);
            let stderr = output.map(|o| String::from_utf8_lossy(&o.stderr).into_owned()).unwrap_or_default();
            panic!("{what}: not finished within its bound of {bound:?} (killed):\n{stderr}");
        }
    }
}

/// True when some file named `player_logs.*.stderr.txt` (game folders) or `*.stderr.txt`
/// under `root` says `misbehaving`: a hostile bot has begun.
pub fn misbehaving_under(root: &Path) -> bool {
    let Ok(entries) = std::fs::read_dir(root) else { return false };
    entries.flatten().any(|e| {
        let path = e.path();
        if path.is_dir() {
            return misbehaving_under(&path);
        }
        path.to_string_lossy().ends_with("stderr.txt")
            && std::fs::read_to_string(&path).is_ok_and(|t| t.contains("misbehaving"))
    })
}

/// Polls (every 20 ms, at most `limit`) until a hostile bot under `root` misbehaves; fails
/// when `child` ends first.
pub fn wait_for_misbehaviour(child: &mut Child, root: &Path, limit: Duration, what: &str) {
    let deadline = Instant::now() + limit;
    while !misbehaving_under(root) {
        if let Some(status) = child.try_wait().unwrap() {
            panic!("{what}: mjai-sim ended ({status:?}) before the bot misbehaved");
        }
        assert!(Instant::now() < deadline, "{what}: the bot did not misbehave within {limit:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Sends `signal` to `child`.
pub fn signal(child: &Child, signal: i32) {
    // SAFETY: kill(2) on the child we spawned; no memory is touched.
    unsafe {
        libc::kill(child.id() as i32, signal);
    }
}
