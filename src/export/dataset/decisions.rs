//! The decisions table: one row per request in which a seat had more than one legal
//! answer, with what the seat could see, its legal answers and its answer, and labels it
//! could not see.
//!
//! The requests and their legal answers are the engine's own: the log is replayed by
//! [`replay_observed_with`] (the engine accepts every logged answer and writes every
//! logged event, or the log is [`Damaged`]); the table at each request is the log reader's
//! [`Table`] fed with the events before it.

use mjai_sim_engine::event::{Event, Seat};
use mjai_sim_engine::game::replay::replay_observed_with;
use mjai_sim_engine::game::{rank_order_for, Players, Rules};
use mjai_sim_engine::log::{read, GameLog, Table};
use mjai_sim_engine::tile::Tile;

use super::damage::{self, Damaged};
use super::labels::Hidden;
use super::view::View;

/// One request with a choice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecisionRow {
    /// The kyoku's label, `E1-0`.
    pub kyoku: String,
    /// The seat asked.
    pub seat: Seat,
    /// Index of the last event before the request (the one the seat answers: its `tsumo`,
    /// another seat's `dahai`, `kakan` or `ankan`, or its own call).
    pub event: usize,
    /// What the seat could see.
    pub view: View,
    /// The tile the seat just drew, when the request follows its own `tsumo`.
    pub tsumo: Option<Tile>,
    /// Every legal answer, compact mjai JSON, in the engine's order.
    pub legal_actions: Vec<String>,
    /// The answer the log shows (`{"type":"none"}` for a pass).
    pub action: String,
    /// False when the log cannot show the seat's answer: another seat's claim on the same
    /// tile took precedence over a call the seat could make (a pon or kan over its chi, a
    /// ron over its call), so whether it passed or called is lost; `action` is then `none`.
    pub action_shown: bool,
    /// Hidden state of every seat at the request.
    pub hidden: Hidden,
    /// The seat's score change over the kyoku (riichi stick, `hora`/`ryukyoku` deltas).
    pub hand_delta: i32,
    /// The seat's final rank, 1..=4 (1..=3 at three seats; ties to the lower seat, Tenhou).
    pub final_rank: u8,
    /// The seat's final score (leftover sticks to the first place).
    pub final_score: i32,
}

/// The decision rows of `log` replayed under `rules`, in log order (seats of one request
/// in seat order). Errors with the event where the log is damaged or cut, or where the
/// engine under `rules` does not reproduce it (a log of mjai.app's engine needs
/// [`Rules::mjai_app`]; a three-player log a three-player preset, else the error says so).
pub fn decisions(log: &[Event], rules: Rules) -> Result<Vec<DecisionRow>, Damaged> {
    let game = read(log);
    damage::check(log, &game)?;
    if let Some(k) = game.kyokus.iter().find(|k| k.start().players != rules.players) {
        let message = format!(
            "a {}-player log replayed under the {}-player rules {}: give the preset it was played under",
            k.start().players.count(),
            rules.players.count(),
            rules.name()
        );
        return Err(Damaged { index: k.index, message });
    }
    if !matches!(log.last(), Some(Event::EndGame)) {
        return Err(Damaged { index: log.len() - 1, message: "the log does not end with end_game".into() });
    }
    let (ranks, final_scores) = finals(&game);
    let mut table = Table::default();
    let mut fed = 0;
    let mut rows = Vec::new();
    let mut observe = |g: &mjai_sim_engine::game::Game, answers: &[(Seat, Event)]| {
        let n = g.log().len();
        for e in &log[fed..n] {
            let _ = table.apply(e);
        }
        fed = n;
        let asked: Vec<_> = g.pending().iter().filter(|d| d.legal.len() > 1).collect();
        if asked.is_empty() {
            return;
        }
        let hidden = Hidden::of(&table);
        let kyoku = game.kyokus.partition_point(|k| k.index < n).checked_sub(1).map(|i| &game.kyokus[i]);
        for d in asked {
            let Some((_, answer)) = answers.iter().find(|(s, _)| *s == d.seat) else { continue };
            let others = answers.iter().filter(|(s, _)| *s != d.seat).map(|(_, a)| precedence(a)).max().unwrap_or(0);
            let overridden = d.legal.iter().any(|l| (1..others).contains(&precedence(l)));
            let s = usize::from(d.seat);
            let tsumo = match &log[n - 1] {
                Event::Tsumo { actor, pai } if *actor == d.seat => Some(*pai),
                _ => None,
            };
            rows.push(DecisionRow {
                kyoku: table.start.label(),
                seat: d.seat,
                event: n - 1,
                view: View::of(&table, d.seat),
                tsumo,
                legal_actions: d.legal.iter().map(Event::to_json).collect(),
                action: answer.to_json(),
                action_shown: *answer != Event::None || !overridden,
                hidden: hidden.clone(),
                hand_delta: kyoku.map_or(0, |k| k.score_changes()[s]),
                final_rank: ranks[s],
                final_score: final_scores[s],
            });
        }
    };
    replay_observed_with(log, rules, &mut observe).map_err(|d| Damaged {
        index: d.index,
        message: format!("the engine does not reproduce the log: {}", d.reason),
    })?;
    Ok(rows)
}

/// Which claim on a tile wins (Tenhou): ron 3 over pon and daiminkan 2 over chi 1; 0 for
/// anything else.
fn precedence(e: &Event) -> u8 {
    match e {
        Event::Hora { .. } => 3,
        Event::Pon { .. } | Event::Daiminkan { .. } => 2,
        Event::Chi { .. } => 1,
        _ => 0,
    }
}

/// Each seat's final rank (1..=4, or 1..=3 at three seats; 0 for the empty seat 3) and
/// final score.
fn finals(game: &GameLog) -> ([u8; 4], [i32; 4]) {
    let scores = game.final_scores();
    let players = game.kyokus.first().map_or(Players::Four, |k| k.start().players);
    let mut ranks = [0u8; 4];
    for (place, seat) in rank_order_for(scores, players).into_iter().take(players.count()).enumerate() {
        ranks[seat] = place as u8 + 1;
    }
    (ranks, scores)
}
