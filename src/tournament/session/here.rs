//! A folder's tournament played by this process with its remote entrants
//! ([`Session::play_here`]): a listener for its `remote:NAME` and `riichilab:NAME` bots
//! (one fresh token each), each entrant's command told to the caller, the one loop
//! ([`PlayLoop::here`]), then the entrants' connections closed (their bridges hear `bye`).

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use mjai_sim_arena::cancel::CancelToken;
use mjai_sim_arena::remote_seats::listen_for_kinds;

use super::{Observer, PlayLoop, PlayOptions, RunEnd, Session};

/// How a folder's tournament is played here ([`Session::play_here`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayHere {
    /// Games at once (`None`: the default for its bots, [`super::default_jobs`]).
    pub jobs: Option<usize>,
    /// Lease of a claimed game.
    pub lease: Duration,
    /// Where its remote entrants connect (port 0: any free port).
    pub listen: SocketAddr,
    /// How long a game's start waits for a remote entrant's bridge.
    pub start_timeout: Duration,
    /// How long a game waits for a remote entrant whose connections all play elsewhere
    /// (the whole-game bound).
    pub game_timeout: Duration,
}

/// One remote entrant and what its author runs to play.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemoteEntrant {
    /// `remote` (through `mjai-sim connect`) or `riichilab` (riichi.dev's dialect).
    pub kind: &'static str,
    /// Its name.
    pub name: String,
    /// The command line (`remote`) or the URL and token (`riichilab`) it connects with.
    pub command: String,
}

impl Session {
    /// Plays this tournament here ([`PlayLoop::here`]) under `play`, its remote entrants
    /// (if any) listened for on `play.listen` and told to `listening` before the first
    /// game; their connections are closed when the loop ends, however it ends. Errors: the
    /// address cannot be bound; the loop's own ([`PlayLoop::run`]).
    pub async fn play_here(
        &self,
        play: &PlayHere,
        observer: Arc<dyn Observer>,
        stop: CancelToken,
        listening: impl FnOnce(&[RemoteEntrant]),
    ) -> anyhow::Result<RunEnd> {
        let riichi_dev = self.riichi_dev_names();
        let remote =
            listen_for_kinds(&self.remote_names(), &riichi_dev, play.listen, play.start_timeout, play.game_timeout)
                .await?;
        let entrants: Vec<RemoteEntrant> = remote
            .iter()
            .flat_map(|r| &r.commands)
            .map(|(name, command)| RemoteEntrant {
                kind: if riichi_dev.contains(name) { "riichilab" } else { "remote" },
                name: name.clone(),
                command: command.clone(),
            })
            .collect();
        listening(&entrants);
        let opts = PlayOptions::here(play.jobs, play.lease, remote.as_ref().map(|r| r.seats.clone()));
        let end = PlayLoop::here(self).run(&opts, observer, stop).await;
        if let Some(remote) = &remote {
            remote.seats.hub.close_all().await; // bounded: inside.
        }
        end
    }
}
