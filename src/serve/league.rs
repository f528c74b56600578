//! The glue between the server and its league (through `tournament::session`): opening or
//! creating the named league with its house bots, and the play loop of a server that plays
//! its own games (`--jobs`): rounds of [`Session::play_round`] until cancelled.

use std::sync::Arc;
use std::time::Duration;

use anyhow::bail;

use crate::arena::cancel::{Cancel, CancelToken};
use crate::tournament::session::{Player, Quiet, Session};
use crate::tournament::store::retry::{retry, Patience, Unheard};
use crate::tournament::store::{AddBot, BotRow, Dialect, Store};

/// How often the play loop looks again when a round found nothing to play.
const POLL: Duration = Duration::from_secs(1);

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
    let existing = match db.dialect() {
        Dialect::Sqlite => match db.meta().await? {
            Some((other, _)) if other != tid => {
                bail!("{} holds the league {other}; pass --league {other}, or another --db for a new league", db.name())
            }
            Some(_) => Some(db.clone()),
            None => None,
        },
        Dialect::Postgres => db.tournament(tid).await?,
    };
    for h in house {
        if let Some(zip) = &h.zip {
            db.put_submission(zip).await?;
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
            None => match store.add_bot(&h.row.name, &h.row.spec, &h.row.sha256, h.zip.as_deref()).await? {
                AddBot::Added { idx } => idx,
                AddBot::NameTaken => bail!("house bot {}: the name is taken", h.row.name),
            },
        };
        store.add_house_version(&h.row.name, &h.row.sha256, idx).await?;
    }
    let session = Session::of_store(store, &Patience::none()).await?;
    if !session.config().is_league() {
        bail!("{}: tournament {tid} is not a league (it has a fixed schedule); choose another --league", db.name());
    }
    Ok(session)
}

/// Plays the league with `player` until `cancel` fires: tops the schedule up, plays a
/// round, and waits [`POLL`] when there was nothing to play (fewer than 4 active bots, or
/// new bots await the next round). Store calls ride out outages for `player.db_patience`.
pub async fn play_loop(session: Session, player: Player, cancel: Cancel) -> anyhow::Result<()> {
    let patience = Patience::new(player.db_patience, Arc::new(Unheard));
    let store = session.store().clone();
    while !cancel.is_cancelled() {
        retry("top up the league", &patience, || store.top_up(1)).await?;
        let played = session.play_round(&player, Arc::new(Quiet), cancel.token()).await?;
        if played.games == 0 {
            let mut token: CancelToken = cancel.token();
            tokio::select! {
                _ = tokio::time::sleep(POLL) => {}
                _ = token.wait_for(|c| *c) => {}
            }
        }
    }
    Ok(())
}
