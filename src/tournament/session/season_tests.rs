//! A season's final from the library: its refusals, its bots (the leaderboard's top N), its
//! schedule (each bot K sets), its tournament beside the league, and its standings frozen
//! once played, equal to the final's own standings, the league's untouched.

use super::season::*;
use super::Session;
use crate::config::TournamentConfig;
use crate::record::GameRecord;
use crate::store::retry::Patience;
use crate::store::{AddBot, Lookup, SeasonStatus, Store, DB_FILE};

const HOUR: i64 = 3_600_000;
const NOW: i64 = 1_800_000_000_000;

/// A league of five active house bots `h0`..`h4`.
async fn league(dir: &std::path::Path) -> Store {
    let config = TournamentConfig {
        sets: 0,
        seed: [5, 6],
        runtime: mjai_sim_arena::launch::RuntimeKind::Process,
        ..TournamentConfig::default()
    };
    let db = Store::open(&dir.join(DB_FILE)).await.unwrap();
    let league = db.create("league", &config.to_json(), &[], &[]).await.unwrap();
    for i in 0..5 {
        let name = format!("h{i}");
        let AddBot::Added { idx } = league.league().add_bot(&name, "builtin:tsumogiri", "00", None).await.unwrap()
        else {
            panic!("{name} not added")
        };
        league.versions().add_house(&name, "00", idx).await.unwrap();
    }
    league
}

fn ask(entrants: Entrants, sets: u32) -> FinalAsk {
    FinalAsk { entrants, sets, remote: false }
}

/// A result for a game of the final: ranks by seat order shifted by the game's index.
fn record_of(index: u64, set: u64, seats: &[usize]) -> GameRecord {
    let ranks: Vec<u8> = (0..seats.len()).map(|s| ((s + index as usize) % seats.len()) as u8 + 1).collect();
    let scores = ranks.iter().map(|&r| 45000 - 10000 * i32::from(r)).collect();
    GameRecord { index, set, seats: seats.to_vec(), scores, ranks, stats: vec![Default::default(); seats.len()] }
}

#[tokio::test]
async fn a_frozen_seasons_final_is_the_top_bots_round_robin_and_its_standings_freeze_once_played() {
    let tmp = tempfile::tempdir().unwrap();
    let league = league(tmp.path()).await;
    let refused = |r: Result<FinalBegun, SeasonError>| r.unwrap_err().to_string();
    assert!(refused(begin_final(&league, "s", ask(Entrants::Top(4), 2), NOW).await).contains("no season named s"));
    league.seasons().open("s", NOW + HOUR, NOW).await.unwrap();
    let early = refused(begin_final(&league, "s", ask(Entrants::Top(4), 2), NOW).await);
    assert!(early.contains("is open until") && early.contains("season freeze s"), "{early}");
    let later = NOW + 2 * HOUR;
    assert!(refused(begin_final(&league, "s", ask(Entrants::Top(0), 2), later).await).contains("top"));
    assert!(refused(begin_final(&league, "s", ask(Entrants::Top(4), 0), later).await).contains("sets"));
    let few = refused(begin_final(&league, "s", ask(Entrants::Top(3), 2), later).await);
    assert!(few.contains("at least 4 bots") && few.contains("3 are eligible"), "{few}");

    let begun = begin_final(&league, "s", ask(Entrants::Top(4), 2), later).await.unwrap();
    assert_eq!(begun.bots, ["h0", "h1", "h2", "h3"], "the leaderboard's first four (equal ratings: by name)");
    assert_eq!((begun.games, begun.tid.as_str(), begun.left_out.len()), (8, "league/season/s/final", 0));
    let again = refused(begin_final(&league, "s", ask(Entrants::All, 2), later).await);
    assert!(again.contains("has its final already"), "{again}");
    let season = league.seasons().get("s").await.unwrap().unwrap();
    assert_eq!(season.status(later), SeasonStatus::Final);
    assert_eq!(season.final_round.as_ref().map(|f| (f.t, f.top, f.sets)), Some((begun.t, Some(4), 2)));
    let Lookup::Found(fin) = league.lookup_beside(&begun.tid).await.unwrap() else { panic!("no final tournament") };
    assert_eq!(fin.id(), begun.t);
    let bots = fin.bots().await.unwrap();
    assert!(bots.iter().all(|b| b.spec == "builtin:tsumogiri" && b.sha256 == "00"), "copied rows: {bots:?}");

    // not played yet: nothing frozen
    assert!(freeze_when_played(&league, &season).await.unwrap().is_none());
    let games = fin.leases().claim("w", 100, 60_000).await.unwrap();
    let mut sets_of = [0u64; 4];
    for g in &games {
        for &b in &g.seats {
            sets_of[b] += 1;
        }
        fin.games().record(&[record_of(g.index, g.set, &g.seats)], &[]).await.unwrap();
    }
    assert_eq!(sets_of, [8; 4], "each bot plays 2 sets of 4 games");
    let frozen = freeze_when_played(&league, &season).await.unwrap().unwrap();
    let own = Session::of_store(fin.clone(), &Patience::none()).await.unwrap().standings().await.unwrap();
    // frozen as JSON: read back through the same text (serde_json reads a float back to
    // within one ulp), they are the final's own
    let own: crate::standings::Standings = serde_json::from_str(&serde_json::to_string(&own).unwrap()).unwrap();
    assert_eq!(frozen, own, "the frozen standings are the final's own");
    assert_eq!(frozen.games, 8);
    // frozen once: a later change of the final's records does not reach them
    let row = league.seasons().get("s").await.unwrap().unwrap();
    let stored = row.final_standings.clone().unwrap();
    fin.voids().void(&crate::store::VoidSelector::Games(vec![0]), "after").await.unwrap();
    assert_eq!(freeze_when_played(&league, &row).await.unwrap().unwrap(), frozen);
    assert_eq!(league.seasons().get("s").await.unwrap().unwrap().final_standings, Some(stored));
    // the league's own figures never saw the final's games
    assert!(league.aggregates().all().await.unwrap().bots.is_empty());
    assert_eq!(league.games().counts().await.unwrap().done, 0);
}
