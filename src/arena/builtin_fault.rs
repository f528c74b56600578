//! A built-in bot never errs: it answers at once, in process, from the engine's own legal
//! set ([`mjai_sim_runtime::Bot::offer`]). So a chombo charged to a built-in seat is a bug of
//! the referee (issue 42: `--keep-bots` dropped the legal set and every built-in answered
//! `none` at its first draw of each hand), and a game that holds one is not a result: the
//! one-game command exits 3 after its table, a tournament marks the game failed (not
//! counted in the standings) and exits 3.

use super::match_loop::MatchReport;

/// A built-in seat took a chombo: which, how many, and the first cause. Displays as the
/// one line a person sees, naming it an internal error.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "internal error: built-in bot `{name}` in seat {seat} took {chombos} chombo(s) (first: {first}); \
     a built-in never errs, so this is a bug in mjai-sim: the game is not counted, please report it with its logs"
)]
pub struct BuiltinFault {
    /// The built-in's name (`NAME` of `builtin:NAME`).
    pub name: String,
    /// Its seat, 0 to 3.
    pub seat: u8,
    /// Chombos it was charged in the game.
    pub chombos: u32,
    /// The first error charged to it (`errors.json`'s `error_type: exception`, with the
    /// hand), or `unknown` when the report kept none.
    pub first: String,
}

/// The text every [`BuiltinFault`] line begins with (how a failed game's reason read back
/// from a store is told to be an internal error).
pub const INTERNAL_ERROR: &str = "internal error: ";

/// The first built-in seat of `report` charged a chombo, if any. `builtin[seat]`: the
/// built-in's name when that seat is one (`None`: a submission or a remote bot, whose
/// chombos are results).
pub fn builtin_fault(report: &MatchReport, builtin: &[Option<&str>]) -> Option<BuiltinFault> {
    let (seat, name) =
        builtin.iter().enumerate().find_map(|(s, name)| name.filter(|_| report.chombos[s] > 0).map(|n| (s, n)))?;
    let first = report
        .errors
        .iter()
        .find(|e| usize::from(e.player_id) == seat)
        .map(|e| format!("{} {}: {}", e.kyoku.as_deref().unwrap_or("start"), e.error_type, e.exception))
        .unwrap_or_else(|| "unknown".to_string());
    Some(BuiltinFault { name: name.to_string(), seat: seat as u8, chombos: report.chombos[seat], first })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::match_loop::MatchEnding;
    use crate::observer::ErrorEntry;

    fn report(chombos: [u32; 4], errors: Vec<ErrorEntry>) -> MatchReport {
        MatchReport {
            ending: MatchEnding::Completed,
            scores: [25000; 4],
            chombos,
            defaulted: [0; 4],
            disconnected: [0; 4],
            restarts: chombos.iter().sum(),
            decision_times: Default::default(),
            errors,
            warnings: Vec::new(),
            players: mjai_sim_engine::game::Players::Four,
        }
    }

    fn error(seat: u8, what: &str) -> ErrorEntry {
        ErrorEntry {
            error_type: "invalid".into(),
            exception: what.into(),
            player_id: seat,
            kyoku: Some("E1-0".into()),
            line: None,
            stderr_tail: Vec::new(),
        }
    }

    #[test]
    fn a_chombo_of_a_builtin_seat_is_a_fault_and_of_a_submission_is_not() {
        let builtin = [None, Some("tsumogiri"), None, Some("rulebase")];
        let r = report([2, 0, 0, 0], vec![error(0, "late")]);
        assert_eq!(builtin_fault(&r, &builtin), None, "seat 0 is a submission: its chombos are results");
        let r = report([0, 0, 0, 3], vec![error(0, "late"), error(3, "none is not legal now")]);
        let fault = builtin_fault(&r, &builtin).expect("seat 3 is a built-in");
        assert_eq!((fault.name.as_str(), fault.seat, fault.chombos), ("rulebase", 3, 3));
        assert_eq!(fault.first, "E1-0 invalid: none is not legal now");
        let line = fault.to_string();
        assert!(
            line.starts_with(INTERNAL_ERROR) && line.contains("seat 3") && line.contains("bug in mjai-sim"),
            "{line}"
        );
        assert_eq!(builtin_fault(&report([0; 4], Vec::new()), &builtin), None);
    }
}
