//! HandLines while a game plays: one line per hand (hand, result, score changes), plus one
//! line per error and per restart. Plain lines, so they read the same in a terminal, a CI
//! log or a pipe.

use std::io::{self, Write};

use serde::Serialize;

use super::observer::{ErrorEntry, GameObserver};
use mjai_sim_engine::event::{Event, Seat};
use mjai_sim_engine::game::{Players, MAX_SEATS};
use mjai_sim_engine::log::KyokuStart;

/// How a hand ended (one per `hora` or `ryukyoku` event; a double ron has two), with the
/// mjai event's fields.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum HandResult {
    /// A win: tsumo when `actor == target`, else ron from `target`.
    Hora {
        /// The winner's seat.
        actor: Seat,
        /// The seat that paid (the winner itself for tsumo).
        target: Seat,
    },
    /// A draw; `reason` `error` is a chombo (mjai-sim's rules), `actor` the seat that
    /// declared kyuushu kyuuhai.
    Ryukyoku {
        /// The declaring seat, if any.
        actor: Option<Seat>,
        /// The draw's reason (`fanpai`, `kyushukyuhai`, `error`, ...), if given.
        reason: Option<String>,
    },
}

impl HandResult {
    /// The words of the progress line: `tsumo by seat 0`, `draw (fanpai)`, `chombo (error)`.
    fn describe(&self) -> String {
        match self {
            HandResult::Hora { actor, target } if actor == target => format!("tsumo by seat {actor}"),
            HandResult::Hora { actor, target } => format!("ron by seat {actor} from seat {target}"),
            HandResult::Ryukyoku { actor, reason } => match (reason.as_deref(), actor) {
                (Some("error"), _) => "chombo (error)".to_string(),
                (_, Some(a)) => format!("draw (kyuushu kyuuhai by seat {a})"),
                (Some(r), None) => format!("draw ({r})"),
                (None, None) => "draw".to_string(),
            },
        }
    }
}

/// A hand that ended: its label, results, net score changes and the scores after it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EndedHand {
    /// The hand, as `E1-0` (round wind, hand number, honba).
    pub kyoku: String,
    /// How it ended, in log order.
    pub results: Vec<HandResult>,
    /// Net change of each seat in points: the results' deltas minus 1000 per accepted riichi
    /// (one entry per seat: three at a three-player table).
    pub deltas: Vec<i32>,
    /// Scores in points after the hand (`summary.json`'s `end_kyoku_scores`).
    pub scores: Vec<i32>,
}

/// Follows the log's events and tells when a hand ends, with what happened in it.
#[derive(Debug, Clone, Default)]
pub struct HandTally {
    hand: Option<String>,
    start_scores: [i32; MAX_SEATS],
    results: Vec<HandResult>,
    deltas: [i32; MAX_SEATS],
    /// The hand's table size (from its `start_kyoku`).
    players: Players,
}

impl HandTally {
    /// Takes one event; returns the hand at its `end_kyoku`.
    pub fn on_event(&mut self, event: &Event) -> Option<EndedHand> {
        match event {
            Event::StartKyoku { bakaze, kyoku, honba, scores, .. } => {
                self.hand = Some(format!("{bakaze}{kyoku}-{honba}"));
                self.start_scores = *scores;
                self.results.clear();
                self.deltas = [0; MAX_SEATS];
                self.players = KyokuStart::of(event).map_or(Players::Four, |k| k.players);
            }
            Event::ReachAccepted { actor } => self.deltas[usize::from(*actor)] -= 1000,
            Event::Hora { actor, target, deltas, .. } => {
                self.results.push(HandResult::Hora { actor: *actor, target: *target });
                self.add(deltas);
            }
            Event::Ryukyoku { actor, deltas, reason } => {
                self.results.push(HandResult::Ryukyoku { actor: *actor, reason: reason.clone() });
                self.add(deltas);
            }
            Event::EndKyoku => {
                let kyoku = self.hand.take().unwrap_or_else(|| "?".into());
                let scores = std::array::from_fn(|s| self.start_scores[s] + self.deltas[s]);
                return Some(EndedHand {
                    kyoku,
                    results: std::mem::take(&mut self.results),
                    deltas: self.players.seat_list(self.deltas),
                    scores: self.players.seat_list(scores),
                });
            }
            _ => {}
        }
        None
    }

    fn add(&mut self, deltas: &Option<[i32; MAX_SEATS]>) {
        if let Some(d) = deltas {
            for (s, v) in self.deltas.iter_mut().zip(d) {
                *s += v;
            }
        }
    }
}

