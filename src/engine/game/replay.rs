//! Replay of an mjai log through the engine: the walls are rebuilt from the log, the
//! logged actions are fed back as answers, and every event the engine writes is compared
//! with the log. The first disagreement is reported with its position.

use crate::event::{DrawReason, Event, Seat};

use super::disagreement::at;
pub use super::disagreement::Disagreement;
use super::kyoku::chombo_deltas;
use super::play::Game;
use super::setup::{GameConfig, StartState};
use super::shown::ShownTiles;
use super::wall::Wall;
use crate::rules::{Players, Rules};

/// What a successful replay covered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReplayReport {
    /// Events compared (the whole log).
    pub events: usize,
    /// Kyoku played.
    pub kyokus: usize,
    /// Final scores in points (leftover riichi sticks to the first place).
    pub scores: [i32; 4],
}

/// Replays `log` (one game, `start_game` .. `end_game`) under [`Rules::mjai_app`], the
/// laxest preset; see [`replay_with`].
pub fn replay(log: &[Event]) -> Result<ReplayReport, Disagreement> {
    replay_with(log, Rules::mjai_app())
}

/// Replays `log` (one game, `start_game` .. `end_game`) under `rules` and checks that the
/// engine accepts every logged action and writes exactly the logged events (call `consumed`
/// compared in any order; kakan by its added tile). Never panics: a log the engine cannot
/// start from (a `start_kyoku` out of range, an actor that is not a seat) is a
/// [`Disagreement`] naming its line.
pub fn replay_with(log: &[Event], rules: Rules) -> Result<ReplayReport, Disagreement> {
    replay_observed_with(log, rules, &mut |_, _| {})
}

/// A callback of [`replay_observed`]: the game and the answers about to be applied.
pub type BeforeApply<'a> = dyn FnMut(&Game, &[(Seat, Event)]) + 'a;

/// Like [`replay`], calling `before_apply(game, answers)` each time the logged answers are
/// about to be applied (a tool can ask the game, e.g. [`Game::hora_score`], what they mean).
pub fn replay_observed(log: &[Event], before_apply: &mut BeforeApply) -> Result<ReplayReport, Disagreement> {
    replay_observed_with(log, Rules::mjai_app(), before_apply)
}

/// [`replay_with`] and [`replay_observed`] in one: under `rules`, with the callback.
pub fn replay_observed_with(
    log: &[Event],
    rules: Rules,
    before_apply: &mut BeforeApply,
) -> Result<ReplayReport, Disagreement> {
    super::replay_guard::check(log)?;
    let Some(Event::StartGame { names, seed, .. }) = log.first() else {
        return Err(at(0, "the log does not begin with start_game"));
    };
    let Some(Event::StartKyoku { bakaze, kyoku, honba, kyotaku, scores, .. }) = log.get(1) else {
        return Err(at(1, "start_game is not followed by start_kyoku"));
    };
    let walls = rebuild_walls(log)?;
    let kyokus = walls.len();
    let config = GameConfig {
        seed: seed.unwrap_or([0, 0]),
        names: names.as_deref().cloned().unwrap_or_else(|| ["0", "1", "2", "3"].map(String::from)),
        start: StartState { bakaze: *bakaze, kyoku: *kyoku, honba: *honba, kyotaku: *kyotaku, scores: *scores },
    };
    let mut game = Game::with_rules(config, walls, rules);
    let mut checked = 0;
    loop {
        compare(log, game.log(), &mut checked)?;
        if game.is_over() {
            break;
        }
        let n = game.log().len();
        let Some(next) = log.get(n) else {
            return Err(at(n, "the log ends but the game goes on"));
        };
        if let Event::Ryukyoku { actor, deltas: Some(deltas), reason: Some(reason) } = next {
            if reason == "error" {
                let offenders = chombo_offenders(game.log(), *actor, deltas, rules.players)
                    .ok_or_else(|| at(n, format!("no set of offenders gives the chombo deltas {deltas:?}")))?;
                game.chombo(&offenders);
                continue;
            }
        }
        let mut answers: Vec<(Seat, Event)> = Vec::new();
        for d in game.pending() {
            // A triple ron aborted under Tenhou's rules logs no `hora`: every seat that may
            // win on the discard declared it.
            let triple_ron = DrawReason::of(next) == Some(DrawReason::TripleRon);
            let ron = d.legal.iter().find(|l| matches!(l, Event::Hora { .. }));
            let answer = match ron {
                Some(hora) if triple_ron => Some(hora.clone()),
                _ => answer_from_log(log, n, d.seat, d.legal.contains(&Event::None)),
            };
            let Some(answer) = answer else {
                return Err(at(n, format!("seat {} must act, but the log goes on with {}", d.seat, next.to_json())));
            };
            let canonical = game
                .validate(d.seat, &answer.to_json())
                .map_err(|e| at(n, format!("the engine refuses {}: {e}", answer.to_json())))?;
            answers.push((d.seat, canonical));
        }
        before_apply(&game, &answers);
        game.apply(&answers).map_err(|e| at(n, format!("apply failed: {e}")))?;
    }
    if checked != log.len() {
        return Err(at(checked, "the engine ended the game here but the log goes on"));
    }
    Ok(ReplayReport { events: checked, kyokus, scores: game.scores() })
}

