//! The http transport (mjai.app-compatible): the image's relay listens on port 3000 in the
//! container and runs the bot; the host POSTs each batch and reads the answer.
//!
//! Network trade-off (Docker 20.10): a port cannot be published from an `internal` network
//! (Docker silently publishes nothing), and network mode `none` has no ports at all. So http
//! containers join one shared bridge network, `mjai-sim-http`, created with IP masquerading
//! off (no NAT: a bot's packets to the outside get no replies) and inter-container traffic
//! off (bots cannot reach each other). The relay's port is published on 127.0.0.1 only,
//! with an ephemeral host port, so parallel games never collide. Still weaker than stdio
//! (network `none`): a bot can reach the Docker host's own addresses on that bridge. Use
//! stdio for untrusted bots where mjai.app compatibility is not needed.

use std::collections::HashMap;
use std::time::Duration;

use bollard::models::NetworkCreateRequest;
use bollard::query_parameters::ListNetworksOptions;
use bollard::Docker;
use tokio::time::Instant;

use super::hardening::RELAY_PORT;
use super::stdio::Failure;
use super::{DockerError, LABEL_GAME};
use crate::backoff::Doubling;
use crate::BotError;

/// Name of the shared bridge network of http containers.
pub const HTTP_NETWORK: &str = "mjai-sim-http";

/// Returns the id of the http network, creating it when missing.
///
/// Runs that start at once may each create one: Docker allows two networks of one name,
/// and then refuses to start any container on either ("network mjai-sim-http is
/// ambiguous"). So every run settles on the network created first (a network created
/// later can never become the first, so all runs agree) and removes the others that no
/// container uses; a duplicate still in use (by a run that chose otherwise) is left to
/// `mjai-sim cleanup`.
///
/// Errors: [`DockerError::Api`].
pub async fn ensure_network(docker: &Docker) -> Result<String, DockerError> {
    let api = |doing: &'static str| move |e: bollard::errors::Error| DockerError::Api { doing, cause: e.to_string() };
    let existing = || async {
        let filters = HashMap::from([("name".to_string(), vec![HTTP_NETWORK.to_string()])]);
        let networks = docker
            .list_networks(Some(ListNetworksOptions { filters: Some(filters) }))
            // bounded: Docker client timeout.
            .await
            .map_err(api("listing networks"))?;
        let mut found: Vec<(CreationKey, String)> = networks
            .into_iter()
            .filter(|n| n.name.as_deref() == Some(HTTP_NETWORK))
            .filter_map(|n| Some((creation_key(n.created.as_deref().unwrap_or("")), n.id?)))
            .collect();
        found.sort();
        Ok::<_, DockerError>(found.into_iter().map(|(_, id)| id).collect::<Vec<_>>())
    };
    // bounded: Docker client timeout.
    let mut networks = existing().await?;
    if networks.is_empty() {
        let request = NetworkCreateRequest {
            name: HTTP_NETWORK.to_string(),
            driver: Some("bridge".into()),
            internal: Some(false),
            options: Some(HashMap::from([
                ("com.docker.network.bridge.enable_ip_masquerade".to_string(), "false".to_string()),
                ("com.docker.network.bridge.enable_icc".to_string(), "false".to_string()),
            ])),
            labels: Some(HashMap::from([(LABEL_GAME.to_string(), "shared".to_string())])),
            ..Default::default()
        };
        // bounded: Docker client timeout.
        docker.create_network(request).await.map_err(api("creating the http network"))?;
        // bounded: Docker client timeout.
        networks = existing().await?;
    }
    let mut networks = networks.into_iter();
    let first = networks
        .next()
        .ok_or(DockerError::Api { doing: "creating the http network", cause: "not found after creation".into() })?;
    for duplicate in networks {
        // bounded: Docker client timeout.
        if let Err(e) = docker.remove_network(&duplicate).await {
            tracing::debug!("duplicate http network {duplicate} kept: {e}");
        }
    }
    Ok(first)
}

/// Orders networks by creation time: Docker's RFC 3339 time with its fraction padded to
/// nanoseconds (Docker drops trailing zeros, so the text alone does not sort).
type CreationKey = (String, String);

fn creation_key(created: &str) -> CreationKey {
    let (head, tail) = created.split_once('.').unwrap_or((created.get(..19).unwrap_or(created), ""));
    let digits: String = tail.chars().take_while(char::is_ascii_digit).collect();
    (head.to_string(), format!("{digits:0<9}"))
}

/// The host port Docker picked for the relay of container `id`.
///
/// Errors: [`DockerError::Api`] when the container has no published relay port.
pub async fn host_port(docker: &Docker, id: &str) -> Result<u16, DockerError> {
    let info = docker
        .inspect_container(id, None)
        // bounded: Docker client timeout.
        .await
        .map_err(|e| DockerError::Api { doing: "inspecting a container", cause: e.to_string() })?;
    info.network_settings
        .and_then(|n| n.ports)
        .and_then(|mut ports| ports.remove(RELAY_PORT))
        .flatten()
        .into_iter()
        .flatten()
        .find_map(|b| b.host_port.and_then(|p| p.parse().ok()))
        .ok_or(DockerError::Api { doing: "finding the relay port", cause: "port 3000 is not published".into() })
}

/// Turns the relay's "bot exited with code C" into the runtime's wording ("exit code 4",
/// "killed by signal 9 (SIGKILL)"; Python reports a signal as a negative code).
pub fn relay_exit(text: &str) -> String {
    match text.trim().strip_prefix("bot exited with code ").and_then(|c| c.parse::<i32>().ok()) {
        Some(code) if code < 0 => format!("killed by signal {}{}", -code, crate::process::signal_name(-code)),
        Some(code) => format!("exit code {code}"),
        None => text.trim().to_string(),
    }
}

