//! A season's final (issue 54), for every front end (`mjai-sim serve season final`, the
//! grading server's admin API and its job that plays finals): which bots play it, its
//! schedule, the tournament it is, and its standings frozen on the season's row once its
//! last game is recorded ([`crate::store::Seasons`]).
//!
//! - **Who plays**: the league's active bot versions best first, as its leaderboard ranks
//!   them (μ − 3σ, σ decayed: [`DECAY_TAU`]), the first `top` of them ([`Entrants::Top`])
//!   or all ([`Entrants::All`]). Bots played over a connection (`remote`, `riichilab`) are
//!   taken only when the caller says the final will be played where they connect (a server
//!   that plays its league itself: [`FinalAsk::remote`]); otherwise they are left out,
//!   named in [`FinalBegun::left_out`], and the next bots take their places.
//! - **The schedule**: duplicate sets under the league's rules (its stored options: rules,
//!   clock, runtime, uma), the library's balanced scheduler ([`duplicate_for`]), enough
//!   sets that each bot plays at least `sets` of them: `ceil(sets × bots / seats)` sets in
//!   all, each bot `sets` sets exactly when `seats` divides `sets × bots` (8 bots at four
//!   seats: always), otherwise some bots one more. Wall seeds are the league's seed key
//!   with a nonce drawn from the season's name, so the same season's final has the same
//!   walls.
//! - **The tournament**: `LEAGUE/season/NAME/final` ([`final_tid`]) in the league's
//!   database, beside it ([`Store::create`]); its bots are copies of the league's bot rows
//!   (spec and sha256: the submissions are stored by sha256 already), under their league
//!   names (`NAME`, `NAME#V`).
//! - **Its standings**: the library's standings of its records ([`Session::standings`]),
//!   frozen as JSON when no game is pending or running ([`freeze_when_played`]).

use std::sync::Arc;
use std::time::Duration;

use super::{Observer, PlayLoop, PlayOptions, RunEnd, Scope, Session, Until};
use crate::config::TournamentConfig;
use crate::leaderboard::aggregate::DECAY_TAU;
use crate::leaderboard::BotStatus;
use crate::schedule::duplicate_for;
use crate::standings::Standings;
use crate::store::retry::Patience;
use crate::store::{BotRow, FinalRow, Lookup, SeasonRow, Store, StoreError};
use mjai_sim_arena::cancel::CancelToken;

/// Most duplicate sets a final may ask of each bot.
pub const MAX_FINAL_SETS: u32 = 1000;

/// Which of the league's active bots play the final.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entrants {
    /// The first N of the leaderboard's active versions.
    Top(u32),
    /// Every active version.
    All,
}

/// A final as asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FinalAsk {
    /// Who plays.
    pub entrants: Entrants,
    /// Duplicate sets each bot plays (at least; 1 to [`MAX_FINAL_SETS`]).
    pub sets: u32,
    /// Whether bots played over a connection are taken (the final is played by a server
    /// whose hub they connect to); false leaves them out.
    pub remote: bool,
}

/// A final begun ([`begin_final`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FinalBegun {
    /// Its tournament's name ([`final_tid`]).
    pub tid: String,
    /// Its tournament's id in the database.
    pub t: i64,
    /// Its bots, by their league names, best first as the leaderboard ranked them.
    pub bots: Vec<String>,
    /// Active bots left out, with why (played over a connection the final has not).
    pub left_out: Vec<(String, String)>,
    /// Its games.
    pub games: u64,
}

/// Why a final was refused; each a sentence naming the fix.
#[derive(Debug, thiserror::Error)]
pub enum SeasonError {
    /// No season of that name in the league.
    #[error("no season named {0} in this league; `season open NAME --freeze TIME` opens one")]
    NoSeason(String),
    /// The season is still open.
    #[error("season {name} is open until {freeze_at}: freeze it first (`season freeze {name}`, or POST /api/seasons/{name}/freeze)")]
    NotFrozen {
        /// The season.
        name: String,
        /// Its freeze time, RFC 3339.
        freeze_at: String,
    },
    /// The season's final was asked for already.
    #[error("season {0} has its final already (a season has one final); open another season for another")]
    FinalAsked(String),
    /// Fewer eligible bots than seats.
    #[error("a final needs at least {needed} bots (one per seat); {eligible} are eligible{why}")]
    TooFew {
        /// Seats at the league's tables.
        needed: usize,
        /// Bots found eligible.
        eligible: usize,
        /// What left others out, if anything.
        why: String,
    },
    /// Bad numbers asked for.
    #[error("{0}")]
    Asked(String),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The league's options do not parse (a damaged store).
    #[error("{0}")]
    Damaged(String),
}

