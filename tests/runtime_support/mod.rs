//! Test bots shared by the runtime tests: one Python script whose behaviour each request
//! line selects ("echo X", "sleep", "exit N", ...). It ignores SIGTERM on purpose.
#![allow(dead_code)]

use std::path::Path;

use mjai_sim::runtime::submission::{Submission, SubmissionLimits};

/// The test bot. Commands (one per line): `echo TEXT`, `seat`, `sleep` (never answers),
/// `exit N`, `big N` (answers N bytes), `err N` (N bytes to stderr, then `done`),
/// `close` (closes stdout, keeps running), `badutf8`, `twice` (two lines), `spawn`
/// (forks a SIGTERM-ignoring child, answers its pid), `pid`, `uid`, `write PATH` (answers
/// ok or the error), `ifaces` (network interfaces), `late SECS TEXT` (answers TEXT after
/// SECS seconds), `sha256 PATH` (the file's hex sha256), `none` (answers {"type":"none"}).
pub const TEST_BOT: &str = r#"
import os, signal, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
seat = sys.argv[1]
out = sys.stdout
for line in sys.stdin:
    cmd, _, arg = line.rstrip("\n").partition(" ")
    if cmd == "echo":
        out.write(arg + "\n")
    elif cmd == "seat":
        out.write(seat + "\n")
    elif cmd == "sleep":
        time.sleep(3600)
    elif cmd == "exit":
        sys.exit(int(arg))
    elif cmd == "big":
        out.write("a" * int(arg) + "\n")
    elif cmd == "err":
        n = int(arg)
        chunk = "e" * 65535 + "\n"
        while n > 0:
            sys.stderr.write(chunk[:n])
            n -= len(chunk)
        sys.stderr.flush()
        out.write("done\n")
    elif cmd == "close":
        os.close(1)
        time.sleep(3600)
    elif cmd == "badutf8":
        sys.stdout.buffer.write(b"\xff\xfe\n")
    elif cmd == "late":
        secs, _, text = arg.partition(" ")
        time.sleep(float(secs))
        out.write(text + "\n")
    elif cmd == "twice":
        out.write("first\nsecond\n")
    elif cmd == "spawn":
        pid = os.fork()
        if pid == 0:
            time.sleep(3600)
            os._exit(0)
        out.write(str(pid) + "\n")
    elif cmd == "pid":
        out.write(str(os.getpid()) + "\n")
    elif cmd == "uid":
        out.write(str(os.getuid()) + "\n")
    elif cmd == "write":
        try:
            with open(arg, "w") as f:
                f.write("x")
            out.write("ok\n")
        except OSError as e:
            out.write("fail " + e.__class__.__name__ + "\n")
    elif cmd == "sha256":
        import hashlib
        h = hashlib.sha256()
        with open(arg, "rb") as f:
            for piece in iter(lambda: f.read(1 << 20), b""):
                h.update(piece)
        out.write(h.hexdigest() + "\n")
    elif cmd == "ifaces":
        out.write(",".join(sorted(os.listdir("/sys/class/net"))) + "\n")
    else:
        out.write('{"type":"none"}\n')
    out.flush()
"#;

/// The test bot as a checked submission (read from a temporary folder).
pub fn test_submission() -> Submission {
    test_submission_with(&[])
}

/// The test bot with more files beside it (`(path, bytes)`), as a checked submission.
pub fn test_submission_with(files: &[(&str, &[u8])]) -> Submission {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bot.py"), TEST_BOT).unwrap();
    for (path, bytes) in files {
        let target = dir.path().join(path);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::write(target, bytes).unwrap();
    }
    Submission::load(dir.path(), &SubmissionLimits::default()).unwrap()
}

/// Whether a process id is alive (not gone and not a zombie).
pub fn alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat.rsplit(')').next().map(|rest| !rest.trim_start().starts_with('Z')).unwrap_or(false),
        Err(_) => false,
    }
}

/// Reads a stderr log file.
pub fn read_log(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_default()
}

/// Asserts that the stderr log at `path` holds exactly `cap` bytes followed by the
/// truncation marker.
pub fn assert_capped(path: &Path, cap: u64) {
    let log = read_log(path);
    let marker = mjai_sim::runtime::stderr_log::truncation_marker(cap);
    assert_eq!(log.len() as u64, cap + marker.len() as u64);
    assert!(log.ends_with(marker.as_bytes()));
}
