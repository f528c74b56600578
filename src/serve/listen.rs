//! The accept loop: HTTP/1.1 connections served with hyper, each with a bound on how long
//! its request headers may take to arrive (`--header-timeout`: a slowloris connection, or
//! an idle keep-alive one, is closed), a 32 KiB cap on the request head (431 over it), and
//! the peer address given to the router (rate limits per IP). Connections may be upgraded
//! (remote bots' WebSockets, `/api/bots/{name}/connect`): an upgraded connection leaves
//! this loop and lives under the remote hub's own timeouts. When `cancel` fires the
//! listener closes at once, connections finish the request in hand, and after [`DRAIN`]
//! those still open are dropped.

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

use crate::arena::cancel::CancelToken;

/// Longest wait for open connections after the listener closed.
pub const DRAIN: Duration = Duration::from_secs(10);

/// Largest request head (request line and headers), in bytes.
pub const MAX_HEAD_BYTES: usize = 32 * 1024;

/// Serves `app` on `listener` until `cancel` turns true.
pub async fn serve(listener: TcpListener, app: Router, header_timeout: Duration, mut cancel: CancelToken) {
    let connections = TaskTracker::new();
    loop {
        let (stream, peer) = tokio::select! {
            _ = cancel.wait_for(|c| *c) => break,
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                Err(e) => {
                    // out of file descriptors and the like: wait a little rather than spin
                    tracing::warn!("accept: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let app = app.clone();
        let service = TowerToHyperService::new(app.map_request(move |mut r: axum::http::Request<Incoming>| {
            r.extensions_mut().insert(ConnectInfo::<SocketAddr>(peer));
            r
        }));
        let conn = hyper::server::conn::http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(header_timeout)
            .max_buf_size(MAX_HEAD_BYTES.max(8192))
            .serve_connection(TokioIo::new(stream), service)
            .with_upgrades();
        let mut stop = cancel.clone();
        connections.spawn(async move {
            tokio::pin!(conn);
            let stopped = async move {
                let _ = stop.wait_for(|c| *c).await;
            };
            let result = tokio::select! {
                result = conn.as_mut() => result,
                _ = stopped => {
                    // finish the request in hand, then close (bounded: DRAIN, below)
                    conn.as_mut().graceful_shutdown();
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
    if tokio::time::timeout(DRAIN, connections.wait()).await.is_err() {
        tracing::warn!("connections still open after {} s were dropped", DRAIN.as_secs());
    }
}
