//! Self-play: a [`Game`] driven by [`Agent`]s in process (one per seat; at a three-player
//! table the fourth is never asked), with typed events (masked
//! per seat with [`Event::masked_for`], no JSON), the log kept in memory.

use mjai_sim_engine::event::{Event, Seat};
use mjai_sim_engine::game::{Decision, Game, GameConfig, Players, Rules, StartState, MAX_SEATS};

use super::agent::Agent;

/// Sees every answer before it is applied; used by tests to check invariants.
pub trait AnswerObserver {
    /// `answer` is what the seat of `decision` returned; `legal` says whether it was in
    /// `decision.legal` as returned (before any canonicalisation by [`Game::validate`]).
    fn on_answer(&mut self, game: &Game, decision: &Decision, answer: &Event, legal: bool);
}

/// An observer that does nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct IgnoreAnswers;

impl AnswerObserver for IgnoreAnswers {
    fn on_answer(&mut self, _: &Game, _: &Decision, _: &Event, _: bool) {}
}

/// One finished game.
#[derive(Debug, Clone)]
pub struct Finished {
    /// The full unmasked log, `start_game` .. `end_game` (what `mjai_log.json` holds).
    pub log: Vec<Event>,
    /// Final scores in points, seat order ([`MAX_SEATS`] entries; seat 3 is 0 at a
    /// three-player table).
    pub scores: [i32; MAX_SEATS],
    /// The table size it was played at.
    pub players: Players,
    /// Chombos: the seat and why its answer was refused.
    pub chombos: Vec<(Seat, String)>,
}

/// Why a self-play game could not finish. Always an engine bug, never a bot's fault
/// (a bot's illegal answer is a chombo).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SelfPlayError {
    /// The engine refused a set of answers it had itself validated.
    #[error("engine refused validated answers: {0}")]
    Refused(String),
    /// The engine asked nobody yet the game is not over.
    #[error("engine stalled: no pending decision and the game is not over (after {0} events)")]
    Stalled(usize),
}

/// Plays one game to its end. Each agent gets, at each of its decisions, the events since
/// its previous one, masked for its seat; at the end, the remaining events (up to
/// `end_game`), whose answer is ignored. An answer that is not legal is a chombo.
pub fn play(
    config: GameConfig,
    agents: &mut [Box<dyn Agent>; MAX_SEATS],
    observer: &mut dyn AnswerObserver,
) -> Result<Finished, SelfPlayError> {
    play_with_rules(config, Rules::default(), agents, observer)
}

/// Like [`play`], under `rules` (Tenhou for [`play`]). At a three-player table
/// (`rules.players`) `agents[3]` is never asked and gets no events.
pub fn play_with_rules(
    config: GameConfig,
    rules: Rules,
    agents: &mut [Box<dyn Agent>; MAX_SEATS],
    observer: &mut dyn AnswerObserver,
) -> Result<Finished, SelfPlayError> {
    let mut game = Game::with_rules(config, Vec::new(), rules);
    let mut sent = [0usize; MAX_SEATS];
    let mut chombos = Vec::new();
    let mut batch = Vec::new();
    let mut choices = Vec::with_capacity(MAX_SEATS);
    let mut offenders = Vec::new();
    while !game.is_over() {
        let pending = game.pending();
        if pending.is_empty() {
            return Err(SelfPlayError::Stalled(game.log().len()));
        }
        choices.clear();
        offenders.clear();
        for d in pending {
            let s = d.seat as usize;
            batch.clear();
            batch.extend(game.log()[sent[s]..].iter().map(|e| e.masked_for(d.seat)));
            sent[s] = game.log().len();
            let answer = agents[s].react(&batch, &d.legal);
            // Checked once: the position found here is what the game applies.
            let position = d.legal.iter().position(|l| *l == answer);
            observer.on_answer(&game, d, &answer, position.is_some());
            if let Some(j) = position {
                choices.push((d.seat, j));
                continue;
            }
            match game.validate(d.seat, &answer.to_json()) {
                Ok(canonical) => {
                    let j = d.legal.iter().position(|l| *l == canonical).expect("validate returns a legal answer");
                    choices.push((d.seat, j));
                }
                Err(e) => {
                    chombos.push((d.seat, e.0));
                    offenders.push(d.seat);
                }
            }
        }
        if !offenders.is_empty() {
            game.chombo(&offenders);
        } else {
            game.apply_legal(&choices).map_err(|e| SelfPlayError::Refused(e.0))?;
        }
    }
    for (s, agent) in agents.iter_mut().enumerate().take(rules.players.count()) {
        if sent[s] < game.log().len() {
            let rest: Vec<Event> = game.log()[sent[s]..].iter().map(|e| e.masked_for(s as Seat)).collect();
            agent.react(&rest, &[]);
        }
    }
    let scores = game.scores();
    Ok(Finished { log: game.into_log(), scores, players: rules.players, chombos })
}

/// The agents of a table's seats in a [`MAX_SEATS`]-wide array, as [`play_with_rules`]
/// takes them: `agents` by seat (4, or 3 at a three-player table), the seats past them
/// filled with tsumogiri agents that a three-player game never asks. `None` for more than
/// [`MAX_SEATS`] agents.
pub fn table_agents(mut agents: Vec<Box<dyn Agent>>) -> Option<[Box<dyn Agent>; MAX_SEATS]> {
    while agents.len() < MAX_SEATS {
        agents.push(Box::new(super::Tsumogiri::new()));
    }
    agents.try_into().ok()
}

/// The setup of game number `index` of a four-player self-play series with seed `seed`:
/// wall seed `[seed, index]`, East 1, 25000 each ([`series_config_for`]).
pub fn series_config(seed: u64, index: u64, names: [String; MAX_SEATS]) -> GameConfig {
    series_config_for(seed, index, names, Players::Four)
}

/// [`series_config`] at a table of `players`: the start score each is
/// [`StartState::initial`]'s (25000, 35000 in sanma).
pub fn series_config_for(seed: u64, index: u64, names: [String; MAX_SEATS], players: Players) -> GameConfig {
    GameConfig { seed: [seed, index], names, start: StartState::initial(players) }
}
