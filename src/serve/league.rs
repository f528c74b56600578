//! The glue between the server and its league: opening or creating the league with its
//! house bots, and the play loop of a server that plays its own games (`--jobs`). How a
//! round of games is played ([`LeaguePlayer`]) is given by the caller: today the command
//! line's database runner, later the library's tournament session.

use std::sync::Arc;
use std::time::Duration;

use anyhow::bail;
use futures_util::future::LocalBoxFuture;
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use crate::tournament::store::retry::retry;
use crate::tournament::store::{AddBot, BotRow, Dialect, Store};

/// How often the play loop looks again when a round found nothing to play.
const POLL: Duration = Duration::from_secs(1);

/// Plays rounds of a league's games in this process (on the league's own thread: see
/// [`super::local`]).
pub trait LeaguePlayer: Send + Sync {
    /// Plays the claimable games of `store`'s league until none is left or `stop` turns
    /// true; games in play when it does are given back. Returns the games recorded.
    fn play<'a>(&'a self, store: &'a Store, stop: watch::Receiver<bool>) -> LocalBoxFuture<'a, anyhow::Result<u64>>;
}

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
pub async fn open_league(db: &Store, tid: &str, config: &str, house: &[HouseBot]) -> anyhow::Result<Store> {
    let existing = match db.dialect() {
        Dialect::Sqlite => match db.meta().await? {
            Some((other, _)) if other != tid => bail!(
                "{} holds the league {other}; pass --league {other}, or another --db for a new league",
                db.name()
            ),
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
            let rows: Vec<BotRow> =
                house.iter().enumerate().map(|(idx, h)| BotRow { idx, ..h.row.clone() }).collect();
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
    Ok(store)
}

/// Plays the league with `player` until `cancel` fires: tops the schedule up, plays a
/// round, and waits [`POLL`] when there was nothing to play (fewer than 4 active bots, or
/// the new bots await the next round). Store calls ride out outages for `patience`.
pub async fn play_loop(
    store: Store,
    player: Arc<dyn LeaguePlayer>,
    cancel: CancellationToken,
    patience: Duration,
) -> anyhow::Result<()> {
    let (stop_tx, stop) = watch::channel(false);
    let relay = {
        let cancel = cancel.clone();
        tokio::task::spawn_local(async move {
            cancel.cancelled().await;
            let _ = stop_tx.send(true);
        })
    };
    let result = async {
        while !cancel.is_cancelled() {
            retry("top up the league", patience, || store.top_up(1)).await?;
            let played = player.play(&store, stop.clone()).await?;
            if played == 0 {
                tokio::select! {
                    _ = tokio::time::sleep(POLL) => {}
                    _ = cancel.cancelled() => {}
                }
            }
        }
        Ok(())
    }
    .await;
    relay.abort();
    result
}
