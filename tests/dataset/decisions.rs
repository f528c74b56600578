//! The decisions table holds exactly the requests of the live game that wrote the log: one
//! row per request in which a seat had more than one legal answer, with the engine's legal
//! answers and the answer the bot gave, and the labels of the game's outcome.

use mjai_sim::bots::selfplay::AnswerObserver;
use mjai_sim::engine::event::{Event, Seat};
use mjai_sim::engine::game::{rank_order, Decision, Game};

use super::support::{dataset, play, write_log, Table};

/// Every request with a choice, as the referee asked it: (seat, index of the last event
/// before it, legal answers, canonical answer).
#[derive(Default)]
struct Requests(Vec<(Seat, usize, Vec<String>, String)>);

impl AnswerObserver for Requests {
    fn on_answer(&mut self, game: &Game, decision: &Decision, answer: &Event, _legal: bool) {
        if decision.legal.len() > 1 {
            let canonical = game.validate(decision.seat, &answer.to_json()).expect("built-in bots answer legally");
            let legal = decision.legal.iter().map(Event::to_json).collect();
            self.0.push((decision.seat, game.log().len() - 1, legal, canonical.to_json()));
        }
    }
}

/// True when the event after `event` in the log at `game` is another seat's claim (a call
/// or a `hora` on the tile), read from the file.
fn log_claims(game: &str, event: usize) -> bool {
    let log = mjai_sim::engine::event::parse_log(&std::fs::read_to_string(game).unwrap()).unwrap();
    let next = log[event + 1..].iter().find(|e| !matches!(e, Event::ReachAccepted { .. })).unwrap();
    matches!(next, Event::Chi { .. } | Event::Pon { .. } | Event::Daiminkan { .. } | Event::Hora { .. })
}

const MIXES: [[&str; 4]; 3] = [
    ["builtin:rulebase", "builtin:random", "builtin:rulebase", "builtin:tsumogiri"],
    ["builtin:random", "builtin:random", "builtin:random", "builtin:random"],
    ["builtin:rulebase", "builtin:rulebase", "builtin:rulebase", "builtin:rulebase"],
];

