//! `mjai-sim serve void`: the operator annuls recorded games of a grading server's league
//! (issue 54), by id, by bot version, by the time they finished or by the engine version
//! that played them. The games stay listed, marked with the reason; standings and ratings
//! are folded again without them at once (the running server shows them at its next read).
//! Prints the ids voided, one per line, on stdout.

use anyhow::{bail, Context};

use super::league_store::{bot_version, LeagueAt};
use super::serve_author::open;
use crate::tournament::leaderboard::utc;
use crate::tournament::store::VoidSelector;

/// Arguments of `serve void`: exactly one selector, and the reason.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("which").required(true).args(["game", "version", "from", "engine"])))]
pub struct VoidArgs {
    /// A game, by its id (as `/api/games/ID` names it); repeat it for more.
    #[arg(long, value_name = "ID")]
    pub game: Vec<u64>,
    /// Every game a bot's version played, as `BOT/V` (`alice-bot/2`).
    #[arg(long, value_name = "BOT/V")]
    pub version: Option<String>,
    /// Every game finished at or after this time (RFC 3339 or `YYYY-MM-DD`, UTC), with --to.
    #[arg(long, value_name = "TIME", requires = "to")]
    pub from: Option<String>,
    /// ... and before this time.
    #[arg(long, value_name = "TIME", requires = "from")]
    pub to: Option<String>,
    /// Every game played by this mjai-sim version (`meta.engine.version` of its log).
    #[arg(long, value_name = "VERSION")]
    pub engine: Option<String>,
    /// Why (shown beside each voided game, to everyone).
    #[arg(long, value_name = "TEXT")]
    pub reason: String,
    /// The league and its store.
    #[command(flatten)]
    pub at: LeagueAt,
}

/// Runs `serve void`; returns the exit code (errors: one line).
pub async fn run(a: VoidArgs) -> anyhow::Result<i32> {
    let reason = a.reason.trim();
    if reason.is_empty() || reason.len() > 500 || reason.contains(['\n', '\r']) {
        bail!("--reason must be one line of 1 to 500 bytes: it is shown beside each voided game");
    }
    let db = open(&a.at.store).await?;
    let result = async {
        let store = a.at.league(&db).await?;
        let selector = selector(&a, &store).await?;
        let voided = store.voids().void(&selector, reason).await?;
        anyhow::Ok(voided)
    }
    .await;
    db.close().await;
    let voided = result?;
    for id in &voided {
        println!("{id}");
    }
    eprintln!(
        "mjai-sim: {} game(s) voided ({reason}); standings and ratings were folded again without them",
        voided.len()
    );
    Ok(0)
}

/// The games `a` names.
async fn selector(a: &VoidArgs, store: &crate::tournament::store::Store) -> anyhow::Result<VoidSelector> {
    if !a.game.is_empty() {
        return Ok(VoidSelector::Games(a.game.clone()));
    }
    if let Some(engine) = &a.engine {
        return Ok(VoidSelector::Engine(engine.clone()));
    }
    if let (Some(from), Some(to)) = (&a.from, &a.to) {
        let at = |t: &str| utc::parse(t).with_context(|| format!("`{t}` is not a time: give RFC 3339 or YYYY-MM-DD"));
        let (from_ms, to_ms) = (at(from)?, at(to)?);
        if from_ms >= to_ms {
            bail!("--from must be before --to");
        }
        return Ok(VoidSelector::Finished { from_ms, to_ms });
    }
    let Some(spec) = &a.version else { bail!("give --game, --version, --from/--to or --engine") };
    let (name, v) = bot_version(spec).map_err(|e| anyhow::anyhow!("--version {e}"))?;
    let versions = store.versions().of(name).await?;
    let Some(row) = versions.iter().find(|r| r.version == v) else {
        bail!("no version {v} of a bot named {}; `GET /api/bots/{name}` lists its versions", name.escape_debug());
    };
    match row.bot_idx {
        Some(idx) => Ok(VoidSelector::Bot(idx)),
        None => bail!("{name} v{v} never played in the league (it was not admitted): nothing to void"),
    }
}