/// The name of season `season`'s final tournament in league `league`:
/// `LEAGUE/season/NAME/final`.
pub fn final_tid(league: &str, season: &str) -> String {
    format!("{league}/season/{season}/final")
}

/// The current time, ms since the Unix epoch (what seasons are decided by).
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// Begins season `name`'s final in `league` (a store scoped to the league) at `now_ms`:
/// picks its bots, writes its tournament and records it on the season (module docs). The
/// final is then played by whoever plays (a server's job, `season final --play`, workers).
/// Errors: no such season, not frozen yet, a final already, too few bots, bad numbers, the
/// store failed.
pub async fn begin_final(league: &Store, name: &str, ask: FinalAsk, now_ms: i64) -> Result<FinalBegun, SeasonError> {
    if ask.sets == 0 || ask.sets > MAX_FINAL_SETS {
        return Err(SeasonError::Asked(format!(
            "sets (--sets) is 1 to {MAX_FINAL_SETS}: the duplicate sets each bot plays"
        )));
    }
    if ask.entrants == Entrants::Top(0) {
        return Err(SeasonError::Asked("top (--top) is at least 1 (or all, --all: every active bot)".into()));
    }
    let season = league.seasons().get(name).await?.ok_or_else(|| SeasonError::NoSeason(name.to_string()))?;
    if season.final_round.is_some() {
        return Err(SeasonError::FinalAsked(name.to_string()));
    }
    if now_ms < season.freeze_ms {
        let freeze_at = crate::leaderboard::utc::rfc3339(season.freeze_ms);
        return Err(SeasonError::NotFrozen { name: name.to_string(), freeze_at });
    }
    let (league_tid, json) =
        league.meta().await?.ok_or_else(|| SeasonError::Damaged(format!("{}: no league in it", league.name())))?;
    let mut config = TournamentConfig::parse(&json).map_err(|e| {
        SeasonError::Damaged(format!("{}: league {league_tid}: unreadable options ({e})", league.name()))
    })?;
    let (rows, left_out) = entrants(league, ask).await?;
    let players = config.players();
    if rows.len() < players.count() {
        let why = match left_out.len() {
            0 => String::new(),
            n => format!(" ({n} left out: played over a connection, which this final has not)"),
        };
        return Err(SeasonError::TooFew { needed: players.count(), eligible: rows.len(), why });
    }
    let total_sets = (u64::from(ask.sets) * rows.len() as u64).div_ceil(players.count() as u64);
    config.seed = [name_nonce(name), config.seed[1]];
    config.sets = total_sets;
    config.bots = rows.iter().map(|r| r.spec.clone()).collect();
    config.logs = true; // its games are downloadable
    let games = duplicate_for(players, rows.len(), total_sets, config.seed);
    let tid = final_tid(&league_tid, name);
    // a final written by a call that stopped before it was recorded on the season is taken
    let store = match league.lookup_beside(&tid).await? {
        Lookup::Found(store) => store,
        Lookup::Missing | Lookup::Occupied { .. } => league.create(&tid, &config.to_json(), &rows, &games).await?,
    };
    let top = match ask.entrants {
        Entrants::Top(n) => Some(n),
        Entrants::All => None,
    };
    let row = FinalRow { t: store.id(), top, sets: ask.sets, asked_ms: now_ms };
    if !league.seasons().begin_final(name, &row).await? {
        return Err(SeasonError::FinalAsked(name.to_string()));
    }
    let games = store.games().counts().await?.total();
    Ok(FinalBegun { tid, t: store.id(), bots: rows.into_iter().map(|r| r.name).collect(), left_out, games })
}

