//! `GET /api/bots/{name}/connect`, upgraded to a WebSocket: a remote bot's author connects
//! `mjai-sim connect URL --token TOKEN BOT` here (issue 29). The token is the author's
//! (`Authorization: Bearer TOKEN`); only the bot's author or an admin may connect as it
//! ([`OwnedBot<Public>`]: no token 401, another author's bot 403, no such bot 404).
//!
//! The bot's latest version must be a remote one ([`BotKind::Remote`], registered with
//! `POST /api/bots` and `kind=remote`) that is validating or active (else 409). A bot has
//! at most `--max-connections` open connections (429 beyond). Each connection waits in the
//! server's hub ([`mjai_sim_runtime::remote::hub`]) and plays one game at a time: the first
//! connection of a validating version plays its validation games; an active version is
//! seated in league games only while it has a connection ([`Store::with_online`]). When its
//! last connection closes the bot is offline: its pending games are cancelled (nothing
//! waits for it) and it is scheduled again when it comes back. A connection lives only as
//! long as the token that opened it: revoking or rotating it hangs the connection up
//! within a second ([`super::jobs::credentials`]).
//!
//! The wire protocol after the upgrade is the one-game listener's (docs/protocol.md,
//! "Remote bots"): the same bounds on message size, writes, idleness and floods.

use axum::extract::ws::WebSocketUpgrade;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum::routing::get;
use axum::Router;

use super::auth::token_in;
use super::error::{ApiError, ErrorBody};
use super::jobs::credentials::Credential;
use super::owned::{OwnedBot, Public};
use super::params::BotPath;
use super::state::AppState;
use super::token::token_hash;
use mjai_sim_runtime::remote::limited;
use mjai_sim_tournament::leaderboard::BotStatus;
use mjai_sim_tournament::store::{BotKind, Store, VersionRow};

/// The routes of this module (each described in the OpenAPI document, [`super::openapi`]).
pub const ROUTES: [&str; 1] = ["/api/bots/{name}/connect"];

/// This module's routes.
pub fn router() -> Router<AppState> {
    Router::new().route(ROUTES[0], get(connect))
}

/// Handles `GET /api/bots/{name}/connect` (a WebSocket upgrade; refusals as the module
/// docs list, with the usual JSON error body).
#[utoipa::path(get, tag = "connect", path = "/api/bots/{name}/connect", params(BotPath), security(("bearer" = [])),
    summary = "A remote bot's WebSocket (issue 29): `mjai-sim connect` plays the bot from its author's machine",
    description = "Its author and admins only; the token in the Authorization header, never in the URL. The messages after the upgrade: docs/protocol.md, \"Remote bots\".",
    responses((status = 101, description = "Switching to the WebSocket protocol: the connection waits for a seat (validation games, then league games while connected)"),
        (status = 401, description = "no or unknown token", body = ErrorBody), (status = 403, description = "another author's bot", body = ErrorBody), (status = 404, description = "no such bot", body = ErrorBody),
        (status = 409, description = "the latest version is a zip, rejected or retired; or this server takes no remote bot (its league is played by workers)", body = ErrorBody), (status = 429, description = "the bot has --max-connections open connections already, or a rate limit", body = ErrorBody)))]
pub async fn connect(
    State(state): State<AppState>,
    bot: OwnedBot<Public>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    if let Some(why) = &state.settings.no_remote_bots {
        return Err(ApiError::new(StatusCode::CONFLICT, why.clone()));
    }
    let latest = bot.latest().clone();
    playable(&latest)?;
    let name = bot.name.as_str().to_string();
    let max = state.settings.max_connections;
    let open = state.hub.online(&name);
    if open >= max {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!("{name} has {open} open connection(s), the limit (--max-connections {max}); stop one bridge first"),
        ));
    }
    state.hub.allow(&name);
    let author = bot.author.0.name.clone();
    // the token the extractor found valid: the connection lives while it stays so
    let token_sha256 = token_in(&headers).map(token_hash).unwrap_or_default();
    let credential = Credential::Author { name: author.clone(), token_sha256 };
    Ok(limited(ws)
        .on_upgrade(move |socket| async move {
            let ended = match state.hub.attach_at_most(&name, socket, max) {
                Ok(attached) => {
                    state.credentials.watch(credential, attached.hang_up);
                    attached.ended
                }
                Err(e) => {
                    tracing::info!("remote connection for {name} refused: {e}");
                    return;
                }
            };
            let online = state.hub.online(&name);
            tracing::info!(target: super::AUDIT, event = "online", bot = %name, version = latest.version, author = %author, connections = online, "remote bot connected");
            if latest.status == BotStatus::Validating {
                state.validator.spawn(latest.clone()); // once, however many connections come
            }
            ended.wait().await; // bounded: by the connection's timeouts (idle, write, close).
            let online = state.hub.online(&name);
            tracing::info!(target: super::AUDIT, event = "offline", bot = %name, author = %author, connections = online, "remote connection closed");
            if online == 0 {
                if let Err(e) = gone_offline(&state.store, &name).await {
                    tracing::warn!("{name} went offline, but its pending games were not cancelled: {e:#}");
                }
            }
        }))
}

/// A connection may play `latest`: a remote version, validating or active. Errors: 409
/// naming what to do.
fn playable(latest: &VersionRow) -> Result<(), ApiError> {
    let (name, v) = (&latest.name, latest.version);
    let conflict = |text: String| Err(ApiError::new(StatusCode::CONFLICT, text));
    match (latest.kind, latest.status) {
        (BotKind::Zip, _) => conflict(format!(
            "{name} v{v} is an uploaded zip, played by the server; to play it from your machine register a remote version (POST /api/bots with kind=remote)"
        )),
        (BotKind::Remote, BotStatus::Validating | BotStatus::Active) => Ok(()),
        (BotKind::Remote, BotStatus::Rejected) => conflict(format!(
            "{name} v{v} was rejected ({}); register a new version (POST /api/bots with kind=remote) and connect again",
            latest.reason.as_deref().unwrap_or("no reason recorded")
        )),
        (BotKind::Remote, BotStatus::Suspended) => conflict(format!(
            "{name} v{v} is {}; register a new version (POST /api/bots with kind=remote) and connect again",
            latest.reason.as_deref().unwrap_or("suspended")
        )),
        (BotKind::RiichiDev, _) => conflict(format!(
            "{name} v{v} speaks riichi.dev's dialect: it connects to /ws/validate or /ws/ranked with its bot token"
        )),
        (BotKind::Remote, BotStatus::Retired) => {
            conflict(format!("{name} v{v} is retired; register a new version (POST /api/bots with kind=remote)"))
        }
    }
}

/// The last connection of remote bot `name` closed: its active version's pending games
/// are cancelled.
async fn gone_offline(store: &Store, name: &str) -> anyhow::Result<()> {
    let versions = store.versions().of(name).await?;
    let active = versions.iter().filter(|v| v.kind == BotKind::Remote && v.status == BotStatus::Active);
    for idx in active.filter_map(|v| v.bot_idx) {
        let cancelled = store.league().cancel_pending_of(idx).await?;
        if cancelled > 0 {
            tracing::info!("{name} is offline: {cancelled} pending game(s) cancelled");
        }
    }
    Ok(())
}
