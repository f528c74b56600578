//! The author's side of a connection (`mjai-sim connect`, both wires): opening the
//! WebSocket (`ws://`, or `wss://` through `crate::tls` when built with the `tls` feature)
//! with the token, telling a final refusal from a passing outage, and the backoff between
//! tries ([`Reconnect`]).

use std::future::Future;
use std::time::Duration;

use tokio::time::Instant;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::handshake::client::{Request, Response};
use tokio_tungstenite::tungstenite::http::header::AUTHORIZATION;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Error as WsError;

#[cfg(feature = "tls")]
use crate::tls;
use mjai_sim_runtime::backoff::Doubling;
use mjai_sim_runtime::bounded::within;
use mjai_sim_runtime::remote::MAX_MESSAGE_BYTES;

/// Longest wait for the WebSocket handshake (TLS included).
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// The first wait before connecting again; it doubles after each failed try.
pub const FIRST_BACKOFF: Duration = Duration::from_millis(100);

/// The longest wait between two tries.
pub const MAX_BACKOFF: Duration = Duration::from_secs(5);

/// Characters of a refusal's message that are kept (a hostile server's body is not
/// printed whole).
const MESSAGE_CHARS: usize = 300;

/// An open connection.
pub type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Why a connection attempt failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConnectError {
    /// The server answered the handshake with an HTTP status other than 101: the status
    /// and its message (the `error` field of a JSON body, else the body's first line;
    /// empty when none), at most 300 characters.
    #[error("HTTP {status}{}", if message.is_empty() { String::new() } else { format!(": {message}") })]
    Refused {
        /// The HTTP status.
        status: u16,
        /// What the server said.
        message: String,
    },
    /// The URL or the token cannot be sent as they are (the reason).
    #[error("{0}")]
    Unusable(String),
    /// The TLS handshake failed: a certificate not trusted, a name that does not match
    /// (the reason).
    #[error("TLS: {0}")]
    Tls(String),
    /// No connection: nothing listening, no answer within [`CONNECT_TIMEOUT`], a
    /// connection dropped during the handshake (the reason).
    #[error("{0}")]
    Unreachable(String),
}

impl ConnectError {
    /// Whether trying again may succeed: no connection, a server error (5xx), or 429 (a
    /// rate limit, or a connection limit that an old connection still holds) or 408. Any
    /// other refusal (a token refused, a bot that cannot be played this way) and an
    /// unusable URL or TLS failure are final.
    pub fn is_transient(&self) -> bool {
        match self {
            ConnectError::Refused { status, .. } => *status >= 500 || matches!(status, 408 | 429),
            ConnectError::Unreachable(_) => true,
            ConnectError::Unusable(_) | ConnectError::Tls(_) => false,
        }
    }
}

/// Opens a WebSocket to `url` (`ws://` or `wss://`) with `Authorization: Bearer TOKEN`,
/// within [`CONNECT_TIMEOUT`]; messages and frames of at most [`MAX_MESSAGE_BYTES`].
/// Errors: [`ConnectError`].
pub async fn connect_to(url: &str, token: &str) -> Result<Ws, ConnectError> {
    let secure = match url.split_once("://").map(|(scheme, _)| scheme.to_ascii_lowercase()) {
        Some(scheme) if scheme == "ws" => false,
        Some(scheme) if scheme == "wss" => true,
        _ => return Err(ConnectError::Unusable(format!("`{url}` is not a ws:// or wss:// URL"))),
    };
    let mut request = url.into_client_request().map_err(|e| ConnectError::Unusable(format!("`{url}`: {e}")))?;
    let value = format!("Bearer {token}")
        .parse()
        .map_err(|_| ConnectError::Unusable("the token holds characters a header cannot carry".into()))?;
    request.headers_mut().insert(AUTHORIZATION, value);
    let config =
        WebSocketConfig::default().max_message_size(Some(MAX_MESSAGE_BYTES)).max_frame_size(Some(MAX_MESSAGE_BYTES));
    let connecting = handshake(request, config, secure)?;
    match within(CONNECT_TIMEOUT, "connecting", connecting).await {
        Ok(Ok((ws, _))) => Ok(ws),
        Ok(Err(WsError::Http(response))) => {
            let body = response.body().as_deref().unwrap_or_default();
            Err(ConnectError::Refused { status: response.status().as_u16(), message: message_of(body) })
        }
        Ok(Err(WsError::Tls(e))) => Err(ConnectError::Tls(e.to_string())),
        Ok(Err(WsError::Io(e))) if is_tls_failure(&e) => Err(ConnectError::Tls(e.to_string())),
        Ok(Err(e)) => Err(ConnectError::Unreachable(e.to_string())),
        Err(e) => Err(ConnectError::Unreachable(e.to_string())),
    }
}