/// Reads a response body chunk by chunk, never holding more than `limit` bytes (plus one
/// chunk): a longer body is [`BotError::Oversized`] as soon as it passes the limit, however
/// long the relay keeps sending. A trailing newline is not counted.
async fn read_capped(mut response: reqwest::Response, limit: usize, timeout: Duration) -> Result<Vec<u8>, Failure> {
    let mut body = Vec::new();
    loop {
        // bounded: the request timeout covers the body.
        match response.chunk().await {
            Ok(Some(chunk)) => {
                body.extend_from_slice(&chunk);
                if body.len() > limit + 1 {
                    return Err(Failure::Bot(BotError::Oversized(limit)));
                }
            }
            Ok(None) => break,
            Err(e) if e.is_timeout() => return Err(Failure::Bot(BotError::Timeout(timeout.as_secs_f64()))),
            Err(_) => return Err(Failure::Ended),
        }
    }
    if body.last() == Some(&b'\n') {
        body.pop();
    }
    if body.len() > limit {
        return Err(Failure::Bot(BotError::Oversized(limit)));
    }
    Ok(body)
}

/// The host side of one http conversation.
pub struct HttpConn {
    client: reqwest::Client,
    url: String,
    line_limit: usize,
}

impl HttpConn {
    /// A connection to the relay at `127.0.0.1:port` (never through a proxy).
    pub fn new(port: u16, line_limit: usize) -> HttpConn {
        let client =
            reqwest::Client::builder().no_proxy().tcp_nodelay(true).build().unwrap_or_else(|_| reqwest::Client::new());
        HttpConn { client, url: format!("http://127.0.0.1:{port}/"), line_limit }
    }

    /// Polls `GET /` until the relay answers 200 or `deadline` passes; backs off from 5 ms
    /// to 100 ms between attempts. Returns false on timeout or when the relay reports the
    /// bot has exited.
    pub async fn wait_ready(&self, deadline: Instant) -> bool {
        let mut pause = Doubling::new(Duration::from_millis(5), Duration::from_millis(100));
        while Instant::now() < deadline {
            // bounded: 2 s per attempt, until the deadline.
            let attempt = self.client.get(&self.url).timeout(Duration::from_secs(2)).send().await;
            match attempt {
                Ok(r) if r.status().is_success() => return true,
                Ok(r) if r.status().as_u16() == 503 => return false,
                _ => {}
            }
            // bounded: until the deadline.
            tokio::time::sleep(pause.next_delay().min(deadline.saturating_duration_since(Instant::now()))).await;
        }
        false
    }

    /// POSTs one batch and returns the relay's answer line.
    pub async fn exchange(&self, line: &str, timeout: Duration) -> Result<String, Failure> {
        // bounded: the request timeout.
        let sent = self.client.post(&self.url).body(line.to_string()).timeout(timeout).send().await;
        let response = match sent {
            Ok(r) => r,
            Err(e) if e.is_timeout() => return Err(Failure::Bot(BotError::Timeout(timeout.as_secs_f64()))),
            Err(_) => return Err(Failure::Ended),
        };
        let status = response.status().as_u16();
        // bounded: the request timeout covers the body.
        let body = read_capped(response, self.line_limit, timeout).await?;
        match status {
            200 => String::from_utf8(body).map_err(|_| Failure::Bot(BotError::InvalidUtf8)),
            502 => Err(Failure::Bot(BotError::Oversized(self.line_limit))),
            // The relay outlives the bot: its 503 text says how the bot ended.
            503 => Err(Failure::Bot(BotError::Crashed(relay_exit(&String::from_utf8_lossy(&body))))),
            other => Err(Failure::Bot(BotError::Transport(format!(
                "relay answered {other}: {}",
                String::from_utf8_lossy(&body)
            )))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// A relay stand-in on 127.0.0.1 that answers 200 with a body that never ends.
    async fn endless_relay() -> u16 {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        tokio::spawn(async move {
            let (mut socket, _) = listener.accept().await.unwrap();
            let mut request = [0u8; 4096];
            let _ = socket.read(&mut request).await;
            let head = "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ntransfer-encoding: chunked\r\n\r\n";
            if socket.write_all(head.as_bytes()).await.is_err() {
                return;
            }
            let chunk = format!("{:x}\r\n{}\r\n", 4096, "a".repeat(4096));
            while socket.write_all(chunk.as_bytes()).await.is_ok() {}
        });
        port
    }

    #[test]
    fn networks_sort_by_creation_time_whatever_the_fraction_length() {
        let mut created = [
            "2026-11-25T10:08:01.5Z",
            "2026-11-25T10:08:01.123456789Z",
            "2026-11-25T10:08:01Z",
            "2026-11-25T10:07:59.9Z",
        ]
        .map(creation_key);
        created.sort();
        let order: Vec<String> = created.iter().map(|(h, f)| format!("{h}.{f}")).collect();
        assert_eq!(
            order,
            [
                "2026-11-25T10:07:59.900000000",
                "2026-11-25T10:08:01.000000000",
                "2026-11-25T10:08:01.123456789",
                "2026-11-25T10:08:01.500000000"
            ]
        );
    }

    #[tokio::test]
    async fn an_endless_body_is_oversized_at_the_limit_not_read_to_the_timeout() {
        let conn = HttpConn::new(endless_relay().await, 64 * 1024);
        let answer = conn.exchange("[]", Duration::from_secs(30)).await;
        assert!(matches!(answer, Err(Failure::Bot(BotError::Oversized(65536)))), "{:?}", answer.err().map(|_| ()));
    }
}
