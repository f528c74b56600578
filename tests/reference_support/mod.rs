//! The reference logs in `tests/data/` (games played by mjai.app's engine, see
//! `tests/data/README.md`), read from their xz-compressed tar archives.

#![allow(dead_code)]

use std::io::Read;
use std::path::{Path, PathBuf};

use mjai_sim::engine::event::Event;

/// The 100 hanchans of `tests/data/mortal-arena-100.tar.xz`.
pub fn mortal_arena_100() -> Vec<(String, Vec<Event>)> {
    games_in(&data("mortal-arena-100.tar.xz"))
}

/// The 40 call-heavy hanchans of `tests/data/libriichi-arena-callers-40.tar.xz`.
pub fn libriichi_callers_40() -> Vec<(String, Vec<Event>)> {
    games_in(&data("libriichi-arena-callers-40.tar.xz"))
}

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name)
}

/// Every `.jsonl` log in an xz-compressed tar, sorted by name.
pub fn games_in(path: &Path) -> Vec<(String, Vec<Event>)> {
    let file = std::fs::File::open(path)
        .unwrap_or_else(|e| panic!("cannot open {} ({e}): the fixture is part of the repository", path.display()));
    let mut tar_bytes = Vec::new();
    lzma_rs::xz_decompress(&mut std::io::BufReader::new(file), &mut tar_bytes).expect("valid xz archive");
    let mut out = Vec::new();
    let mut ar = tar::Archive::new(&tar_bytes[..]);
    for entry in ar.entries().expect("tar entries") {
        let mut entry = entry.expect("tar entry");
        let name = entry.path().expect("entry path").display().to_string();
        if !name.ends_with(".jsonl") {
            continue;
        }
        let mut text = String::new();
        entry.read_to_string(&mut text).expect("utf-8 log");
        let events = text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .enumerate()
            .map(|(i, l)| serde_json::from_str(l).unwrap_or_else(|e| panic!("{name} line {}: {e}", i + 1)))
            .collect();
        out.push((name, events));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}
