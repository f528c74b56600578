//! How the page routes answer: [`Page`] (HTML from [`mjai_sim_pages::site`], with the pages'
//! Content-Security-Policy), [`PageError`] (any refusal or failure as the site's error
//! page, same status as the JSON API would send), [`Viewer`], who is looking (the
//! cookie's author, or a visitor) and [`LoggedIn`], the author an author's own page needs
//! (a visitor is sent to `/login`).

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};

use super::auth::{Author, MaybeAuthor};
use super::error::ApiError;
use super::state::AppState;
use mjai_sim_pages::site::{error_page, PageContext, CSP};
use mjai_sim_tournament::store::StoreError;

/// An HTML page with its status.
#[derive(Debug)]
pub struct Page(pub StatusCode, pub String);

impl Page {
    /// A 200 page.
    pub fn ok(html: String) -> Page {
        Page(StatusCode::OK, html)
    }
}

impl IntoResponse for Page {
    fn into_response(self) -> Response {
        let mut response = (self.0, self.1).into_response();
        let headers = response.headers_mut();
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"));
        headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP));
        response
    }
}

/// A page route's refusal: the error page with the status and one-line reason of the
/// [`ApiError`] it wraps; `Login` sends a visitor to `/login` instead (303).
#[derive(Debug)]
pub enum PageError {
    /// Shown as the error page.
    Shown(ApiError),
    /// The page needs a logged-in author.
    Login,
}

impl From<ApiError> for PageError {
    fn from(e: ApiError) -> PageError {
        PageError::Shown(e)
    }
}

impl From<StoreError> for PageError {
    fn from(e: StoreError) -> PageError {
        PageError::Shown(e.into())
    }
}

impl IntoResponse for PageError {
    /// The error page as a visitor sees it, marked ([`ErrorNote`]) so that [`for_viewer`]
    /// renders it again for a logged-in author.
    fn into_response(self) -> Response {
        match self {
            PageError::Shown(e) => {
                let mut response =
                    Page(e.status, error_page(&PageContext::default(), e.status.as_u16(), &e.reason)).into_response();
                response.extensions_mut().insert(ErrorNote(e.reason));
                response
            }
            PageError::Login => Redirect::to("/login").into_response(),
        }
    }
}

/// The reason of an error page, kept with its response for [`for_viewer`].
#[derive(Debug, Clone)]
pub struct ErrorNote(pub String);

/// Middleware of the page routes: an error page (made where no one knew who was looking:
/// an extractor's refusal, a failed query) is rendered again with the logged-in author's
/// header, so it does not say "Log in" to them. Costs a token lookup on error pages only.
pub async fn for_viewer(
    axum::extract::State(state): axum::extract::State<AppState>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let headers = request.headers().clone();
    let response = next.run(request).await;
    let Some(ErrorNote(reason)) = response.extensions().get::<ErrorNote>().cloned() else { return response };
    match super::auth::author_of(&headers, &state).await {
        Ok(Some(author)) => {
            let status = response.status();
            let ctx = PageContext { author: Some(author.name), unseen: Vec::new() };
            Page(status, error_page(&ctx, status.as_u16(), &reason)).into_response()
        }
        _ => response,
    }
}

/// Who looks at a page: the logged-in author, or a visitor (`None`).
#[derive(Debug, Clone)]
pub struct Viewer(pub Option<Author>);

impl Viewer {
    /// The templates' view of who is looking.
    pub fn context(&self) -> PageContext {
        PageContext { author: self.0.as_ref().map(|a| a.0.name.clone()), unseen: Vec::new() }
    }

    /// [`Viewer::context`] with the versions this viewer may not see
    /// ([`MaybeAuthor::sees`]), which a page that names other bots (a game's seats, a
    /// head-to-head) then does not link: their pages answer 404 to this viewer. Errors: the
    /// league's figures cannot be read (500, or 503 while the database is unreachable).
    pub async fn context_linking(&self, state: &AppState) -> Result<PageContext, PageError> {
        let who = self.caller();
        let unseen = state.figures().await?.unseen(&|owner, status| who.sees(owner, status));
        Ok(PageContext { unseen, ..self.context() })
    }

    /// The viewer as a caller of the API ([`MaybeAuthor::sees`] says what they may see).
    pub fn caller(&self) -> MaybeAuthor {
        MaybeAuthor(self.0.as_ref().map(|a| a.0.clone()))
    }
}

impl FromRequestParts<AppState> for Viewer {
    type Rejection = PageError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Viewer, PageError> {
        let MaybeAuthor(who) = MaybeAuthor::from_request_parts(parts, state).await?;
        Ok(Viewer(who.map(Author)))
    }
}

/// The logged-in author of a page only authors see (`/me`, `/upload`); a visitor is sent
/// to `/login` ([`PageError::Login`]) before the handler runs.
#[derive(Debug, Clone)]
pub struct LoggedIn(pub Author);

impl LoggedIn {
    /// The templates' view of who is looking.
    pub fn context(&self) -> PageContext {
        PageContext { author: Some(self.0 .0.name.clone()), unseen: Vec::new() }
    }
}

impl FromRequestParts<AppState> for LoggedIn {
    type Rejection = PageError;

    /// Errors: [`PageError::Login`] without a valid token; a failed store query (the error
    /// page, 500 or 503).
    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<LoggedIn, PageError> {
        let MaybeAuthor(who) = MaybeAuthor::from_request_parts(parts, state).await?;
        who.map(|a| LoggedIn(Author(a))).ok_or(PageError::Login)
    }
}
