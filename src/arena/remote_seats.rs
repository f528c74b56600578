//! The remote seats of one game (`remote:NAME` with `--listen ADDR`): a hub, a listener,
//! and one random token per seat.

use std::net::SocketAddr;
use std::time::Duration;

use super::launch::{BotSpec, RemoteSeats};
use crate::runtime::remote::hub::RemoteHub;
use crate::runtime::remote::listen::RemoteListener;

/// A game's listener for its remote seats; stops listening when dropped.
pub struct RemoteGame {
    /// What the game's launcher needs.
    pub seats: RemoteSeats,
    /// The listener (its address has the port chosen).
    pub listener: RemoteListener,
    /// Each remote seat's bot name and the command its author runs.
    pub commands: Vec<(u8, String, String)>,
}

/// Listens on `addr` when some of `bots` is `remote:NAME`, with a fresh token per seat;
/// `None` when none is. `wait`: how long a seat waits for its bridge per start (the start
/// timeout). Errors: one NAME in two seats (give each seat its own name), the address
/// cannot be bound.
pub async fn listen_for(bots: &[BotSpec], addr: SocketAddr, wait: Duration) -> anyhow::Result<Option<RemoteGame>> {
    let names: Vec<(u8, &str)> = (0u8..)
        .zip(bots)
        .filter_map(|(seat, b)| match b {
            BotSpec::Remote(name) => Some((seat, name.as_str())),
            _ => None,
        })
        .collect();
    if names.is_empty() {
        return Ok(None);
    }
    for (i, (_, name)) in names.iter().enumerate() {
        if names[..i].iter().any(|(_, n)| n == name) {
            anyhow::bail!("remote:{name} is in two seats; give each remote seat its own name (remote:{name}2)");
        }
    }
    let hub = RemoteHub::new();
    let listener = RemoteListener::bind(addr, hub.clone()).await?;
    let commands = names
        .iter()
        .map(|&(seat, name)| {
            let token = listener.add(name);
            (seat, name.to_string(), listener.command_line(name, &token))
        })
        .collect();
    Ok(Some(RemoteGame { seats: RemoteSeats { hub, wait }, listener, commands }))
}
