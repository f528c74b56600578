//! The output folder, with mjai.app's file names and shapes:
//!
//! - `mjai_log.json`: the full unmasked game, one event per line (JSON lines), appended and
//!   flushed as the game goes, one log across restarts;
//! - `errors.json`: a JSON array of [`ErrorEntry`], `[]` when none; rewritten (through a
//!   temporary file and a rename, so it is always complete) after each error;
//! - `player_logs.{SEAT}.stdout.txt`: every answer line of the seat, appended and flushed,
//!   up to [`STDOUT_CAP`] for the game, then one truncation marker line;
//! - `player_logs.{SEAT}.stderr.txt`: the bot's stderr, appended by its runtime across
//!   restarts under one cap (created empty here so that the file always exists); before the
//!   bots start again after a chombo, a marker line names the restart and the kyoku they
//!   resume at ([`restart_marker`]);
//! - `summary.json`: written by [`LogDir::write_summary`].

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::engine_stamp::EngineStamp;
use super::observer::{kyoku_label, AnswerMeta, ErrorEntry, GameObserver};
use mjai_sim_engine::event::{Event, Seat};
use mjai_sim_engine::game::Players;
use mjai_sim_runtime::stderr_log::DEFAULT_STDERR_CAP;

/// Cap of each `player_logs.{SEAT}.stdout.txt` for a whole game, in bytes: 10 MiB (as stderr).
pub const STDOUT_CAP: u64 = DEFAULT_STDERR_CAP;

/// The line that ends a stdout log cut at `cap` bytes.
pub fn stdout_truncation_marker(cap: u64) -> String {
    format!("[mjai-sim: stdout log truncated after {cap} bytes]\n")
}

/// The line written to every stderr log before the bots start again: restart `restarts`
/// (1 = the first), resuming at hand `kyoku` (`E2-0`).
pub fn restart_marker(restarts: u32, kyoku: Option<&str>) -> String {
    format!("\n[mjai-sim: restart {restarts}: the bots start again at kyoku {}]\n", kyoku.unwrap_or("-"))
}

/// An output folder being written.
pub struct LogDir {
    dir: PathBuf,
    mjai_log: File,
    /// One per seat of the table.
    stdout: Vec<File>,
    /// Bytes written to each stdout log; past [`LogDir::stdout_cap`] lines are dropped.
    stdout_written: Vec<u64>,
    /// The table size: events are written in its wire form ([`Event::to_json_for`]).
    players: Players,
    stdout_cap: u64,
    /// The hand of the last `start_kyoku` logged (`E1-0`).
    kyoku: Option<String>,
    errors: Vec<ErrorEntry>,
    /// `start_game`'s `meta` (`{"engine": ...}`), when the game is stamped.
    start_meta: Option<String>,
}

impl LogDir {
    /// Creates `dir` (and parents) and the log files of a four-player game in it
    /// ([`LogDir::create_for`]).
    pub fn create(dir: &Path) -> io::Result<LogDir> {
        LogDir::create_for(dir, Players::Four)
    }

    /// Creates `dir` (and parents) and the log files of a table of `players` in it: one
    /// `player_logs.{seat}.*` pair per seat, `mjai_log.json` in the table's wire form (three
    /// entries per seat array at three seats). Existing files of a previous game with the
    /// same names are replaced.
    pub fn create_for(dir: &Path, players: Players) -> io::Result<LogDir> {
        fs::create_dir_all(dir).map_err(|e| with_path(e, dir))?;
        let new_file = |name: String| {
            let path = dir.join(name);
            File::create(&path).map_err(|e| with_path(e, &path))
        };
        let mjai_log = new_file("mjai_log.json".into())?;
        let mut stdout = Vec::with_capacity(players.count());
        for seat in players.seats() {
            stdout.push(new_file(format!("player_logs.{seat}.stdout.txt"))?);
            new_file(format!("player_logs.{seat}.stderr.txt"))?;
        }
        let logs = LogDir {
            dir: dir.to_path_buf(),
            mjai_log,
            stdout,
            stdout_written: vec![0; players.count()],
            players,
            stdout_cap: STDOUT_CAP,
            kyoku: None,
            errors: Vec::new(),
            start_meta: None,
        };
        logs.write_json("errors.json", &logs.errors)?;
        Ok(logs)
    }

    /// Caps each stdout log at `bytes` instead of [`STDOUT_CAP`].
    pub fn with_stdout_cap(mut self, bytes: u64) -> LogDir {
        self.stdout_cap = bytes;
        self
    }

