//! [`GameLines`]: one game's messages as it plays (`hand` at each `end_kyoku`, `bot-error`,
//! `bot-warning`, `restart`), as the arena's [`GameObserver`].

use std::io::{self, Write};

use super::Message;
use mjai_sim_arena::observer::{ErrorEntry, GameObserver};
use mjai_sim_arena::progress::HandTally;
pub use mjai_sim_arena::progress::{EndedHand as Hand, HandResult};
use mjai_sim_engine::event::Event;

/// Writes one game's messages, one JSON line each, to `out` (stdout in the command line).
pub struct GameLines<W: Write> {
    out: W,
    hands: HandTally,
}

impl<W: Write> GameLines<W> {
    /// Messages written to `out`.
    pub fn new(out: W) -> GameLines<W> {
        GameLines { out, hands: HandTally::default() }
    }

    /// The writer back (for tests).
    pub fn into_inner(self) -> W {
        self.out
    }
}

impl<W: Write> GameObserver for GameLines<W> {
    fn on_events(&mut self, events: &[Event]) -> io::Result<()> {
        for e in events {
            if let Some(hand) = self.hands.on_event(e) {
                Message::Hand(hand).write_to(&mut self.out)?;
            }
        }
        Ok(())
    }

    fn on_error(&mut self, entry: &ErrorEntry) -> io::Result<()> {
        Message::BotError(entry.clone()).write_to(&mut self.out)
    }

    fn on_warning(&mut self, entry: &ErrorEntry) -> io::Result<()> {
        Message::BotWarning(entry.clone()).write_to(&mut self.out)
    }

    fn on_restart(&mut self, restarts: u32) -> io::Result<()> {
        Message::Restart { restarts }.write_to(&mut self.out)
    }
}
