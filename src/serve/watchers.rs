//! Who is watching running games live ([`Watchers`]): the open streams of
//! `GET /api/games/{id}/live` ([`super::live_stream`]), bounded in all and per address, and the
//! server's stop, which ends them.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use mjai_sim_arena::cancel::CancelToken;

/// Streams open at once on the server.
pub const MAX_WATCHERS: usize = 256;
/// Streams open at once from one IP address.
pub const MAX_PER_IP: usize = 8;

/// Who is watching: open streams in all and per address, and the server's stop (which
/// ends every stream).
pub struct Watchers {
    open: Mutex<HashMap<IpAddr, usize>>,
    stop: CancelToken,
}

impl Watchers {
    /// No one yet; streams end when `stop` turns true.
    pub fn new(stop: CancelToken) -> Watchers {
        Watchers { open: Mutex::new(HashMap::new()), stop }
    }

    /// The server's stop: true once it stops (every stream ends then).
    pub fn stop(&self) -> CancelToken {
        self.stop.clone()
    }

    /// A place for one more stream from `ip`, held until the guard drops; `None` over a limit.
    pub fn admit(self: &Arc<Self>, ip: IpAddr) -> Option<Admission> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let total: usize = open.values().sum();
        let mine = open.get(&ip).copied().unwrap_or(0);
        if total >= MAX_WATCHERS || mine >= MAX_PER_IP {
            return None; // and no entry kept for a refused address
        }
        open.insert(ip, mine + 1);
        Some(Admission { watchers: self.clone(), ip })
    }
}

/// One admitted stream; gives its place back when dropped (the client went away).
pub struct Admission {
    watchers: Arc<Watchers>,
    ip: IpAddr,
}

impl Drop for Admission {
    fn drop(&mut self) {
        let mut open = self.watchers.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = open.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.ip);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_are_bounded_per_address_and_in_all_and_come_back_when_dropped() {
        let w = Arc::new(Watchers::new(CancelToken::new()));
        let ip = |n: u32| IpAddr::from(std::net::Ipv4Addr::from(0x7f00_0000 + n));
        let mine: Vec<Admission> = (0..MAX_PER_IP).map(|_| w.admit(ip(1)).expect("under the limit")).collect();
        assert!(w.admit(ip(1)).is_none(), "one over the per-address limit");
        drop(mine);
        assert!(w.open.lock().unwrap().is_empty(), "every place given back");
        let all: Vec<Admission> =
            (0..MAX_WATCHERS).map(|n| w.admit(ip(n as u32 / 4)).expect("under the limit")).collect();
        assert!(w.admit(ip(100_000)).is_none(), "one over the server's limit");
        assert!(!w.open.lock().unwrap().contains_key(&ip(100_000)), "a refused address leaves nothing");
        drop(all);
        assert!(w.admit(ip(100_000)).is_some());
    }
}
