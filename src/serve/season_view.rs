//! A season as the API, the page and `serve season show` show it ([`SeasonView`], made by
//! [`view`] from the store), and the checked `{name}` of a season's routes ([`SeasonPath`]).

use axum::extract::{FromRequestParts, Path};
use axum::http::request::Parts;
use serde::Serialize;
use utoipa::ToSchema;

use super::error::ApiError;
use super::state::AppState;
use mjai_sim_tournament::leaderboard::utc::rfc3339;
use mjai_sim_tournament::session::season::{check_name, now_ms};
use mjai_sim_tournament::standings::{BotStanding, Standings};
use mjai_sim_tournament::store::{SeasonRow, SeasonStatus, Store};

/// The checked season name of a route's `{name}` (a season's name rules,
/// [`check_name`]); one no season can have is 404, as an unknown one.
#[derive(Debug, Clone)]
pub struct SeasonPath(pub String);

impl<S: Send + Sync> FromRequestParts<S> for SeasonPath {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<SeasonPath, ApiError> {
        let Path(params) = Path::<Vec<(String, String)>>::from_request_parts(parts, state)
            .await
            .map_err(|_| ApiError::not_found("such season"))?;
        let name = params.into_iter().find(|(k, _)| k == "name").map(|(_, v)| v);
        name.filter(|n| check_name(n).is_ok()).map(SeasonPath).ok_or_else(|| ApiError::not_found("such season"))
    }
}

/// A season's final as asked for, and how far it got.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct FinalView {
    /// The leaderboard's top N it took; `null`: every active bot (`all`).
    pub top: Option<u32>,
    /// Duplicate sets each bot plays (at least).
    pub sets: u32,
    /// Its games in all.
    pub games: u64,
    /// Its games played (recorded) so far.
    pub played: u64,
    /// Its bots, by their league names (`NAME`, `NAME#V`), best first as the leaderboard
    /// ranked them when the final was asked for.
    pub bots: Vec<String>,
    /// When it was asked for, UTC, RFC 3339.
    pub asked_at: String,
}

/// A game of a season's final, played.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct FinalGame {
    /// Its id in the final (schedule order).
    pub id: u64,
    /// Its duplicate set.
    pub set: u64,
    /// The bots by seat (league names).
    pub bots: Vec<String>,
    /// Their ranks by seat.
    pub ranks: Vec<u8>,
    /// Their final scores by seat, points.
    pub scores: Vec<i32>,
    /// Its mjai log (gzip): `/api/seasons/{name}/games/{id}/log.jsonl.gz`.
    pub log: String,
}

/// `GET /api/seasons/{name}`: a season.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SeasonView {
    /// Its name.
    pub name: String,
    /// The league it is a season of.
    pub league: String,
    /// `open` (uploads taken), `frozen` (from its freeze time: no upload), `final` (its
    /// final asked for: being played, or played once `final_standings` is set).
    pub status: SeasonStatus,
    /// When it was opened, UTC, RFC 3339.
    pub opened_at: String,
    /// When uploads stop (stopped), UTC, RFC 3339.
    pub freeze_at: String,
    /// Its final; `null` before one is asked for.
    #[serde(rename = "final")]
    pub final_round: Option<FinalView>,
    /// The final's standings, best first (lowest mean rank), frozen when its last game was
    /// recorded and never computed again; `null` until then. Each row as `standings.json`'s
    /// `bots` (docs/output-files.md).
    #[schema(value_type = Option<Vec<Object>>)]
    pub final_standings: Option<Vec<BotStanding>>,
    /// When they were frozen, UTC, RFC 3339.
    pub frozen_at: Option<String>,
    /// The final's games played so far, in schedule order (empty before a final).
    pub games: Vec<FinalGame>,
}

impl SeasonView {
    /// This view with its links as `state`'s league's API paths ([`AppState::api_path`]).
    pub fn linked_for(mut self, state: &AppState) -> SeasonView {
        for game in &mut self.games {
            game.log = state.api_path(&game.log);
        }
        self
    }
}

/// The view of season `row` of the league `league` (also `mjai-sim serve season show
/// --json`'s). Errors: the store failed; frozen standings that do not parse.
pub async fn view(league: &Store, row: &SeasonRow) -> anyhow::Result<SeasonView> {
    let league_name = league.meta().await?.map(|(tid, _)| tid).unwrap_or_default();
    let (mut final_round, mut games) = (None, Vec::new());
    if let Some(f) = &row.final_round {
        let store = league.scoped(f.t);
        let bots: Vec<String> = store.bots().await?.into_iter().map(|b| b.name).collect();
        let counts = store.games().counts().await?;
        final_round = Some(FinalView {
            top: f.top,
            sets: f.sets,
            games: counts.total(),
            played: counts.done,
            bots: bots.clone(),
            asked_at: rfc3339(f.asked_ms),
        });
        let mut records = store.games().records().await?;
        records.sort_by_key(|r| r.index);
        let name = |b: &usize| bots.get(*b).cloned().unwrap_or_else(|| format!("bot {b}"));
        games = records
            .into_iter()
            .map(|r| FinalGame {
                id: r.index,
                set: r.set,
                bots: r.seats.iter().map(name).collect(),
                ranks: r.ranks,
                scores: r.scores,
                log: format!("/api/seasons/{}/games/{}/log.jsonl.gz", row.name, r.index),
            })
            .collect();
    }
    let standings = match &row.final_standings {
        Some(json) => Some(
            serde_json::from_str::<Standings>(json)
                .map_err(|e| anyhow::anyhow!("season {}: frozen standings: {e}", row.name))?,
        ),
        None => None,
    };
    Ok(SeasonView {
        name: row.name.clone(),
        league: league_name,
        status: row.status(now_ms()),
        opened_at: rfc3339(row.opened_ms),
        freeze_at: rfc3339(row.freeze_ms),
        final_round,
        final_standings: standings.map(|s| s.ranked().into_iter().cloned().collect()),
        frozen_at: row.frozen_ms.map(rfc3339),
        games,
    })
}
