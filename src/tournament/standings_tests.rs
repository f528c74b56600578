//! Hand-built records for [`super::standings`]: every figure checked against arithmetic
//! done by hand.

use super::fixtures::{names, opts, rec, set_of_four};
use super::record::{GameRecord, SeatStats};
use super::standings::{compute, Standings};

#[test]
fn averages_distribution_and_scores() {
    let records: Vec<GameRecord> = (0..3).flat_map(set_of_four).collect();
    let st = compute(&names(4), &records, &opts());
    assert_eq!((st.games, st.sets, st.skipped_records), (12, 3, 0));
    let b = &st.bots;
    assert_eq!(b.iter().map(|x| x.games).collect::<Vec<_>>(), [12; 4]);
    assert_eq!(b[0].avg_rank, Some(1.0));
    assert_eq!(b[1].avg_rank, Some(2.5));
    assert_eq!(b[3].avg_rank, Some(4.0));
    assert_eq!(b[0].avg_pt, Some(90.0));
    assert_eq!(b[1].avg_pt, Some(22.5));
    assert_eq!(b[3].avg_pt, Some(-135.0));
    assert_eq!(b[1].rank_counts, [0, 6, 6, 0]);
    assert_eq!(b[1].rank_dist, [0.0, 0.5, 0.5, 0.0]);
    assert_eq!(b[2].mean_score, Some(25000.0));
    // Every set gives bot 0 the same result: its interval is a point.
    assert_eq!(b[0].avg_rank_ci, Some([1.0, 1.0]));
    assert_eq!(b[0].avg_pt_ci, Some([90.0, 90.0]));
    // Bot 0 beats everyone: highest ratings, bot 3 lowest.
    assert!(b[0].elo > b[1].elo && b[1].elo > b[3].elo && b[2].elo > b[3].elo);
    assert!(b[0].weng_lin.mu > b[1].weng_lin.mu && b[2].weng_lin.mu > b[3].weng_lin.mu);
    let leader = st.leader().unwrap();
    assert_eq!((leader.name.as_str(), leader.avg_rank), ("bot0", 1.0));
}

#[test]
fn one_set_gives_no_interval() {
    let st = compute(&names(5), &set_of_four(0), &opts());
    assert_eq!(st.bots[0].games, 4);
    assert_eq!(st.bots[0].avg_rank_ci, None);
    assert_eq!(st.bots[0].avg_pt_ci, None);
    assert_eq!(st.bots[4].games, 0);
    assert_eq!(st.bots[4].avg_rank, None);
    assert!(st.pairs.iter().all(|p| p.rank_diff_ci.is_none()));
    let json = serde_json::to_value(&st).unwrap();
    assert!(json["bots"][0]["avg_rank_ci"].is_null());
    assert!(json["bots"][4]["avg_rank"].is_null());
}

#[test]
fn head_to_head_pairs() {
    let records: Vec<GameRecord> = (0..2).flat_map(set_of_four).collect();
    let st = compute(&names(4), &records, &opts());
    assert_eq!(st.pairs.len(), 6);
    let p01 = st.pairs.iter().find(|p| p.a == "bot0" && p.b == "bot1").unwrap();
    assert_eq!((p01.games, p01.sets, p01.a_above), (8, 2, 8));
    assert_eq!(p01.rank_diff, Some(-1.5));
    let p12 = st.pairs.iter().find(|p| p.a == "bot1" && p.b == "bot2").unwrap();
    assert_eq!((p12.rank_diff, p12.a_above), (Some(0.0), 4));
    let p23 = st.pairs.iter().find(|p| p.a == "bot2" && p.b == "bot3").unwrap();
    assert_eq!(p23.rank_diff, Some(-1.5));
    assert_eq!(p23.rank_diff_ci, Some([-1.5, -1.5]));
}

#[test]
fn one_versus_three_copies() {
    // Bot 1 (challenger) in one seat, three copies of bot 0: challenger 2nd, then 1st.
    let records = vec![rec(0, 0, [1, 0, 0, 0], [2, 1, 3, 4]), rec(1, 0, [0, 1, 0, 0], [2, 1, 3, 4])];
    let st = compute(&names(2), &records, &opts());
    assert_eq!(st.bots[0].games, 6);
    assert_eq!(st.bots[1].games, 2);
    assert_eq!(st.bots[1].avg_rank, Some(1.5));
    let p = &st.pairs[0];
    assert_eq!((p.a.as_str(), p.b.as_str(), p.games), ("bot0", "bot1", 2));
    // Champion's mean rank minus the challenger's: game 1 (1+3+4)/3 − 2 = 2/3; game 2
    // (2+3+4)/3 − 1 = 2.
    assert!((p.rank_diff.unwrap() - 4.0 / 3.0).abs() < 1e-12);
    assert_eq!(p.a_above, 0);
}

