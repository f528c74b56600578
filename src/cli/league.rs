//! `mjai-sim league add|retire --db URL --tournament ID ...`: the bots of a league (a
//! tournament created with `--sets 0`), changed while workers play it.
//!
//! - `add NAME BOT`: intake first (a refused bot never enters: nothing is written); a zip's
//!   bytes go into the database by sha256 with the bot, which gets the next index. Workers
//!   load it at their next round; the scheduler seats it at every table until it has as
//!   many games as the others.
//! - `retire NAME`: the bot is never scheduled again and its pending games are cancelled;
//!   games already claimed finish and count, and the standings keep it, marked retired.
//!
//! Each prints one line on stdout saying what happened. Exit status 0, or 1 with a one-line
//! error (no such tournament, not a league, a refused bot, a name taken or unknown).

use anyhow::{bail, Context};

use crate::arena::launch::BotSpec;
use crate::tournament::session::{NewBot, Session};
use crate::tournament::store::{AddBot, Retire};

/// Arguments of `mjai-sim league`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// What to do.
    #[command(subcommand)]
    pub action: Action,
}

/// `league add` or `league retire`.
#[derive(Debug, clap::Subcommand)]
pub enum Action {
    /// Add a bot to a league (intake checks first; a refused bot never enters).
    Add(AddArgs),
    /// Stop scheduling a bot of a league (its games stay counted).
    Retire(RetireArgs),
}

/// The league.
#[derive(Debug, clap::Args)]
pub struct Target {
    /// The database holding the league (postgres://USER:PASS@HOST:PORT/NAME, or sqlite:PATH).
    #[arg(long, value_name = "URL")]
    pub db: String,
    /// The league's tournament id (printed when it was created).
    #[arg(long, value_name = "ID")]
    pub tournament: String,
}

/// Arguments of `league add`.
#[derive(Debug, clap::Args)]
pub struct AddArgs {
    /// The league.
    #[command(flatten)]
    pub target: Target,
    /// The new bot's name, unique in the league.
    #[arg(value_name = "NAME")]
    pub name: String,
    /// The bot: a .zip holding bot.py, or builtin:NAME.
    #[arg(value_name = "BOT")]
    pub bot: String,
}

/// Arguments of `league retire`.
#[derive(Debug, clap::Args)]
pub struct RetireArgs {
    /// The league.
    #[command(flatten)]
    pub target: Target,
    /// The bot's name.
    #[arg(value_name = "NAME")]
    pub name: String,
}

/// Runs `league add` or `league retire`; returns the exit code.
pub fn run(args: Args) -> anyhow::Result<i32> {
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(async {
        match args.action {
            Action::Add(a) => add(a).await,
            Action::Retire(r) => retire(r).await,
        }
    })
}

/// The league. Errors: no such tournament, or not a league.
async fn open(target: &Target) -> anyhow::Result<Session> {
    let session = Session::open_in_db(&target.db, &target.tournament, 2).await?;
    if !session.config().is_league() {
        bail!(
            "tournament {} has a fixed schedule ({} sets); only a league (created with --sets 0) takes bots in and out",
            session.id(),
            session.config().sets
        );
    }
    Ok(session)
}

async fn add(a: AddArgs) -> anyhow::Result<i32> {
    let name = a.name.trim().to_string();
    if name.is_empty() || name.contains(['\n', '\r']) {
        bail!("league add: `{}` is not a name; give the bot a one-line name, e.g. alice", a.name.escape_debug());
    }
    let spec: BotSpec = a.bot.parse().map_err(|e: String| anyhow::anyhow!("{name}: {e}"))?;
    if let BotSpec::Submission(path) = &spec {
        if path.is_dir() {
            bail!(
                "{name}: a league's submission must be a .zip (workers read it from the database): zip it with `cd {} && zip -r ../{name}.zip .`",
                path.display()
            );
        }
    }
    let session = open(&a.target).await?;
    let bot = match &spec {
        BotSpec::Submission(path) => NewBot::Zip {
            bytes: std::fs::read(path).with_context(|| format!("{name}: cannot read {}", path.display()))?,
            origin: spec.to_string(),
        },
        BotSpec::Builtin(builtin) => NewBot::Builtin(builtin.clone()),
        BotSpec::Remote(_) | BotSpec::RiichiDev(_) => {
            bail!("{name}: a league cannot hold a remote bot (its games run on workers)")
        }
    };
    let (added, row) = session.add_bot(&name, &bot).await?; // intake before any write
    let tid = session.id().to_string();
    session.close().await;
    match added {
        AddBot::Added { idx } => {
            println!("added {name} ({}) to league {tid} as bot {idx}; workers load it at their next round", row.spec);
            Ok(0)
        }
        AddBot::NameTaken => {
            bail!("league {tid} already has a bot named {name}; choose another NAME (nothing was added)")
        }
    }
}

async fn retire(r: RetireArgs) -> anyhow::Result<i32> {
    let session = open(&r.target).await?;
    let name = r.name.trim();
    let done = session.retire(name).await?;
    let tid = session.id().to_string();
    let seats = session.config().players().count();
    session.close().await;
    match done {
        Retire::Retired { idx, cancelled, active } => println!(
            "retired {name} (bot {idx}) from league {tid}: {cancelled} pending game(s) cancelled; games in play finish \
             and count{}",
            match active < seats {
                true => format!(
                    "; {active} active bot(s) left, fewer than {seats}: the league idles until bots are added"
                ),
                false => String::new(),
            }
        ),
        Retire::Already { idx } => println!("{name} (bot {idx}) was retired from league {tid} before; nothing changed"),
        Retire::Unknown => bail!(
            "league {tid} has no bot named {name}; `mjai-sim standings --db URL --tournament {tid}` lists its bots"
        ),
    }
    Ok(0)
}