/// The handshake of `request`: through TLS ([`crate::tls::client_config`]) when `secure`,
/// else plain. Errors: [`ConnectError::Unusable`] when the TLS configuration cannot be made.
#[cfg(feature = "tls")]
fn handshake(
    request: Request,
    config: WebSocketConfig,
    secure: bool,
) -> Result<impl Future<Output = Result<(Ws, Response), WsError>>, ConnectError> {
    use tokio_tungstenite::Connector;
    let connector = match secure {
        true => Connector::Rustls(tls::client_config().map_err(ConnectError::Unusable)?),
        false => Connector::Plain,
    };
    Ok(tokio_tungstenite::connect_async_tls_with_config(request, Some(config), true, Some(connector)))
}

/// Why a `wss://` URL cannot be reached by a build without the `tls` feature, and the fix.
pub const WITHOUT_TLS: &str = "this mjai-sim was built without TLS and cannot open a wss:// URL; \
    rebuild it with the `tls` feature (on by default; `cargo build --features tls`) or connect to a ws:// URL";

/// The handshake of `request`, plain: this build has no TLS (the `tls` feature is off).
/// Errors: [`ConnectError::Unusable`] ([`WITHOUT_TLS`]) when `secure`.
#[cfg(not(feature = "tls"))]
fn handshake(
    request: Request,
    config: WebSocketConfig,
    secure: bool,
) -> Result<impl Future<Output = Result<(Ws, Response), WsError>>, ConnectError> {
    if secure {
        return Err(ConnectError::Unusable(WITHOUT_TLS.into()));
    }
    Ok(tokio_tungstenite::connect_async_with_config(request, Some(config), true))
}

/// rustls reports a refused certificate as an I/O error wrapping its own error.
#[cfg(feature = "tls")]
fn is_tls_failure(e: &std::io::Error) -> bool {
    e.get_ref().is_some_and(|inner| inner.is::<rustls::Error>())
}

/// Without TLS no I/O error is a certificate's.
#[cfg(not(feature = "tls"))]
fn is_tls_failure(_: &std::io::Error) -> bool {
    false
}

/// The message of a refusal's body: the `error` field of a JSON object (the grading
/// server's error body), else the first line; control characters dropped, at most 300
/// characters.
pub fn message_of(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    let json = serde_json::from_str::<serde_json::Value>(&text).ok();
    let field = json.as_ref().and_then(|v| v.get("error")).and_then(|v| v.as_str()).map(str::to_string);
    let line = field.unwrap_or_else(|| text.lines().next().unwrap_or_default().to_string());
    line.chars().filter(|c| !c.is_control()).take(MESSAGE_CHARS).collect::<String>().trim().to_string()
}

/// How long to keep trying, and the backoff between tries.
#[derive(Debug)]
pub struct Reconnect {
    limit: Option<Duration>,
    since: Instant,
    backoff: Doubling,
}

impl Reconnect {
    /// Tries for at most `limit` without a connection (`None`: for ever).
    pub fn new(limit: Option<Duration>) -> Reconnect {
        Reconnect { limit, since: Instant::now(), backoff: Doubling::new(FIRST_BACKOFF, MAX_BACKOFF) }
    }

    /// A connection was made and has now ended: the next failure waits the first backoff,
    /// and the time without a connection counts from now.
    pub fn connected(&mut self) {
        self.since = Instant::now();
        self.backoff.reset();
    }