/// The seats whose chombo gives `deltas` in the current kyoku of `so_far`: the smallest set
/// that contains `actor` (the first offender, when logged). Several seats may err at once and
/// the log names only one, so the set is recovered from the deltas.
fn chombo_offenders(so_far: &[Event], actor: Option<Seat>, deltas: &[i32; 4], players: Players) -> Option<Vec<Seat>> {
    let oya = so_far.iter().rev().find_map(|e| match e {
        Event::StartKyoku { oya, .. } => Some(*oya),
        _ => None,
    })?;
    let mut sets: Vec<Vec<Seat>> =
        (1u8..16).map(|mask| players.seats().filter(|s| mask & (1 << s) != 0).collect()).collect();
    sets.sort_by_key(Vec::len);
    sets.into_iter()
        .filter(|set| actor.is_none_or(|a| set.contains(&a)))
        .find(|set| !set.is_empty() && chombo_deltas(set, oya, players) == *deltas)
}

/// The bot answer of `seat` implied by the log at `n`, or `none` when it may pass.
fn answer_from_log(log: &[Event], n: usize, seat: Seat, may_pass: bool) -> Option<Event> {
    let mut i = n;
    // A robbed kakan's waiting kan dora is logged before the `hora` (`WaitingKanDora::RiichiEnv`).
    while matches!(log.get(i), Some(Event::Dora { .. })) {
        i += 1;
    }
    while let Some(Event::Hora { actor, target, .. }) = log.get(i) {
        if *actor == seat {
            return Some(Event::Hora { actor: seat, target: *target, pai: None, deltas: None, ura_markers: None });
        }
        i += 1;
    }
    // A riichi discard that is called: the log shows reach_accepted before the call.
    let mut n = if matches!(log.get(n), Some(Event::ReachAccepted { .. })) { n + 1 } else { n };
    // A minkan's dora is logged when its maker acts: right before the discard (or the
    // ankan) that the seat decided on the rinshan tsumo.
    while matches!(log.get(n), Some(Event::Dora { .. })) {
        n += 1;
    }
    match log.get(n)? {
        e @ Event::Ryukyoku { .. }
            if !may_pass && matches!(DrawReason::of(e), None | Some(DrawReason::KyuushuKyuuhai)) =>
        {
            Some(Event::Ryukyoku { actor: Some(seat), deltas: None, reason: None })
        }
        e @ (Event::Dahai { .. }
        | Event::Chi { .. }
        | Event::Pon { .. }
        | Event::Daiminkan { .. }
        | Event::Kakan { .. }
        | Event::Ankan { .. }
        | Event::Kita { .. }
        | Event::Reach { .. })
            if e.actor() == Some(seat) =>
        {
            Some(e.clone())
        }
        _ if may_pass => Some(Event::None),
        _ => None,
    }
}

fn compare(log: &[Event], got: &[Event], checked: &mut usize) -> Result<(), Disagreement> {
    while *checked < got.len() {
        let i = *checked;
        let g = &got[i];
        let Some(want) = log.get(i) else {
            return Err(at(i, format!("the log has ended, the engine gave {}", g.to_json())));
        };
        if !same_logged(want, g) {
            return Err(at(i, format!("the log has {}, the engine gave {}", want.to_json(), g.to_json())));
        }
        *checked += 1;
    }
    Ok(())
}

/// `want` (logged) and `got` (the engine's) are the same event. A `ryukyoku` logged without
/// `reason` (mjai.app's logs, and this engine's before issue 20) matches any reason but a
/// chombo's.
fn same_logged(want: &Event, got: &Event) -> bool {
    match (want, got) {
        (
            Event::Ryukyoku { actor, deltas, reason: None },
            Event::Ryukyoku { actor: ga, deltas: gd, reason: Some(_) },
        ) => actor == ga && deltas == gd && DrawReason::of(got) != Some(DrawReason::Chombo),
        (Event::Kakan { actor, pai, .. }, Event::Kakan { actor: ga, pai: gp, .. }) => actor == ga && pai == gp,
        (Event::Chi { .. } | Event::Pon { .. } | Event::Daiminkan { .. }, _) => super::validate::same_action(want, got),
        _ => want == got,
    }
}

/// One wall per kyoku from the log: tehais, live tsumo, rinshan tsumo (the first tsumo
/// after a kan), dora and ura indicators; every tile the log never shows is filled with
/// the tiles left over, in set order.
pub fn rebuild_walls(log: &[Event]) -> Result<Vec<Wall>, Disagreement> {
    let mut walls = Vec::new();
    let mut i = 0;
    while i < log.len() {
        if !matches!(log[i], Event::StartKyoku { .. }) {
            i += 1;
            continue;
        }
        let (shown, next) = ShownTiles::read(log, i)?;
        walls.push(shown.to_wall().map_err(|e| at(i, format!("cannot rebuild the wall: {e}")))?);
        i = next;
    }
    Ok(walls)
}
