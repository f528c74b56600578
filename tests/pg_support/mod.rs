#![allow(dead_code)]
//! A throwaway PostgreSQL cluster for tests: `initdb` into a temporary folder, `pg_ctl
//! start` listening on 127.0.0.1 on a free port (and a Unix socket in the folder), trust
//! authentication, stopped and deleted on drop. Binaries: `/usr/lib/postgresql/<newest>/bin/`
//! or `PATH`; when they are missing the test fails with a message naming the package
//! (`apt-get install postgresql`). As root the server runs as the `postgres` user (it
//! refuses to run as root), through `runuser`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A running cluster; stopped on drop.
pub struct PgCluster {
    bin: PathBuf,
    data: PathBuf,
    run_as: Option<String>,
    /// The port it listens on (127.0.0.1).
    pub port: u16,
    sock: PathBuf,
    _dir: tempfile::TempDir,
}

fn find_bin() -> PathBuf {
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| Some((e.file_name().to_str()?.parse().ok()?, e.path().join("bin"))))
        .filter(|(_, bin): &(u32, PathBuf)| bin.join("initdb").exists() && bin.join("pg_ctl").exists())
        .collect();
    versions.sort();
    if let Some((_, bin)) = versions.pop() {
        return bin;
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for dir in std::env::split_paths(&path) {
        if dir.join("initdb").exists() && dir.join("pg_ctl").exists() {
            return dir;
        }
    }
    panic!(
        "PostgreSQL's initdb and pg_ctl were not found (in /usr/lib/postgresql/*/bin or PATH): \
         install them with `apt-get install postgresql` (scripts/test does)"
    );
}

/// A port on 127.0.0.1 that was free a moment ago.
pub fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind a free port on 127.0.0.1");
    l.local_addr().unwrap().port()
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

fn uid_gid(user: &str) -> (u32, u32) {
    let id = |flag: &str| -> u32 {
        let out = Command::new("id").args([flag, user]).output().expect("run id");
        assert!(out.status.success(), "user {user} is missing: `apt-get install postgresql` creates it");
        String::from_utf8_lossy(&out.stdout).trim().parse().expect("numeric id")
    };
    (id("-u"), id("-g"))
}

impl PgCluster {
    /// Creates and starts a cluster. Panics (the test fails) with the cause and the fix.
    pub fn start() -> PgCluster {
        let bin = find_bin();
        let dir = tempfile::tempdir().expect("temporary folder");
        let data = dir.path().join("data");
        let sock = dir.path().join("sock");
        std::fs::create_dir_all(&data).unwrap();
        std::fs::create_dir_all(&sock).unwrap();
        let run_as = if is_root() { Some("postgres".to_string()) } else { None };
        if let Some(user) = &run_as {
            use std::os::unix::fs::PermissionsExt;
            let (uid, gid) = uid_gid(user);
            std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
            for p in [&data, &sock] {
                std::os::unix::fs::chown(p, Some(uid), Some(gid)).unwrap();
                std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o700)).unwrap();
            }
        }
        let port = free_port();
        let cluster = PgCluster { bin, data, run_as, port, sock, _dir: dir };
        let out = cluster.run(
            "initdb",
            &["-D", cluster.data.to_str().unwrap(), "-U", "mjai", "--auth=trust", "-E", "UTF8", "--no-sync"],
        );
        assert!(out.status.success(), "initdb failed: {}", String::from_utf8_lossy(&out.stderr));
        cluster.launch();
        cluster
    }

    /// Starts the server on its data folder and port (`pg_ctl start`, waiting until it
    /// accepts connections). Panics with the server's log when it cannot.
    fn launch(&self) {
        let options = format!(
            "-c listen_addresses=127.0.0.1 -p {} -k {} -c fsync=off -c synchronous_commit=off -c max_connections=200",
            self.port,
            self.sock.display()
        );
        let log = self.data.join("server.log");
        let data = self.data.to_str().unwrap();
        let out =
            self.run("pg_ctl", &["-D", data, "-o", &options, "-l", log.to_str().unwrap(), "-w", "-t", "60", "start"]);
        if !out.status.success() {
            let server = std::fs::read_to_string(&log).unwrap_or_default();
            panic!("pg_ctl start failed: {}{}", String::from_utf8_lossy(&out.stderr), server);
        }
    }

    /// Stops the server as an operator's restart does (`pg_ctl stop -m fast`: open
    /// connections are terminated), keeping its data.
    pub fn stop(&self) {
        let out = self.run("pg_ctl", &["-D", self.data.to_str().unwrap(), "-m", "fast", "-w", "stop"]);
        assert!(out.status.success(), "pg_ctl stop failed: {}", String::from_utf8_lossy(&out.stderr));
    }

    /// Starts the stopped server again on the same port and data.
    pub fn restart(&self) {
        self.launch();
    }

    /// The URL of its `postgres` database (user `mjai`, no password).
    pub fn url(&self) -> String {
        format!("postgres://mjai@127.0.0.1:{}/postgres", self.port)
    }

    fn run(&self, tool: &str, args: &[&str]) -> Output {
        let exe = self.bin.join(tool);
        let mut cmd = match &self.run_as {
            Some(user) => {
                let mut c = Command::new("runuser");
                c.args(["-u", user, "--"]).arg(&exe);
                c
            }
            None => Command::new(&exe),
        };
        cmd.args(args).current_dir(Path::new("/")).output().unwrap_or_else(|e| panic!("cannot run {tool}: {e}"))
    }
}

impl Drop for PgCluster {
    fn drop(&mut self) {
        let data = self.data.to_str().unwrap_or_default().to_string();
        let _ = self.run("pg_ctl", &["-D", &data, "-m", "immediate", "-w", "stop"]);
    }
}

/// Polls `check` every 20 ms until it returns `Some`, at most `limit`.
pub fn poll<T>(limit: std::time::Duration, what: &str, mut check: impl FnMut() -> Option<T>) -> T {
    let start = std::time::Instant::now();
    loop {
        if let Some(v) = check() {
            return v;
        }
        assert!(start.elapsed() < limit, "timed out waiting for {what}");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}
