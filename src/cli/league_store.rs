//! What the operator's commands on a server's store share (`serve void`, `serve season`,
//! `serve suspend|unsuspend`): the league they name in that store, and a bot's version
//! written `BOT/V`.

use anyhow::bail;

use super::serve_author::StoreArg;
use crate::tournament::store::{Lookup, Store};

/// `--league NAME` and `--db`: a league of a server's store.
#[derive(Debug, clap::Args)]
pub struct LeagueAt {
    /// The league (as for `serve`: one --league's NAME).
    #[arg(long, value_name = "NAME", default_value = "league")]
    pub league: String,
    /// The store.
    #[command(flatten)]
    pub store: StoreArg,
}

impl LeagueAt {
    /// The league in `db` (the store [`LeagueAt::store`] opened). Errors: as
    /// [`league_named`]'s.
    pub async fn league(&self, db: &Store) -> anyhow::Result<Store> {
        league_named(db, &self.league).await
    }
}

/// The league named `name` in `db` (any of a server's leagues: `--league NAME` as `serve`
/// was given it). Errors: no such league (one line naming the flag).
pub async fn league_named(db: &Store, name: &str) -> anyhow::Result<Store> {
    match db.lookup_beside(name).await? {
        Lookup::Found(store) => Ok(store),
        Lookup::Missing | Lookup::Occupied { .. } => {
            bail!("{}: no league named {name}; give the one `serve` runs with --league NAME", db.name())
        }
    }
}

/// `BOT/V` (`alice-bot/2`) as the bot's name and version. Errors: not of that form.
pub fn bot_version(spec: &str) -> anyhow::Result<(&str, u32)> {
    match spec.rsplit_once('/').and_then(|(n, v)| Some((n, v.parse::<u32>().ok()?))) {
        Some(found) => Ok(found),
        None => bail!("`{}` is not BOT/V (e.g. alice-bot/2)", spec.escape_debug()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_version_is_bot_slash_number() {
        assert_eq!(bot_version("alice-bot/2").unwrap(), ("alice-bot", 2));
        assert_eq!(bot_version("a/b/3").unwrap(), ("a/b", 3));
        for bad in ["alice-bot", "alice-bot/", "alice-bot/x", "alice-bot/-1"] {
            assert!(bot_version(bad).unwrap_err().to_string().contains("is not BOT/V"), "{bad}");
        }
    }
}
