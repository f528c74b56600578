//! No row shows a seat what it could not see: every "could see" column of a decision row
//! equals what the seat's own masked events (the ones a bot is sent, `Event::masked_for`)
//! show up to the request; the hidden labels are the full log's.

use mjai_sim::bots::selfplay::IgnoreAnswers;
use mjai_sim::engine::log::Table as LogTable;
use mjai_sim::export::dataset::View;

use super::support::{dataset, play, write_log, Table};

#[test]
fn each_rows_view_is_what_the_seat_was_sent() {
    let dir = tempfile::tempdir().unwrap();
    let bots = ["builtin:random", "builtin:rulebase", "builtin:random", "builtin:rulebase"];
    let logs: Vec<_> = (0..2).map(|i| play(bots, 5, i, &mut IgnoreAnswers)).collect();
    for (i, log) in logs.iter().enumerate() {
        write_log(&dir.path().join(format!("g{i}")), log);
    }
    let out = dir.path().join("d.parquet");
    dataset(&[dir.path()], "decisions", &out, &[]);
    let t = Table::read(&out);
    let (games, seats, events) = (t.str("game"), t.int("seat"), t.int("event"));
    let (tehai, tsumo, scores, dora) = (t.strs("tehai"), t.opt_str("tsumo"), t.ints("scores"), t.strs("dora_markers"));
    let (discards, tsumogiri, called) =
        (t.strs2("discards"), t.bools2("discards_tsumogiri"), t.bools2("discards_called"));
    let (melds, reach, kyotaku, left) = (t.strs2("melds"), t.bools("reach"), t.int("kyotaku"), t.int("tiles_left"));
    let hidden = t.strs2("label_tehais");
    let mut leaks_possible = 0;
    for r in 0..t.rows() {
        let log = &logs[usize::from(games[r].contains("/g1/"))];
        let seat = seats[r] as u8;
        // The seat's table, built only from the events it was sent.
        let mut masked = LogTable::default();
        for e in &log[..=events[r] as usize] {
            let _ = masked.apply(&e.masked_for(seat));
        }
        let v = View::of(&masked, seat);
        let names = |ts: &[mjai_sim::engine::tile::Tile]| ts.iter().map(|t| t.to_string()).collect::<Vec<_>>();
        assert_eq!(tehai[r], names(&v.tehai), "row {r}: tehai");
        assert!(!tehai[r].iter().any(|t| t == "?"), "row {r}: the seat sees its own tiles");
        for s in 0..4 {
            assert_eq!(discards[r][s], names(&v.discards[s].iter().map(|d| d.pai).collect::<Vec<_>>()), "row {r}");
            assert_eq!(tsumogiri[r][s], v.discards[s].iter().map(|d| d.tsumogiri).collect::<Vec<_>>(), "row {r}");
            assert_eq!(called[r][s], v.discards[s].iter().map(|d| d.called).collect::<Vec<_>>(), "row {r}");
            assert_eq!(melds[r][s], v.melds[s], "row {r}");
            assert_eq!(reach[r][s], v.reach[s], "row {r}");
            assert_eq!(scores[r][s], i64::from(v.scores[s]), "row {r}");
        }
        assert_eq!(dora[r], names(&v.dora_markers), "row {r}");
        assert_eq!((kyotaku[r], left[r]), (i64::from(v.kyotaku), v.tiles_left as i64), "row {r}");
        let drawn = masked.seats[usize::from(seat)].drawn.filter(
            |_| matches!(log[events[r] as usize], mjai_sim::engine::event::Event::Tsumo { actor, .. } if actor == seat),
        );
        assert_eq!(tsumo[r], drawn.map(|t| t.to_string()), "row {r}: tsumo");
        // The labels hold what the masked view hides: other seats' real tiles.
        let others_hidden = (0..4)
            .filter(|&s| s != usize::from(seat))
            .all(|s| masked.seats[s].tehai.iter().all(|t| t.is_unknown()) && !hidden[r][s].iter().any(|t| t == "?"));
        assert!(others_hidden, "row {r}: other seats' hands are hidden in the view, known in the labels");
        leaks_possible += 1;
    }
    assert!(leaks_possible > 100, "{leaks_possible} rows checked");
}
