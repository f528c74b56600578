//! The remote seats of one game or tournament (`remote:NAME` with `--listen ADDR`): a hub,
//! a listener, and one random token per remote bot.

use std::net::SocketAddr;
use std::time::Duration;

use super::launch::{BotSpec, RemoteSeats};
use mjai_sim_runtime::remote::hub::RemoteHub;
use mjai_sim_runtime::remote::listen::RemoteListener;

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
            BotSpec::Remote(name) | BotSpec::RiichiDev(name) => Some(name.clone()),
            _ => None,
        })
        .collect();
    for (i, name) in names.iter().enumerate() {
        if names[..i].contains(name) {
            anyhow::bail!("{name} is in two seats; give each remote seat its own name ({name}2)");
        }
    }
    let riichi_dev: Vec<String> = bots
        .iter()
        .filter_map(|b| match b {
            BotSpec::RiichiDev(name) => Some(name.clone()),
            _ => None,
        })
        .collect();
    let bridged: Vec<String> = names.into_iter().filter(|n| !riichi_dev.contains(n)).collect();
    listen_for_kinds(&bridged, &riichi_dev, addr, wait, Duration::ZERO).await
}

/// Listens on `addr` for the remote bots `names` (one fresh token each); `None` when
/// `names` is empty. Errors: the address cannot be bound.
pub async fn listen_for_names(
    names: &[String],
    addr: SocketAddr,
    wait: Duration,
) -> anyhow::Result<Option<RemoteGame>> {
    listen_for_kinds(names, &[], addr, wait, Duration::ZERO).await
}

/// Listens on `addr` for the bridged remote bots `names` (`remote:NAME`) and the riichi.dev
/// dialect bots `riichi_dev` (`riichilab:NAME`), one fresh token each; `None` when both are
/// empty. A dialect bot's line is its URL and token: `ws://ADDR/ws/ranked --token TOKEN`.
/// `busy_wait`: how long a game waits for a bot whose connections all play elsewhere (a
/// dialect bot plays one game per connection and reconnects for the next: a tournament
/// playing games at once gives the whole-game bound). Errors: the address cannot be bound.
pub async fn listen_for_kinds(
    names: &[String],
    riichi_dev: &[String],
    addr: SocketAddr,
    wait: Duration,
    busy_wait: Duration,
) -> anyhow::Result<Option<RemoteGame>> {
    if names.is_empty() && riichi_dev.is_empty() {
        return Ok(None);
    }
    let hub = RemoteHub::with_busy_wait(busy_wait);
    let listener = RemoteListener::bind(addr, hub.clone()).await?;
    let mut commands: Vec<(String, String)> = names
        .iter()
        .map(|name| {
            let token = listener.add(name);
            (name.clone(), listener.command_line(name, &token))
        })
        .collect();
    for name in riichi_dev {
        let token = listener.add_riichi_dev(name);
        commands.push((name.clone(), format!("{} --token {token}", listener.ranked_url())));
    }
    Ok(Some(RemoteGame { seats: RemoteSeats { hub, wait }, listener, commands }))
}
