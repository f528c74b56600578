//! A validation game's verdict from its report (the grading server's validation, and the
//! `validation_result` a riichi.dev dialect bot hears at the end of it).

use super::match_loop::{Ending, MatchReport};

/// Pass: the game completed and the bot (in `seats`) had no chombo. Otherwise the seat to
/// blame (the first error's, else the bot's first seat, else 0) and the reason, naming the
/// seat and the hand. A `defaulted` entry (a timeout forgiven by riichi.dev's clock) is no
/// error here.
pub fn validation_verdict(report: &MatchReport, seats: &[usize]) -> Result<(), (usize, String)> {
    let first = report.errors.iter().find(|e| seats.contains(&(e.player_id as usize)) && e.error_type != "defaulted");
    let seat = first.map_or(seats.first().copied().unwrap_or(0), |e| e.player_id as usize);
    let first_error = first.map(|e| {
        let at = e.kyoku.as_deref().map(|k| format!(" at {k}")).unwrap_or_default();
        format!("seat {}{at}: {}: {}", e.player_id, e.error_type, e.exception)
    });
    let chombos: u32 = seats.iter().map(|&s| report.chombos[s]).sum();
    let reason = match &report.ending {
        Ending::Completed if chombos == 0 => return Ok(()),
        Ending::Completed => {
            format!("{chombos} chombo(s) in the validation game; the first: {}", first_error.unwrap_or_default())
        }
        Ending::RestartLimit(n) => format!(
            "the validation game was abandoned after {n} restarts{}",
            first_error.map(|e| format!("; the bot's first error: {e}")).unwrap_or_default()
        ),
        Ending::Failed(why) => format!("the validation game failed: {why}"),
        Ending::Interrupted => "the validation game was interrupted".into(),
    };
    let held = match seats {
        [one] => format!("the bot in seat {one}"),
        _ => format!("the bot in seats {}", seats.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(" and ")),
    };
    Err((seat, format!("{reason} ({held})")))
}
