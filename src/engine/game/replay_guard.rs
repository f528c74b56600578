//! What a log must satisfy before the engine replays it, so that no crafted log (out-of-range
//! numbers, actors that are not seats) can make the engine panic or overflow: each breach is
//! a [`Disagreement`] naming its line.

use crate::event::Event;

use super::disagreement::{at, Disagreement};

/// Largest honba or riichi-stick count accepted in a `start_kyoku` (a real game stays far
/// below; the engine adds at most a few per hand).
pub const MAX_STICKS: u8 = 100;

/// Largest absolute score accepted in a `start_kyoku`, points (keeps every sum far from
/// `i32` limits).
pub const MAX_SCORE: i32 = 10_000_000;

/// Checks every event's seats and every `start_kyoku`'s numbers.
pub fn check(log: &[Event]) -> Result<(), Disagreement> {
    for (i, e) in log.iter().enumerate() {
        if let Some(a) = e.actor().filter(|&a| a > 3) {
            return Err(at(i, format!("actor {a} is not a seat (0..=3)")));
        }
        match e {
            Event::Chi { target, .. } | Event::Pon { target, .. } | Event::Daiminkan { target, .. } if *target > 3 => {
                return Err(at(i, format!("target {target} is not a seat (0..=3)")));
            }
            Event::Hora { target, .. } if *target > 3 => {
                return Err(at(i, format!("target {target} is not a seat (0..=3)")));
            }
            Event::StartKyoku { bakaze, kyoku, honba, kyotaku, oya, scores, .. } => {
                if !matches!(bakaze.as_mjai(), "E" | "S" | "W") {
                    return Err(at(i, format!("bakaze {bakaze} is not E, S or W")));
                }
                if !(1..=4).contains(kyoku) {
                    return Err(at(i, format!("kyoku {kyoku} is not 1..=4")));
                }
                if *oya != kyoku - 1 {
                    return Err(at(i, format!("oya {oya} does not deal kyoku {kyoku} (seat {})", kyoku - 1)));
                }
                if *honba > MAX_STICKS || *kyotaku > MAX_STICKS {
                    return Err(at(i, format!("honba {honba} / kyotaku {kyotaku}: more than {MAX_STICKS} sticks")));
                }
                if let Some(s) = scores.iter().find(|s| s.unsigned_abs() > MAX_SCORE as u32) {
                    return Err(at(i, format!("score {s} is beyond ±{MAX_SCORE} points")));
                }
            }
            _ => {}
        }
    }
    Ok(())
}
