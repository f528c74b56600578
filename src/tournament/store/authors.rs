//! Authors of a grading server (`mjai-sim serve`): a name, the sha256 of their token and
//! whether they are an admin. Tokens themselves are never stored (see
//! `migrations/20261125000010_serve.sql` for why a plain sha256 suffices).

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

impl Store {
    /// Adds an author with the hex sha256 of their token. Returns false (nothing written)
    /// when the name is taken. Errors: the database failed.
    pub async fn add_author(&self, name: &str, token_sha256: &str, admin: bool) -> Result<bool, StoreError> {
        let sql = "INSERT INTO authors (name, token_sha256, admin, created_at) VALUES ($1, $2, $3, {now}) \
                   ON CONFLICT DO NOTHING"
            .replace("{now}", self.dialect.now_text());
        let done = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(name)
            .bind(token_sha256)
            .bind(admin as i64)
            .execute(&self.pool)
            .await
            .map_err(|e| self.err(e))?;
        Ok(done.rows_affected() == 1)
    }

    /// The author whose token hashes to `token_sha256`; `None` when there is none.
    pub async fn author_by_token(&self, token_sha256: &str) -> Result<Option<AuthorRow>, StoreError> {
        let row = sqlx::query("SELECT name, admin FROM authors WHERE token_sha256 = $1")
            .bind(token_sha256)
            .fetch_optional(&self.pool)
            .await
            .map_err(|e| self.err(e))?;
        row.map(|r| {
            let name: String = r.try_get(0).map_err(|e| self.err(e))?;
            let admin: i64 = r.try_get(1).map_err(|e| self.err(e))?;
            Ok(AuthorRow { name, admin: admin != 0 })
        })
        .transpose()
    }
}
