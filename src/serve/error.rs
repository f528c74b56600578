//! The one error type of the server's handlers: an HTTP status and a one-line reason,
//! sent as `{"error": "..."}`. Store failures are logged in full and answered with a
//! generic 500 or, while the database is unreachable, 503 (nothing internal leaks).

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;
use utoipa::ToSchema;

use mjai_sim_tournament::store::StoreError;

/// A refused or failed request.
#[derive(Debug)]
pub struct ApiError {
    /// The status sent.
    pub status: StatusCode,
    /// One line: the cause and the fix.
    pub reason: String,
}

impl ApiError {
    /// An error with `status` and `reason`.
    pub fn new(status: StatusCode, reason: impl Into<String>) -> ApiError {
        ApiError { status, reason: reason.into() }
    }

    /// 404 with the usual wording (also what a caller who may not see a resource gets).
    pub fn not_found(what: &str) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, format!("no {what} here"))
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        tracing::error!("{e}");
        match e {
            StoreError::Unavailable { .. } | StoreError::Locked { .. } => {
                ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "the database is unavailable; try again shortly")
            }
            _ => ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal error (logged by the server)"),
        }
    }
}

impl From<anyhow::Error> for ApiError {
    fn from(e: anyhow::Error) -> ApiError {
        tracing::error!("{e:#}");
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal error (logged by the server)")
    }
}

/// The body of every error of the JSON API: `{"error": "..."}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    /// One line: the cause and the fix.
    pub error: String,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(ErrorBody { error: self.reason })).into_response()
    }
}
