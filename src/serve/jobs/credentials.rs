//! Open connections live only as long as the token that opened them (issue 54): a remote
//! bot's WebSocket (`/api/bots/{name}/connect`, opened with its author's token) and a
//! riichi.dev bot's (`/ws/validate`, `/ws/ranked`, opened with its bot token) are hung up
//! once that token stops being valid: the author revoked or their token rotated (`serve
//! author revoke|rotate`, another process writing the same database), or the bot token
//! replaced (`POST /api/bots/{name}/token`). A riichi.dev bot's connection also ends when
//! its author is revoked.
//!
//! The watch looks every [`CHECK_EVERY`] while any connection is open, and at once when
//! this process changed a token ([`Credentials::recheck`]). A connection hung up mid-game
//! ends that game's seat as a bridge that vanished does (the seat's next exchange fails);
//! the bridge's reconnection is then refused with 401 and it stops.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mjai_sim_arena::cancel::Cancel;
use mjai_sim_runtime::remote::hub::HangUp;
use mjai_sim_runtime::BotError;
use mjai_sim_tournament::store::{is_revoked_hash, Store, StoreError};
use tokio::sync::Notify;

/// How often the open connections' tokens are checked against the store (a token revoked
/// by another process is noticed within this).
pub const CHECK_EVERY: Duration = Duration::from_secs(1);

/// The token a connection was opened with (its sha256, as stored).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Credential {
    /// An author's token (a remote bot's bridge: its author or an admin).
    Author {
        /// The author the token was the token of.
        name: String,
        /// Its sha256, hex.
        token_sha256: String,
    },
    /// A riichi.dev bot's bot token.
    Bot {
        /// The bot it names.
        bot: String,
        /// The bot's author (`None`: a house bot).
        author: Option<String>,
        /// Its sha256, hex.
        token_sha256: String,
    },
}

/// One watched connection.
struct Watched {
    credential: Credential,
    hang_up: HangUp,
}

/// The open connections and the tokens they were opened with (shared by the connect
/// handlers and the watch; cheap to share behind an `Arc`).
#[derive(Default)]
pub struct Credentials {
    open: Mutex<Vec<Watched>>,
    wake: Notify,
}

impl Credentials {
    /// Watches a connection opened with `credential`: it is hung up when that stops
    /// being valid.
    pub fn watch(&self, credential: Credential, hang_up: HangUp) {
        if let Ok(mut open) = self.open.lock() {
            open.retain(|w| !w.hang_up.is_ended());
            open.push(Watched { credential, hang_up });
        }
    }

    /// Checks every open connection now (this process changed a token).
    pub fn recheck(&self) {
        self.wake.notify_one();
    }

    /// The open connections' credentials (those that ended are forgotten).
    fn snapshot(&self) -> Vec<(Credential, HangUp)> {
        let Ok(mut open) = self.open.lock() else { return Vec::new() };
        open.retain(|w| !w.hang_up.is_ended());
        open.iter().map(|w| (w.credential.clone(), w.hang_up.clone())).collect()
    }

    /// One round: hangs up every open connection whose token is no longer valid. Returns
    /// how many were hung up. Errors: the store failed (nothing is hung up then).
    pub async fn check(&self, store: &Store) -> Result<usize, StoreError> {
        let open = self.snapshot();
        if open.is_empty() {
            return Ok(0);
        }
        let authors = store.authors().current_tokens().await?;
        let mut bots: HashMap<String, Option<String>> = HashMap::new();
        let mut hung = 0;
        for (credential, hang_up) in open {
            let why = match &credential {
                Credential::Author { name, token_sha256 } => (authors.get(name) != Some(token_sha256))
                    .then(|| format!("author {name}'s token was revoked or rotated")),
                Credential::Bot { bot, author, token_sha256 } => {
                    if !bots.contains_key(token_sha256) {
                        bots.insert(token_sha256.clone(), store.bot_tokens().bot_of(token_sha256).await?);
                    }
                    let revoked = author.as_deref().is_some_and(|a| is_revoked(&authors, a));
                    if bots.get(token_sha256).and_then(Option::as_deref) != Some(bot.as_str()) {
                        Some(format!("{bot}'s bot token was replaced"))
                    } else if revoked {
                        Some(format!("{bot}'s author was revoked"))
                    } else {
                        None
                    }
                }
            };
            if let Some(why) = why {
                tracing::info!(target: crate::AUDIT, event = "hung_up", reason = %why, "a connection's token is no longer valid: hung up");
                hang_up.hang_up(BotError::Transport(format!("{why}: the server hung up")));
                hung += 1;
            }
        }
        Ok(hung)
    }
}

/// Whether author `name` has no valid token in `current` ([`mjai_sim_tournament::store::Authors::current_tokens`]):
/// revoked, or gone.
pub fn is_revoked(current: &HashMap<String, String>, name: &str) -> bool {
    current.get(name).is_none_or(|t| is_revoked_hash(t))
}

/// The watch: checks every [`CHECK_EVERY`] (and at each [`Credentials::recheck`]) until
/// `cancel`. A failed check is logged and tried again at the next round.
pub async fn run(credentials: Arc<Credentials>, store: Store, cancel: Cancel) {
    let token = cancel.token();
    loop {
        tokio::select! {
            _ = token.cancelled() => return,
            _ = tokio::time::sleep(CHECK_EVERY) => {}
            _ = credentials.wake.notified() => {}
        }
        if let Err(e) = credentials.check(&store).await {
            tracing::warn!(
                "checking the open connections' tokens failed (tried again in {} s): {e}",
                CHECK_EVERY.as_secs()
            );
        }
    }
}