    /// Writes `stamp` in the log's `start_game` as `meta.engine` (the full log only; bots
    /// are sent `start_game` as mjai.app sends it).
    pub fn with_engine(mut self, stamp: &EngineStamp) -> LogDir {
        self.start_meta = Some(stamp.meta_json());
        self
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Where the runtime of `seat` should append the bot's stderr.
    pub fn stderr_path(&self, seat: Seat) -> PathBuf {
        stderr_path_in(&self.dir, seat)
    }

    /// Opens `player_logs.{seat}.stderr.txt` for appending (for runtimes that take a file).
    pub fn open_stderr(&self, seat: Seat) -> io::Result<File> {
        let path = self.stderr_path(seat);
        OpenOptions::new().append(true).create(true).open(&path).map_err(|e| with_path(e, &path))
    }

    /// Writes `summary.json` (pretty-printed, complete or not at all).
    pub fn write_summary<T: Serialize>(&self, summary: &T) -> io::Result<()> {
        self.write_json("summary.json", summary)
    }

    /// Writes `name` in the folder through a temporary file and a rename.
    fn write_json<T: Serialize + ?Sized>(&self, name: &str, value: &T) -> io::Result<()> {
        let path = self.dir.join(name);
        let tmp = self.dir.join(format!(".{name}.tmp"));
        let text = serde_json::to_string_pretty(value).map_err(io::Error::other)?;
        fs::write(&tmp, text + "\n").map_err(|e| with_path(e, &tmp))?;
        fs::rename(&tmp, &path).map_err(|e| with_path(e, &path))
    }
}

/// `dir/player_logs.{seat}.stderr.txt`: where the runtime of `seat` writes the bot's stderr.
pub fn stderr_path_in(dir: &Path, seat: Seat) -> PathBuf {
    dir.join(format!("player_logs.{seat}.stderr.txt"))
}

/// `object` (one JSON object) with `"meta": meta` as its last key (the other keys keep
/// their order).
fn with_meta(object: &str, meta: &str) -> String {
    match object.strip_suffix('}') {
        Some(head) if head.len() > 1 => format!("{head},\"meta\":{meta}}}"),
        Some(_) => format!("{{\"meta\":{meta}}}"),
        None => object.to_string(),
    }
}

/// Adds the path to an I/O error, so the one-line message names the file.
fn with_path(e: io::Error, path: &Path) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

impl GameObserver for LogDir {
    fn on_events(&mut self, events: &[Event]) -> io::Result<()> {
        self.on_events_with_meta(events, &[])
    }

    fn on_events_with_meta(&mut self, events: &[Event], metas: &[Option<AnswerMeta>]) -> io::Result<()> {
        if let Some(label) = kyoku_label(events) {
            self.kyoku = Some(label);
        }
        let mut text = String::new();
        for (i, e) in events.iter().enumerate() {
            match (metas.get(i).and_then(Option::as_ref), e, &self.start_meta) {
                (_, Event::StartGame { .. }, Some(meta)) => {
                    text.push_str(&with_meta(&e.to_json_for(self.players), meta))
                }
                (Some(meta), ..) => text.push_str(&meta.on_event_json(e, self.players)),
                (None, ..) => text.push_str(&e.to_json_for(self.players)),
            }
            text.push('\n');
        }
        self.mjai_log.write_all(text.as_bytes())?;
        self.mjai_log.flush()
    }

    fn on_answer(&mut self, seat: Seat, line: &str) -> io::Result<()> {
        let seat = usize::from(seat);
        let (Some(file), Some(written)) = (self.stdout.get_mut(seat), self.stdout_written.get_mut(seat)) else {
            return Ok(());
        };
        let size = line.len() as u64 + 1;
        if *written > self.stdout_cap {
            return Ok(());
        }
        if *written + size > self.stdout_cap {
            *written = self.stdout_cap + 1;
            file.write_all(stdout_truncation_marker(self.stdout_cap).as_bytes())?;
        } else {
            *written += size;
            file.write_all(format!("{line}\n").as_bytes())?;
        }
        file.flush()
    }

    fn on_restart(&mut self, restarts: u32) -> io::Result<()> {
        let marker = restart_marker(restarts, self.kyoku.as_deref());
        for seat in self.players.seats() {
            self.open_stderr(seat)?.write_all(marker.as_bytes())?;
        }
        Ok(())
    }

