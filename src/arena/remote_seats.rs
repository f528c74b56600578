//! The remote seats of one game or tournament (`remote:NAME` with `--listen ADDR`): a hub,
//! a listener, and one random token per remote bot.

use std::net::SocketAddr;
use std::time::Duration;

use super::launch::{BotSpec, RemoteSeats};
use crate::runtime::remote::hub::RemoteHub;
use crate::runtime::remote::listen::RemoteListener;

/// A listener for the remote seats of a game or a tournament; stops listening when dropped.
pub struct RemoteGame {
    /// What the games' launchers need.
    pub seats: RemoteSeats,
    /// The listener (its address has the port chosen).
    pub listener: RemoteListener,
    /// Each remote bot's name and the command its author runs.
    pub commands: Vec<(String, String)>,
}

/// Listens on `addr` when some of `bots` is `remote:NAME`, with a fresh token per seat;
/// `None` when none is. `wait`: how long a seat waits for its bridge per start (the start
/// timeout). Errors: one NAME in two seats (give each seat its own name), the address
/// cannot be bound.
pub async fn listen_for(bots: &[BotSpec], addr: SocketAddr, wait: Duration) -> anyhow::Result<Option<RemoteGame>> {
    let names: Vec<String> = bots
        .iter()
        .filter_map(|b| match b {
            BotSpec::Remote(name) => Some(name.clone()),
            _ => None,
        })
        .collect();
    for (i, name) in names.iter().enumerate() {
        if names[..i].contains(name) {
            anyhow::bail!("remote:{name} is in two seats; give each remote seat its own name (remote:{name}2)");
        }
    }
    listen_for_names(&names, addr, wait).await
}

/// Listens on `addr` for the remote bots `names` (one fresh token each); `None` when
/// `names` is empty. Errors: the address cannot be bound.
pub async fn listen_for_names(
    names: &[String],
    addr: SocketAddr,
    wait: Duration,
) -> anyhow::Result<Option<RemoteGame>> {
    if names.is_empty() {
        return Ok(None);
    }
    let hub = RemoteHub::new();
    let listener = RemoteListener::bind(addr, hub.clone()).await?;
    let commands = names
        .iter()
        .map(|name| {
            let token = listener.add(name);
            (name.clone(), listener.command_line(name, &token))
        })
        .collect();
    Ok(Some(RemoteGame { seats: RemoteSeats { hub, wait }, listener, commands }))
}
