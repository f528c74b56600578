//! Uploads stopped by a season's freeze (issue 54): [`upload_freeze`], asked by every way a
//! new version is made ([`super::upload::accept`]: `POST /api/bots`, the `/upload` form, a
//! riichi.dev bot's registration).

use axum::http::StatusCode;

use super::error::ApiError;
use mjai_sim_tournament::leaderboard::utc::rfc3339;
use mjai_sim_tournament::session::season::now_ms;
use mjai_sim_tournament::store::Store;

/// Refuses an upload while a season's freeze stops them ([`Seasons::upload_freeze`]:
/// the season opened last, from its freeze time on): 409 naming the season and its freeze
/// time (RFC 3339). Errors: that 409; the store failed.
///
/// [`Seasons::upload_freeze`]: mjai_sim_tournament::store::Seasons::upload_freeze
pub async fn upload_freeze(store: &Store) -> Result<(), ApiError> {
    match store.seasons().upload_freeze(now_ms()).await? {
        None => Ok(()),
        Some(s) => Err(ApiError::new(
            StatusCode::CONFLICT,
            format!(
                "uploads are frozen since {} (season {}): no new bot or version until the operator opens the next season",
                rfc3339(s.freeze_ms),
                s.name
            ),
        )),
    }
}
