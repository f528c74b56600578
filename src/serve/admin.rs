//! The operator's author: `admin`, whose token a deployment gives the server at start
//! (`serve --admin-token-file`, a stack's secret) rather than through `serve author add`.

use mjai_sim_tournament::store::Store;

use super::token::token_hash;

/// The name of the author whose token `serve --admin-token-file` gives.
pub const ADMIN: &str = "admin";

/// The author named [`ADMIN`]: added as an admin with the token `token`, or given that
/// token when present (`serve --admin-token-file`, a stack's secret; a changed secret
/// replaces the old token at the next start). Errors: the database failed.
pub async fn ensure_admin(store: &Store, token: &str) -> anyhow::Result<()> {
    let hash = token_hash(token);
    if !store.authors().add(ADMIN, &hash, true).await? {
        store.authors().rotate(ADMIN, &hash).await?;
    }
    Ok(())
}
