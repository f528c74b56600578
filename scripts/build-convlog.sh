#!/usr/bin/env bash
# Builds mjai-reviewer's tenhou.net/6 -> mjai converter (its `convlog` crate) from source and
# installs a small command-line wrapper as target/convlog/bin/convlog (or DIR/bin/convlog).
#
#   scripts/build-convlog.sh [DIR]
#   target/convlog/bin/convlog GAME.json > GAME.mjai.jsonl   # one mjai event per line
#
# convlog is not on crates.io; its source (Equim-chan/mjai-reviewer's convlog/src, unchanged
# but for module paths) is published on PyPI in the sdist of the Python binding `convlog-rs`
# 0.3.0. The script downloads that sdist with pip (no wheel, no install), compiles only the
# Rust converter (no Python binding) with cargo into a temporary crate, and installs the
# binary. Needs: python3 with pip, cargo, network access to PyPI and crates.io.
# tests/logs/export_tenhou6.rs uses the binary for the round trip (it fails, naming the fix, when
# it is missing); scripts/test runs this script when the binary is missing.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
DEST=${1:-$ROOT/target/convlog}
VERSION=0.3.0
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

python3 -m pip download --quiet "convlog-rs==$VERSION" --no-deps --no-binary convlog-rs -d "$WORK/sdist"
tar -xzf "$WORK/sdist/convlog_rs-$VERSION.tar.gz" -C "$WORK"
SRC=$WORK/convlog_rs-$VERSION

mkdir -p "$WORK/cli/src"
cp -r "$SRC/src/convlog" "$WORK/cli/src/convlog"
cp "$SRC/Cargo.lock" "$WORK/cli/Cargo.lock"   # the versions the binding was released with
cat > "$WORK/cli/Cargo.toml" <<'TOML'
[package]
name = "convlog-cli"
version = "0.3.0"
edition = "2021"
publish = false

[dependencies]
ahash = "0.8.11"
num_enum = "0.7.3"
serde = { version = "1.0.215", features = ["derive"] }
serde_json = "1.0.132"
serde_repr = "0.1.19"
serde_tuple = "1.0.0"
serde_with = "3.11.0"
thiserror = "2.0.3"

[workspace]
TOML
cat > "$WORK/cli/src/main.rs" <<'RS'
//! convlog GAME.json: a tenhou.net/6 game as mjai events, one JSON object per line.
#[allow(dead_code, unused_imports)]
mod convlog;

use convlog::tenhou::{Log, RawLog};

fn main() {
    let path = std::env::args().nth(1).unwrap_or_else(|| fail("usage: convlog GAME.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| fail(&format!("cannot read {path}: {e}")));
    let raw: RawLog = serde_json::from_str(&text).unwrap_or_else(|e| fail(&format!("not a tenhou.net/6 log: {e}")));
    let log = Log::try_from(raw).unwrap_or_else(|e| fail(&format!("invalid log: {e}")));
    let events = convlog::tenhou_to_mjai(&log).unwrap_or_else(|e| fail(&format!("cannot convert: {e}")));
    for e in &events {
        println!("{}", serde_json::to_string(e).expect("events serialise"));
    }
}

fn fail(msg: &str) -> ! {
    eprintln!("convlog: {msg}");
    std::process::exit(1)
}
RS
cargo build --release --quiet --manifest-path "$WORK/cli/Cargo.toml" --target-dir "$WORK/target"
install -D "$WORK/target/release/convlog-cli" "$DEST/bin/convlog"
echo "installed $DEST/bin/convlog"