/// Writes progress lines to any writer (stderr in the CLI).
pub struct HandLines<W: Write> {
    out: W,
    hands: HandTally,
}

impl<W: Write> HandLines<W> {
    /// HandLines lines written to `out`.
    pub fn new(out: W) -> HandLines<W> {
        HandLines { out, hands: HandTally::default() }
    }

    /// The writer back (for tests).
    pub fn into_inner(self) -> W {
        self.out
    }
}

/// `+3900` / `-1000` / `0`.
fn signed(v: i32) -> String {
    if v > 0 {
        format!("+{v}")
    } else {
        v.to_string()
    }
}

impl<W: Write> GameObserver for HandLines<W> {
    fn on_events(&mut self, events: &[Event]) -> io::Result<()> {
        for e in events {
            if let Some(hand) = self.hands.on_event(e) {
                let results: Vec<String> = hand.results.iter().map(HandResult::describe).collect();
                let changes: Vec<String> = hand.deltas.iter().map(|&d| signed(d)).collect();
                writeln!(self.out, "{:<6} {:<32} [{}]", hand.kyoku, results.join(", "), changes.join(", "))?;
            } else if matches!(e, Event::EndGame) {
                writeln!(self.out, "game over")?;
            }
        }
        self.out.flush()
    }

    fn on_error(&mut self, entry: &ErrorEntry) -> io::Result<()> {
        writeln!(self.out, "seat {} {}: {}", entry.player_id, entry.error_type, entry.exception)
    }

    fn on_warning(&mut self, entry: &ErrorEntry) -> io::Result<()> {
        writeln!(self.out, "seat {} warning: {}", entry.player_id, entry.exception)
    }

    fn on_restart(&mut self, restarts: u32) -> io::Result<()> {
        writeln!(self.out, "restarting all the bots (restart {restarts})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mjai_sim_engine::tile::Tile;

    #[test]
    fn one_line_per_hand_with_net_changes() {
        let t = |s: &str| s.parse::<Tile>().unwrap();
        let mut p = HandLines::new(Vec::new());
        p.on_events(&[
            Event::StartKyoku {
                bakaze: t("S"),
                dora_marker: t("1m"),
                kyoku: 3,
                honba: 1,
                kyotaku: 0,
                oya: 2,
                scores: [25000; 4],
                tehais: Box::new([[t("1p"); 13]; 4]),
            },
            Event::ReachAccepted { actor: 0 },
            Event::Hora {
                actor: 0,
                target: 0,
                pai: None,
                deltas: Some([8300, -2100, -4100, -2100]),
                ura_markers: None,
            },
            Event::EndKyoku,
        ])
        .unwrap();
        let text = String::from_utf8(p.into_inner()).unwrap();
        assert!(text.starts_with("S3-1"), "{text}");
        assert!(text.contains("tsumo by seat 0"), "{text}");
        assert!(text.trim_end().ends_with("[+7300, -2100, -4100, -2100]"), "{text}");
        assert_eq!(text.lines().count(), 1);
    }

    #[test]
    fn the_tally_gives_scores_after_riichi_and_deltas() {
        let t = |s: &str| s.parse::<Tile>().unwrap();
        let mut tally = HandTally::default();
        let start = Event::StartKyoku {
            bakaze: t("E"),
            dora_marker: t("1m"),
            kyoku: 2,
            honba: 0,
            kyotaku: 0,
            oya: 1,
            scores: [20000, 30000, 25000, 25000],
            tehais: Box::new([[t("1p"); 13]; 4]),
        };
        assert_eq!(tally.on_event(&start), None);
        assert_eq!(tally.on_event(&Event::ReachAccepted { actor: 3 }), None);
        let draw =
            Event::Ryukyoku { actor: None, deltas: Some([-1000, -1000, -1000, 3000]), reason: Some("fanpai".into()) };
        assert_eq!(tally.on_event(&draw), None);
        let hand = tally.on_event(&Event::EndKyoku).expect("the hand ends");
        assert_eq!(hand.kyoku, "E2-0");
        assert_eq!(hand.deltas, [-1000, -1000, -1000, 2000]);
        assert_eq!(hand.scores, [19000, 29000, 24000, 27000]);
        assert_eq!(hand.results, [HandResult::Ryukyoku { actor: None, reason: Some("fanpai".into()) }]);
    }
}
