//! The league played here (`--jobs`): the library's one loop,
//! [`PlayLoop::server`](mjai_sim_tournament::session::PlayLoop::server), on its own thread
//! ([`super::local`]), heard by [`LeagueObserver`]; when it fails (the database gone beyond
//! its patience, Docker unreachable) it stops the whole server, which says why.

use std::sync::Arc;
use std::thread::JoinHandle;

use mjai_sim_arena::cancel::Cancel;
use mjai_sim_tournament::session::{PlayLoop, PlayOptions, Session};

use super::league_observer::LeagueObserver;
use super::local::spawn_thread;
use crate::counters::Counters;

/// Starts playing `session`'s league with `opts` on its own thread until `cancel` fires,
/// counting into `counters`; a failure of the loop cancels `cancel` and is the thread's
/// result. Errors: the thread could not be made.
pub fn spawn(
    session: Session,
    opts: PlayOptions,
    counters: Arc<Counters>,
    cancel: Cancel,
) -> std::io::Result<JoinHandle<anyhow::Result<()>>> {
    let observer = Arc::new(LeagueObserver { counters });
    spawn_thread("league", move || async move {
        let result = PlayLoop::server(&session).run(&opts, observer, cancel.token()).await.map(drop);
        if result.is_err() {
            cancel.cancel(); // the server stops and says why
        }
        result
    })
}
