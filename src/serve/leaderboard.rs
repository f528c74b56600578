//! The league's figures as the read API sends them ([`Leaderboard`], [`BotPage`], a bot's
//! games), read from the store's per-bot aggregates (issue 21, item 6: a few rows per
//! request, whatever the number of games; see `store::Board::leaderboard`) with inactive bots'
//! σ decayed ([`DECAY_TAU`], docs/server.md "Leaderboard"). The leaderboard is cached until
//! the fold's cursor or the bots' versions change; a bot's page and games are read when
//! asked.

use std::sync::Arc;

use tokio::sync::Mutex;

use mjai_sim_tournament::leaderboard::aggregate::DECAY_TAU;
use mjai_sim_tournament::leaderboard::shape::VersionPick;
use mjai_sim_tournament::leaderboard::{BotPage, BotStatus, GameLine, Leaderboard};
use mjai_sim_tournament::store::{Store, StoreError, VersionRow};

/// The figures at one moment: the leaderboard, and the store to read pages from.
pub struct Figures {
    store: Store,
    board: Leaderboard,
}

impl std::fmt::Debug for Figures {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Figures").field("board", &self.board).finish_non_exhaustive()
    }
}

/// The league's figures now (see the module docs).
pub async fn figures(store: &Store) -> Result<Figures, StoreError> {
    Ok(Figures { store: store.clone(), board: store.board().leaderboard(DECAY_TAU).await? })
}

/// The last [`Figures`], reused while nothing changed.
#[derive(Default)]
pub struct FiguresCache {
    last: Mutex<Option<(String, Arc<Figures>)>>,
}

impl FiguresCache {
    /// The figures now: read again when the fold's cursor, the versions or the voided
    /// games changed. The
    /// first call folds in what the aggregates lack (a database made before them). Uma and
    /// bootstrap seed are the league's stored options, which the aggregates use already.
    pub async fn get(&self, store: &Store) -> Result<Arc<Figures>, StoreError> {
        let mut last = self.last.lock().await;
        if last.is_none() {
            store.aggregates().catch_up().await?;
        }
        let cursor = store.aggregates().cursor().await?;
        let versions = store.versions().counts().await?;
        let voided = store.voids().count().await?;
        let key = format!("{cursor:?}/{versions:?}/{voided}");
        if let Some((k, f)) = last.as_ref() {
            if *k == key {
                return Ok(f.clone());
            }
        }
        let fresh = Arc::new(figures(store).await?);
        *last = Some((key, fresh.clone()));
        Ok(fresh)
    }
}

impl Figures {
    /// `GET /api/leaderboard`: one entry per version, active bots first by μ − 3σ (σ
    /// decayed), then the others by name and version.
    pub fn leaderboard(&self) -> Leaderboard {
        self.board.clone()
    }

    /// The versions (name, version) of the league that `sees` keeps from a caller (given a
    /// version's author, `None` for a house bot, and its status: [`super::auth::may_see`]).
    pub fn unseen(&self, sees: &dyn Fn(Option<&str>, BotStatus) -> bool) -> Vec<(String, u32)> {
        let hidden = self.board.bots.iter().filter(|e| !sees(e.author.as_deref(), e.status));
        hidden.map(|e| (e.name.clone(), e.version)).collect()
    }

    /// `GET /api/bots/{name}/v/{version}` and the like: the page of the version of `name`
    /// that `pick` names among the versions `shown` keeps (the caller may see:
    /// [`super::auth::may_see`]); `None`: no such bot or version, or none shown.
    pub async fn bot_page(
        &self,
        name: &str,
        pick: VersionPick,
        shown: &(dyn Fn(&VersionRow) -> bool + Sync),
    ) -> Result<Option<BotPage>, StoreError> {
        let seats = usize::from(self.board.players);
        self.store.board().bot_page_shown(name, pick, DECAY_TAU, seats, shown).await
    }

    /// `GET /api/bots/{name}/games` (`version` `None`: every game of every version of
    /// `name`) and `GET /api/bots/{name}/v/{version}/games` (one version's), latest first,
    /// among the versions `shown` keeps; `None`: no such bot or version, or none shown.
    pub async fn games_of(
        &self,
        name: &str,
        version: Option<u32>,
        shown: &(dyn Fn(&VersionRow) -> bool + Sync),
    ) -> Result<Option<Vec<GameLine>>, StoreError> {
        self.store.board().games_of_shown(name, version, None, shown).await
    }
}
