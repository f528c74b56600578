//! The validation queue ([`Validator`]): versions sent by the handlers (an upload, a remote
//! bot's first connection) and by the server's start (those a stop cut off), each queued
//! once, validated on the validation thread ([`super::super::local`]).

use std::collections::HashSet;
use std::rc::Rc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use tokio::sync::{mpsc, Semaphore};
use tokio_util::task::TaskTracker;

use mjai_sim_arena::cancel::Cancel;
use mjai_sim_tournament::store::{Store, VersionRow};

use super::super::local::spawn_thread;
use super::{Games, ValidationSettings};

/// Runs validation games on their own thread, at most a fixed number at once.
#[derive(Clone)]
pub struct Validator {
    queue: mpsc::UnboundedSender<VersionRow>,
    tracker: TaskTracker,
    queued: Arc<Mutex<HashSet<(String, u32)>>>,
}

impl Validator {
    /// Starts the validation thread over `store`, `max_at_once` games at a time; its games
    /// stop when `cancel` fires, and the thread ends once they have. Errors: the thread
    /// could not be made.
    pub fn start(
        settings: ValidationSettings,
        max_at_once: usize,
        store: Store,
        cancel: Cancel,
    ) -> std::io::Result<(Validator, JoinHandle<anyhow::Result<()>>)> {
        let (queue, mut rows) = mpsc::unbounded_channel::<VersionRow>();
        let tracker = TaskTracker::new();
        let track = tracker.clone();
        let queued: Arc<Mutex<HashSet<(String, u32)>>> = Arc::default();
        let done = queued.clone();
        let thread = spawn_thread("validation", move || async move {
            let slots = Semaphore::new(max_at_once.max(1));
            let games = Rc::new(Games { settings: Arc::new(settings), store, cancel: cancel.clone(), slots });
            let stop = cancel.token();
            loop {
                let row = tokio::select! {
                    row = rows.recv() => match row { Some(r) => r, None => break },
                    _ = stop.cancelled() => break,
                };
                let (games, done) = (games.clone(), done.clone());
                tokio::task::spawn_local(track.track_future(async move {
                    games.validate_until_judged(&row).await;
                    if let Ok(mut q) = done.lock() {
                        q.remove(&(row.name.clone(), row.version));
                    }
                }));
            }
            track.close();
            track.wait().await;
            Ok(())
        })?;
        Ok((Validator { queue, tracker, queued }, thread))
    }

    /// Validation games waiting for a slot or playing.
    pub fn in_flight(&self) -> usize {
        self.tracker.len()
    }

    /// Validates `row` in the background (its zip read from the store; a remote bot over
    /// one of its connections), unless it is queued or playing already.
    pub fn spawn(&self, row: VersionRow) {
        let key = (row.name.clone(), row.version);
        if let Ok(mut queued) = self.queued.lock() {
            if !queued.insert(key) {
                return; // queued or playing already
            }
        }
        if self.queue.send(row).is_err() {
            tracing::warn!("the validation thread has stopped; the version is validated at the next start");
        }
    }
}
