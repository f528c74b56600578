//! `mjai-sim report DIR`: `DIR/report.html` for a tournament folder (`DIR/standings.json`,
//! games in `DIR/games/<game id>/`).

use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::pages::report::{parse_standings, render_report, GameLink};

/// Arguments of `report`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Tournament folder holding standings.json (and games/<game id>/).
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// Output file [default: DIR/report.html].
    #[arg(short, long, value_name = "FILE.html")]
    pub output: Option<PathBuf>,
}

/// Runs `report`; prints the page's path.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let out = args.output.clone().unwrap_or_else(|| args.dir.join("report.html"));
    write_report(&args.dir, &out)?;
    println!("{}", out.display());
    Ok(0)
}

/// Writes the report of the tournament in `dir` to `out`. Errors (one line): no or bad
/// `standings.json`, unwritable output.
pub fn write_report(dir: &Path, out: &Path) -> anyhow::Result<()> {
    let path = dir.join("standings.json");
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read {} (give a tournament folder)", path.display()))?;
    let standings = parse_standings(&text).with_context(|| path.display().to_string())?;
    let title = dir.canonicalize().ok().and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()));
    let html = render_report(&title.unwrap_or_else(|| "tournament".into()), &standings, &game_links(dir));
    std::fs::write(out, html).with_context(|| format!("cannot write {} (choose another with -o)", out.display()))
}

/// The part of a game's `summary.json` the report lists (one entry per seat: four, or
/// three in a three-player game).
#[derive(serde::Deserialize)]
struct GameSummary {
    bots: Vec<String>,
    rank: Vec<u8>,
}

/// Bot and rank of each seat from `summary.json` in `game`; empty when it is missing or
/// unreadable (the game is still listed).
fn seats_of(game: &Path) -> Vec<(String, u8)> {
    let Ok(text) = std::fs::read_to_string(game.join("summary.json")) else { return Vec::new() };
    match serde_json::from_str::<GameSummary>(&text) {
        Ok(s) => s.bots.into_iter().zip(s.rank).collect(),
        Err(_) => Vec::new(),
    }
}

/// Every game folder under `dir/games/`, sorted by id, linked to its `game.html` (or its log
/// when the page was not written), with its bots and ranks.
fn game_links(dir: &Path) -> Vec<GameLink> {
    let Ok(entries) = std::fs::read_dir(dir.join("games")) else { return Vec::new() };
    let mut ids: Vec<String> = entries
        .filter_map(Result::ok)
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    ids.sort();
    ids.into_iter()
        .map(|id| {
            let game = dir.join("games").join(&id);
            let page = if game.join("game.html").exists() { "game.html" } else { "mjai_log.json" };
            GameLink { href: format!("games/{id}/{page}"), seats: seats_of(&game), id }
        })
        .collect()
}
