//! The game side's own listener for remote bots (`--listen ADDR`): one route,
//! `GET /remote/{NAME}` upgraded to a WebSocket when its `Authorization: Bearer TOKEN`
//! header holds NAME's token; the connection then goes to the [`RemoteHub`].
//!
//! Refusals: no token 401, a wrong token (another seat's) 403, an unknown name 404, more
//! than [`MAX_CONNECTIONS_PER_ADDRESS`] open connections from one address 429. A request
//! head slower than [`HEADER_TIMEOUT`] is dropped. Messages are capped at
//! [`MAX_MESSAGE_BYTES`] (fragments included).

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};

use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{ConnectInfo, Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use tokio::net::TcpListener;

use super::hub::RemoteHub;
use super::token::{bearer, random_token, same_token};
use super::{limited, refuse, ALREADY_CONNECTED, ALREADY_CONNECTED_CLOSE, BAD_TOKEN_CLOSE, RANKED_PATH};
use super::{HEADER_TIMEOUT, MAX_CONNECTIONS_PER_ADDRESS};
use crate::accept::{self, AcceptOptions};
use crate::cancel::CancelToken;

struct Shared {
    hub: Arc<RemoteHub>,
    tokens: Mutex<HashMap<String, String>>,
    /// riichi.dev dialect bots: token → name (the token alone names the bot).
    riichi_dev: Mutex<Vec<(String, String)>>,
    open: Mutex<HashMap<IpAddr, usize>>,
}

/// A listening socket serving remote bots to a [`RemoteHub`] through the program's one
/// accept loop ([`crate::accept`]); stops listening when dropped (requests in hand finish,
/// upgraded connections go on until they end).
pub struct RemoteListener {
    addr: SocketAddr,
    shared: Arc<Shared>,
    stop: CancelToken,
}

impl RemoteListener {
    /// Listens on `addr` (port 0: any free port) for `hub`. Errors: the address cannot be
    /// bound (in use, not local, no permission).
    pub async fn bind(addr: SocketAddr, hub: Arc<RemoteHub>) -> std::io::Result<RemoteListener> {
        // bounded: a local bind.
        let listener = TcpListener::bind(addr).await.map_err(|e| {
            std::io::Error::new(
                e.kind(),
                format!("cannot listen on {addr} for remote bots ({e}); choose another --listen"),
            )
        })?;
        let addr = listener.local_addr()?;
        let shared = Arc::new(Shared {
            hub,
            tokens: Mutex::new(HashMap::new()),
            riichi_dev: Mutex::new(Vec::new()),
            open: Mutex::new(HashMap::new()),
        });
        let app = Router::new()
            .route("/remote/{name}", get(upgrade))
            .route(RANKED_PATH, get(upgrade_riichi_dev))
            .with_state(shared.clone());
        let stop = CancelToken::new();
        let options =
            AcceptOptions { header_timeout: HEADER_TIMEOUT, max_head_bytes: accept::MAX_HEAD_BYTES, nodelay: true };
        tokio::spawn(accept::serve(listener, app, options, stop.clone()));
        Ok(RemoteListener { addr, shared, stop })
    }

    /// The address listened on (with the port chosen).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// Allows remote bot `name` with a fresh random token and returns the token.
    pub fn add(&self, name: &str) -> String {
        let token = random_token();
        self.add_with_token(name, &token);
        token
    }

    /// Allows remote bot `name` with `token` (e.g. its author's).
    pub fn add_with_token(&self, name: &str, token: &str) {
        self.shared.hub.allow(name);
        if let Ok(mut tokens) = self.shared.tokens.lock() {
            tokens.insert(name.to_string(), token.to_string());
        }
    }

    /// Allows riichi.dev dialect bot `name` (`riichilab:NAME`) with a fresh random token and
    /// returns the token; it connects to [`RemoteListener::ranked_url`].
    pub fn add_riichi_dev(&self, name: &str) -> String {
        let token = random_token();
        self.shared.hub.allow_one_game(name);
        if let Ok(mut riichi_dev) = self.shared.riichi_dev.lock() {
            riichi_dev.push((token.clone(), name.to_string()));
        }
        token
    }

    /// The URL a riichi.dev dialect bot connects to: `ws://ADDR/ws/ranked`.
    pub fn ranked_url(&self) -> String {
        format!("ws://{}{RANKED_PATH}", self.addr)
    }

    /// The URL a bridge connects to for `name`: `ws://ADDR/remote/NAME`.
    pub fn url(&self, name: &str) -> String {
        format!("ws://{}/remote/{name}", self.addr)
    }

    /// The command its author runs for `name`, BOT left to fill in:
    /// `mjai-sim connect ws://ADDR/remote/NAME --token TOKEN BOT`.
    pub fn command_line(&self, name: &str, token: &str) -> String {
        format!("mjai-sim connect {} --token {token} BOT", self.url(name))
    }
}

impl Drop for RemoteListener {
    fn drop(&mut self) {
        self.stop.cancel();
    }
}

/// One open connection counted against its address; uncounted on drop.
struct Permit {
    shared: Arc<Shared>,
    ip: IpAddr,
}

impl Permit {
    fn take(shared: &Arc<Shared>, ip: IpAddr) -> Option<Permit> {
        let mut open = shared.open.lock().ok()?;
        let n = open.entry(ip).or_insert(0);
        if *n >= MAX_CONNECTIONS_PER_ADDRESS {
            return None;
        }
        *n += 1;
        Some(Permit { shared: shared.clone(), ip })
    }
}

impl Drop for Permit {
    fn drop(&mut self) {
        if let Ok(mut open) = self.shared.open.lock() {
            if let Some(n) = open.get_mut(&self.ip) {
                *n = n.saturating_sub(1);
                if *n == 0 {
                    open.remove(&self.ip);
                }
            }
        }
    }
}

async fn upgrade(
    State(shared): State<Arc<Shared>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(name): Path<String>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Response {
    let expected = shared.tokens.lock().ok().and_then(|t| t.get(&name).cloned());
    let Some(expected) = expected else {
        return (StatusCode::NOT_FOUND, "no such remote bot\n").into_response();
    };
    let Some(given) = bearer(&headers) else {
        return (StatusCode::UNAUTHORIZED, "send the seat's token as `Authorization: Bearer TOKEN`\n").into_response();
    };
    if !same_token(given, &expected) {
        return (StatusCode::FORBIDDEN, "wrong token for this remote bot\n").into_response();
    }
    let Some(permit) = Permit::take(&shared, peer.ip()) else {
        return (StatusCode::TOO_MANY_REQUESTS, "too many connections from this address\n").into_response();
    };
    let hub = shared.hub.clone();
    limited(ws).on_upgrade(move |socket| async move {
        match hub.attach(&name, socket) {
            Ok(attached) => attached.ended.wait().await, // bounded: by the connection's timeouts.
            Err(e) => tracing::info!("remote connection from {peer} refused: {e}"),
        }
        drop(permit);
    })
}

/// `GET /ws/ranked` of riichi.dev's dialect: the bearer token names the bot. No or an
/// unknown token: upgraded and closed with 1008; the bot already has a connection: closed
/// with 1013 and riichi.dev's words (riichi.dev's server refuses so).
async fn upgrade_riichi_dev(
    State(shared): State<Arc<Shared>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Response {
    let Some(given) = bearer(&headers) else {
        return refuse(ws, BAD_TOKEN_CLOSE, "send the bot's token as `Authorization: Bearer TOKEN`");
    };
    let name = shared.riichi_dev.lock().ok().and_then(|d| {
        // every entry is compared, so the time does not tell which one matched
        d.iter().fold(None, |found, (token, name)| if same_token(given, token) { Some(name.clone()) } else { found })
    });
    let Some(name) = name else {
        return refuse(ws, BAD_TOKEN_CLOSE, "invalid bot token");
    };
    let Some(permit) = Permit::take(&shared, peer.ip()) else {
        return (StatusCode::TOO_MANY_REQUESTS, "too many connections from this address\n").into_response();
    };
    let Some(claim) = shared.hub.claim(&name) else {
        return refuse(ws, ALREADY_CONNECTED_CLOSE, ALREADY_CONNECTED);
    };
    let hub = shared.hub.clone();
    limited(ws).on_upgrade(move |socket| async move {
        match hub.attach_at_most(&name, socket, 1) {
            Ok(attached) => attached.ended.wait().await, // bounded: by the connection's timeouts.
            Err(e) => tracing::info!("riichilab connection from {peer} refused: {e}"),
        }
        drop((claim, permit));
    })
}
