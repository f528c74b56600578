//! The one HTTP/1.1 accept loop of the program, for both servers: the grading server
//! (`mjai-sim serve`) and the game side's listener for remote bots (`--listen`).
//!
//! Each connection is served with hyper under a bound on how long its request head may
//! take to arrive ([`AcceptOptions::header_timeout`]: a slowloris connection, or an idle
//! keep-alive one, is closed), a cap on the request head
//! ([`AcceptOptions::max_head_bytes`], 431 over it), and the peer address given to the
//! router as `ConnectInfo<SocketAddr>` (rate limits and per-address limits). Connections
//! may be upgraded (WebSockets): an upgraded connection leaves this loop and lives under
//! its own timeouts. Graceful shutdown: when `stop` fires the listener closes at once,
//! connections finish the request in hand, and after [`DRAIN`] those still open are
//! dropped.

use std::net::SocketAddr;
use std::time::Duration;

use axum::extract::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio_util::task::TaskTracker;
use tower::ServiceExt;

use crate::cancel::CancelToken;

/// Longest wait for open connections after the listener closed.
pub const DRAIN: Duration = Duration::from_secs(10);

/// Largest request head (request line and headers) both servers take, in bytes.
pub const MAX_HEAD_BYTES: usize = 32 * 1024;

/// How connections are served.
#[derive(Debug, Clone, Copy)]
pub struct AcceptOptions {
    /// Longest time a request head may take to arrive (seconds in the servers' flags).
    pub header_timeout: Duration,
    /// Largest request head (request line and headers), in bytes.
    pub max_head_bytes: usize,
    /// Disable Nagle's algorithm (the remote bots' listener: one small line per move).
    pub nodelay: bool,
}

/// Serves `app` on `listener` until `stop` fires, then drains (at most [`DRAIN`]).
pub async fn serve(listener: TcpListener, app: Router, options: AcceptOptions, stop: CancelToken) {
    let connections = TaskTracker::new();
    loop {
        let (stream, peer) = tokio::select! {
            _ = stop.cancelled() => break,
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                Err(e) => {
                    // out of file descriptors and the like: wait a little rather than spin
                    tracing::warn!("accept: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await; // bounded: 50 ms.
                    continue;
                }
            },
        };
        if options.nodelay {
            let _ = stream.set_nodelay(true);
        }
        let service = TowerToHyperService::new(app.clone().map_request(move |mut r: axum::http::Request<Incoming>| {
            r.extensions_mut().insert(ConnectInfo::<SocketAddr>(peer));
            r
        }));
        let conn = hyper::server::conn::http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(options.header_timeout)
            .max_buf_size(options.max_head_bytes.max(8192))
            .serve_connection(TokioIo::new(stream), service)
            .with_upgrades();
        let stop = stop.clone();
        connections.spawn(async move {
            tokio::pin!(conn);
            // bounded: the head by header_timeout; after `stop`, by DRAIN below
            let result = tokio::select! {
                result = conn.as_mut() => result,
                _ = stop.cancelled() => {
                    // finish the request in hand, then close
                    conn.as_mut().graceful_shutdown();
                    // bounded: the request in hand; the drain below bounds them all
                    conn.await
                }
            };
            if let Err(e) = result {
                tracing::debug!("connection from {peer}: {e}");
            }
        });
    }
    drop(listener);
    connections.close();
    // bounded: DRAIN
    if tokio::time::timeout(DRAIN, connections.wait()).await.is_err() {
        tracing::warn!("connections still open after {} s were dropped", DRAIN.as_secs());
    }
}
