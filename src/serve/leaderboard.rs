//! The league's figures as the read API sends them ([`Leaderboard`], [`BotPage`], a bot's
//! games), built today from every recorded result by [`figures`] (the tournament's
//! standings: bootstrap intervals, Weng-Lin ratings) and cached until the count of finished
//! games or the bots' versions change. [`figures`] is the one function to swap for the
//! per-bot aggregates kept by the store (issue 21, item 6) once they exist.

use std::sync::Arc;

use tokio::sync::Mutex;

use crate::tournament::leaderboard::{
    BotPage, BotStatus, GameLine, HeadToHead, Leaderboard, LeaderboardEntry, Rating, PROVISIONAL_GAMES,
};
use crate::tournament::record::GameRecord;
use crate::tournament::standings::{compute, Standings, StandingsOptions};
use crate::tournament::store::{Store, StoreError, VersionRow};

/// Games listed on a bot's page.
const RECENT_GAMES: usize = 50;

/// Everything the read API shows, computed at one moment.
#[derive(Debug)]
pub struct Figures {
    /// Standings over the league's bots (by bot index).
    pub standings: Standings,
    /// Every recorded game, in schedule order.
    pub records: Vec<GameRecord>,
    /// Every version of every bot.
    pub versions: Vec<VersionRow>,
    /// League bot names by index.
    pub names: Vec<String>,
}

/// The league's figures from its stored results (see the module docs).
pub async fn figures(store: &Store, uma: [f64; 4], seed: u64) -> Result<Figures, StoreError> {
    let bots = store.bots().await?;
    let names: Vec<String> = bots.into_iter().map(|b| b.name).collect();
    let records = store.records().await?;
    let versions = store.versions().await?;
    let standings = compute(&names, &records, &StandingsOptions::new(uma, seed));
    Ok(Figures { standings, records, versions, names })
}

/// The last [`Figures`], reused while nothing changed.
#[derive(Default)]
pub struct FiguresCache {
    last: Mutex<Option<(String, Arc<Figures>)>>,
}

impl FiguresCache {
    /// The figures now: recomputed when the finished games or versions changed.
    pub async fn get(&self, store: &Store, uma: [f64; 4], seed: u64) -> Result<Arc<Figures>, StoreError> {
        let counts = store.counts().await?;
        let versions = store.version_counts().await?;
        let key = format!("{}/{versions:?}", counts.done);
        let mut last = self.last.lock().await;
        if let Some((k, f)) = last.as_ref() {
            if *k == key {
                return Ok(f.clone());
            }
        }
        let fresh = Arc::new(figures(store, uma, seed).await?);
        *last = Some((key, fresh.clone()));
        Ok(fresh)
    }
}

impl Figures {
    /// `GET /api/leaderboard`: one entry per version, active bots first by μ − 3σ, then
    /// the others by name and version.
    pub fn leaderboard(&self) -> Leaderboard {
        let mut bots: Vec<LeaderboardEntry> = self.versions.iter().map(|v| self.entry(v)).collect();
        let key = |e: &LeaderboardEntry| e.rating.mu - 3.0 * e.rating.sigma;
        bots.sort_by(|a, b| {
            let (aa, ba) = (a.status == BotStatus::Active, b.status == BotStatus::Active);
            ba.cmp(&aa).then(key(b).total_cmp(&key(a))).then(a.name.cmp(&b.name)).then(a.version.cmp(&b.version))
        });
        Leaderboard { bots }
    }

    /// `GET /api/bots/{name}`: the page of the name's latest version; `None`: no such bot.
    pub fn bot_page(&self, name: &str) -> Option<BotPage> {
        let v = self.versions.iter().filter(|v| v.name == name).max_by_key(|v| v.version)?;
        let entry = self.entry(v);
        let Some(idx) = v.bot_idx else {
            let (rank_counts, rating_history, head_to_head, recent_games) = Default::default();
            return Some(BotPage {
                entry,
                reason: v.reason.clone(),
                rank_counts,
                rating_history,
                head_to_head,
                recent_games,
            });
        };
        let s = &self.standings.bots[idx];
        let lname = &self.names[idx];
        let rating_history =
            self.standings.rating_history.iter().filter_map(|p| Some((p.game, *p.ratings.get(lname)?))).collect();
        let mut head_to_head: Vec<HeadToHead> = self
            .standings
            .pairs
            .iter()
            .filter(|p| p.games > 0 && (&p.a == lname || &p.b == lname))
            .map(|p| {
                let mine = &p.a == lname;
                let diff = p.rank_diff.unwrap_or(0.0);
                HeadToHead {
                    opponent: if mine { p.b.clone() } else { p.a.clone() },
                    games: p.games,
                    above: if mine { p.a_above } else { p.games - p.a_above },
                    rank_diff: if mine { -diff } else { diff },
                }
            })
            .collect();
        head_to_head.sort_by(|a, b| b.games.cmp(&a.games).then(a.opponent.cmp(&b.opponent)));
        Some(BotPage {
            entry,
            reason: v.reason.clone(),
            rank_counts: s.rank_counts,
            rating_history,
            head_to_head,
            recent_games: self.games_of(name).into_iter().take(RECENT_GAMES).collect(),
        })
    }

    /// `GET /api/bots/{name}/games`: every game of every version of `name`, latest first.
    pub fn games_of(&self, name: &str) -> Vec<GameLine> {
        let idxs: Vec<usize> = self.versions.iter().filter(|v| v.name == name).filter_map(|v| v.bot_idx).collect();
        self.records
            .iter()
            .rev()
            .filter(|r| r.seats.iter().any(|b| idxs.contains(b)))
            .map(|r| GameLine {
                id: r.index,
                bots: r.seats.map(|b| self.names.get(b).cloned().unwrap_or_default()),
                ranks: r.ranks,
                scores: r.scores.map(i64::from),
            })
            .collect()
    }

    fn entry(&self, v: &VersionRow) -> LeaderboardEntry {
        let s = v.bot_idx.and_then(|i| self.standings.bots.get(i));
        let games = s.map_or(0, |s| s.games);
        let rating =
            s.map_or(Rating { mu: 25.0, sigma: 25.0 / 3.0 }, |s| Rating { mu: s.weng_lin.mu, sigma: s.weng_lin.sigma });
        let last_game =
            v.bot_idx.and_then(|i| self.records.iter().rev().find(|r| r.seats.contains(&i)).map(|r| r.index));
        LeaderboardEntry {
            name: v.name.clone(),
            author: v.author.clone(),
            version: v.version,
            status: v.status,
            games,
            avg_rank: s.and_then(|s| s.avg_rank),
            avg_rank_ci: s.and_then(|s| s.avg_rank_ci),
            avg_pt: s.and_then(|s| s.avg_pt),
            avg_pt_ci: s.and_then(|s| s.avg_pt_ci),
            rating,
            // the peak needs σ after each game: kept by the store's aggregates (item 6)
            peak: None,
            provisional: games < PROVISIONAL_GAMES,
            last_game,
        }
    }
}