#[test]
fn rows_are_the_requests_of_the_live_games() {
    let dir = tempfile::tempdir().unwrap();
    let mut live = Vec::new();
    for (i, bots) in MIXES.iter().enumerate() {
        let mut requests = Requests::default();
        let log = play(*bots, 31, i as u64, &mut requests);
        let path = write_log(&dir.path().join(format!("g{i}")), &log);
        live.push((path.display().to_string(), requests.0));
    }
    let out = dir.path().join("d.parquet");
    let err = dataset(&[dir.path()], "decisions", &out, &[]);
    let t = Table::read(&out);
    let expected: usize = live.iter().map(|(_, r)| r.len()).sum();
    assert!(err.contains(&format!("wrote {expected} rows from 3 logs")), "{err}");
    assert_eq!(t.rows(), expected);
    let (games, seats, events) = (t.str("game"), t.int("seat"), t.int("event"));
    let (legal, action, shown) = (t.strs("legal_actions"), t.str("action"), t.int("action_shown"));
    let mut row = 0;
    let mut hidden = 0;
    for (game, requests) in &live {
        for (seat, event, want_legal, want_action) in requests {
            assert_eq!(&games[row], game);
            assert_eq!((seats[row], events[row]), (i64::from(*seat), *event as i64), "row {row} of {game}");
            assert_eq!(&legal[row], want_legal, "row {row}");
            if shown[row] == 1 {
                assert_eq!(&action[row], want_action, "row {row}");
            } else {
                // Another seat's claim took the tile: the log shows no answer of this seat
                // (it may have called or passed); a ron is never hidden.
                hidden += 1;
                assert_eq!(action[row], r#"{"type":"none"}"#, "row {row}");
                assert!(!want_action.contains(r#""type":"hora""#), "row {row}: {want_action}");
                let called = log_claims(game, *event);
                assert!(called, "row {row}: hidden only when another seat claimed");
            }
            row += 1;
        }
    }
    assert!(hidden < expected / 50, "{hidden} of {expected} answers hidden");
    assert!(action.iter().any(|a| a == r#"{"type":"none"}"#), "a pass is a row");
    assert!(action.iter().any(|a| a.contains(r#""type":"reach""#)), "a riichi is a row");
}

#[test]
fn outcome_labels_are_the_games_scores_and_ranks() {
    let dir = tempfile::tempdir().unwrap();
    let log = play(MIXES[0], 7, 0, &mut mjai_sim::bots::selfplay::IgnoreAnswers);
    write_log(dir.path(), &log);
    let out = dir.path().join("d.parquet");
    dataset(&[dir.path()], "decisions", &out, &[]);
    let t = Table::read(&out);
    // Final scores: the last hand's scores plus leftover sticks to the top (counted here
    // from the log's events, independently of the engine's log reader).
    let mut scores = [0i64; 4];
    let mut sticks = 0i64;
    let mut deltas_by_start: Vec<(usize, [i64; 4])> = Vec::new();
    for (i, e) in log.iter().enumerate() {
        match e {
            Event::StartKyoku { scores: s, kyotaku, .. } => {
                scores = s.map(i64::from);
                sticks = i64::from(*kyotaku);
                deltas_by_start.push((i, [0; 4]));
            }
            Event::ReachAccepted { actor } => {
                scores[*actor as usize] -= 1000;
                sticks += 1;
                deltas_by_start.last_mut().unwrap().1[*actor as usize] -= 1000;
            }
            Event::Hora { deltas: Some(d), .. } | Event::Ryukyoku { deltas: Some(d), .. } => {
                for s in 0..4 {
                    scores[s] += i64::from(d[s]);
                    deltas_by_start.last_mut().unwrap().1[s] += i64::from(d[s]);
                }
                if matches!(e, Event::Hora { .. }) {
                    sticks = 0;
                }
            }
            _ => {}
        }
    }
    let order = rank_order(scores.map(|s| s as i32));
    scores[order[0]] += sticks * 1000;
    let (seats, events) = (t.int("seat"), t.int("event"));
    let (rank, score, delta) = (t.int("label_final_rank"), t.int("label_final_score"), t.int("label_hand_delta"));
    assert!(t.rows() > 50);
    for r in 0..t.rows() {
        let s = seats[r] as usize;
        assert_eq!(score[r], scores[s], "row {r}");
        assert_eq!(rank[r], order.iter().position(|&x| x == s).unwrap() as i64 + 1, "row {r}");
        let k = deltas_by_start.iter().rev().find(|(i, _)| (*i as i64) < events[r]).unwrap();
        assert_eq!(delta[r], k.1[s], "row {r}");
    }
}

/// Regression: a triple ron aborted under Tenhou's rules logs a `ryukyoku` and no `hora`;
/// the engine's replay (and so `verify` and this table) refused such a log until the
/// replay answered `hora` for every seat that may win on the discard. Found by exporting
/// 10,000 self-play hanchans: game 974 of series 31.
#[test]
fn a_triple_ron_under_tenhou_rules_replays_and_gives_rows() {
    let bots = ["builtin:rulebase", "builtin:random", "builtin:rulebase", "builtin:rulebase"];
    let mut requests = Requests::default();
    let log = play(bots, 31, 974, &mut requests);
    let aborted = log.iter().position(|e| e.to_json().contains(r#""reason":"triple_ron""#)).expect("a triple ron");
    let dir = tempfile::tempdir().unwrap();
    write_log(dir.path(), &log);
    let out = dir.path().join("d.parquet");
    let err = dataset(&[dir.path()], "decisions", &out, &[]);
    assert!(err.contains("(0 skipped)"), "{err}");
    let t = Table::read(&out);
    assert_eq!(t.rows(), requests.0.len());
    let at = t.int("event").iter().position(|&e| e == aborted as i64 - 1).expect("the ron chances are rows");
    let actions = t.str("action");
    assert_eq!((at..at + 3).filter(|&r| actions[r].contains(r#""type":"hora""#)).count(), 3);
}
