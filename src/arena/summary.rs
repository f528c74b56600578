//! `summary.json`: mjai.app's fields (`kyoku`, `kyoku_count`, `rank`) so existing grading
//! scripts keep working, plus final scores, chombos, restarts and decision-time statistics.

use serde::Serialize;

use super::match_loop::{MatchEnding, MatchReport};
use super::observer::ErrorEntry;
use super::stats::DecisionStats;
use mjai_sim_engine::event::{Event, Seat};
use mjai_sim_engine::game::ranks_for;
use mjai_sim_engine::log::{read, GameLog, KyokuStart};
use mjai_sim_engine::tile::Tile;

/// The state at the start of a hand (mjai.app's `kyoku_info`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct KyokuInfo {
    /// Round wind tile (`E`, `S`, `W`).
    pub bakaze: Tile,
    /// Hand number 1..=4.
    pub kyoku: u8,
    /// Honba sticks.
    pub honba: u8,
    /// Riichi sticks on the table.
    pub kyotaku: u8,
    /// Dealer seat.
    pub oya: Seat,
}

/// One hand (mjai.app's `kyoku` entries). Scores are points.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct KyokuRecord {
    /// Scores in `start_kyoku`, one per seat (three at a three-player table, as every
    /// per-seat list of `summary.json`).
    pub start_kyoku_scores: Vec<i32>,
    /// Scores after the hand: start scores, minus 1000 per accepted riichi, plus the deltas
    /// of every `hora` / `ryukyoku`.
    pub end_kyoku_scores: Vec<i32>,
    /// The hand.
    pub kyoku_info: KyokuInfo,
    /// The errors of this hand (chombos, and timeouts `defaulted` without penalty under
    /// riichi.dev's clock); `null` when none.
    pub error_info: Option<Vec<ErrorEntry>>,
}

/// Where the game started (`summary.json`'s `start`): the first `start_kyoku`, and the logged
/// hand it re-plays, if any.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameStart {
    /// Round wind tile (`E`, `S`, `W`).
    pub bakaze: Tile,
    /// Hand number 1..=4.
    pub kyoku: u8,
    /// Honba sticks.
    pub honba: u8,
    /// Riichi sticks on the table.
    pub kyotaku: u8,
    /// Scores in points, seat order (one per seat).
    pub scores: Vec<i32>,
    /// `LOG@HAND` of `--from` (the hand re-played); `null` otherwise.
    pub from: Option<String>,
}

impl GameStart {
    /// The first `start_kyoku` of `log`, with `from` unset; `None` before any hand.
    pub fn of(log: &[Event]) -> Option<GameStart> {
        GameStart::first(&read(log))
    }

    /// The start of `game`'s first kyoku, with `from` unset; `None` before any hand.
    fn first(game: &GameLog) -> Option<GameStart> {
        let KyokuStart { bakaze, kyoku, honba, kyotaku, scores, players, .. } = *game.kyokus.first()?.start();
        Some(GameStart { bakaze, kyoku, honba, kyotaku, scores: players.seat_list(scores), from: None })
    }
}

/// The whole `summary.json`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// Every hand played, in order (a hand cut short by an abort is included).
    pub kyoku: Vec<KyokuRecord>,
    /// Number of hands.
    pub kyoku_count: usize,
    /// Rank per seat, 1 = top; ties go to the earlier seat (mjai.app, Tenhou). Every
    /// per-seat list here has one entry per seat: four, or three at a three-player table.
    pub rank: Vec<u8>,
    /// True when the game reached `end_game`.
    pub completed: bool,
    /// `completed`, `restart_limit`, `interrupted` or `failed` (the game's watchdog ended it:
    /// see `failure`).
    pub ending: String,
    /// Why a `failed` game was ended (one line); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure: Option<String>,
    /// Final scores in points.
    pub scores: Vec<i32>,
    /// Chombos per seat.
    pub chombos: Vec<u32>,
    /// Timeouts per seat answered by the default action, with no penalty (riichi.dev's
    /// clock, `--clock riichi-dev`; always 0 under mjai.app's). Each has an `errors.json`
    /// entry of type `defaulted`.
    pub defaulted: Vec<u32>,
    /// Requests per seat of a riichi.dev seat without a connection (dropped or never made)
    /// played by their default action, no penalty; each has an `errors.json` entry of type
    /// `disconnected`. Omitted when all are 0 (only dialect seats have them).
    #[serde(skip_serializing_if = "all_zero")]
    pub disconnected: Vec<u32>,
    /// Restarts of the bots.
    pub restarts: u32,
    /// Errors in all (details in `errors.json`).
    pub error_count: usize,
    /// Warnings (harmless oddities such as a non-`none` answer to `end_kyoku`).
    pub warnings: Vec<ErrorEntry>,
    /// Decision-time statistics per seat.
    pub decision_times: Vec<DecisionStats>,
    /// The bot of each seat, as given on the command line.
    pub bots: Vec<String>,
    /// Wall seed `[seed, key]` (as in the log's `start_game`).
    pub seed: Option<[u64; 2]>,
    /// Where the game started (East 1, 25000 each unless `--from` or `--start`).
    pub start: Option<GameStart>,
    /// The engine that played it (as the log's `start_game.meta.engine`); absent in
    /// summaries written before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<super::engine_stamp::EngineStamp>,
}

