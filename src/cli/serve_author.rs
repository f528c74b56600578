//! `mjai-sim serve author add|list|revoke|rotate`: the operator's commands on the authors of
//! a grading server's store (the one the running `serve` uses: same `--db`). Tokens are
//! printed once, alone on stdout; only their sha256 is kept.
//!
//! Without `--db` (or MJAI_SIM_DB, which a stack's image sets: see docs/deploy.md) the commands use `./mjai-sim-serve.sqlite` (the default of `serve`) only
//! when that file exists: otherwise an error names `--db`, rather than a new empty store
//! whose tokens the running server does not know. An explicit `--db` path is opened as
//! given (a new SQLite file is created, for adding authors before the first start).

use std::path::Path;

use anyhow::{bail, Context};

use super::db_secret::with_password_file;
use crate::serve::name::BotName;
use crate::serve::token::{new_token, token_hash};
use crate::tournament::store::Store;

/// The store `mjai-sim serve` and its author commands use without `--db`.
pub const DEFAULT_DB: &str = "mjai-sim-serve.sqlite";

/// `serve author ...`.
#[derive(Debug, clap::Subcommand)]
pub enum AuthorCommand {
    /// Add an author and print their token (once: only its hash is kept).
    Add(AuthorAdd),
    /// List the authors: name, admin, added (UTC), bots, token state.
    List(StoreArg),
    /// Revoke an author's token (their bots stay; `rotate` gives a new one).
    Revoke(AuthorName),
    /// Give an author a new token, printed once; the old one stops working.
    Rotate(AuthorName),
}

/// The store of the author commands.
#[derive(Debug, clap::Args)]
pub struct StoreArg {
    /// The store (as for `serve`) [default: ./mjai-sim-serve.sqlite, if it exists].
    #[arg(long, value_name = "URL", env = "MJAI_SIM_DB")]
    pub db: Option<String>,
}

/// Arguments of `serve author add`.
#[derive(Debug, clap::Args)]
pub struct AuthorAdd {
    /// The author's name (letters, digits, `-_.`).
    #[arg(value_name = "NAME")]
    pub name: String,
    /// May read every bot's errors and retire any bot.
    #[arg(long)]
    pub admin: bool,
    /// The store.
    #[command(flatten)]
    pub store: StoreArg,
}

/// Arguments of `serve author revoke|rotate`.
#[derive(Debug, clap::Args)]
pub struct AuthorName {
    /// The author's name.
    #[arg(value_name = "NAME")]
    pub name: String,
    /// The store.
    #[command(flatten)]
    pub store: StoreArg,
}

/// Runs one author command; returns the exit code (errors: one line).
pub async fn run(command: AuthorCommand) -> anyhow::Result<i32> {
    match command {
        AuthorCommand::Add(a) => add(a).await,
        AuthorCommand::List(s) => list(s).await,
        AuthorCommand::Revoke(a) => revoke(a).await,
        AuthorCommand::Rotate(a) => rotate(a).await,
    }
}

/// The store `--db` names, or the default file when it exists.
pub(super) async fn open(arg: &StoreArg) -> anyhow::Result<Store> {
    Ok(Store::open_url(&with_password_file(store_db(arg)?)?, 2).await?)
}

/// The store `--db` names (as given), or the default file when it exists. Errors: no
/// `--db` and no default file (one line naming `--db`).
pub(super) fn store_db(arg: &StoreArg) -> anyhow::Result<&str> {
    Ok(match &arg.db {
        Some(db) => db.as_str(),
        None if Path::new(DEFAULT_DB).is_file() => DEFAULT_DB,
        None => bail!(
            "no store at ./{DEFAULT_DB}: give the running server's store with --db URL (the same --db as `mjai-sim serve`)"
        ),
    })
}

fn token() -> anyhow::Result<String> {
    new_token().context("cannot draw a token from the system's random generator")
}

async fn add(a: AuthorAdd) -> anyhow::Result<i32> {
    let name = BotName::parse(&a.name)
        .map_err(|e| anyhow::anyhow!("author `{}`: {}", a.name.escape_debug(), e.replace("bot name", "name")))?;
    let store = open(&a.store).await?;
    let token = token()?;
    let added = store.authors().add(name.as_str(), &token_hash(&token), a.admin).await;
    store.close().await;
    if !added? {
        bail!("{}: an author named {name} exists; choose another NAME", store.name());
    }
    println!("{token}");
    eprintln!("mjai-sim: author {name}{} added; the token above is shown once", if a.admin { " (admin)" } else { "" });
    Ok(0)
}

async fn list(arg: StoreArg) -> anyhow::Result<i32> {
    let store = open(&arg).await?;
    let authors = store.authors().list().await;
    store.close().await;
    let authors = authors?;
    let width = authors.iter().map(|a| a.name.len()).max().unwrap_or(0).max(4);
    println!("{:width$}  admin  added (UTC)          bots  token", "name");
    for a in &authors {
        println!(
            "{:width$}  {:5}  {:19}  {:4}  {}",
            a.name,
            if a.admin { "yes" } else { "no" },
            a.created_at,
            a.bots,
            if a.revoked { "revoked" } else { "active" }
        );
    }
    Ok(0)
}

async fn revoke(a: AuthorName) -> anyhow::Result<i32> {
    let store = open(&a.store).await?;
    let done = store.authors().revoke(&a.name).await;
    store.close().await;
    if !done? {
        bail!("{}: no author named {}; `mjai-sim serve author list` shows them", store.name(), a.name.escape_debug());
    }
    eprintln!("mjai-sim: author {}'s token revoked (`serve author rotate` gives a new one)", a.name);
    Ok(0)
}

async fn rotate(a: AuthorName) -> anyhow::Result<i32> {
    let store = open(&a.store).await?;
    let token = token()?;
    let done = store.authors().rotate(&a.name, &token_hash(&token)).await;
    store.close().await;
    if !done? {
        bail!("{}: no author named {}; `mjai-sim serve author list` shows them", store.name(), a.name.escape_debug());
    }
    println!("{token}");
    eprintln!("mjai-sim: author {}'s new token above is shown once; the old one no longer works", a.name);
    Ok(0)
}
