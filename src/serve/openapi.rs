//! The OpenAPI 3.1 document of the JSON API and the operations routes, generated from the
//! handlers (`#[utoipa::path]` on each: method, path, summary, responses), their answer
//! types (`ToSchema`: the same structs the handlers serialize, doc comments as
//! descriptions) and their path extractors ([`super::params`]: the same rules the
//! extractors check). Served at `GET /api/openapi.json` (this module's route);
//! `docs/openapi.json` is this text, and a unit test fails when the two differ (write it
//! again with `MJAI_SIM_WRITE_OPENAPI=1 cargo test -p mjai-sim-serve --lib openapi`). A unit test of
//! [`super::router`] checks that every API route of the router is in the document and no
//! other.

use std::sync::OnceLock;

use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;
use utoipa::openapi::security::{ApiKey, ApiKeyValue, HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

use super::state::AppState;
use super::{
    bots, downloads, game_trace, games, leagues, list_games, live_stream, login, ops, remote_socket, riichi_dev,
    season_admin, seasons, upload,
};

/// The route of this module.
pub const ROUTES: [&str; 1] = ["/api/openapi.json"];

/// This module's route.
pub fn router() -> Router<AppState> {
    Router::new().route(ROUTES[0], get(openapi))
}

/// `GET /api/openapi.json`.
#[utoipa::path(get, path = "/api/openapi.json", summary = "This document",
    responses((status = 200, description = "OpenAPI 3.1", body = Object)),
)]
pub async fn openapi() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "application/json")], document())
}

/// The document's description (what no single route says).
const DESCRIPTION: &str = "The grading server of mjai-sim (docs/server.md). Every error of the JSON API is \
`{\"error\": \"one line\"}`; the HTML pages (/, /bots/{name}, /games, /games/{id}, /me, /upload, /login: docs/server.md) \
answer with HTML. Every response carries a strict Content-Security-Policy, X-Content-Type-Options: nosniff, \
X-Frame-Options: DENY and Referrer-Policy: no-referrer. Rate limits per IP and per token answer 429 with \
Retry-After; while the database is unreachable, a route that needs it answers 503. A server may host several \
leagues (GET /api/leagues): every path below is the default league's, and /api/leagues/NAME/... (or ?league=NAME) \
is the same path of league NAME (/api/leagues/NAME/leaderboard, /api/leagues/NAME/bots, ...); its pages are under \
/leagues/NAME/.";

/// The document: every API and operations route.
#[derive(OpenApi)]
#[openapi(
    info(title = "mjai-sim serve", version = "1", description = DESCRIPTION),
    paths(
        upload::upload,
        bots::leaderboard,
        bots::bot,
        bots::retire,
        bots::games,
        bots::errors,
        bots::validation_log,
        bots::bot_version,
        bots::version_games,
        remote_socket::connect,
        riichi_dev::validate,
        riichi_dev::ranked,
        riichi_dev::rotate,
        games::game,
        game_trace::trace,
        live_stream::live,
        list_games::games,
        downloads::log_gz,
        downloads::tenhou6,
        downloads::version_archive,
        openapi,
        ops::healthz,
        ops::metrics,
        login::form,
        login::login,
        login::logout,
        leagues::leagues,
        leagues::league,
        seasons::list,
        seasons::season,
        seasons::log_gz,
        season_admin::open,
        season_admin::freeze,
        season_admin::ask_final,
    ),
    modifiers(&SecuritySchemes),
)]
pub struct ApiDoc;

/// Adds the two ways a token comes: `bearer` (the `Authorization` header) and `cookie`
/// (the login cookie, [`super::auth::COOKIE`]).
struct SecuritySchemes;

impl Modify for SecuritySchemes {
    fn modify(&self, doc: &mut utoipa::openapi::OpenApi) {
        let components = doc.components.get_or_insert_with(Default::default);
        let bearer = HttpBuilder::new()
            .scheme(HttpAuthScheme::Bearer)
            .description(Some("64 hex digits from `mjai-sim serve author add NAME`"))
            .build();
        components.add_security_scheme("bearer", SecurityScheme::Http(bearer));
        let cookie = ApiKeyValue::with_description(super::auth::COOKIE, "set by POST /login");
        components.add_security_scheme("cookie", SecurityScheme::ApiKey(ApiKey::Cookie(cookie)));
    }
}

/// The document as pretty-printed JSON with a final newline (`docs/openapi.json`), made
/// once.
pub fn document() -> &'static str {
    static DOCUMENT: OnceLock<String> = OnceLock::new();
    DOCUMENT.get_or_init(|| {
        // a document of plain structs and strings always serializes
        let text = ApiDoc::openapi().to_pretty_json().unwrap_or_default();
        text + "\n"
    })
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    #[test]
    fn the_document_names_the_handlers_types_and_the_extractors_rules() {
        let doc: serde_json::Value = serde_json::from_str(document()).unwrap();
        let schemas = doc["components"]["schemas"].as_object().unwrap();
        for name in ["Leaderboard", "LeaderboardEntry", "BotPage", "GameLine", "Accepted", "ErrorBody", "ErrorsView"] {
            assert!(schemas.contains_key(name), "{name} is not among {:?}", schemas.keys());
        }
        let name = &doc["paths"]["/api/bots/{name}"]["get"]["parameters"][0]["schema"];
        assert_eq!(name["pattern"], crate::name::NAME_PATTERN, "{name}");
    }

    #[test]
    fn docs_openapi_json_is_the_generated_document() {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/openapi.json");
        if std::env::var_os("MJAI_SIM_WRITE_OPENAPI").is_some() {
            std::fs::write(&path, document()).unwrap();
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == document(),
            "docs/openapi.json differs from the document the handlers make; write it again with \
             `MJAI_SIM_WRITE_OPENAPI=1 cargo test -p mjai-sim-serve --lib openapi` and commit it"
        );
    }
}
