//! Progress while a game plays: one line per hand (hand, result, score changes), plus one
//! line per error and per restart. Plain lines, so they read the same in a terminal, a CI
//! log or a pipe.

use std::io::{self, Write};

use super::observer::{ErrorEntry, Observer};
use crate::engine::event::Event;

/// Writes progress lines to any writer (stderr in the CLI).
pub struct Progress<W: Write> {
    out: W,
    hand: Option<String>,
    results: Vec<String>,
    deltas: [i32; 4],
}

impl<W: Write> Progress<W> {
    /// Progress lines written to `out`.
    pub fn new(out: W) -> Progress<W> {
        Progress { out, hand: None, results: Vec::new(), deltas: [0; 4] }
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

impl<W: Write> Observer for Progress<W> {
    fn on_events(&mut self, events: &[Event]) -> io::Result<()> {
        for e in events {
            match e {
                Event::StartKyoku { bakaze, kyoku, honba, .. } => {
                    self.hand = Some(format!("{bakaze}{kyoku}-{honba}"));
                    self.results.clear();
                    self.deltas = [0; 4];
                }
                Event::ReachAccepted { actor } => self.deltas[usize::from(*actor)] -= 1000,
                Event::Hora { actor, target, deltas, .. } => {
                    self.results.push(if actor == target {
                        format!("tsumo by seat {actor}")
                    } else {
                        format!("ron by seat {actor} from seat {target}")
                    });
                    self.add(deltas);
                }
                Event::Ryukyoku { actor, deltas, reason } => {
                    self.results.push(match (reason.as_deref(), actor) {
                        (Some("error"), _) => "chombo (error)".to_string(),
                        (_, Some(a)) => format!("draw (kyuushu kyuuhai by seat {a})"),
                        (Some(r), None) => format!("draw ({r})"),
                        (None, None) => "draw".to_string(),
                    });
                    self.add(deltas);
                }
                Event::EndKyoku => {
                    let hand = self.hand.take().unwrap_or_else(|| "?".into());
                    let changes: Vec<String> = self.deltas.iter().map(|&d| signed(d)).collect();
                    writeln!(self.out, "{hand:<6} {:<32} [{}]", self.results.join(", "), changes.join(", "))?;
                }
                Event::EndGame => writeln!(self.out, "game over")?,
                _ => {}
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
        writeln!(self.out, "restarting all four bots (restart {restarts})")
    }
}

impl<W: Write> Progress<W> {
    fn add(&mut self, deltas: &Option<[i32; 4]>) {
        if let Some(d) = deltas {
            for (s, v) in self.deltas.iter_mut().zip(d) {
                *s += v;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::tile::Tile;

    #[test]
    fn one_line_per_hand_with_net_changes() {
        let t = |s: &str| s.parse::<Tile>().unwrap();
        let mut p = Progress::new(Vec::new());
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
}
