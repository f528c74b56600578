//! Helpers of the remote-bot tests: a game with `remote:NAME` seats run by the real binary,
//! its printed `mjai-sim connect` commands, and bridges started from them.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::e2e_support::bin;

/// A running game with remote seats, its output folder, and what it printed.
pub struct RemoteGame {
    pub child: Child,
    pub dir: tempfile::TempDir,
    /// `mjai-sim connect URL --token TOKEN BOT` by seat, as printed.
    pub commands: Vec<(u8, String)>,
    stderr: mpsc::Receiver<String>,
    pub stderr_lines: Vec<String>,
}

/// A tsumogiri in Python that waits `delay_ms` before each answer (`python3 PATH SEAT`).
pub fn slow_tsumogiri(dir: &Path, delay_ms: u64) -> PathBuf {
    let path = dir.join("slow_tsumogiri.py");
    std::fs::write(
        &path,
        format!(
            r#"import json, sys, time
seat = int(sys.argv[1])
for line in sys.stdin:
    last = json.loads(line)[-1]
    time.sleep({delay})
    if last.get("type") == "tsumo" and last.get("actor") == seat:
        print(json.dumps({{"type": "dahai", "actor": seat, "pai": last["pai"], "tsumogiri": True}}), flush=True)
    else:
        print('{{"type":"none"}}', flush=True)
"#,
            delay = delay_ms as f64 / 1000.0
        ),
    )
    .unwrap();
    path
}

impl RemoteGame {
    /// Starts `mjai-sim OPTIONS --logs-dir DIR BOTS` and waits (at most 30 s) for one
    /// printed command per `remote:` seat (`N`: four bots, or three with a three-player
    /// preset in `options`).
    pub fn start<const N: usize>(bots: [&str; N], options: &[&str]) -> RemoteGame {
        let dir = tempfile::tempdir().unwrap();
        let mut args: Vec<String> = options.iter().map(|s| s.to_string()).collect();
        args.extend(["--no-html".to_string(), "--logs-dir".to_string(), dir.path().display().to_string()]);
        args.extend(bots.iter().map(|s| s.to_string()));
        let wanted = bots.iter().filter(|b| b.starts_with("remote:") || b.starts_with("riichilab:")).count();
        RemoteGame::spawn(&args, wanted, dir)
    }

    /// Starts `mjai-sim ARGS` (e.g. a tournament writing into `dir`) and waits (at most
    /// 30 s) for `wanted` printed `mjai-sim connect` commands; a command's seat is the
    /// `seat N` before it, else its order.
    pub fn spawn(args: &[String], wanted: usize, dir: tempfile::TempDir) -> RemoteGame {
        let mut child = Command::new(bin()).args(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
        let (tx, stderr) = mpsc::channel();
        let pipe = child.stderr.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(pipe).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut game = RemoteGame { child, dir, commands: Vec::new(), stderr, stderr_lines: Vec::new() };
        let deadline = Instant::now() + Duration::from_secs(30);
        while game.commands.len() < wanted {
            let line = game
                .stderr
                .recv_timeout(deadline.saturating_duration_since(Instant::now()))
                .unwrap_or_else(|_| panic!("no connect command printed: {:?}", game.stderr_lines));
            let riichi_dev = line.contains("/ws/ranked --token ");
            if let Some(at) = line.find("mjai-sim connect ws://").or_else(|| line.find("ws://").filter(|_| riichi_dev))
            {
                let seat = line
                    .strip_prefix("mjai-sim: seat ")
                    .and_then(|rest| rest.split(' ').next()?.parse().ok())
                    .unwrap_or(game.commands.len() as u8);
                game.commands.push((seat, line[at..].to_string()));
            }
            game.stderr_lines.push(line);
        }
        game
    }

    /// The URL and token printed for `seat`.
    pub fn url_and_token(&self, seat: u8) -> (String, String) {
        let command = &self.commands.iter().find(|(s, _)| *s == seat).expect("a remote seat").1;
        let words: Vec<&str> = command.split_whitespace().collect();
        assert_eq!(&words[..2], &["mjai-sim", "connect"], "{command}");
        assert_eq!(words[3], "--token", "{command}");
        assert_eq!(words[5], "BOT", "{command}");
        (words[2].to_string(), words[4].to_string())
    }

    /// The `/ws/ranked` URL and token printed for a `riichilab:` seat.
    pub fn riichi_dev_url_and_token(&self, seat: u8) -> (String, String) {
        let line = &self.commands.iter().find(|(s, _)| *s == seat).expect("a riichilab seat").1;
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words.len(), 3, "URL --token TOKEN: {line}");
        assert!(words[0].starts_with("ws://127.0.0.1:") && words[0].ends_with("/ws/ranked"), "{line}");
        assert_eq!(words[1], "--token", "{line}");
        (words[0].to_string(), words[2].to_string())
    }

    /// Runs `mjai-sim connect` for `seat` with `bot` (BOT words: a path, or `--` and a
    /// command); stdout piped.
    pub fn bridge(&self, seat: u8, bot: &[&str]) -> Child {
        let (url, token) = self.url_and_token(seat);
        Command::new(bin())
            .args(["connect", &url, "--token", &token])
            .arg("--bot-stderr")
            .arg(self.dir.path().join(format!("bridge.{seat}.stderr.txt")))
            .args(bot)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    }

    /// Waits (at most `limit`) for the game to end; kills it and panics past the limit.
    pub fn wait(&mut self, limit: Duration) -> ExitStatus {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                while let Ok(line) = self.stderr.recv_timeout(Duration::from_secs(1)) {
                    self.stderr_lines.push(line);
                }
                return status;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("the game did not end within {limit:?}: {:?}", self.stderr_lines);
            }
            while let Ok(line) = self.stderr.recv_timeout(Duration::from_millis(50)) {
                self.stderr_lines.push(line);
            }
        }
    }

    /// Waits (at most 60 s) until the game's log holds at least `n` events.
    pub fn wait_for_events(&self, n: usize) {
        let deadline = Instant::now() + Duration::from_secs(60);
        let path = self.dir.path().join("mjai_log.json");
        while std::fs::read_to_string(&path).map(|t| t.lines().count()).unwrap_or(0) < n {
            assert!(Instant::now() < deadline, "the log never reached {n} events");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    pub fn json(&self, name: &str) -> serde_json::Value {
        let text = std::fs::read_to_string(self.dir.path().join(name)).unwrap();
        serde_json::from_str(&text).unwrap()
    }

    pub fn log_text(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("mjai_log.json")).unwrap()
    }
}

impl Drop for RemoteGame {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Waits (at most `limit`) for a bridge to exit; its status and stdout. Kills it past the limit.
pub fn finish_bridge(mut bridge: Child, limit: Duration) -> (ExitStatus, String, String) {
    let deadline = Instant::now() + limit;
    while bridge.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = bridge.kill();
            panic!("the bridge did not exit within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = bridge.wait_with_output().unwrap();
    (
        output.status,
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

pub mod riichi_dev;
pub mod tls;
