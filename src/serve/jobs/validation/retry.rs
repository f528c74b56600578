//! A version's validation tried again while the host cannot play it (issue 42): a host
//! fault ([`is_host_fault`]: Docker gone, the image missing) records nothing and waits
//! [`HOST_BACKOFF`], doubling up to [`HOST_BACKOFF_MAX`] (the league loop's own waits),
//! until a verdict, another error (logged: validated again at the next start) or the stop.

use mjai_sim_runtime::backoff::Doubling;
use mjai_sim_tournament::session::{is_host_fault, HOST_BACKOFF, HOST_BACKOFF_MAX};
use mjai_sim_tournament::store::VersionRow;

use super::Games;

impl Games {
    /// Validates `row` until it is judged, fails for a reason not the host's, or the server
    /// stops (then it is validated again at the next start).
    pub(super) async fn validate_until_judged(&self, row: &VersionRow) {
        let mut backoff = Doubling::new(HOST_BACKOFF, HOST_BACKOFF_MAX);
        while !self.cancel.is_cancelled() {
            match self.validate(row).await {
                Ok(()) => break,
                // the host's fault, no verdict: tried again once it may be whole
                Err(e) if is_host_fault(&e) => {
                    let wait = backoff.next_delay();
                    tracing::warn!(
                        "validation of {} version {}: {e:#}; trying again in {} s",
                        row.name,
                        row.version,
                        wait.as_secs()
                    );
                    let _ = self.cancel.token().run_until_cancelled(tokio::time::sleep(wait)).await;
                }
                Err(e) => {
                    tracing::error!("validation of {} version {}: {e:#}", row.name, row.version);
                    break;
                }
            }
        }
    }
}
