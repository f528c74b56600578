//! The glue between the server and its league (through `tournament::session`): opening or
//! creating the named league with its house bots. A server that plays its own games
//! (`--jobs`) runs the library's one loop, [`mjai_sim_tournament::session::PlayLoop::server`].

use anyhow::bail;

use mjai_sim_tournament::session::Session;
use mjai_sim_tournament::store::retry::Patience;
use mjai_sim_tournament::store::{AddBot, BotRow, Lookup, Store};

/// A house bot (the operator's, from the command line), checked already.
#[derive(Debug, Clone)]
pub struct HouseBot {
    /// Its row (name, spec, sha256; the index is assigned here).
    pub row: BotRow,
    /// The zip's bytes (`None`: a built-in).
    pub zip: Option<Vec<u8>>,
}

/// The league named `tid` in `db`, created with `config` (tournament options, JSON with
/// `"sets": 0`) when missing; house bots missing from it are added and recorded as
/// version 1 of their names. Errors: a SQLite file holding another league; the database
/// failed.
pub async fn open_league(db: &Store, tid: &str, config: &str, house: &[HouseBot]) -> anyhow::Result<Session> {
    let existing = match db.lookup(tid).await? {
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
