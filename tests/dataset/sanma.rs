//! Three-player logs: the riichi table's rows name seats 0..2 and list three seats in every
//! seat-indexed column, with each seat's kita among its calls; the decisions table skips a
//! three-player log given four-player rules with one line naming the mismatch, and replays
//! it under a three-player preset (kita among the legal actions and the answers).

use mjai_sim::engine::event::Event;

use super::support::{dataset, mjai_sim, Table};
use crate::sanma_support;

#[test]
fn riichi_rows_of_a_three_player_log_list_three_seats_and_their_kita() {
    let dir = tempfile::tempdir().unwrap();
    let logs: Vec<Vec<Event>> = (0..6).map(sanma_support::game).collect();
    for (i, log) in logs.iter().enumerate() {
        let game = dir.path().join(format!("g{i}"));
        std::fs::create_dir_all(&game).unwrap();
        std::fs::write(game.join("mjai_log.json"), sanma_support::text(log)).unwrap();
    }
    let out = dir.path().join("r.parquet");
    dataset(&[dir.path()], "riichi", &out, &[]);
    let t = Table::read(&out);
    assert!(t.rows() >= 5, "only {} riichi rows", t.rows());
    let (games, seats, events) = (t.str("game"), t.int("seat"), t.int("event"));
    let (scores, kyotaku, left) = (t.ints("scores"), t.int("kyotaku"), t.int("tiles_left"));
    let (discards, melds, reach) = (t.strs2("discards"), t.strs2("melds"), t.bools("reach"));
    let mut kita_rows = 0;
    for r in 0..t.rows() {
        assert!((0..3).contains(&seats[r]), "row {r}: seat {}", seats[r]);
        assert_eq!((scores[r].len(), discards[r].len(), melds[r].len(), reach[r].len()), (3, 3, 3, 3), "row {r}");
        assert!(reach[r][seats[r] as usize], "row {r}: the declarer");
        assert_eq!(scores[r].iter().sum::<i64>() + 1000 * kyotaku[r], 105000, "row {r}: points are kept");
        assert!(left[r] < 55, "row {r}: a three-player live wall");
        // Each seat's kita so far in the hand, as kita events among its calls.
        // the log's path is DIR/gI/mjai_log.json: its game by its folder's own name (the
        // temporary DIR's random name may hold "g1" too)
        let path = std::path::Path::new(&games[r]);
        let folder = path.parent().and_then(|p| p.file_name()).and_then(|n| n.to_str()).unwrap_or_default();
        let log = &logs[(0..logs.len()).find(|i| folder == format!("g{i}")).unwrap()];
        let at = events[r] as usize;
        let hand = log[..at].iter().rposition(|e| matches!(e, Event::StartKyoku { .. })).unwrap();
        for s in 0..3u8 {
            let made: Vec<String> = log[hand..at]
                .iter()
                .filter(|e| matches!(e, Event::Kita { actor, .. } if *actor == s))
                .map(Event::to_json)
                .collect();
            let listed: Vec<&String> = melds[r][usize::from(s)].iter().filter(|m| m.contains("\"kita\"")).collect();
            assert_eq!(listed, made.iter().collect::<Vec<_>>(), "row {r}, seat {s}");
            kita_rows += usize::from(!made.is_empty());
        }
    }
    assert!(kita_rows > 0, "some row shows a kita");
}

#[test]
fn decisions_of_a_three_player_log_under_four_player_rules_are_skipped_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("mjai_log.json");
    std::fs::write(&log, sanma_support::text(&sanma_support::game(1))).unwrap();
    let out = dir.path().join("d.parquet");
    let mut args: Vec<std::ffi::OsString> = vec!["dataset".into(), log.clone().into()];
    args.extend(["--kind", "decisions", "-o"].map(Into::into));
    args.push(out.clone().into());
    let o = mjai_sim(&args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    let skipped: Vec<&str> = err.lines().filter(|l| l.contains("skipped")).collect();
    assert_eq!(skipped.len(), 1, "{err}");
    assert!(skipped[0].contains("event 1 (line 2): a 3-player log replayed under the 4-player rules tenhou"), "{err}");
    assert!(!out.exists(), "no table written");
}

#[test]
fn decisions_of_three_player_logs_under_a_three_player_preset_offer_and_take_kita() {
    let dir = tempfile::tempdir().unwrap();
    for seed in 0..4 {
        let game = dir.path().join(format!("g{seed}"));
        std::fs::create_dir_all(&game).unwrap();
        std::fs::write(game.join("mjai_log.json"), sanma_support::text(&sanma_support::game(seed))).unwrap();
    }
    let out = dir.path().join("d.parquet");
    dataset(&[dir.path()], "decisions", &out, &["--rules", "riichi-dev-3p"]);
    let t = Table::read(&out);
    assert!(t.rows() > 100, "only {} decision rows", t.rows());
    let (seats, legal, action, rank) =
        (t.int("seat"), t.strs("legal_actions"), t.str("action"), t.int("label_final_rank"));
    let mut kitas = 0;
    for r in 0..t.rows() {
        assert!((0..3).contains(&seats[r]), "row {r}: seat {}", seats[r]);
        assert!((1..=3).contains(&rank[r]), "row {r}: rank {}", rank[r]);
        assert!(legal[r].contains(&action[r]), "row {r}: {} not in {:?}", action[r], legal[r]);
        assert!(!action[r].contains("\"chi\""), "row {r}: no chi at three seats");
        kitas += usize::from(action[r].contains("\"kita\""));
    }
    assert!(kitas > 0, "some decision is a kita");
}
