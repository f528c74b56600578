//! Authors of a grading server (`mjai-sim serve`): a name, the sha256 of their token and
//! whether they are an admin. Tokens themselves are never stored (see
//! `migrations/20261125000010_serve.sql` for why a plain sha256 suffices). A revoked
//! author keeps their row and bots; their `token_sha256` becomes `revoked:NAME`, which no
//! token hashes to (a sha256 is 64 hex digits) and which stays unique.

use sqlx::Row;

use super::{Store, StoreError};

/// An author as the server knows them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthorRow {
    /// Unique name.
    pub name: String,
    /// May read every bot's errors and retire any bot.
    pub admin: bool,
}

/// An author as `serve author list` shows them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthorListing {
    /// Unique name.
    pub name: String,
    /// May read every bot's errors and retire any bot.
    pub admin: bool,
    /// When they were added, UTC, `YYYY-MM-DD HH:MM:SS`.
    pub created_at: String,
    /// Their bots (names) in all the database's leagues, whatever each one's status.
    pub bots: u64,
    /// Their token was revoked (none works until `rotate`).
    pub revoked: bool,
}

/// The `token_sha256` of a revoked author: no token's hash, unique per name.
const REVOKED: &str = "'revoked:' || name";

/// Whether a stored `token_sha256` is a revoked author's (`revoked:NAME`, [`REVOKED`]).
pub fn is_revoked_hash(token_sha256: &str) -> bool {
    token_sha256.starts_with("revoked:")
}

/// A grading server's authors, across the database's leagues ([`Store::authors`]).
#[derive(Clone, Copy)]
pub struct Authors<'a> {
    pub(super) store: &'a Store,
}

impl Authors<'_> {
    /// Adds an author with the hex sha256 of their token. Returns false (nothing written)
    /// when the name is taken. Errors: the database failed.
    pub async fn add(self, name: &str, token_sha256: &str, admin: bool) -> Result<bool, StoreError> {
        let sql = "INSERT INTO authors (name, token_sha256, admin, created_at) VALUES ($1, $2, $3, {now}) \
                   ON CONFLICT DO NOTHING"
            .replace("{now}", self.store.dialect.now_text());
        let done = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(name)
            .bind(token_sha256)
            .bind(admin as i64)
            .execute(&self.store.pool)
            .await
            .map_err(|e| self.store.err(e))?;
        Ok(done.rows_affected() == 1)
    }

    /// The author whose token hashes to `token_sha256`; `None` when there is none.
    pub async fn by_token(self, token_sha256: &str) -> Result<Option<AuthorRow>, StoreError> {
        let row = sqlx::query("SELECT name, admin FROM authors WHERE token_sha256 = $1")
            .bind(token_sha256)
            .fetch_optional(&self.store.pool)
            .await
            .map_err(|e| self.store.err(e))?;
        row.map(|r| {
            let name: String = r.try_get(0).map_err(|e| self.store.err(e))?;
            let admin: i64 = r.try_get(1).map_err(|e| self.store.err(e))?;
            Ok(AuthorRow { name, admin: admin != 0 })
        })
        .transpose()
    }

    /// Each author's current `token_sha256` by name (a revoked author's is `revoked:NAME`,
    /// which no token hashes to): what a server compares the tokens its open connections
    /// were opened with against. Errors: the database failed.
    pub async fn current_tokens(self) -> Result<std::collections::HashMap<String, String>, StoreError> {
        let rows = sqlx::query("SELECT name, token_sha256 FROM authors")
            .fetch_all(&self.store.pool)
            .await
            .map_err(|e| self.store.err(e))?;
        rows.iter()
            .map(|r| Ok((r.try_get(0).map_err(|e| self.store.err(e))?, r.try_get(1).map_err(|e| self.store.err(e))?)))
            .collect()
    }

    /// Every author, by name, with their bot count. Errors: the database failed.
    pub async fn list(self) -> Result<Vec<AuthorListing>, StoreError> {
        let sql = "SELECT a.name, a.admin, a.created_at, \
                   CAST(CASE WHEN a.token_sha256 LIKE 'revoked:%' THEN 1 ELSE 0 END AS BIGINT), \
                   (SELECT COUNT(*) FROM (SELECT DISTINCT v.t, v.name FROM bot_versions v WHERE v.author = a.name) d) \
                   FROM authors a ORDER BY a.name";
        let rows = sqlx::query(sql).fetch_all(&self.store.pool).await.map_err(|e| self.store.err(e))?;
        rows.iter()
            .map(|r| {
                let admin: i64 = r.try_get(1).map_err(|e| self.store.err(e))?;
                let revoked: i64 = r.try_get(3).map_err(|e| self.store.err(e))?;
                let bots: i64 = r.try_get(4).map_err(|e| self.store.err(e))?;
                Ok(AuthorListing {
                    name: r.try_get(0).map_err(|e| self.store.err(e))?,
                    admin: admin != 0,
                    created_at: r.try_get(2).map_err(|e| self.store.err(e))?,
                    bots: bots.max(0) as u64,
                    revoked: revoked != 0,
                })
            })
            .collect()
    }

    /// Revokes `name`'s token: from now on no token is theirs (their bots stay). Returns
    /// false when there is no such author. Errors: the database failed.
    pub async fn revoke(self, name: &str) -> Result<bool, StoreError> {
        let sql = format!("UPDATE authors SET token_sha256 = {REVOKED} WHERE name = $1");
        let done = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(name)
            .execute(&self.store.pool)
            .await
            .map_err(|e| self.store.err(e))?;
        Ok(done.rows_affected() == 1)
    }

    /// Gives `name` the token hashing to `token_sha256` in place of the old one (revoked or
    /// not), which stops working. Returns false when there is no such author. Errors: the
    /// database failed.
    pub async fn rotate(self, name: &str, token_sha256: &str) -> Result<bool, StoreError> {
        let done = sqlx::query("UPDATE authors SET token_sha256 = $2 WHERE name = $1")
            .bind(name)
            .bind(token_sha256)
            .execute(&self.store.pool)
            .await
            .map_err(|e| self.store.err(e))?;
        Ok(done.rows_affected() == 1)
    }
}
