//! `mjai-sim serve season open|freeze|final|show`: a grading server's league's seasons
//! (issue 54), on the store the running `serve` uses (same `--db`, `--league`).
//!
//! - `open NAME --freeze TIME`: a season whose freeze stops uploads at TIME (a time passed:
//!   at once);
//! - `freeze NAME`: freeze it now;
//! - `final NAME (--top N | --all) --sets K`: its final's tournament, written beside the
//!   league and played by the running server (or, with `--play`, here in the foreground,
//!   until its last game, then its standings frozen). Bots played over a connection
//!   (`remote`, `riichilab`) are left out here (they connect to the server's hub; the admin
//!   API's `POST /api/seasons/{name}/final` on a server that plays takes them);
//! - `show NAME`: one fact a line (`--json`: `GET /api/seasons/NAME`'s JSON).
//!
//! Errors: one line naming the cause and the fix; exit status 1.

use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Context};

use super::league_store::league_named;
use super::progress::Progress;
use super::serve_author::{open, StoreArg};
use super::shutdown::Shutdown;
use crate::serve::season_view::view;
use crate::tournament::leaderboard::utc;
use crate::tournament::session::season::{begin_final, check_name, now_ms, play_final, Entrants, FinalAsk};
use crate::tournament::session::worker::incarnation;
use crate::tournament::session::PlayOptions;
use crate::tournament::store::{Opened, SeasonStatus, Store};

/// `serve season ...`.
#[derive(Debug, clap::Subcommand)]
pub enum SeasonCommand {
    /// Open a season: uploads stop at its freeze time.
    Open(OpenArgs),
    /// Freeze a season now: uploads stop.
    Freeze(SeasonArgs),
    /// Ask for a frozen season's final: the top N (or all) active bots play K duplicate sets each.
    Final(FinalArgs),
    /// Show a season: one fact a line (--json: the API's JSON).
    Show(ShowArgs),
}

/// The season and where it is.
#[derive(Debug, clap::Args)]
pub struct SeasonArgs {
    /// The season's name (letters, digits, `-_.`).
    #[arg(value_name = "NAME")]
    pub name: String,
    /// The league (as for `serve`).
    #[arg(long, value_name = "NAME", default_value = "league")]
    pub league: String,
    /// The store.
    #[command(flatten)]
    pub store: StoreArg,
}

/// Arguments of `serve season open`.
#[derive(Debug, clap::Args)]
pub struct OpenArgs {
    /// The season.
    #[command(flatten)]
    pub season: SeasonArgs,
    /// When uploads stop: RFC 3339 (2026-12-31T12:00:00Z) or YYYY-MM-DD (midnight UTC).
    #[arg(long, value_name = "TIME")]
    pub freeze: String,
}

/// Arguments of `serve season final`.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("who").required(true).args(["top", "all"])))]
pub struct FinalArgs {
    /// The season.
    #[command(flatten)]
    pub season: SeasonArgs,
    /// The leaderboard's top N active bots play.
    #[arg(long, value_name = "N")]
    pub top: Option<u32>,
    /// Every active bot plays.
    #[arg(long)]
    pub all: bool,
    /// Duplicate sets each bot plays.
    #[arg(long, value_name = "K")]
    pub sets: u32,
    /// Play the final here, in the foreground, then freeze its standings (when no server
    /// plays the league; a running server plays it otherwise).
    #[arg(long)]
    pub play: bool,
    /// Games played at once with --play.
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub jobs: usize,
}

/// Arguments of `serve season show`.
#[derive(Debug, clap::Args)]
pub struct ShowArgs {
    /// The season.
    #[command(flatten)]
    pub season: SeasonArgs,
    /// The season as `GET /api/seasons/NAME` answers it.
    #[arg(long)]
    pub json: bool,
}

/// Runs one season command; returns the exit code (errors: one line).
pub async fn run(command: SeasonCommand) -> anyhow::Result<i32> {
    let season = match &command {
        SeasonCommand::Open(a) => &a.season,
        SeasonCommand::Freeze(a) => a,
        SeasonCommand::Final(a) => &a.season,
        SeasonCommand::Show(a) => &a.season,
    };
    check_name(&season.name).map_err(|e| anyhow::anyhow!("season `{}`: {e}", season.name.escape_debug()))?;
    let db = open(&season.store).await?;
    let result = async {
        let league = league_named(&db, &season.league).await?;
        match &command {
            SeasonCommand::Open(a) => open_season(&league, a).await,
            SeasonCommand::Freeze(a) => freeze(&league, a).await,
            SeasonCommand::Final(a) => final_round(&league, a).await,
            SeasonCommand::Show(a) => show(&league, a).await,
        }
    }
    .await;
    db.close().await;
    result
}

