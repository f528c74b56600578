//! Seasons' finals (issue 54): every [`POLL`], the league's seasons whose final was asked
//! for and whose standings are not frozen yet ([`Seasons::finals_pending`]) are looked
//! at; a server that plays its league (`--jobs`) plays each such final here with the same
//! play options (jobs, runtime, the remote bots' hub), beside the league, through the
//! library's one loop ([`play_final`]); a server whose league workers play (`--jobs 0`)
//! leaves the final's games to them. Either way the standings are frozen on the season
//! once no game of the final is pending or running ([`freeze_when_played`]). A failure
//! (Docker gone, the database) is logged and the final tried again after [`RETRY`]; it
//! never stops the server.
//!
//! [`Seasons::finals_pending`]: mjai_sim_tournament::store::Seasons::finals_pending

use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use mjai_sim_arena::cancel::{Cancel, CancelToken};
use mjai_sim_tournament::session::season::{freeze_when_played, play_final};
use mjai_sim_tournament::session::PlayOptions;
use mjai_sim_tournament::store::Store;

use super::league_observer::LeagueObserver;
use super::local::spawn_thread;
use crate::counters::Counters;

/// How often finals are looked for (the first time at once).
pub const POLL: Duration = Duration::from_secs(1);

/// The wait after a look that failed (Docker gone, the database), before the next.
pub const RETRY: Duration = Duration::from_secs(30);

/// Starts the finals' job of the league `league` on its own thread until `cancel` fires:
/// playing them with `play` (`None`: workers play them; only their standings are frozen
/// here), failures counted into `counters`. Errors: the thread could not be made.
pub fn spawn(
    league: Store,
    play: Option<PlayOptions>,
    counters: Arc<Counters>,
    cancel: Cancel,
) -> std::io::Result<JoinHandle<anyhow::Result<()>>> {
    spawn_thread("finals", move || async move {
        let observer = Arc::new(LeagueObserver { counters });
        let stop = cancel.token();
        while !stop.is_cancelled() {
            let wait = match look(&league, play.as_ref(), &observer, &stop).await {
                Ok(()) => POLL,
                Err(e) => {
                    tracing::warn!("a season's final: {e:#} (tried again in {} s)", RETRY.as_secs());
                    RETRY
                }
            };
            tokio::select! {
                _ = stop.cancelled() => {}
                _ = tokio::time::sleep(wait) => {}
            }
        }
        Ok(())
    })
}

/// One look: each pending final played (with `play`) and its standings frozen when done.
async fn look(
    league: &Store,
    play: Option<&PlayOptions>,
    observer: &Arc<LeagueObserver>,
    stop: &CancelToken,
) -> anyhow::Result<()> {
    for season in league.seasons().finals_pending().await? {
        if stop.is_cancelled() {
            break;
        }
        let frozen = match play {
            Some(opts) => play_final(league, &season, opts, observer.clone(), stop.clone()).await?,
            None => freeze_when_played(league, &season).await?,
        };
        if let Some(standings) = frozen {
            let leader = standings.leader().map(|l| l.name).unwrap_or_default();
            tracing::info!(target: crate::AUDIT, event = "season_final_frozen", season = %season.name, games = standings.games, leader = %leader, "a season's final standings are frozen");
        }
    }
    Ok(())
}
