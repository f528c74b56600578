//! The body of an upload ([`UploadBody`]: `POST /api/bots` and the page `/upload`): a
//! `multipart/form-data` form, refused before it is read when it is not one. A request of
//! another type (JSON, a urlencoded form, none) is 415 naming `multipart/form-data` and how
//! to send it; a multipart type without a usable `boundary` is 400 saying so (axum's own
//! answer to both was "Invalid `boundary`").

use axum::extract::{FromRequest, Multipart, Request};
use axum::http::{header, HeaderMap, StatusCode};

use super::error::ApiError;

/// The media type an upload is sent as.
pub const MULTIPART: &str = "multipart/form-data";

/// An upload's body: a multipart form, to read field by field
/// ([`super::upload::read_form`]).
pub struct UploadBody(pub Multipart);

impl<S: Send + Sync> FromRequest<S> for UploadBody {
    type Rejection = ApiError;

    /// Errors: 415 when the `Content-Type` is not `multipart/form-data`; 400 when it is,
    /// without a `boundary` the body can be split by.
    async fn from_request(request: Request, state: &S) -> Result<UploadBody, ApiError> {
        if !is_multipart(request.headers()) {
            return Err(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "an upload is a multipart/form-data form (fields `name`, `file`, `kind`, `mode`), and this request's Content-Type is not; send it as one, e.g. curl -F name=mybot -F file=@mybot.zip",
            ));
        }
        Multipart::from_request(request, state).await.map(UploadBody).map_err(|_| {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                "the Content-Type multipart/form-data needs a `boundary` parameter that splits the body; let the client build the form (curl -F, or a browser's form)",
            )
        })
    }
}

/// Whether `headers` say the body is `multipart/form-data` (any parameters; the type's
/// case does not matter).
pub fn is_multipart(headers: &HeaderMap) -> bool {
    let value = headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("");
    value.split(';').next().unwrap_or("").trim().eq_ignore_ascii_case(MULTIPART)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn typed(value: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::CONTENT_TYPE, HeaderValue::from_str(value).unwrap());
        h
    }

    #[test]
    fn only_a_multipart_form_is_an_upload() {
        for yes in ["multipart/form-data; boundary=x", "Multipart/Form-Data;boundary=\"a b\"", " multipart/form-data"] {
            assert!(is_multipart(&typed(yes)), "{yes}");
        }
        for no in
            ["application/json", "application/x-www-form-urlencoded", "multipart/mixed; boundary=x", "text/plain", ""]
        {
            assert!(!is_multipart(&typed(no)), "{no}");
        }
        assert!(!is_multipart(&HeaderMap::new()), "no Content-Type");
    }
}
