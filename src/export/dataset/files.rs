//! Finding mjai logs under paths and reading them (plain or gzipped).

use std::io::Read;
use std::path::{Path, PathBuf};

use mjai_sim_engine::event::{parse_log, Event};

/// The log file names a folder is searched for.
pub const LOG_NAMES: [&str; 2] = ["mjai_log.json", "mjai_log.json.gz"];

/// The logs under `paths`, in order: a file is taken as it is; a folder is searched
/// recursively for [`LOG_NAMES`] (a game folder, a selfplay `--logs-dir`, a tournament
/// folder), in path order. Errors: a path that does not exist, a folder that cannot be read.
pub fn find(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for p in paths {
        let meta =
            std::fs::metadata(p).map_err(|e| format!("{}: {e} (give a log file or a folder of games)", p.display()))?;
        if meta.is_dir() {
            let mut found = Vec::new();
            search(p, &mut found)?;
            found.sort();
            out.extend(found);
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

fn search(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("cannot read the folder {}: {e}", dir.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("cannot read the folder {}: {e}", dir.display()))?;
        let path = entry.path();
        let kind = entry.file_type().map_err(|e| format!("{}: {e}", path.display()))?;
        if kind.is_dir() {
            search(&path, out)?;
        } else if LOG_NAMES.iter().any(|n| entry.file_name() == *n) {
            out.push(path);
        }
    }
    Ok(())
}

/// Why a file gives no events.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unreadable {
    /// It cannot be read or decompressed.
    Io(String),
    /// Line `line` (from 1) is not an mjai event.
    Line {
        /// The line's number, from 1.
        line: usize,
        /// The parser's message.
        cause: String,
    },
}

/// Reads the mjai log at `path`: one JSON event per line, gzipped when the file starts
/// with gzip's magic bytes (whatever its name).
pub fn read(path: &Path) -> Result<Vec<Event>, Unreadable> {
    let bytes = std::fs::read(path).map_err(|e| Unreadable::Io(e.to_string()))?;
    let text = if bytes.starts_with(&[0x1f, 0x8b]) {
        let mut s = String::new();
        flate2::read::MultiGzDecoder::new(&bytes[..])
            .read_to_string(&mut s)
            .map_err(|e| Unreadable::Io(format!("not a readable gzip file: {e}")))?;
        s
    } else {
        String::from_utf8(bytes).map_err(|e| Unreadable::Io(format!("not UTF-8 text: {e}")))?
    };
    parse_log(&text).map_err(|e| Unreadable::Line { line: e.line, cause: e.cause })
}
