//! A started server serving ([`Started::run`]): one remote-bot hub for its validation and
//! league games, its jobs started ([`super::jobs`]: validation, those a stop cut off queued
//! again, the league played here), its handlers' state and router, the listener until the
//! stop; then the stop in order (module docs of the crate), the store closed and the work
//! folder removed.

use std::sync::Arc;

use mjai_sim_arena::cancel::{Cancel, CancelToken};
use mjai_sim_arena::launch::RemoteSeats;
use mjai_sim_runtime::remote::hub::RemoteHub;
use mjai_sim_tournament::leaderboard::BotStatus;
use mjai_sim_tournament::session::Session;
use mjai_sim_tournament::store::retry::Patience;
use mjai_sim_tournament::store::{BotKind, Online};

use super::counters::Counters;
use super::jobs::validation::Validator;
use super::jobs::{credentials, finals, league_loop, local, retention};
use super::start::Started;
use super::state::AppState;
use super::{limits, listen, router, watchers, STOP_WAIT};

impl Started {
    /// Serves until `stop` fires (or the league loop fails, which stops the server too),
    /// then stops as the crate's docs say, closes the store and removes the work folder.
    /// Errors: the play loop failed (database gone beyond its patience, Docker unreachable);
    /// the listener's own errors are logged and ridden out.
    pub async fn run(self, stop: CancelToken) -> anyhow::Result<()> {
        let store = self.session.store().clone();
        let work_dir = self.work_dir.clone();
        let result = self.serve(Cancel::child_of(&stop)).await;
        store.close().await;
        let _ = std::fs::remove_dir_all(&work_dir);
        result
    }

    /// [`Started::run`] until the stop, before the store is closed.
    async fn serve(self, cancel: Cancel) -> anyhow::Result<()> {
        let Started { session, listener, settings, mut validation, max_validations, mut play, trace_days, .. } = self;
        // remote bots: one hub for validation and league games; a start finding the bot's
        // connections busy in other games waits up to the whole-game bound
        let options = &validation.options;
        let hub = RemoteHub::with_busy_wait(options.game_timeout);
        let seats = RemoteSeats { hub: hub.clone(), wait: options.start_timeout };
        let online = {
            let hub = hub.clone();
            Online(Arc::new(move |name: &str| hub.ready(name)))
        };
        // the league schedules remote bots only while they are connected
        let session = Session::of_store(session.store().with_online(online), &Patience::none()).await?;
        let store = session.store().clone();
        let versions = store.versions().all().await?;
        for row in versions.iter().filter(|v| v.kind.is_connected()) {
            match row.kind {
                BotKind::RiichiDev => hub.allow_one_game(&row.name),
                _ => hub.allow(&row.name),
            }
        }
        if let Some(opts) = &mut play {
            opts.remote = Some(seats.clone());
        }
        validation.remote = Some(seats);
        let (validator, validations) = Validator::start(validation, max_validations, store.clone(), cancel.clone())?;
        for row in versions.into_iter().filter(|v| v.status == BotStatus::Validating && v.kind == BotKind::Zip) {
            validator.spawn(row); // cut off by the last stop (a remote bot: at its next connection)
        }
        let header_timeout = settings.header_timeout;
        let limits = Arc::new(limits::RateLimits::new(settings.per_ip_per_minute, settings.per_token_per_minute));
        let counters = Arc::new(Counters::default());
        let credentials = Arc::new(credentials::Credentials::default());
        tokio::spawn(credentials::run(credentials.clone(), store.clone(), cancel.clone()));
        if trace_days > 0 {
            tokio::spawn(retention::run(store.clone(), trace_days, cancel.clone()));
        }
        let state = AppState {
            store: store.clone(),
            settings: Arc::new(settings),
            validator,
            figures: Default::default(),
            counters: counters.clone(),
            limits,
            hub: hub.clone(),
            credentials,
            watchers: Arc::new(watchers::Watchers::new(cancel.token())),
        };
        let finals = finals::spawn(store.clone(), play.clone(), counters.clone(), cancel.clone())?;
        let play = match play {
            Some(opts) => Some(league_loop::spawn(session, opts, counters, cancel.clone())?),
            None => None,
        };
        let app = router::router(state);
        listen::serve(listener, app, header_timeout, cancel.token()).await;
        hub.close_all().await; // bridges hear `bye` (games in play end on the stop)
        if tokio::time::timeout(STOP_WAIT, local::join(validations)).await.is_err() {
            tracing::warn!("validation games still running after {} s were left", STOP_WAIT.as_secs());
        }
        if let Err(e) = local::join(finals).await {
            tracing::warn!("the seasons' finals job: {e:#}");
        }
        match play {
            Some(play) => local::join(play).await,
            None => Ok(()),
        }
    }
}
