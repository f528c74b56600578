//! The leaderboard and a bot's page ([`super`]'s types) from the versions of
//! a league's bots and their aggregates ([`crate::leaderboard::aggregate`]), with no database.
//!
//! Decay of inactive bots (mjai.app #201): the σ shown and ranked on is
//! [`decayed_sigma`] of the bot's σ over the league games folded since its last game, so a
//! bot that stops playing (its owner turned matching off, or retired it) does not keep a
//! frozen conservative score μ − 3σ: it sinks as others play. The peak stays what it was.

use std::collections::BTreeMap;

use super::aggregate::{decayed_sigma, BotAggregate, PairAggregate, SIGMA_START};
use super::BotKind;
use super::{
    BotPage, BotStatus, GameLine, HeadToHead, Leaderboard, LeaderboardEntry, Rating, VersionLine, VersionRow,
    PROVISIONAL_GAMES,
};

/// One version's line: its aggregate (`None`: not in the league, or no game yet), the
/// league's folded games `folded` (for the decay) and the decay's `tau` (0: none).
pub fn entry(v: &VersionRow, a: Option<&BotAggregate>, folded: u64, tau: f64) -> LeaderboardEntry {
    let games = a.map_or(0, |a| a.games);
    let ratio = |x: f64| (games > 0).then(|| x / games as f64);
    let rating = a.map_or(Rating { mu: 25.0, sigma: SIGMA_START }, |a| Rating {
        mu: a.rating.mu,
        sigma: decayed_sigma(a.rating.sigma, folded.saturating_sub(a.last_seq), tau),
    });
    LeaderboardEntry {
        name: v.name.clone(),
        author: v.author.clone(),
        version: v.version,
        status: v.status,
        games,
        avg_rank: a.and_then(|a| ratio(a.rank_sum as f64)),
        avg_rank_ci: a.and_then(|a| a.ci[0]),
        avg_pt: a.and_then(|a| ratio(a.pt_sum)),
        avg_pt_ci: a.and_then(|a| a.ci[1]),
        rating,
        peak: a.and_then(|a| a.peak),
        provisional: games < PROVISIONAL_GAMES,
        last_game: a.and_then(|a| a.last_game),
        last_game_at: None, // the store's (a game's end time is not an aggregate)
        chombos_per_game: a.and_then(|a| ratio(a.chombos as f64)),
        kind: v.kind,
        online: v.kind == BotKind::Zip, // a remote bot's: the server's hub says (serve)
    }
}

/// `GET /api/leaderboard`: one entry per version, active bots first by μ − 3σ (σ decayed),
/// then the others; ties by name and version. `players`: the league's table size (4 or 3).
pub fn leaderboard(
    players: u8,
    versions: &[VersionRow],
    bots: &BTreeMap<usize, BotAggregate>,
    folded: u64,
    tau: f64,
) -> Leaderboard {
    let mut entries: Vec<LeaderboardEntry> =
        versions.iter().map(|v| entry(v, v.bot_idx.and_then(|i| bots.get(&i)), folded, tau)).collect();
    let key = |e: &LeaderboardEntry| e.rating.mu - 3.0 * e.rating.sigma;
    entries.sort_by(|a, b| {
        let (aa, ba) = (a.status == BotStatus::Active, b.status == BotStatus::Active);
        ba.cmp(&aa).then(key(b).total_cmp(&key(a))).then(a.name.cmp(&b.name)).then(a.version.cmp(&b.version))
    });
    Leaderboard { players, bots: entries }
}

/// Bot `bot`'s opponents, most games first. `names`: each league bot's name and version by
/// index ([`seat_names`]).
pub fn head_to_head(
    bot: usize,
    pairs: &BTreeMap<(usize, usize), PairAggregate>,
    names: &[(String, u32)],
) -> Vec<HeadToHead> {
    let name = |i: usize| names.get(i).cloned().unwrap_or_else(|| (format!("bot {i}"), 1));
    let mut out: Vec<HeadToHead> = pairs
        .iter()
        .filter(|(&(a, b), p)| p.games > 0 && (a == bot || b == bot))
        .map(|(&(a, b), p)| {
            let mine = a == bot;
            let diff = p.diff / p.games as f64;
            let (opponent, opponent_version) = name(if mine { b } else { a });
            HeadToHead {
                opponent,
                opponent_version,
                games: p.games,
                above: if mine { p.a_above } else { p.games - p.a_above },
                rank_diff: if mine { -diff } else { diff },
            }
        })
        .collect();
    out.sort_by(|a, b| {
        b.games.cmp(&a.games).then(a.opponent.cmp(&b.opponent)).then(a.opponent_version.cmp(&b.opponent_version))
    });
    out
}

/// The name and version of each league bot by index, from the league's bot names
/// (`league`, by index) and the versions that claim them: a version's bot shows as
/// `(NAME, V)`, never as its league name `NAME#V`; a bot no version claims (a league
/// without a server) as `(league name, 1)`.
pub fn seat_names(league: &[String], versions: &[VersionRow]) -> Vec<(String, u32)> {
    let mut out: Vec<(String, u32)> = league.iter().map(|n| (n.clone(), 1)).collect();
    for v in versions {
        if let Some(slot) = v.bot_idx.and_then(|i| out.get_mut(i)) {
            *slot = (v.name.clone(), v.version);
        }
    }
    out
}

/// Which version of a name a bot's page shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VersionPick {
    /// The latest (`GET /api/bots/{name}`: an upload's progress).
    Latest,
    /// The active one if any (the latest active), else the latest (the page `/bots/{name}`).
    Playing,
    /// This version (`/bots/{name}/v/{version}`).
    Number(u32),
}

