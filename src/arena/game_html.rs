//! `game.html` beside a game's files: the main job writes it after each game (unless
//! `--no-html`), tournaments after each of theirs, `mjai-sim view` on demand. Reads the
//! folder's files and hands them to the pure [`mjai_sim_viewer`].

use std::path::{Path, PathBuf};

use anyhow::Context;

use mjai_sim_viewer::{render_game, GameInput};

/// Bytes of each seat's stderr log shown with a chombo (the end of the file).
pub const STDERR_TAIL_BYTES: u64 = 4096;

/// The viewer page of the game whose log is `log`, with `errors.json` and the seats'
/// `player_logs.{SEAT}.stderr.txt` of `dir` when present. Errors (one line): the log cannot
/// be read or is not an mjai log.
pub fn game_page(dir: &Path, log: &Path, title: String) -> anyhow::Result<String> {
    let text = std::fs::read_to_string(log)
        .with_context(|| format!("cannot read {} (give a game folder or an mjai log)", log.display()))?;
    let errors = std::fs::read_to_string(dir.join("errors.json")).ok();
    let stderr_tails = std::array::from_fn(|s| tail(&dir.join(format!("player_logs.{s}.stderr.txt"))));
    let input = GameInput { title, log: &text, errors_json: errors.as_deref(), stderr_tails };
    render_game(&input).with_context(|| log.display().to_string())
}

/// Writes `dir/game.html` for the game in `dir` (its `mjai_log.json`, `errors.json`,
/// stderr logs); returns its path. Errors (one line): as [`game_page`], or the page cannot
/// be written.
pub fn write_game_html(dir: &Path) -> anyhow::Result<PathBuf> {
    let out = dir.join("game.html");
    let title = dir.file_name().map_or_else(|| dir.display().to_string(), |n| n.to_string_lossy().into_owned());
    let html = game_page(dir, &dir.join("mjai_log.json"), title)?;
    std::fs::write(&out, html).with_context(|| format!("cannot write {}", out.display()))?;
    Ok(out)
}

/// The last [`STDERR_TAIL_BYTES`] of a file (lossy UTF-8), when it exists and is not empty.
fn tail(path: &Path) -> Option<String> {
    use std::io::{Read, Seek, SeekFrom};
    let mut f = std::fs::File::open(path).ok()?;
    let len = f.metadata().ok()?.len();
    if len == 0 {
        return None;
    }
    f.seek(SeekFrom::Start(len.saturating_sub(STDERR_TAIL_BYTES))).ok()?;
    let mut buf = Vec::new();
    f.read_to_end(&mut buf).ok()?;
    Some(String::from_utf8_lossy(&buf).into_owned())
}