impl Summary {
    /// Builds the summary from the full game log, the match report and the seats' bots
    /// (one per seat of the report's table; more are cut).
    pub fn new(log: &[Event], report: &MatchReport, mut bots: Vec<String>) -> Summary {
        let players = report.players;
        bots.truncate(players.count());
        let game = read(log);
        let kyoku = records(&game, &report.errors);
        let ending = match report.ending {
            MatchEnding::Completed => "completed",
            MatchEnding::RestartLimit(_) => "restart_limit",
            MatchEnding::Interrupted => "interrupted",
            MatchEnding::Failed(_) => "failed",
        };
        Summary {
            kyoku_count: kyoku.len(),
            kyoku,
            rank: players.seat_list(ranks_for(report.scores, players)),
            completed: report.ending == MatchEnding::Completed,
            ending: ending.to_string(),
            failure: match &report.ending {
                MatchEnding::Failed(reason) => Some(reason.clone()),
                _ => None,
            },
            scores: players.seat_list(report.scores),
            chombos: players.seat_list(report.chombos),
            defaulted: players.seat_list(report.defaulted),
            disconnected: players.seat_list(report.disconnected),
            restarts: report.restarts,
            error_count: report.errors.len(),
            warnings: report.warnings.clone(),
            decision_times: report.decision_times[..players.count()].iter().map(|t| DecisionStats::of(t)).collect(),
            bots,
            seed: game.seed,
            start: GameStart::first(&game),
            engine: None,
        }
    }
}

/// One record per `start_kyoku` in `log` (read by [`mjai_sim_engine::log::read`]); errors are
/// attached by hand label (`E1-0`).
pub fn kyoku_records(log: &[Event], errors: &[ErrorEntry]) -> Vec<KyokuRecord> {
    records(&read(log), errors)
}

fn records(game: &GameLog, errors: &[ErrorEntry]) -> Vec<KyokuRecord> {
    game.kyokus
        .iter()
        .map(|k| {
            let st = k.start();
            let label = k.label();
            let errs: Vec<ErrorEntry> = errors.iter().filter(|e| e.kyoku.as_deref() == Some(&label)).cloned().collect();
            KyokuRecord {
                start_kyoku_scores: st.players.seat_list(st.scores),
                end_kyoku_scores: st.players.seat_list(k.table.scores),
                kyoku_info: KyokuInfo {
                    bakaze: st.bakaze,
                    kyoku: st.kyoku,
                    honba: st.honba,
                    kyotaku: st.kyotaku,
                    oya: st.oya,
                },
                error_info: if errs.is_empty() { None } else { Some(errs) },
            }
        })
        .collect()
}

/// Whether every count is 0 (an omitted `disconnected`).
fn all_zero(counts: &[u32]) -> bool {
    counts.iter().all(|&n| n == 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Tile {
        s.parse().unwrap()
    }

    fn start(kyoku: u8, honba: u8, scores: [i32; 4]) -> Event {
        Event::StartKyoku {
            bakaze: t("E"),
            dora_marker: t("1m"),
            kyoku,
            honba,
            kyotaku: 0,
            oya: kyoku - 1,
            scores,
            tehais: Box::new([[t("1p"); 13]; 4]),
        }
    }

    #[test]
    fn records_follow_riichi_and_deltas() {
        let log = vec![
            start(1, 0, [25000; 4]),
            Event::Reach { actor: 1 },
            Event::ReachAccepted { actor: 1 },
            Event::Hora { actor: 1, target: 0, pai: None, deltas: Some([-3900, 4900, 0, 0]), ura_markers: None },
            Event::EndKyoku,
            start(2, 0, [21100, 28900, 25000, 25000]),
            Event::Ryukyoku { actor: Some(2), deltas: Some([-2000, 4000, -8000, 2000]), reason: Some("error".into()) },
            Event::EndKyoku,
            start(3, 0, [19100, 32900, 17000, 27000]),
        ];
        let err = ErrorEntry {
            error_type: "timeout".into(),
            exception: "no answer".into(),
            player_id: 2,
            kyoku: Some("E2-0".into()),
            line: None,
            stderr_tail: Vec::new(),
        };
        let recs = kyoku_records(&log, std::slice::from_ref(&err));
        assert_eq!(recs.len(), 3);
        assert_eq!(recs[0].end_kyoku_scores, [21100, 28900, 25000, 25000]);
        assert_eq!(recs[0].error_info, None);
        assert_eq!(recs[1].end_kyoku_scores, [19100, 32900, 17000, 27000]);
        assert_eq!(recs[1].error_info, Some(vec![err]));
        assert_eq!(recs[1].kyoku_info.oya, 1);
        assert_eq!(recs[2].end_kyoku_scores, recs[2].start_kyoku_scores, "unfinished hand kept as is");
        let start = GameStart::of(&log[2..]).expect("a start_kyoku");
        assert_eq!(
            (start.kyoku, start.honba, start.scores, start.from),
            (2, 0, vec![21100, 28900, 25000, 25000], None)
        );
        let json = serde_json::to_value(&recs[0]).unwrap();
        assert_eq!(json["kyoku_info"]["bakaze"], "E");
        assert!(json["error_info"].is_null());
    }
}
