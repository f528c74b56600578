//! A validation game's verdict from its report (the grading server's validation, and the
//! `validation_result` a riichi.dev dialect bot hears at the end of it).

use super::match_loop::{MatchEnding, MatchReport};

/// How strictly a validation game is judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Judging {
    /// mjai.app's: no chombo; a timeout forgiven by riichi.dev's clock (`defaulted`) is no
    /// error.
    NoChombo,
    /// riichi.dev's, for its dialect's bots: every request answered through `end_game`
    /// with the connection kept ("requests: 108 / responses: 108"): a `defaulted` (no
    /// answer in time) or `disconnected` request fails too.
    EveryRequest,
}

/// Pass: the game completed and the bot (in `seats`) had no chombo (and, judged by
/// [`Judging::EveryRequest`], answered every request, connected). Otherwise the seat to
/// blame (the first error's, else the bot's first seat, else 0) and the reason, naming the
/// seat and the hand.
pub fn validation_verdict(report: &MatchReport, seats: &[usize], judging: Judging) -> Result<(), (usize, String)> {
    if judging == Judging::EveryRequest && report.ending == MatchEnding::Completed {
        let unanswered: u32 = seats.iter().map(|&s| report.defaulted[s] + report.disconnected[s]).sum();
        let first = report.errors.iter().find(|e| {
            seats.contains(&(e.player_id as usize)) && matches!(e.error_type.as_str(), "defaulted" | "disconnected")
        });
        if let (true, Some(e)) = (unanswered > 0, first) {
            let asked: usize = seats.iter().map(|&s| report.decision_times[s].len()).sum();
            let at = e.kyoku.as_deref().map(|k| format!(" at {k}")).unwrap_or_default();
            return Err((
                e.player_id as usize,
                format!(
                    "not every request was answered through end_game: requests: {asked} / responses: {}; the first \
                     unanswered, seat {}{at}: {}",
                    asked.saturating_sub(unanswered as usize),
                    e.player_id,
                    e.exception
                ),
            ));
        }
    }
    let first = report.errors.iter().find(|e| {
        seats.contains(&(e.player_id as usize)) && !matches!(e.error_type.as_str(), "defaulted" | "disconnected")
    });
    let seat = first.map_or(seats.first().copied().unwrap_or(0), |e| e.player_id as usize);
    let first_error = first.map(|e| {
        let at = e.kyoku.as_deref().map(|k| format!(" at {k}")).unwrap_or_default();
        format!("seat {}{at}: {}: {}", e.player_id, e.error_type, e.exception)
    });
    let chombos: u32 = seats.iter().map(|&s| report.chombos[s]).sum();
    let reason = match &report.ending {
        MatchEnding::Completed if chombos == 0 => return Ok(()),
        MatchEnding::Completed => {
            format!("{chombos} chombo(s) in the validation game; the first: {}", first_error.unwrap_or_default())
        }
        MatchEnding::RestartLimit(n) => format!(
            "the validation game was abandoned after {n} restarts{}",
            first_error.map(|e| format!("; the bot's first error: {e}")).unwrap_or_default()
        ),
        MatchEnding::Failed(why) => format!("the validation game failed: {why}"),
        MatchEnding::Interrupted => "the validation game was interrupted".into(),
    };
    let held = match seats {
        [one] => format!("the bot in seat {one}"),
        _ => format!("the bot in seats {}", seats.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(" and ")),
    };
    Err((seat, format!("{reason} ({held})")))
}

/// The sentence of a pass (riichi.dev's `validation_result` gives one on a pass too): how
/// many requests the bot in `seats` answered.
pub fn pass_reason(report: &MatchReport, seats: &[usize]) -> String {
    let asked: usize = seats.iter().map(|&s| report.decision_times[s].len()).sum();
    format!("passed: every request answered through end_game, connected (requests: {asked} / responses: {asked})")
}
