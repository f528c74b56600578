//! One finished game as the standings see it: who sat where, final scores, ranks and
//! per-seat statistics read off the game's log.
//!
//! Counting rules (per seat, per game; "hand" = one kyoku, chombo hands included):
//! - `horas`: wins; `tsumos`: of those, by tsumo; `hora_points`: the seat's own `deltas`
//!   at its wins (honba and riichi sticks included).
//! - `deal_ins`: hands in which the seat's discard (or kakan) was ronned (a double ron
//!   counts once; Mortal's `stat.rs` counts each winner); `deal_in_points`: points paid
//!   for them (positive).
//! - `reaches`: hands with a riichi declaration (`reach`, as Mortal's `stat.rs`: counted
//!   even when the declaration tile is ronned).
//! - `calls`: hands with at least one chi, pon or daiminkan (ankan keeps the hand closed and
//!   is not a call, as Mortal's `fuuro`; a kakan follows a pon).
//! - `draws`: exhaustive draws (the `ryukyoku`'s `reason` is `exhaustive`; in a log without
//!   `reason`, as the engine's log reader infers it: the live wall is empty and no abortive
//!   draw applies); `tenpai_draws`: of those, hands that were tenpai as the game's rules pay
//!   it (keishiki tenpai counts; karaten counts under the mjai-app preset, not under
//!   Tenhou's), from the hands the reader followed through the log
//!   ([`mjai_sim_engine::log`]).
//! - `chombos`: from the match report (the tournament's `record::FromGame`), or from the
//!   caller ([`GameRecord::from_scores`] leaves them 0).

use serde::{Deserialize, Serialize};

use crate::timing::TimeHistogram;
use mjai_sim_engine::event::Event;
use mjai_sim_engine::game::{ranks_for, Players, Rules, MAX_SEATS};
use mjai_sim_engine::log::{read, Action};

/// One finished game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Position of the game in the schedule (0-based); ratings are fed in this order.
    pub index: u64,
    /// Duplicate set the game belongs to (the unit of the bootstrap: its games share walls).
    pub set: u64,
    /// Bot index (into the tournament's bot list) by seat: one entry per seat of the table
    /// (4, or 3 at a three-player table), as in every list below.
    pub seats: Vec<usize>,
    /// Final scores by seat, in points.
    pub scores: Vec<i32>,
    /// Ranks by seat, 1..=seats (ties go to the earlier seat, as mjai.app).
    pub ranks: Vec<u8>,
    /// Per-seat statistics.
    pub stats: Vec<SeatStats>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn is_zero_i(n: &i32) -> bool {
    *n == 0
}

/// What one seat did in one game (counts of hands; see the module doc for the rules).
/// Zero fields are left out of the JSON, so a typical seat is about 150 bytes of text.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatStats {
    /// Hands (kyoku) the seat played, chombo hands included.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub kyokus: u32,
    /// Wins.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub horas: u32,
    /// Wins by tsumo.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub tsumos: u32,
    /// Points gained by the wins (own `deltas`, honba and riichi sticks included).
    #[serde(default, skip_serializing_if = "is_zero_i")]
    pub hora_points: i32,
    /// Hands in which the seat dealt into a ron.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub deal_ins: u32,
    /// Points paid for deal-ins (positive).
    #[serde(default, skip_serializing_if = "is_zero_i")]
    pub deal_in_points: i32,
    /// Hands with a riichi declaration.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub reaches: u32,
    /// Hands with at least one chi, pon or daiminkan.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub calls: u32,
    /// Exhaustive draws the seat saw.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub draws: u32,
    /// Exhaustive draws at which the seat was tenpai.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub tenpai_draws: u32,
    /// Chombos (errors) committed.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub chombos: u32,
    /// Decision times (histogram, see [`TimeHistogram`]).
    #[serde(default, skip_serializing_if = "TimeHistogram::is_empty")]
    pub times: TimeHistogram,
}

impl SeatStats {
    /// The four seats' statistics read off a full (unmasked) mjai log of a game played
    /// under Tenhou's rules; see [`SeatStats::from_log_with`].
    pub fn from_log(log: &[Event]) -> Vec<SeatStats> {
        SeatStats::from_log_with(log, &Rules::tenhou())
    }

    /// The statistics of each seat of `rules`' table (4, or 3 under a three-player preset)
    /// read off a full (unmasked) mjai log of a game played under `rules` (they decide who
    /// was tenpai at an exhaustive draw); `chombos` and `times` are left empty (they come
    /// from the match report). Malformed logs never panic: events naming a seat outside the
    /// table are ignored.
    pub fn from_log_with(log: &[Event], rules: &Rules) -> Vec<SeatStats> {
        let mut out: Vec<SeatStats> = vec![SeatStats::default(); rules.players.count()];
        for k in read(log).kyokus {
            let mut dealt_in = vec![false; out.len()];
            for h in k.horas() {
                let (a, t) = (usize::from(h.actor), usize::from(h.target));
                let d = h.deltas.unwrap_or([0; MAX_SEATS]);
                if let Some(s) = out.get_mut(a) {
                    s.horas += 1;
                    s.hora_points += d[a];
                    s.tsumos += u32::from(a == t);
                }
                if let (false, Some(s), Some(dealt)) = (a == t, out.get_mut(t), dealt_in.get_mut(t)) {
                    s.deal_in_points -= d[t];
                    *dealt = true;
                }
            }
            let tenpai = k.is_exhaustive_draw().then(|| k.tenpai_at_draw(rules));
            for (s, seat) in out.iter_mut().zip(&k.table.seats) {
                s.kyokus += 1;
                s.calls += u32::from(seat.actions.iter().any(Action::opens_hand));
                s.reaches += u32::from(seat.reach);
            }
            for (s, d) in out.iter_mut().zip(dealt_in) {
                s.deal_ins += u32::from(d);
            }
            if let Some(tenpai) = tenpai {
                for (s, t) in out.iter_mut().zip(tenpai) {
                    s.draws += 1;
                    s.tenpai_draws += u32::from(t);
                }
            }
        }
        out
    }
}

impl GameRecord {
    /// The record of a game played under `rules` from its full log and final scores (seat
    /// order, [`MAX_SEATS`] entries as the engine keeps them): ranks from the scores (ties
    /// to the earlier seat), the rest from the log ([`SeatStats::from_log_with`]); chombos
    /// and decision times empty, for the caller to fill.
    pub fn from_scores(
        index: u64,
        set: u64,
        seats: Vec<usize>,
        log: &[Event],
        scores: [i32; MAX_SEATS],
        rules: &Rules,
    ) -> GameRecord {
        let players: Players = rules.players;
        let stats = SeatStats::from_log_with(log, rules);
        let (scores, ranks) = (players.seat_list(scores), players.seat_list(ranks_for(scores, players)));
        GameRecord { index, set, seats, scores, ranks, stats }
    }
}