/// The version of `versions` that `pick` names; `None`: no versions, or not that one.
pub fn pick(versions: &[VersionRow], pick: VersionPick) -> Option<&VersionRow> {
    let latest = || versions.iter().max_by_key(|v| v.version);
    match pick {
        VersionPick::Latest => latest(),
        VersionPick::Playing => {
            let active = versions.iter().filter(|v| v.status == BotStatus::Active).max_by_key(|v| v.version);
            active.or_else(latest)
        }
        VersionPick::Number(n) => versions.iter().find(|v| v.version == n),
    }
}

/// The page of version `v` from its line, aggregate, opponents and latest games;
/// `versions`: every version of its name (the selector); `seats`: the league's table size
/// (the length of `rank_counts`).
pub fn bot_page(
    seats: usize,
    entry: LeaderboardEntry,
    v: &VersionRow,
    versions: &[VersionRow],
    a: Option<&BotAggregate>,
    head_to_head: Vec<HeadToHead>,
    recent_games: Vec<GameLine>,
) -> BotPage {
    let mut rating_history = a.map(|a| a.history.points.clone()).unwrap_or_default();
    let mut rating_history_at: Vec<Option<String>> =
        a.map(|a| a.history.times().into_iter().map(|t| t.map(super::utc::rfc3339)).collect()).unwrap_or_default();
    if let Some(a) = a {
        if rating_history.last().map(|p| p.0) != Some(a.games) && a.games > 0 {
            // after its latest game, which ended at the entry's `last_game_at` (the store's)
            rating_history.push((a.games, a.rating.mu));
            rating_history_at.push(entry.last_game_at.clone());
        }
    }
    BotPage {
        entry,
        versions: versions.iter().map(|v| VersionLine { version: v.version, status: v.status }).collect(),
        reason: v.reason.clone(),
        rank_counts: a.map_or(vec![0; seats], |a| a.rank_counts.iter().take(seats).copied().collect()),
        rating_history,
        rating_history_at,
        head_to_head,
        recent_games,
        table_time: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mjai_sim_stats::ratings::WengLin;

    fn version(name: &str, idx: usize) -> VersionRow {
        VersionRow {
            name: name.into(),
            version: 1,
            author: None,
            sha256: String::new(),
            status: BotStatus::Active,
            reason: None,
            bot_idx: Some(idx),
            kind: BotKind::Zip,
        }
    }

    fn agg(mu: f64, sigma: f64, last_seq: u64) -> BotAggregate {
        BotAggregate { games: 100, rating: WengLin { mu, sigma }, last_seq, ..Default::default() }
    }

    /// A bot that stopped playing 5,000 league games ago drops below an active bot of a
    /// lower μ − 3σ once decay is on; without decay it stays first.
    #[test]
    fn an_inactive_bot_sinks_below_an_active_one() {
        let versions = [version("idle", 0), version("busy", 1)];
        let bots: BTreeMap<usize, BotAggregate> = [(0, agg(30.0, 1.0, 1000)), (1, agg(28.0, 1.0, 5990))].into();
        let frozen = leaderboard(4, &versions, &bots, 6000, 0.0);
        assert_eq!(frozen.bots[0].name, "idle");
        assert_eq!(frozen.bots[0].rating.sigma, 1.0);
        let decayed = leaderboard(4, &versions, &bots, 6000, crate::leaderboard::aggregate::DECAY_TAU);
        assert_eq!(decayed.bots[0].name, "busy", "{decayed:?}");
        let idle = &decayed.bots[1];
        let expected = (1.0f64 + 5000.0 * (25.0f64 / 300.0).powi(2)).sqrt();
        assert!((idle.rating.sigma - expected).abs() < 1e-12, "{} vs {expected}", idle.rating.sigma);
        assert_eq!(idle.rating.mu, 30.0, "μ does not decay");
    }

    /// A version's league bot shows as its name and version, never `NAME#V`; a page picks
    /// the version asked for, the latest, or the active one else the latest.
    #[test]
    fn versions_show_as_name_and_version() {
        let mut v1 = VersionRow { version: 1, status: BotStatus::Retired, ..version("vb", 1) };
        let v2 = VersionRow { version: 2, ..version("vb", 2) };
        let v3 = VersionRow { version: 3, status: BotStatus::Validating, bot_idx: None, ..version("vb", 0) };
        let league = ["house".to_string(), "vb".into(), "vb#2".into()];
        let names = seat_names(&league, &[v1.clone(), v2.clone(), v3.clone()]);
        assert_eq!(names, [("house".to_string(), 1), ("vb".into(), 1), ("vb".into(), 2)]);
        let all = [v1.clone(), v2.clone(), v3.clone()];
        let picked = |versions: &[VersionRow], p: VersionPick| pick(versions, p).map(|v| v.version);
        assert_eq!(picked(&all, VersionPick::Playing), Some(2), "the active one");
        assert_eq!(picked(&all, VersionPick::Latest), Some(3));
        assert_eq!((picked(&all, VersionPick::Number(1)), picked(&all, VersionPick::Number(4))), (Some(1), None));
        v1.status = BotStatus::Rejected;
        assert_eq!(picked(&[v1.clone(), v3], VersionPick::Playing), Some(3), "none active: the latest");
        assert_eq!(picked(&[], VersionPick::Playing), None);
        let pairs: BTreeMap<(usize, usize), PairAggregate> =
            [((1, 2), PairAggregate { games: 3, a_above: 1, diff: 1.0 })].into();
        let h2h = head_to_head(2, &pairs, &names);
        assert_eq!((h2h[0].opponent.as_str(), h2h[0].opponent_version, h2h[0].above), ("vb", 1, 2));
    }
}
