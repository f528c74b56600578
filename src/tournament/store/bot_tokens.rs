//! Bot tokens of riichi.dev-dialect bots (issue 37, [`super::BotKind::RiichiDev`]): one per
//! bot of this league, stored as its sha256 only (the token itself is shown once, as an
//! author's; `src/serve/token.rs` says why a plain sha256 suffices). A bot's new token
//! replaces the old one, which stops working at once.

use sqlx::Row;

use super::{Store, StoreError};

/// This league's bot tokens ([`Store::bot_tokens`]).
#[derive(Clone, Copy)]
pub struct BotTokens<'a> {
    pub(super) store: &'a Store,
}

impl BotTokens<'_> {
    /// Gives bot `name` the token hashing to `token_sha256`, in place of its old one.
    /// Errors: the database failed.
    pub async fn set(self, name: &str, token_sha256: &str) -> Result<(), StoreError> {
        let now = self.store.dialect.now_ms();
        let sql = format!(
            "INSERT INTO bot_tokens (t, name, token_sha256, created_ms) VALUES ($1, $2, $3, {now}) \
             ON CONFLICT (t, name) DO UPDATE SET token_sha256 = excluded.token_sha256, created_ms = excluded.created_ms"
        );
        sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(self.store.t)
            .bind(name)
            .bind(token_sha256)
            .execute(&self.store.pool)
            .await
            .map_err(|e| self.store.err(e))?;
        Ok(())
    }

    /// The bot of this league whose token hashes to `token_sha256`; `None` when none does.
    /// Errors: the database failed.
    pub async fn bot_of(self, token_sha256: &str) -> Result<Option<String>, StoreError> {
        let row = sqlx::query("SELECT name FROM bot_tokens WHERE t = $1 AND token_sha256 = $2")
            .bind(self.store.t)
            .bind(token_sha256)
            .fetch_optional(&self.store.pool)
            .await
            .map_err(|e| self.store.err(e))?;
        row.map(|r| r.try_get(0).map_err(|e| self.store.err(e))).transpose()
    }
}
