//! Replay of logs made by other tools, chiefly Tenhou games converted to mjai by
//! mjai-reviewer's `convlog`: no `seed` in `start_game` (the walls are rebuilt from the log
//! anyway), often an excerpt that stops after some `end_kyoku`, and two conventions of the
//! converter that are reported as notes, not as disagreements:
//!
//! - `ura_markers` lists the kyoku's ura indicators for every winner, also one without
//!   riichi (ours: empty for such a winner); they are cleared before the comparison.
//! - no `reach_accepted` before a four-riichi abortive draw (Tenhou writes no result for the
//!   fourth stick); it is put back before the comparison.
//! - a daiminkan's or kakan's dora still waiting when its maker makes an ankan is written
//!   before the `ankan` (Mortal's order); Tenhou's mjlog writes it after the `ankan`, before
//!   the ankan's own dora ([`WaitingKanDora::Tenhou`](crate::rules::WaitingKanDora)). Under rules
//!   other than [`WaitingKanDora::Mortal`](crate::rules::WaitingKanDora) it is moved there.

use crate::event::{Event, Seat};

use super::disagreement::Disagreement;
use super::replay::{replay_with, ReplayReport};
use crate::rules::{Rules, WaitingKanDora};

/// What a lenient replay covered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LenientReport {
    /// The replay of the whole game, or `None` for a partial game.
    pub full: Option<ReplayReport>,
    /// Kyoku verified.
    pub kyokus: usize,
    /// Conventions of the converter met, one line each with the log line (1-based).
    pub notes: Vec<String>,
}

/// Replays `log` like [`replay`], also when it has no seed or stops after any `end_kyoku`
/// (then [`LenientReport::full`] is `None`), with converter conventions as notes (module
/// doc). Errors: the first event the engine would have written differently (line numbers
/// of the given log; a put-back `reach_accepted` counts as the `ryukyoku` line).
///
/// Under [`Rules::tenhou`]: the logs this is for are Tenhou games (for others see
/// [`replay_lenient_with`]).
pub fn replay_lenient(log: &[Event]) -> Result<LenientReport, Disagreement> {
    replay_lenient_with(log, Rules::tenhou())
}

/// [`replay_lenient`] under `rules` (see [`replay_with`]).
pub fn replay_lenient_with(log: &[Event], rules: Rules) -> Result<LenientReport, Disagreement> {
    let (norm, lines, notes) = normalise(log, rules.waiting_kan_dora != WaitingKanDora::Mortal);
    let kyokus_in = |events: &[Event]| events.iter().filter(|e| matches!(e, Event::StartKyoku { .. })).count();
    let to_log_line = |d: Disagreement| Disagreement { index: lines.get(d.index).copied().unwrap_or(log.len()), ..d };
    let cut = norm.iter().rposition(|e| matches!(e, Event::EndKyoku)).map_or(0, |i| i + 1);
    match replay_with(&norm, rules) {
        Ok(r) => Ok(LenientReport { kyokus: r.kyokus, full: Some(r), notes }),
        // The log stops after a kyoku (end_game or nothing after it) but the game goes on.
        Err(d) if d.index == cut && cut > 0 => match replay_with(&norm[..cut], rules) {
            Err(d2) if d2.index == cut => Ok(LenientReport { full: None, kyokus: kyokus_in(&norm[..cut]), notes }),
            Err(d2) => Err(to_log_line(d2)),
            Ok(_) => Err(to_log_line(d)),
        },
        Err(d) => Err(to_log_line(d)),
    }
}

/// The log with the conventions undone, the original line index of each event, and notes;
/// `dora_after_ankan`: a `dora` written right before an `ankan` is moved after it.
fn normalise(log: &[Event], dora_after_ankan: bool) -> (Vec<Event>, Vec<usize>, Vec<String>) {
    let mut out = Vec::with_capacity(log.len() + 1);
    let mut lines = Vec::with_capacity(log.len() + 1);
    let mut notes = Vec::new();
    let mut riichi = [false; 4];
    let mut declared: Option<Seat> = None;
    for (i, e) in log.iter().enumerate() {
        let mut e = e.clone();
        match &mut e {
            Event::StartGame { names, seed, .. } => {
                if seed.is_none() {
                    notes.push(format!("line {}: start_game has no seed: walls rebuilt from the log", i + 1));
                    *seed = Some([0, 0]);
                }
                if names.is_none() {
                    *names = Some(Box::new(["0", "1", "2", "3"].map(String::from)));
                }
            }
            Event::StartKyoku { .. } => {
                riichi = [false; 4];
                declared = None;
            }
            Event::Reach { actor } => declared = Some(*actor),
            Event::ReachAccepted { actor } => {
                riichi[*actor as usize] = true;
                declared = None;
            }
            Event::Dahai { .. } => {}
            Event::Ankan { .. } if dora_after_ankan && matches!(out.last(), Some(Event::Dora { .. })) => {
                notes.push(format!(
                    "line {}: the waiting kan dora written before the ankan (converter convention)",
                    i + 1
                ));
                let (dora, line) = (out.pop().expect("a dora"), lines.pop().expect("its line"));
                out.push(e);
                lines.push(i);
                out.push(dora);
                lines.push(line);
                continue;
            }
            Event::Hora { actor, ura_markers: Some(u), .. } if !riichi[*actor as usize] && !u.is_empty() => {
                notes.push(format!(
                    "line {}: ura_markers listed for seat {actor}, who won without riichi (converter convention)",
                    i + 1
                ));
                u.clear();
            }
            Event::Ryukyoku { reason: None, .. } => {
                if let Some(a) = declared.filter(|&a| (0..4).all(|s| s == a as usize || riichi[s])) {
                    notes.push(format!(
                        "line {}: no reach_accepted of seat {a} before the four-riichi draw (converter convention)",
                        i + 1
                    ));
                    out.push(Event::ReachAccepted { actor: a });
                    lines.push(i);
                }
            }
            _ => declared = declared.filter(|_| !matches!(e, Event::Tsumo { .. })),
        }
        out.push(e);
        lines.push(i);
    }
    (out, lines, notes)
}
