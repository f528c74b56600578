//! `mjai-sim serve suspend BOT/V --reason TEXT` and `mjai-sim serve unsuspend BOT/V`: the
//! operator takes a version out of its league with a reason its author reads (on the bot's
//! page, `/me` and `GET /api/bots/{name}`), or brings a suspended one back (issue 54). Its
//! games stay counted; a running server schedules it again at its next top-up. One line on
//! stderr says what was done.

use anyhow::bail;

use super::league_store::{bot_version, LeagueAt};
use super::serve_author::open;
use crate::tournament::leaderboard::BotStatus;
use crate::tournament::store::{Store, Unsuspend, VersionRow};

/// Arguments of `serve suspend`.
#[derive(Debug, clap::Args)]
pub struct SuspendArgs {
    /// The version, as `BOT/V` (`alice-bot/2`).
    #[arg(value_name = "BOT/V")]
    pub version: String,
    /// Why: shown to its author (one line).
    #[arg(long, value_name = "TEXT")]
    pub reason: String,
    /// The league and its store.
    #[command(flatten)]
    pub at: LeagueAt,
}

/// Arguments of `serve unsuspend`.
#[derive(Debug, clap::Args)]
pub struct UnsuspendArgs {
    /// The version, as `BOT/V` (`alice-bot/2`).
    #[arg(value_name = "BOT/V")]
    pub version: String,
    /// The league and its store.
    #[command(flatten)]
    pub at: LeagueAt,
}

/// Runs `serve suspend`; returns the exit code (errors: one line).
pub async fn suspend(a: SuspendArgs) -> anyhow::Result<i32> {
    let reason = a.reason.trim();
    if reason.is_empty() || reason.len() > 500 || reason.contains(['\n', '\r']) {
        bail!("--reason must be one line of 1 to 500 bytes: its author reads it");
    }
    let (name, v) = bot_version(&a.version)?;
    let db = open(&a.at.store).await?;
    let result = async {
        let store = a.at.league(&db).await?;
        let row = row(&store, name, v).await?;
        if row.author.is_none() {
            bail!("{name} is a house bot: retire it from the command line of `serve` instead");
        }
        if row.status != BotStatus::Active {
            bail!("{name} v{v} is {}, not active: only an active version is suspended", status_word(row.status));
        }
        let why = format!("suspended by the operator: {reason}");
        if !store.versions().suspend(&row, &why).await? {
            bail!("{name} v{v} stopped being active meanwhile: nothing suspended");
        }
        tracing::info!(target: "mjai_sim::audit", event = "suspend", bot = %name, version = v, reason = %why, "bot suspended by the operator");
        Ok(())
    }
    .await;
    db.close().await;
    result?;
    eprintln!("mjai-sim: {name} v{v} suspended; its author reads: suspended by the operator: {reason}");
    Ok(0)
}

/// Runs `serve unsuspend`; returns the exit code (errors: one line).
pub async fn unsuspend(a: UnsuspendArgs) -> anyhow::Result<i32> {
    let (name, v) = bot_version(&a.version)?;
    let db = open(&a.at.store).await?;
    let result = async {
        let store = a.at.league(&db).await?;
        match store.versions().unsuspend(name, v).await? {
            Unsuspend::Done => Ok(()),
            Unsuspend::Unknown => {
                bail!("no version {v} of a bot named {name}; `GET /api/bots/{name}` lists its versions")
            }
            Unsuspend::NotSuspended(status) => bail!("{name} v{v} is {}, not suspended", status_word(status)),
            Unsuspend::Newer(newer) => {
                bail!("{name} has a newer version, v{newer}: v{v} stays suspended (its author plays v{newer})")
            }
        }
    }
    .await;
    db.close().await;
    result?;
    eprintln!("mjai-sim: {name} v{v} is active again and back in the league's schedule");
    Ok(0)
}

/// Version `v` of `name`. Errors: no such version.
async fn row(store: &Store, name: &str, v: u32) -> anyhow::Result<VersionRow> {
    let versions = store.versions().of(name).await?;
    match versions.into_iter().find(|r| r.version == v) {
        Some(row) => Ok(row),
        None => {
            bail!("no version {v} of a bot named {}; `GET /api/bots/{name}` lists its versions", name.escape_debug())
        }
    }
}

/// A status as the API spells it (`active`, `suspended`, ...).
fn status_word(status: BotStatus) -> String {
    format!("{status:?}").to_lowercase()
}
