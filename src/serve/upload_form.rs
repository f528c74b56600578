//! The page `/upload`: `GET` shows the form (a visitor is sent to `/login`: [`LoggedIn`]), `POST` takes
//! the same multipart fields as `POST /api/bots` with the session cookie and the same
//! checks ([`super::upload::accept`]): a zip, or `kind` remote or riichilab with no file.
//! Accepted: 303 to `/me`, where the verdict appears (a riichi.dev bot: 200, a page with its
//! bot token, shown this once); refused: the form again with the one-line reason and the
//! status the API would send.

use axum::extract::State;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use axum::Router;

use super::error::ApiError;
use super::html::{LoggedIn, Page, PageError};
use super::state::AppState;
use super::upload::{accept, read_form, with_upload_limit};
use super::upload_body::UploadBody;
use mjai_sim_arena::launch::RuntimeKind;
use mjai_sim_pages::site::{registered_page, upload_page, ZipRuntime};
use mjai_sim_tournament::config::TournamentConfig;

/// The page of this module.
pub const PAGES: [&str; 1] = ["/upload"];

/// This module's page, with the upload body limit of `POST /api/bots`
/// ([`with_upload_limit`]: the submission cap `max_submission_bytes` and the form's bytes).
pub fn router(max_submission_bytes: u64) -> Router<AppState> {
    with_upload_limit(Router::new().route(PAGES[0], get(form).post(upload)), max_submission_bytes)
}

/// Bytes in a MiB.
const MIB: u64 = 1024 * 1024;

/// `GET /upload`.
pub async fn form(State(state): State<AppState>, author: LoggedIn) -> Result<Page, PageError> {
    Ok(Page::ok(upload_page(&author.context(), max_mib(&state), zip_runtime(&state).await?, None, "")))
}

/// `POST /upload`.
pub async fn upload(
    State(state): State<AppState>,
    author: LoggedIn,
    body: Result<UploadBody, ApiError>,
) -> Result<Response, PageError> {
    let read = match body {
        Ok(UploadBody(form)) => read_form(form, state.settings.max_submission_bytes).await,
        Err(e) => Err(e), // not a multipart form (415), or one without a boundary (400)
    };
    let (name, outcome) = match read {
        Ok(form) => {
            let outcome = match form.league(&state) {
                Ok(league) => accept(&league, &author.0, &form.name, form.bot).await,
                Err(e) => Err(e),
            };
            (form.name, outcome)
        }
        Err(e) => (String::new(), Err(e)),
    };
    Ok(match outcome {
        // a riichi.dev bot's token is shown this once, here; /me never shows it
        Ok(accepted) => match &accepted.token {
            Some(token) => {
                Page::ok(registered_page(&author.context(), &accepted.name, accepted.version, token)).into_response()
            }
            None => Redirect::to("/me").into_response(),
        },
        Err(e) => {
            let runtime = zip_runtime(&state).await?;
            let page = upload_page(&author.context(), max_mib(&state), runtime, Some(&e.reason), name.trim());
            Page(e.status, page).into_response()
        }
    })
}

/// The submission cap in whole MiB, as the form states it.
fn max_mib(state: &AppState) -> u64 {
    state.settings.max_submission_bytes.div_ceil(MIB)
}

/// The runtime the league's games and validation games play zips in: its stored options'
/// (a league keeps the options it was created with, so a later start's `--runtime` does
/// not change it). Errors: the store failed (500 or 503); no league or options that do not
/// parse (500, logged: the server could not have started so).
async fn zip_runtime(state: &AppState) -> Result<ZipRuntime, PageError> {
    let config = state.store.meta().await?.map(|(_, json)| TournamentConfig::parse(&json));
    match config {
        Some(Ok(c)) => Ok(match c.runtime {
            RuntimeKind::Docker => ZipRuntime::Docker,
            RuntimeKind::Process => ZipRuntime::Process,
        }),
        Some(Err(e)) => Err(ApiError::from(anyhow::anyhow!("the league's stored options do not parse: {e}")).into()),
        None => Err(ApiError::from(anyhow::anyhow!("no league in the store")).into()),
    }
}
