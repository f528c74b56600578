//! Games between built-in bots (four, or three at a three-player table) without game folders (`--no-logs`): the engine drives the
//! built-in agents in process with typed events (the self-play path: no JSON lines, no
//! tasks), about ten times faster than the text protocol. Same walls, rules and answers, so
//! the same games and results as through the match loop (checked by
//! `tests/tournament/command.rs`); decision times are not measured on this path.

use mjai_sim_arena::match_loop::{MatchEnding, MatchReport};
use mjai_sim_bots::selfplay::{self, IgnoreAnswers};
use mjai_sim_engine::event::Event;
use mjai_sim_engine::game::{GameConfig, Rules, StartState, MAX_SEATS};

/// Plays one game between the built-in bots `names` (seat order, `NAME` of `builtin:NAME`;
/// one per seat of `rules`' table) on wall seed `seed` under `rules`. Errors: an unknown bot
/// name, a bot count other than the table's seats, or an engine error (one line).
pub fn play(names: &[String], seed: [u64; 2], rules: Rules) -> Result<(MatchReport, Vec<Event>), String> {
    if names.len() != rules.players.count() {
        return Err(format!("{} bots for a table of {} seats", names.len(), rules.players.count()));
    }
    let mut agents = Vec::with_capacity(MAX_SEATS);
    for name in names {
        agents.push(mjai_sim_bots::by_name(name).map_err(|e| e.to_string())?);
    }
    let mut agents = selfplay::table_agents(agents).ok_or_else(|| format!("at most {MAX_SEATS} seats"))?;
    let config =
        GameConfig { seed, names: ["0", "1", "2", "3"].map(String::from), start: StartState::initial(rules.players) };
    let finished = selfplay::play_with_rules(config, rules, &mut agents, &mut IgnoreAnswers)
        .map_err(|e| format!("rules engine error: {e}"))?;
    let mut chombos = [0u32; MAX_SEATS];
    for (seat, _) in &finished.chombos {
        chombos[usize::from(*seat)] += 1;
    }
    let report = MatchReport {
        ending: MatchEnding::Completed,
        scores: finished.scores,
        chombos,
        defaulted: [0; MAX_SEATS],
        disconnected: [0; MAX_SEATS],
        restarts: 0,
        decision_times: Default::default(),
        errors: Vec::new(),
        warnings: Vec::new(),
        players: finished.players,
    };
    Ok((report, finished.log))
}
