//! What each seat has seen, and the lines it receives.
//!
//! A seat is written to only when it must act or at the end of a hand or game. Each line
//! holds every event since the seat's previous line, masked for it
//! ([`Event::masked_for`]), as one JSON array in the table's wire form
//! ([`batch_line_for`]: three entries per seat array at a three-player table). Per seat, a cursor into the
//! unmasked log marks the first event the seat has not received.

use mjai_sim_engine::event::{batch_line_for, Event, Seat};
use mjai_sim_engine::game::{Players, MAX_SEATS};

/// Per-seat cursors into the game log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Relay {
    cursors: [usize; MAX_SEATS],
}

impl Relay {
    /// All seats positioned at `index` of the log: 1 right after `start_game` at the start of
    /// a game, or the index of the current `start_kyoku` after a restart.
    pub fn at(index: usize) -> Relay {
        Relay { cursors: [index; MAX_SEATS] }
    }

    /// Index of the first event `seat` has not received.
    pub fn cursor(&self, seat: Seat) -> usize {
        self.cursors[usize::from(seat)]
    }

    /// Index of the first `end_kyoku` or `end_game` in the part of `log` that `seat` has not
    /// received: the end of the next informational line, if there is one.
    pub fn unseen_end(&self, seat: Seat, log: &[Event]) -> Option<usize> {
        let from = self.cursor(seat);
        log.get(from..)?.iter().position(|e| matches!(e, Event::EndKyoku | Event::EndGame)).map(|i| from + i)
    }

    /// The events `log[cursor..upto]` masked for `seat`, and moves the cursor to `upto`.
    /// Returns an empty list when there is nothing new (or `upto` is behind the cursor).
    pub fn take(&mut self, seat: Seat, log: &[Event], upto: usize) -> Vec<Event> {
        let from = self.cursor(seat);
        let upto = upto.min(log.len());
        if upto <= from {
            return Vec::new();
        }
        self.cursors[usize::from(seat)] = upto;
        log[from..upto].iter().map(|e| e.masked_for(seat)).collect()
    }
}

/// The first line of a (re)started bot: the log's `start_game` masked for `seat`
/// (`names` and `id`, no seed), alone in its array.
pub fn start_game_line(log: &[Event], seat: Seat, players: Players) -> String {
    let start = match log.first() {
        Some(e @ Event::StartGame { .. }) => e.masked_for(seat),
        _ => Event::StartGame { names: None, seed: None, id: Some(seat) },
    };
    batch_line_for(&[start], players)
}

/// Index of the last `start_kyoku` in `log`: where restarted bots resume.
pub fn last_start_kyoku(log: &[Event]) -> Option<usize> {
    log.iter().rposition(|e| matches!(e, Event::StartKyoku { .. }))
}

/// True when a batch begins with `start_game` or `start_kyoku`: the bot may load a model,
/// so the longer start timeout applies (mjai.app's rule).
pub fn begins_with_start(events: &[Event]) -> bool {
    matches!(events.first(), Some(Event::StartGame { .. } | Event::StartKyoku { .. }))
}

/// True when a batch is informational (it ends with `end_kyoku` or `end_game`): the bot
/// must answer, and should answer `none`.
pub fn is_informational(events: &[Event]) -> bool {
    matches!(events.last(), Some(Event::StartGame { .. } | Event::EndKyoku | Event::EndGame))
}

#[cfg(test)]
mod tests {
    use super::*;
    use mjai_sim_engine::tile::Tile;

    fn t(s: &str) -> Tile {
        s.parse().unwrap()
    }

    fn sample_log() -> Vec<Event> {
        vec![
            Event::StartGame {
                names: Some(Box::new(["a", "b", "c", "d"].map(String::from))),
                seed: Some([1, 2]),
                id: None,
            },
            Event::StartKyoku {
                bakaze: t("E"),
                dora_marker: t("1m"),
                kyoku: 1,
                honba: 0,
                kyotaku: 0,
                oya: 0,
                scores: [25000; 4],
                tehais: Box::new([[t("2m"); 13], [t("3m"); 13], [t("4m"); 13], [t("5m"); 13]]),
            },
            Event::Tsumo { actor: 0, pai: t("9p") },
            Event::Dahai { actor: 0, pai: t("9p"), tsumogiri: true },
            Event::Tsumo { actor: 1, pai: t("8p") },
            Event::Ryukyoku { actor: None, deltas: Some([0; 4]), reason: None },
            Event::EndKyoku,
            Event::EndGame,
        ]
    }

    #[test]
    fn start_game_line_has_id_and_no_seed() {
        let log = sample_log();
        assert_eq!(
            start_game_line(&log, 2, Players::Four),
            r#"[{"type":"start_game","names":["a","b","c","d"],"id":2}]"#
        );
        assert_eq!(
            start_game_line(&log, 2, Players::Three),
            r#"[{"type":"start_game","names":["a","b","c"],"id":2}]"#,
            "three names at a three-player table"
        );
    }

    #[test]
    fn take_masks_and_advances_per_seat() {
        let log = sample_log();
        let mut relay = Relay::at(1);
        let seen0 = relay.take(0, &log, 3);
        assert_eq!(seen0.len(), 2);
        assert_eq!(seen0[1], Event::Tsumo { actor: 0, pai: t("9p") });
        match &seen0[0] {
            Event::StartKyoku { tehais, .. } => {
                assert_eq!(tehais[0], [t("2m"); 13]);
                assert_eq!(tehais[1], [Tile::UNKNOWN; 13]);
            }
            other => panic!("unexpected {other:?}"),
        }
        assert_eq!(relay.cursor(0), 3);
        assert_eq!(relay.cursor(1), 1, "other seats keep their cursor");
        let seen1 = relay.take(1, &log, 5);
        assert_eq!(seen1.len(), 4);
        assert_eq!(seen1[1], Event::Tsumo { actor: 0, pai: Tile::UNKNOWN });
        assert_eq!(seen1[3], Event::Tsumo { actor: 1, pai: t("8p") });
        assert!(relay.take(1, &log, 5).is_empty(), "nothing new twice");
        assert!(relay.take(1, &log, 2).is_empty(), "never backwards");
    }

    #[test]
    fn unseen_end_finds_end_kyoku_then_end_game() {
        let log = sample_log();
        let mut relay = Relay::at(1);
        assert_eq!(relay.unseen_end(3, &log), Some(6));
        let line = relay.take(3, &log, 7);
        assert!(is_informational(&line));
        assert!(begins_with_start(&line));
        assert_eq!(relay.unseen_end(3, &log), Some(7));
        relay.take(3, &log, 8);
        assert_eq!(relay.unseen_end(3, &log), None);
    }

    #[test]
    fn restart_resumes_at_the_current_kyoku() {
        let log = sample_log();
        assert_eq!(last_start_kyoku(&log), Some(1));
        assert_eq!(last_start_kyoku(&log[..1]), None);
    }
}
