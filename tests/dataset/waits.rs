//! Every riichi row's waits agree with the Python `mahjong` package's agari check
//! (`scripts/crosscheck_waits.py`), over 1,000 self-play hanchans and the Mortal arena
//! logs of tests/data; the riichi columns hold the declaration as logged.

use std::io::Write;
use std::path::Path;
use std::process::Command;

use mjai_sim::engine::event::Event;

use super::reference_support::{libriichi_callers_40, mortal_arena_100};
use super::support::{dataset, write_games, write_log, Table};

/// Writes each riichi row of `t` as a JSON line for the script (the declarer's concealed
/// tiles after the riichi discard, its calls' tiles, the waits) and runs it; returns the
/// hands checked.
fn crosscheck(t: &Table, dir: &Path) -> usize {
    let (ids, seats, tehai, melds, waits) =
        (t.str("game"), t.int("seat"), t.strs("label_tehai"), t.strs2("melds"), t.strs("label_waits"));
    let events = t.int("event");
    let path = dir.join("hands.jsonl");
    let mut f = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    for r in 0..t.rows() {
        let calls: Vec<Vec<String>> = melds[r][seats[r] as usize].iter().map(|m| call_tiles(m)).collect();
        let line = serde_json::json!({
            "id": format!("{}@{}", ids[r], events[r]), "tehai": tehai[r], "melds": calls, "waits": waits[r],
        });
        writeln!(f, "{line}").unwrap();
    }
    f.flush().unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/crosscheck_waits.py");
    let o = Command::new("python3").arg(script).arg(&path).output().expect("python3 runs (install python3)");
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "waits disagree with mahjong (exit {:?}):\n{out}{err}", o.status.code());
    assert!(out.contains(&format!("{} hands", t.rows())), "{out}");
    t.rows()
}

/// The tiles of a call given as its mjai event (JSON): `consumed` plus `pai`.
fn call_tiles(json: &str) -> Vec<String> {
    let e: Event = serde_json::from_str(json).expect("a call event");
    let tiles = match e {
        Event::Chi { pai, consumed, .. } | Event::Pon { pai, consumed, .. } => vec![consumed[0], consumed[1], pai],
        Event::Daiminkan { pai, consumed, .. } | Event::Kakan { pai, consumed, .. } => {
            consumed.iter().copied().chain([pai]).collect()
        }
        Event::Ankan { consumed, .. } => consumed.to_vec(),
        e => panic!("not a call: {}", e.to_json()),
    };
    tiles.iter().map(|t| t.to_string()).collect()
}

#[test]
fn waits_agree_with_mahjong_over_1000_self_play_hanchans() {
    let dir = tempfile::tempdir().unwrap();
    let bots = ["builtin:rulebase", "builtin:random", "builtin:rulebase", "builtin:rulebase"];
    write_games(&dir.path().join("games"), bots, 3131, 1000);
    let out = dir.path().join("r.parquet");
    let err = dataset(&[&dir.path().join("games")], "riichi", &out, &[]);
    assert!(err.contains("from 1000 logs") && err.contains("(0 skipped)"), "{err}");
    let t = Table::read(&out);
    let hands = crosscheck(&t, dir.path());
    assert!(hands > 1000, "{hands} riichi declarations");
    let waits = t.strs("label_waits");
    assert!(waits.iter().filter(|w| w.len() >= 3).count() > 10, "multi-sided waits are among them");
}

#[test]
fn waits_agree_with_mahjong_over_the_mortal_arena_logs() {
    let dir = tempfile::tempdir().unwrap();
    for (name, log) in mortal_arena_100().into_iter().chain(libriichi_callers_40()) {
        write_log(&dir.path().join(name.replace('/', "_")), &log);
    }
    let out = dir.path().join("r.parquet");
    let err = dataset(&[dir.path()], "riichi", &out, &[]);
    assert!(err.contains("from 140 logs") && err.contains("(0 skipped)"), "{err}");
    let t = Table::read(&out);
    assert!(crosscheck(&t, dir.path()) > 100);
}

#[test]
fn a_riichi_row_is_the_declaration_as_logged() {
    let dir = tempfile::tempdir().unwrap();
    let bots = ["builtin:rulebase"; 4];
    let paths = write_games(dir.path(), bots, 11, 3);
    let out = dir.path().join("r.parquet");
    dataset(&[dir.path()], "riichi", &out, &[]);
    let t = Table::read(&out);
    let (games, seats, events) = (t.str("game"), t.int("seat"), t.int("event"));
    let (tile, turn, declarer) = (t.str("riichi_tile"), t.int("turn"), t.strs("declarer_discards"));
    let mut count = 0;
    for p in &paths {
        let log = mjai_sim::engine::event::parse_log(&std::fs::read_to_string(p).unwrap()).unwrap();
        // Independently of the dataset: each reach, its seat, the next dahai and the count
        // of the seat's discards in the kyoku so far.
        let mut river = [0i64; 4];
        let mut declared = Vec::new();
        for (i, e) in log.iter().enumerate() {
            match e {
                Event::StartKyoku { .. } => river = [0; 4],
                Event::Dahai { actor, .. } => river[*actor as usize] += 1,
                Event::Reach { actor } => {
                    let Event::Dahai { pai, .. } = &log[i + 1] else { panic!("reach without dahai") };
                    declared.push((i as i64, i64::from(*actor), pai.to_string(), river[*actor as usize] + 1));
                }
                _ => {}
            }
        }
        let name = p.display().to_string();
        let rows: Vec<_> = (0..t.rows())
            .filter(|&r| games[r] == name)
            .map(|r| (events[r], seats[r], tile[r].clone(), turn[r]))
            .collect();
        assert_eq!(rows, declared, "{name}");
        count += rows.len();
    }
    for r in 0..t.rows() {
        assert_eq!(declarer[r].len() as i64, turn[r]);
        assert_eq!(declarer[r].last(), Some(&tile[r]));
    }
    assert!(count > 0, "rulebase bots declare riichi");
}

#[test]
fn a_kind_the_hand_holds_four_of_is_not_a_wait() {
    use mjai_sim::engine::hand::{Meld, MeldKind};
    use mjai_sim::engine::log::SeatState;
    use mjai_sim::engine::tile::parse_compact;
    use mjai_sim::export::dataset::waits_of;
    let seat = |tehai: &str, ankan: Option<&str>| SeatState {
        tehai: parse_compact(tehai).unwrap(),
        melds: ankan.map(|a| Meld { kind: MeldKind::Ankan, tiles: parse_compact(a).unwrap() }).into_iter().collect(),
        ..SeatState::default()
    };
    let names = |s: &SeatState| waits_of(s).iter().map(|t| t.to_string()).collect::<Vec<_>>();
    // Tanki on the fifth 1m: karaten, no wait.
    assert_eq!(names(&seat("1111m234567p789s", None)), Vec::<String>::new());
    // 23m waits on 1m and 4m; the ankan holds all four 1m.
    assert_eq!(names(&seat("23m234567p11s", Some("1111m"))), ["4m"]);
    assert_eq!(names(&seat("23m234567p11s", Some("9999s"))), ["1m", "4m"]);
    // Chiitoitsu tanki, a red five counted as a plain five.
    assert_eq!(names(&seat("113355m05p7799s1z", None)), ["E"]);
    // A red five in a ryanmen: 4p and 7p.
    assert_eq!(names(&seat("123m06p789p789s11z", None)), ["4p", "7p"]);
}
