//! Bad input: a damaged or cut log is skipped with one line naming the file and the event,
//! the others are exported; no readable log at all is an error and writes no file.

use std::io::Write;

use mjai_sim::bots::selfplay::IgnoreAnswers;

use super::support::{dataset, mjai_sim, play, write_log, Table};

#[test]
fn damaged_logs_are_skipped_by_name_and_event_and_the_others_exported() {
    let dir = tempfile::tempdir().unwrap();
    let log = play(["builtin:rulebase"; 4], 1, 0, &mut IgnoreAnswers);
    let text: String = log.iter().map(|e| e.to_json() + "\n").collect();
    // A good log, gzipped.
    let good = dir.path().join("a/mjai_log.json.gz");
    std::fs::create_dir_all(good.parent().unwrap()).unwrap();
    let mut gz = flate2::write::GzEncoder::new(std::fs::File::create(&good).unwrap(), flate2::Compression::fast());
    gz.write_all(text.as_bytes()).unwrap();
    gz.finish().unwrap();
    // Cut inside the second kyoku.
    let second = log
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e, mjai_sim::engine::event::Event::StartKyoku { .. }))
        .nth(1)
        .unwrap()
        .0;
    let cut = write_log(&dir.path().join("b"), &log[..second + 5]);
    // Line 4 is not an event.
    let mut lines: Vec<&str> = text.lines().collect();
    lines[3] = "{\"type\":\"dahai\",";
    let broken = dir.path().join("c/mjai_log.json");
    std::fs::create_dir_all(broken.parent().unwrap()).unwrap();
    std::fs::write(&broken, lines.join("\n")).unwrap();
    for kind in ["decisions", "riichi"] {
        let out = dir.path().join(format!("{kind}.parquet"));
        let err = dataset(&[dir.path()], kind, &out, &[]);
        let skipped: Vec<&str> = err.lines().filter(|l| l.contains("skipped")).collect();
        assert_eq!(skipped.len(), 3, "{err}");
        assert!(skipped[0].contains(&format!("skipped {}: event {}", cut.display(), second + 4)), "{err}");
        assert!(skipped[1].contains(&format!("skipped {}: event 3 (line 4)", broken.display())), "{err}");
        assert!(skipped[2].contains("from 1 logs") && skipped[2].contains("(2 skipped)"), "{err}");
        let t = Table::read(&out);
        assert!(t.str("game").iter().all(|g| g == &good.display().to_string()));
        // The gzipped log gives the rows the plain one gives.
        let plain = write_log(&dir.path().join(format!("plain-{kind}")), &log);
        let out2 = dir.path().join(format!("{kind}-plain.parquet"));
        dataset(&[&plain], kind, &out2, &[]);
        assert_eq!(Table::read(&out2).rows(), t.rows(), "{kind}");
        std::fs::remove_dir_all(plain.parent().unwrap()).unwrap();
    }
}

/// `mjai-sim dataset DIR --kind KIND -o OUT`, which must fail with exit 1; its stderr.
fn dataset_fails(dir: &std::path::Path, kind: &str, out: &std::path::Path) -> String {
    let args = ["dataset".as_ref(), dir.as_os_str(), "--kind".as_ref(), kind.as_ref(), "-o".as_ref(), out.as_os_str()];
    let o = mjai_sim(&args);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(1), "{err}");
    err
}

#[test]
fn no_readable_log_is_an_error_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.parquet");
    let err = dataset_fails(dir.path(), "riichi", &out);
    assert!(err.contains("no mjai log found"), "{err}");
    assert!(!out.exists());
    let bad = dir.path().join("g/mjai_log.json");
    std::fs::create_dir_all(bad.parent().unwrap()).unwrap();
    std::fs::write(&bad, "not json\n").unwrap();
    let err = dataset_fails(dir.path(), "decisions", &out);
    assert!(err.contains(&format!("skipped {}: event 0 (line 1)", bad.display())), "{err}");
    assert!(err.contains("none of the 1 logs could be read"), "{err}");
    assert!(!out.exists() && !dir.path().join("x.parquet.tmp").exists());
}

#[test]
fn a_log_of_other_rules_is_skipped_for_decisions_and_read_with_its_preset() {
    // A Mortal arena game that uses an mjai.app freedom (kuikae or a noten riichi discard)
    // does not replay under Tenhou rules: skipped naming the event; read with --rules mjai-app.
    let dir = tempfile::tempdir().unwrap();
    let games = super::reference_support::libriichi_callers_40();
    let (_, log) = games
        .iter()
        .find(|(_, log)| {
            mjai_sim::engine::game::replay::replay_with(log, mjai_sim::engine::game::Rules::tenhou()).is_err()
        })
        .expect("a game that needs mjai.app's rules");
    let path = write_log(&dir.path().join("m"), log);
    let ok = write_log(&dir.path().join("t"), &play(["builtin:random"; 4], 2, 0, &mut IgnoreAnswers));
    let out = dir.path().join("d.parquet");
    let err = dataset(&[&path, &ok], "decisions", &out, &[]);
    assert!(err.contains(&format!("skipped {}: event", path.display())) && err.contains("does not reproduce"), "{err}");
    let err = dataset(&[&path], "decisions", &out, &["--rules", "mjai-app"]);
    assert!(err.contains("(0 skipped)"), "{err}");
    assert!(Table::read(&out).rows() > 100);
}
