//! The glue between the server and its league (through `tournament::session`): opening or
//! creating the named league with its house bots ([`HouseBot`]). A server that plays its
//! own games (`--jobs`) runs the library's one loop on a job of its own
//! ([`super::jobs::league_loop`]).

use anyhow::bail;

use super::house::HouseBot;
use mjai_sim_tournament::session::Session;
use mjai_sim_tournament::store::retry::Patience;
use mjai_sim_tournament::store::{AddBot, BotRow, Lookup, Store};

/// The league named `tid` in `db`, created with `config` (tournament options, JSON with
/// `"sets": 0`) when missing; house bots missing from it are added and recorded as
/// version 1 of their names. `beside`: the league may join a SQLite file holding others (a
/// server's further leagues, [`Store::lookup_beside`]); otherwise a SQLite file holding
/// another league is refused, so that a mistyped `--league` is not a new, empty league.
/// Errors: that refusal; the database failed.
pub async fn open_league(
    db: &Store,
    tid: &str,
    config: &str,
    house: &[HouseBot],
    beside: bool,
) -> anyhow::Result<Session> {
    let lookup = if beside { db.lookup_beside(tid).await? } else { db.lookup(tid).await? };
    let existing = match lookup {
        Lookup::Found(store) => Some(store),
        Lookup::Missing => None,
        Lookup::Occupied { holds } => {
            bail!("{} holds the league {holds}; pass --league {holds}, or another --db for a new league", db.name())
        }
    };
    for h in house {
        if let Some(zip) = &h.zip {
            db.blobs().put_submission(zip).await?;
        }
    }
    let store = match existing {
        Some(s) => s,
        None => {
            let rows: Vec<BotRow> = house.iter().enumerate().map(|(idx, h)| BotRow { idx, ..h.row.clone() }).collect();
            db.create(tid, config, &rows, &[]).await?
        }
    };
    let bots = store.bots().await?;
    for h in house {
        let idx = match bots.iter().find(|b| b.name == h.row.name) {
            Some(b) => b.idx,
            None => match store.league().add_bot(&h.row.name, &h.row.spec, &h.row.sha256, h.zip.as_deref()).await? {
                AddBot::Added { idx } => idx,
                AddBot::NameTaken => bail!("house bot {}: the name is taken", h.row.name),
            },
        };
        store.versions().add_house(&h.row.name, &h.row.sha256, idx).await?;
    }
    let session = Session::of_store(store, &Patience::none()).await?;
    if !session.config().is_league() {
        bail!("{}: tournament {tid} is not a league (it has a fixed schedule); choose another --league", db.name());
    }
    Ok(session)
}
