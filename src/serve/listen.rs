//! The grading server's listener: the program's one accept loop
//! ([`mjai_sim_runtime::accept`]) with the server's cap on the request head and its
//! `--header-timeout`; graceful shutdown when `cancel` fires (connections finish the
//! request in hand, those still open after [`DRAIN`] are dropped).

use std::time::Duration;

use axum::Router;
use tokio::net::TcpListener;

use mjai_sim_runtime::accept::{self, AcceptOptions};
pub use mjai_sim_runtime::accept::{DRAIN, MAX_HEAD_BYTES};
use mjai_sim_runtime::cancel::CancelToken;

/// Serves `app` on `listener` until `cancel` fires.
pub async fn serve(listener: TcpListener, app: Router, header_timeout: Duration, cancel: CancelToken) {
    let options = AcceptOptions { header_timeout, max_head_bytes: MAX_HEAD_BYTES, nodelay: false };
    accept::serve(listener, app, options, cancel).await;
}