#[test]
fn record_order_does_not_matter_but_schedule_order_does() {
    let records: Vec<GameRecord> = (0..4).flat_map(set_of_four).collect();
    let forward = compute(&names(4), &records, &opts());
    let mut reversed = records.clone();
    reversed.reverse();
    assert_eq!(compute(&names(4), &reversed, &opts()), forward);
    // Swapping the schedule positions of two games changes the order ratings see them in.
    let mut swapped = records.clone();
    swapped[0].index = 1;
    swapped[1].index = 0;
    let b = compute(&names(4), &swapped, &opts());
    assert_ne!(forward.bots[1].elo, b.bots[1].elo, "ratings follow GameRecord::index");
    assert_ne!(forward.bots[1].weng_lin, b.bots[1].weng_lin);
    assert_eq!(forward.bots[1].avg_rank, b.bots[1].avg_rank);
}

#[test]
fn malformed_records_are_skipped() {
    let mut records = set_of_four(0);
    records.push(rec(10, 1, [0, 1, 2, 9], [1, 2, 3, 4]));
    records.push(rec(11, 1, [0, 1, 2, 3], [0, 2, 3, 4]));
    let st = compute(&names(4), &records, &opts());
    assert_eq!((st.games, st.skipped_records), (4, 2));
    let empty = compute(&names(2), &[], &opts());
    assert_eq!(empty.leader(), None);
    assert_eq!(empty.bots[0].avg_rank, None);
    assert!(compute(&[], &records, &opts()).bots.is_empty());
}

#[test]
fn rates_from_seat_stats() {
    let mut r = rec(0, 0, [0, 1, 2, 3], [1, 2, 3, 4]);
    r.stats[0] = SeatStats {
        kyokus: 10,
        horas: 4,
        tsumos: 1,
        hora_points: 20000,
        deal_ins: 1,
        deal_in_points: 3900,
        reaches: 3,
        calls: 2,
        draws: 2,
        tenpai_draws: 1,
        chombos: 1,
        times: Default::default(),
    };
    let st = compute(&names(4), &[r], &opts());
    let b = &st.bots[0];
    assert_eq!(b.kyokus, 10);
    assert_eq!(b.win_rate, Some(0.4));
    assert_eq!(b.deal_in_rate, Some(0.1));
    assert_eq!(b.riichi_rate, Some(0.3));
    assert_eq!(b.call_rate, Some(0.2));
    assert_eq!(b.tsumo_rate, Some(0.25));
    assert_eq!(b.tenpai_at_draw_rate, Some(0.5));
    assert_eq!(b.avg_win_points, Some(5000.0));
    assert_eq!(b.avg_deal_in_points, Some(3900.0));
    assert_eq!(b.chombos, 1);
    assert_eq!(st.bots[1].win_rate, None, "no hands recorded");
}

#[test]
fn json_schema() {
    let records: Vec<GameRecord> = (0..2).flat_map(set_of_four).collect();
    let st = compute(&names(4), &records, &opts());
    let json = serde_json::to_value(&st).unwrap();
    for key in ["name", "games", "avg_rank", "avg_rank_ci", "avg_pt", "avg_pt_ci", "rank_dist", "weng_lin", "elo"] {
        assert!(json["bots"][0].get(key).is_some(), "missing {key}");
    }
    assert!(json["bots"][0]["weng_lin"]["mu"].is_f64() && json["bots"][0]["weng_lin"]["sigma"].is_f64());
    assert_eq!(json["pairs"].as_array().unwrap().len(), 6);
    let back: Standings = serde_json::from_value(json).unwrap();
    assert_eq!(back, st);
}

#[test]
fn retired_bots_are_kept_and_marked() {
    let records: Vec<GameRecord> = (0..2).flat_map(set_of_four).collect();
    let mut st = compute(&names(5), &records, &opts());
    assert!(st.bots.iter().all(|b| !b.retired));
    st.mark_retired(&[3, 99]);
    let json = serde_json::to_value(&st).unwrap();
    let retired: Vec<bool> = json["bots"].as_array().unwrap().iter().map(|b| b["retired"].as_bool().unwrap()).collect();
    assert_eq!(retired, [false, false, false, true, false]);
    assert_eq!(st.bots[3].games, 8, "a retired bot's games still count");
    assert_eq!(st.bots[3].label(), "bot3 (retired)");
    // standings.json written before leagues existed reads back with retired = false
    let mut old = json.clone();
    old["bots"][3].as_object_mut().unwrap().remove("retired");
    let back: Standings = serde_json::from_value(old).unwrap();
    assert!(!back.bots[3].retired);
}