async fn open_season(league: &Store, a: &OpenArgs) -> anyhow::Result<i32> {
    let name = &a.season.name;
    let freeze_ms = utc::parse(a.freeze.trim()).with_context(|| {
        format!("--freeze `{}` is not a time: give RFC 3339 (2026-12-31T12:00:00Z) or YYYY-MM-DD", a.freeze)
    })?;
    let now = now_ms();
    match league.seasons().open(name, freeze_ms, now).await? {
        Opened::Opened => {}
        Opened::NameTaken => bail!("season {name} exists in league {}; choose another NAME", a.season.league),
        Opened::AnotherOpen { name: other, freeze_ms } => bail!(
            "season {other} is open until {}: freeze it first (`mjai-sim serve season freeze {other}`)",
            utc::rfc3339(freeze_ms)
        ),
    }
    let when = match freeze_ms <= now {
        true => "frozen at once (its freeze time has passed): uploads stop now".to_string(),
        false => format!("uploads stop at {}", utc::rfc3339(freeze_ms)),
    };
    eprintln!("mjai-sim: season {name} opened in league {}; {when}", a.season.league);
    Ok(0)
}

async fn freeze(league: &Store, a: &SeasonArgs) -> anyhow::Result<i32> {
    let Some(row) = league.seasons().freeze(&a.name, now_ms()).await? else {
        bail!("no season named {} in league {}; `season open NAME --freeze TIME` opens one", a.name, a.league)
    };
    eprintln!("mjai-sim: season {} frozen at {}: uploads are refused", a.name, utc::rfc3339(row.freeze_ms));
    Ok(0)
}

async fn final_round(league: &Store, a: &FinalArgs) -> anyhow::Result<i32> {
    let entrants = match a.top {
        Some(n) => Entrants::Top(n),
        None => Entrants::All,
    };
    let name = &a.season.name;
    // remote bots connect to the server's hub, which this process has not
    let ask = FinalAsk { entrants, sets: a.sets, remote: false };
    let begun = begin_final(league, name, ask, now_ms()).await?;
    println!("{}", begun.tid);
    eprintln!(
        "mjai-sim: season {name}'s final: {} bots ({}), {} games",
        begun.bots.len(),
        begun.bots.join(", "),
        begun.games
    );
    for (bot, why) in &begun.left_out {
        eprintln!("mjai-sim: left out: {bot}: {why}");
    }
    if !a.play {
        eprintln!("mjai-sim: a running `mjai-sim serve` on this store plays it (or give --play to play it here)");
        return Ok(0);
    }
    if a.jobs == 0 {
        bail!("--jobs is at least 1 with --play");
    }
    let row = league.seasons().get(name).await?.with_context(|| format!("season {name} vanished"))?;
    let work = tempfile::Builder::new().prefix("mjai-sim-final-").tempdir().context("cannot create a work folder")?;
    let opts = PlayOptions {
        jobs: Some(a.jobs),
        worker: incarnation(&format!("final-{}", std::process::id())),
        tag: None,
        lease: Duration::from_secs(30),
        work_dir: work.path().to_path_buf(),
        db_patience: Duration::from_secs(60),
        remote: None,
        cache: None,
    };
    let shutdown = Shutdown::install()?;
    let frozen = play_final(league, &row, &opts, Arc::new(Progress::lines()), shutdown.stop()).await?;
    match frozen {
        Some(s) => {
            let leader = s.leader().map(|l| l.name).unwrap_or_default();
            eprintln!("mjai-sim: season {name}'s final played ({} games); standings frozen; first: {leader}", s.games);
            Ok(0)
        }
        None => {
            eprintln!("mjai-sim: stopped; the final's games left are played by a running server or the next --play");
            Ok(shutdown.exit_code().unwrap_or(1))
        }
    }
}

async fn show(league: &Store, a: &ShowArgs) -> anyhow::Result<i32> {
    let name = &a.season.name;
    let Some(row) = league.seasons().get(name).await? else {
        bail!("no season named {name} in league {}; `season open NAME --freeze TIME` opens one", a.season.league)
    };
    let v = view(league, &row).await?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(0);
    }
    let status = match v.status {
        SeasonStatus::Open => "open",
        SeasonStatus::Frozen => "frozen",
        SeasonStatus::Final => "final",
    };
    println!("name: {}", v.name);
    println!("league: {}", v.league);
    println!("status: {status}");
    println!("opened_at: {}", v.opened_at);
    println!("freeze_at: {}", v.freeze_at);
    if let Some(f) = &v.final_round {
        let who = f.top.map_or_else(|| "all".to_string(), |n| format!("top {n}"));
        println!("final: {who}, {} set(s) each, {} bots: {}", f.sets, f.bots.len(), f.bots.join(", "));
        println!("final_games: {} of {} played", f.played, f.games);
    }
    match &v.frozen_at {
        Some(at) => println!("frozen_at: {at}"),
        None if v.final_round.is_some() => println!("frozen_at: not yet (when the final's last game is recorded)"),
        None => {}
    }
    for (i, b) in v.final_standings.iter().flatten().enumerate() {
        let fixed = |x: Option<f64>| x.map_or_else(|| "-".to_string(), |v| format!("{v:.3}"));
        println!(
            "standing {}: {} games {} mean_rank {} mean_pt {}",
            i + 1,
            b.name,
            b.games,
            fixed(b.avg_rank),
            fixed(b.avg_pt)
        );
    }
    Ok(0)
}