    /// A try failed with `error`: how long to wait before the next. Errors (one line with
    /// the fix): the refusal is final, or there has been no connection for the limit.
    pub fn failed(&mut self, url: &str, error: &ConnectError) -> anyhow::Result<Duration> {
        if !error.is_transient() {
            let fix = match error {
                ConnectError::Refused { status: 401 | 403, .. } => "; check the token",
                ConnectError::Refused { status: 404, .. } => "; check the URL",
                ConnectError::Tls(_) => "; a private certificate is trusted through SSL_CERT_FILE=PEM",
                _ => "",
            };
            match error {
                ConnectError::Unusable(why) => anyhow::bail!("cannot connect: {why}"),
                _ => anyhow::bail!("{url} refused the connection ({error}){fix}"),
            }
        }
        if let Some(limit) = self.limit {
            if self.since.elapsed() >= limit {
                anyhow::bail!(
                    "cannot reach {url} for {:.0} s ({error}); is it running? (--reconnect-for 0 keeps trying)",
                    limit.as_secs_f64()
                );
            }
        }
        Ok(self.backoff.next_delay())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_shows_the_servers_own_words() {
        let json = br#"{"error":"alice-bot v1 is an uploaded zip, played by the server"}"#;
        assert_eq!(message_of(json), "alice-bot v1 is an uploaded zip, played by the server");
        assert_eq!(message_of(b"invalid bot token\n"), "invalid bot token");
        assert_eq!(message_of(b""), "");
        let hostile = format!("{}\x1b[2J", "x".repeat(1000));
        assert_eq!(message_of(hostile.as_bytes()), "x".repeat(300));
    }

    #[test]
    fn only_outages_are_tried_again() {
        let refused = |status| ConnectError::Refused { status, message: String::new() };
        for status in [500, 502, 503, 429, 408] {
            assert!(refused(status).is_transient(), "{status}");
        }
        for status in [400, 401, 403, 404, 409, 426] {
            assert!(!refused(status).is_transient(), "{status}");
        }
        assert!(ConnectError::Unreachable("refused".into()).is_transient());
        assert!(!ConnectError::Tls("unknown issuer".into()).is_transient());
    }

    #[test]
    fn a_final_refusal_ends_at_once_and_an_outage_backs_off_up_to_the_cap() {
        let mut r = Reconnect::new(Some(Duration::from_secs(3600)));
        let conflict = ConnectError::Refused { status: 409, message: "is an uploaded zip".into() };
        let e = r.failed("ws://h/x", &conflict).unwrap_err().to_string();
        assert!(e.contains("HTTP 409: is an uploaded zip"), "{e}");
        let down = ConnectError::Unreachable("connection refused".into());
        let waits: Vec<Duration> = (0..10).map(|_| r.failed("ws://h/x", &down).unwrap()).collect();
        assert_eq!(waits[0], FIRST_BACKOFF);
        assert_eq!(waits[1], FIRST_BACKOFF * 2);
        assert_eq!(*waits.last().unwrap(), MAX_BACKOFF);
        r.connected();
        assert_eq!(r.failed("ws://h/x", &down).unwrap(), FIRST_BACKOFF);
        let mut gone = Reconnect::new(Some(Duration::ZERO));
        assert!(gone.failed("ws://h/x", &down).unwrap_err().to_string().contains("cannot reach ws://h/x"));
        assert!(Reconnect::new(None).failed("ws://h/x", &down).is_ok());
    }

    #[tokio::test]
    async fn a_url_that_is_not_a_websocket_is_refused_before_any_traffic() {
        let e = connect_to("http://127.0.0.1:9/ws/ranked", "t").await.unwrap_err();
        assert!(matches!(e, ConnectError::Unusable(_)), "{e:?}");
        let e = connect_to("ws://127.0.0.1:9/x", "bad\ntoken").await.unwrap_err();
        assert!(matches!(e, ConnectError::Unusable(_)), "{e:?}");
    }

    #[cfg(not(feature = "tls"))]
    #[tokio::test]
    async fn without_tls_a_wss_url_is_refused_with_the_fix_and_ws_is_still_dialed() {
        let e = connect_to("wss://127.0.0.1:9/ws/ranked", "t").await.unwrap_err();
        assert_eq!(e, ConnectError::Unusable(WITHOUT_TLS.into()));
        let e = Reconnect::new(None).failed("wss://127.0.0.1:9/ws/ranked", &e).unwrap_err().to_string();
        assert!(e.contains("`tls` feature") && !e.contains('\n'), "{e}");
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("ws://{}/x", listener.local_addr().unwrap());
        drop(listener);
        let e = connect_to(&url, "t").await.unwrap_err();
        assert!(matches!(e, ConnectError::Unreachable(_)), "{e:?}");
    }
}