    fn on_error(&mut self, entry: &ErrorEntry) -> io::Result<()> {
        self.errors.push(entry.clone());
        self.write_json("errors.json", &self.errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_exist_from_the_start_and_grow_as_the_game_goes() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("logs/game1");
        let mut logs = LogDir::create(&dir).unwrap();
        assert_eq!(fs::read_to_string(dir.join("errors.json")).unwrap().trim(), "[]");
        for seat in 0..4 {
            assert!(dir.join(format!("player_logs.{seat}.stderr.txt")).exists());
        }
        logs.on_events(&[Event::EndKyoku, Event::EndGame]).unwrap();
        assert_eq!(
            fs::read_to_string(dir.join("mjai_log.json")).unwrap(),
            "{\"type\":\"end_kyoku\"}\n{\"type\":\"end_game\"}\n"
        );
        logs.on_answer(2, r#"{"type":"none"}"#).unwrap();
        assert_eq!(fs::read_to_string(dir.join("player_logs.2.stdout.txt")).unwrap(), "{\"type\":\"none\"}\n");
        let entry = ErrorEntry {
            error_type: "timeout".into(),
            exception: "no answer within 2.0 s".into(),
            player_id: 1,
            kyoku: Some("E1-0".into()),
            line: None,
            stderr_tail: vec!["Traceback (most recent call last):".into()],
        };
        logs.on_error(&entry).unwrap();
        let errors: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(dir.join("errors.json")).unwrap()).unwrap();
        assert_eq!(errors[0]["error_type"], "timeout");
        assert_eq!(errors[0]["player_id"], 1);
        assert_eq!(errors.as_array().unwrap().len(), 1);
        assert_eq!(errors[0]["stderr_tail"][0], "Traceback (most recent call last):");
    }

    #[test]
    fn a_stamped_log_carries_the_engine_in_start_game_only() {
        let tmp = tempfile::tempdir().unwrap();
        let stamp = EngineStamp {
            version: "9.8.7".into(),
            commit: "0123456789ab".into(),
            rules: "tenhou".into(),
            clock: "mjai-app 2s+0s".into(),
            runtime: "docker".into(),
        };
        let mut logs = LogDir::create(tmp.path()).unwrap().with_engine(&stamp);
        let start: Event =
            serde_json::from_str(r#"{"type":"start_game","names":["0","1","2","3"],"seed":[7,8]}"#).unwrap();
        logs.on_events(&[start.clone(), Event::EndGame]).unwrap();
        let text = fs::read_to_string(tmp.path().join("mjai_log.json")).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            r#"{"type":"start_game","names":["0","1","2","3"],"seed":[7,8],"meta":{"engine":{"version":"9.8.7","commit":"0123456789ab","rules":"tenhou","clock":"mjai-app 2s+0s","runtime":"docker"}}}"#
        );
        assert_eq!(lines[1], r#"{"type":"end_game"}"#);
        // the engine reads the stamped line back as the same event
        assert_eq!(serde_json::from_str::<Event>(lines[0]).unwrap(), start);
        assert_eq!(with_meta("{}", "1"), r#"{"meta":1}"#);
    }

    #[test]
    fn stdout_logs_stop_at_the_cap_with_one_marker() {
        let tmp = tempfile::tempdir().unwrap();
        let mut logs = LogDir::create(tmp.path()).unwrap().with_stdout_cap(40);
        for _ in 0..10 {
            logs.on_answer(1, r#"{"type":"none"}"#).unwrap(); // 16 bytes with its newline
        }
        let text = fs::read_to_string(tmp.path().join("player_logs.1.stdout.txt")).unwrap();
        assert_eq!(text, format!("{0}\n{0}\n{1}", r#"{"type":"none"}"#, stdout_truncation_marker(40)));
    }

    #[test]
    fn a_restart_marks_every_stderr_log_with_the_kyoku() {
        let tmp = tempfile::tempdir().unwrap();
        let mut logs = LogDir::create(tmp.path()).unwrap();
        fs::write(tmp.path().join("player_logs.2.stderr.txt"), "Traceback: boom\n").unwrap();
        let names = ["0", "1", "2", "3"].map(String::from);
        let config = mjai_sim_engine::game::GameConfig { seed: [1, 0], names, start: Default::default() };
        let log = mjai_sim_engine::game::Game::new(config).log().to_vec();
        logs.on_events(&log).unwrap();
        logs.on_restart(3).unwrap();
        let text = fs::read_to_string(tmp.path().join("player_logs.2.stderr.txt")).unwrap();
        assert_eq!(text, "Traceback: boom\n\n[mjai-sim: restart 3: the bots start again at kyoku E1-0]\n");
    }

    #[test]
    fn unwritable_folder_names_the_path() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("plain-file");
        fs::write(&file, "x").unwrap();
        let err = LogDir::create(&file.join("sub")).err().expect("a file cannot hold a folder");
        assert!(err.to_string().contains("plain-file"), "{err}");
    }
}