/// The final's bot rows (indices from 0, best first) and the active bots left out, with why.
async fn entrants(league: &Store, ask: FinalAsk) -> Result<(Vec<BotRow>, Vec<(String, String)>), StoreError> {
    let board = league.board().leaderboard(DECAY_TAU).await?;
    let versions = league.versions().all().await?;
    let bots = league.bots().await?;
    let limit = match ask.entrants {
        Entrants::Top(n) => n as usize,
        Entrants::All => usize::MAX,
    };
    let (mut rows, mut left_out) = (Vec::new(), Vec::new());
    for entry in board.bots.iter().filter(|e| e.status == BotStatus::Active) {
        if rows.len() >= limit {
            break;
        }
        let version = versions.iter().find(|v| v.name == entry.name && v.version == entry.version);
        let Some(bot) = version.and_then(|v| v.bot_idx).and_then(|i| bots.iter().find(|b| b.idx == i)) else {
            continue; // active without a league bot: a damaged row, never seated either
        };
        if entry.kind.is_connected() && !ask.remote {
            let why =
                format!("a {} bot, played over its connection to a server that plays the final", entry.kind.as_str());
            left_out.push((bot.name.clone(), why));
            continue;
        }
        rows.push(BotRow { idx: rows.len(), ..bot.clone() });
    }
    Ok((rows, left_out))
}

/// A wall-seed nonce drawn from a season's name (FNV-1a): the same season, the same walls.
fn name_nonce(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// The final of `season` (of `league`): its tournament's session. Errors: the season has
/// no final, or the store failed.
pub async fn final_session(league: &Store, season: &SeasonRow) -> anyhow::Result<Session> {
    let Some(f) = &season.final_round else { anyhow::bail!("season {} has no final", season.name) };
    Session::of_store(league.scoped(f.t), &Patience::none()).await
}

/// Plays `season`'s final here with `opts` until no game of it is left or `stop` fires
/// (the one loop, [`PlayLoop`], over the final alone), then freezes its standings
/// ([`freeze_when_played`]). Returns them when frozen now or before; `None` when stopped
/// first. Errors: as [`PlayLoop::run`]'s, and the store's.
pub async fn play_final(
    league: &Store,
    season: &SeasonRow,
    opts: &PlayOptions,
    observer: Arc<dyn Observer>,
    stop: CancelToken,
) -> anyhow::Result<Option<Standings>> {
    let session = final_session(league, season).await?;
    let play = PlayLoop {
        scope: Scope::One(&session),
        top_up: false,
        report_counts: false,
        until: Until::Done,
        poll: Duration::from_millis(500),
    };
    if play.run(opts, observer, stop).await? == RunEnd::Interrupted {
        return Ok(None);
    }
    freeze_when_played(league, season).await
}

/// Freezes `season`'s final standings on its row when no game of the final is pending or
/// running (written once: frozen standings are never computed again). Returns the frozen
/// standings (now or before); `None` while games remain. Errors: the store failed, or
/// frozen standings that do not parse.
pub async fn freeze_when_played(league: &Store, season: &SeasonRow) -> anyhow::Result<Option<Standings>> {
    if let Some(frozen) = &season.final_standings {
        return Ok(Some(serde_json::from_str(frozen)?));
    }
    let session = final_session(league, season).await?;
    let counts = session.store().games().counts().await?;
    if counts.pending + counts.running > 0 {
        return Ok(None);
    }
    let standings = session.standings().await?;
    league.seasons().freeze_standings(&season.name, &serde_json::to_string(&standings)?, now_ms()).await?;
    // another process may have frozen them first: theirs stand
    let row = league.seasons().get(&season.name).await?;
    let frozen =
        row.and_then(|s| s.final_standings).ok_or_else(|| anyhow::anyhow!("season {} vanished", season.name))?;
    Ok(Some(serde_json::from_str(&frozen)?))
}

/// Longest season name, in characters.
pub const MAX_SEASON_NAME: usize = 64;

/// Checks a season's name: 1 to [`MAX_SEASON_NAME`] letters, digits, `-`, `_` or `.`, not
/// beginning with `.` (it appears in paths: `/seasons/NAME`, `LEAGUE/season/NAME/final`).
/// Errors: a sentence naming the rule.
pub fn check_name(name: &str) -> Result<(), String> {
    let ok = !name.is_empty()
        && name.chars().count() <= MAX_SEASON_NAME
        && !name.starts_with('.')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    match ok {
        true => Ok(()),
        false => Err(format!(
            "a season's name is 1 to {MAX_SEASON_NAME} letters, digits, `-`, `_` or `.`, not beginning with `.`"
        )),
    }
}
