//! `mjai-sim export-games --db URL --tournament ID DIR`: writes every finished game's
//! files from the database as the main job writes them: `DIR/games/<index>/mjai_log.json`,
//! `summary.json`, `errors.json` and `game.html` (the viewer; `--no-html` skips it). Bots'
//! stdout/stderr logs are not stored in the database and are not written.

use std::path::PathBuf;

use anyhow::{bail, Context};

use crate::tournament::runner::game_dir;
use crate::tournament::store::Store;

/// Arguments of `mjai-sim export-games`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The database holding the tournament (postgres://USER:PASS@HOST:PORT/NAME).
    #[arg(long, value_name = "URL")]
    pub db: String,
    /// The tournament's id (printed when it was created).
    #[arg(long, value_name = "ID")]
    pub tournament: String,
    /// Don't write game.html in each game's folder.
    #[arg(long)]
    pub no_html: bool,
    /// Output folder (games go to DIR/games/<index>/).
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
}

/// Writes the games; returns the exit code.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(async {
        let db = Store::open_url(&args.db, 2).await?;
        let Some(store) = db.tournament(&args.tournament).await? else {
            bail!("{}: no tournament {} (the id is printed by `mjai-sim tournament --db`)", db.name(), args.tournament)
        };
        let games = store.blobs().games_with_files().await?;
        for index in &games {
            let Some(files) = store.blobs().game_files(*index).await? else { continue };
            let dir = game_dir(&args.dir, *index);
            std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
            let log = files.log().with_context(|| format!("game {index}: the stored log is damaged"))?;
            for (name, bytes) in [
                ("mjai_log.json", log),
                ("summary.json", files.summary.into_bytes()),
                ("errors.json", files.errors.into_bytes()),
            ] {
                std::fs::write(dir.join(name), bytes)
                    .with_context(|| format!("cannot write {} (check free space)", dir.join(name).display()))?;
            }
            if !args.no_html {
                if let Err(e) = crate::arena::game_html::write_game_html(&dir) {
                    tracing::warn!("game {index}: cannot write game.html: {e:#}");
                }
            }
        }
        store.close().await;
        eprintln!(
            "mjai-sim: {} game(s) of tournament {} written to {}",
            games.len(),
            args.tournament,
            args.dir.display()
        );
        Ok(0)
    })
}
