//! A validation's verdict, recorded: the files and the reason stored with the version,
//! the audit event, the bridges of a remote bot told, and a passing version admitted to the
//! league.

use mjai_sim_runtime::remote::control::Control;
use mjai_sim_tournament::store::{BotKind, ValidationFiles, VersionRow};

use super::judge::one_line;
use super::Games;
use crate::AUDIT;

impl Games {
    /// Records `verdict` (a failure's reason) on `row` with `files`, and admits a version
    /// that passed. Errors: the database.
    pub(super) async fn record(
        &self,
        row: &VersionRow,
        files: &ValidationFiles,
        verdict: Result<(), String>,
    ) -> anyhow::Result<()> {
        let reason = verdict.as_ref().err().map(|r| one_line(r));
        self.store
            .versions()
            .record_validation(&row.name, row.version, files, reason.as_deref().map_or(Ok(()), Err))
            .await?;
        let (bot, version, author) = (&row.name, row.version, row.author.as_deref().unwrap_or("-"));
        let verdict = reason.as_deref().unwrap_or("passed");
        tracing::info!(target: AUDIT, event = "validation", bot = %bot, version, author, verdict, "validation ended");
        if let (BotKind::Remote, Some(remote)) = (row.kind, &self.settings.remote) {
            let said = Control::Verdict { version, passed: reason.is_none(), reason: reason.clone() };
            remote.hub.tell(bot, &said); // the bridges print it
        }
        if reason.is_none() {
            self.store.versions().admit(&row.name, row.version).await?;
            tracing::info!(target: AUDIT, event = "admit", bot = %bot, version, author, "version admitted to the league");
        }
        Ok(())
    }
}
